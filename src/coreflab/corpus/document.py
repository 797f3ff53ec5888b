"""The in-memory document: tokens, optional CoNLL-2012 columns, and clusters as spans.

Columns a corpus lacks are `None` (never a list of `_`), so feature templates can tell
what a corpus supports. Spans are inclusive token indices into the whole document
(`words`), so (3, 3) is the one-token mention at token 3.
"""

from dataclasses import dataclass, field

# CoNLL-2012 columns between the word and the coreference column, in file order.
# (The predicate-argument columns, variable in number, follow them.)
OPTIONAL_COLUMNS = ("pos", "parse", "lemma", "frameset", "sense", "speaker", "ne")


@dataclass
class Document:
    """One CoNLL-2012 document part.

    doc_id, part: the `#begin document (doc_id); part NNN` key (scoring matches on both).
    words: every token of the part, in order.
    sentence_ends: exclusive token end of each sentence (last one == len(words)).
    columns: name in OPTIONAL_COLUMNS -> one string per token, or None when absent.
    args: per token the tuple of predicate-argument column strings, or None.
    clusters: list of clusters, each a list of (start, end) inclusive spans in file order.
    cluster_labels: the label each cluster carried in the file (same order as clusters).
    """

    doc_id: str
    part: int
    words: list
    sentence_ends: list
    columns: dict = field(default_factory=dict)
    args: list | None = None
    clusters: list = field(default_factory=list)
    cluster_labels: list = field(default_factory=list)
    source: str = ""
    # '#' lines between sentences (`# sent_id = 2`), as (index of the next token, the line): written back
    # where they were, so a response keeps the key's lines and scorer.pl, which counts them, stays aligned
    comments: list = field(default_factory=list)

    @property
    def key(self):
        """(doc_id, part): what the scorer matches key and response documents on."""
        return (self.doc_id, self.part)

    @property
    def name(self):
        return f"{self.doc_id}; part {self.part:03d}"

    def column(self, name):
        """The per-token strings of an optional column, or None when the corpus lacks it."""
        return self.columns.get(name)

    @property
    def mentions(self):
        """All mention spans in cluster order (duplicates kept, as in the file)."""
        return [span for cluster in self.clusters for span in cluster]

    def sentence_starts(self):
        return [0] + list(self.sentence_ends[:-1])

    def with_clusters(self, clusters, labels=None):
        """A copy of this document carrying other clusters (a system response)."""
        return Document(
            doc_id=self.doc_id,
            part=self.part,
            words=self.words,
            sentence_ends=self.sentence_ends,
            columns=self.columns,
            args=self.args,
            clusters=[list(c) for c in clusters],
            cluster_labels=list(labels) if labels is not None else [str(i) for i in range(len(clusters))],
            source=self.source,
            comments=self.comments,
        )
