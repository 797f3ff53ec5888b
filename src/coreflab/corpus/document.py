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
        """A copy of this document carrying other clusters (a system response). Responses come from
        `learn.output.clusters_per_document`, which has cut them where CoNLL-2012 brackets cannot write
        them (`writable_clusters`), so the response scored in memory is the one its file holds."""
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


def _crosses(a, b):
    """Do spans a and b overlap without one containing the other?"""
    return a[0] < b[0] <= a[1] < b[1] or b[0] < a[0] <= b[1] < a[1]


def writable_clusters(clusters):
    """The clusters, each cut into as few parts as a greedy pass needs so that no part holds two crossing
    spans ((0, 2) and (1, 3)). Why: a CoNLL-2012 file marks a mention by an opening and a closing bracket
    with its cluster's id, and every reader (scorer.pl v8.01 and ours) pairs them last-opened-first, so two
    crossing mentions of one cluster come back as other spans ((1, 2) and (0, 3)). A key read from a file
    never holds such a pair in one cluster; a system can predict one. Cutting keeps every predicted mention
    exact; each span goes to the first part it crosses nothing in. Clusters without a crossing pair come
    back as they were."""
    out = []
    for cluster in clusters:
        cluster = list(cluster)
        if len(cluster) < 2 or not _has_crossing(cluster):
            out.append(cluster)
            continue
        parts = []
        for span in cluster:
            home = next((p for p in parts if not any(_crosses(span, other) for other in p)), None)
            if home is None:
                parts.append([span])
            else:
                home.append(span)
        out.extend(parts)
    return out


def crossing_clusters(clusters):
    """How many of the clusters hold two crossing spans (what `writable_clusters` cuts)."""
    return sum(1 for c in clusters if len(c) > 1 and _has_crossing(c))


def _has_crossing(cluster):
    """Laminar check: sorted by (start, -end), nested and disjoint spans keep a stack of open ends."""
    stack = []
    for start, end in sorted(cluster, key=lambda s: (s[0], -s[1])):
        while stack and stack[-1] < start:
            stack.pop()
        if stack and end > stack[-1]:
            return True
        stack.append(end)
    return False
