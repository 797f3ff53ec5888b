"""Token-by-token builder of a synthetic document: words, POS, parse bits, NE, speakers, mentions.

The generator never builds tree objects: it opens and closes constituents while it emits
tokens, and the builder turns that into CoNLL-2012 parse bits directly (an open adds
`(LABEL` to the next token's bit, a close adds `)` to the last token's bit). So every
sentence is a well-formed tree `(TOP(S...))` by construction, and a mention is exactly
the span of the constituent it was opened with. This keeps `conll2012` size generation
(about 1.3M tokens) to seconds.

Clusters follow CoNLL-2012: entities mentioned once are not annotated (no singletons).
Cluster and span order is the order in which `coreflab.corpus.readers.conll.parse_conll` reads
them back, so write -> read gives an equal `Document`.
"""

from coreflab.corpus.document import Document


class DocBuilder:
    """Accumulates the tokens and annotation of one document."""

    def __init__(self):
        self.words, self.pos, self.lemma, self.parse, self.speaker = [], [], [], [], []
        self.sentence_ends = []
        self.pending = ""
        self.stack = []  # (start token, entity id or None, NE label or None)
        self.mentions = []  # (entity id, start, end) inclusive
        self.ne_spans = []  # (start, end, label)
        self.speaker_now = "-"
        self.capitalise = False  # the next word starts a sentence (or a quotation)

    # -- constituents and tokens ------------------------------------------------------
    def open(self, label, entity=None, ne=None):
        self.pending += "(" + label
        self.stack.append((len(self.words), entity, ne))

    def close(self):
        start, entity, ne = self.stack.pop()
        end = len(self.words) - 1
        self.parse[end] += ")"
        if entity is not None:
            self.mentions.append((entity, start, end))
        if ne is not None:
            self.ne_spans.append((start, end, ne))

    def tok(self, word, pos, lemma="-"):
        if self.capitalise and pos != "``":
            word = word[:1].upper() + word[1:]
            self.capitalise = False
        self.words.append(word)
        self.pos.append(pos)
        self.lemma.append(lemma)
        self.parse.append(self.pending + "*")
        self.speaker.append(self.speaker_now)
        self.pending = ""

    def leaf(self, label, word, pos, lemma="-"):
        """A one-word phrase, e.g. (VP (VBD left)) or (ADJP (JJ clear))."""
        self.open(label)
        self.tok(word, pos, lemma)
        self.close()

    def mark(self, entity, start, end):
        """A mention that is not a constituent of its own (a possessive pronoun)."""
        self.mentions.append((entity, start, end))

    def mark_ne(self, start, end, label):
        self.ne_spans.append((start, end, label))

    @property
    def n(self):
        return len(self.words)

    def begin_sentence(self):
        self.open("TOP")
        self.open("S")
        self.capitalise = True

    def end_sentence(self):
        self.tok(".", ".", "-")
        while self.stack:
            self.close()
        self.sentence_ends.append(len(self.words))

    # -- the document -----------------------------------------------------------------
    def finish(self, doc_id, part=0):
        """The Document: 14 CoNLL columns, clusters of entities mentioned at least twice."""
        if self.stack or self.pending:
            raise RuntimeError("unclosed constituent at the end of a synthetic document")
        n = len(self.words)
        ne = ["*"] * n
        for s, e, label in self.ne_spans:
            if s == e:
                ne[s] = f"({label})"
            else:
                ne[s] = f"({label}*"
                ne[e] = "*)"
        by_entity = {}
        for ent, s, e in self.mentions:
            by_entity.setdefault(ent, []).append((s, e))
        clusters = []
        for spans in by_entity.values():
            spans = sorted(set(spans))
            if len(spans) >= 2:
                # the reader appends a span when it closes: inner spans first, single tokens last
                spans.sort(key=lambda se: (se[1], se[0] == se[1], -se[0]))
                clusters.append(spans)
        # the reader meets a label at its first opening: by token, single tokens first, outer first
        clusters.sort(key=lambda c: min((s, s != e, -e) for s, e in c))
        columns = {
            "pos": self.pos,
            "parse": self.parse,
            "lemma": self.lemma,
            "frameset": ["-"] * n,
            "sense": ["-"] * n,
            "speaker": self.speaker,
            "ne": ne,
        }
        return Document(
            doc_id=doc_id,
            part=part,
            words=self.words,
            sentence_ends=self.sentence_ends,
            columns=columns,
            args=[("*",)] * n,
            clusters=clusters,
            cluster_labels=[str(i) for i in range(len(clusters))],
            source="synth",
        )
