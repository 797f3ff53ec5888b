"""Scoring whole corpora: documents or in-memory clusterings in, per-document counts out.

Totals are micro-averaged exactly like the official scorer v8.01: numerators and
denominators are summed over documents, then divided (`Scores.prf`). Per-document counts
are kept (`Scores.per_doc`) so significance tests can resample documents
(`coreflab.metrics.significance`).

Documents are matched on (doc_id, part); a key document missing from the response is
scored against an empty response, response documents absent from the key are ignored
(v8.01 iterates over the key's documents). A document with a span repeated on one side is
scored by the literal v8.01 transcription (`coreflab.metrics.reference`), all others by the
vectorised contingency-table path (`coreflab.metrics.counts`).
"""

import warnings
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import chain

import numpy as np

from coreflab.errors import UserError
from coreflab.metrics import reference
from coreflab.metrics.coref_file import (
    ByteOrderMarkWarning,
    LooseCellWarning,
    SkippedFilesWarning,
    group_ids,
    read_coref_path,
)
from coreflab.metrics.counts import ALL_METRICS, document_counts

MELA_METRICS = ("muc", "bcub", "ceafe")
METRIC_CHOICES = ("all", "muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "mela")


V801_REPEAT_LIMIT = 10  # CorScorer.pm v8.01 exits ("Found too many repeated mentions (> 10)") above this


class RepeatedMentionWarning(UserWarning):
    """A span occurs more than once on one side of a document (scored the v8.01 way)."""


@contextmanager
def reading_warnings():
    """Record every warning reading and scoring files gives, each time it is given (a list the command
    prints after its output, one line each)."""
    with warnings.catch_warnings(record=True) as caught:
        for category in (RepeatedMentionWarning, LooseCellWarning, ByteOrderMarkWarning, SkippedFilesWarning):
            warnings.simplefilter("always", category)
        yield caught


def read_key(path):
    """The key's documents; a key without any is a user error (every score would be 0/0)."""
    key = read_coref_path(path)
    if not key.docs:
        raise UserError(
            f"{path}: the key holds no documents; expected '#begin document (id); part N' ... '#end document'"
        )
    return key


def expand_metrics(metrics):
    """Metric names (or 'all' / 'mela') -> the tuple of count tables to compute."""
    if metrics is None or metrics == "all":
        return ALL_METRICS
    if isinstance(metrics, str):
        metrics = [metrics]
    wanted = {"mentions"}
    for m in metrics:
        if m == "all":
            return ALL_METRICS
        if m == "mela":
            wanted.update(MELA_METRICS)
        elif m in ALL_METRICS:
            wanted.add(m)
        else:
            raise ValueError(f"unknown metric {m!r}; expected one of {', '.join(METRIC_CHOICES)}")
    return tuple(m for m in ALL_METRICS if m in wanted)


def prf_from_sums(metric, sums):
    """(recall, precision, F1) as fractions from summed counts; vectorised over leading axes.

    BLANC follows v8.01's ScoreBLANC: R and P are the means of the coreference-link and
    non-coreference-link values, F the mean of their two F1s; when the key has no
    coreference links (or no non-coreference links) only the other kind counts; neither: 0.
    """
    s = np.asarray(sums, dtype=np.float64)
    if metric == "blanc":
        return _blanc_prf(s)
    r = _div(s[..., 0], s[..., 1], 0.0)
    p = _div(s[..., 2], s[..., 3], 0.0)
    return r, p, _f1(r, p)


def _div(a, b, default):
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(b != 0, a / np.where(b != 0, b, 1.0), default)


def _f1(r, p):
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(r + p != 0, 2 * p * r / np.where(r + p != 0, r + p, 1.0), 0.0)


def _blanc_prf(s):
    ra = _div(s[..., 0], s[..., 1], -1.0)
    rr = _div(s[..., 4], s[..., 5], -1.0)
    pa = _div(s[..., 2], s[..., 3], 0.0)
    pr = _div(s[..., 6], s[..., 7], 0.0)
    fa, fr = _f1(ra, pa), _f1(rr, pr)
    r, p, f = (ra + rr) / 2, (pa + pr) / 2, (fa + fr) / 2
    no_a, no_r = ra == -1, rr == -1
    r = np.where(no_a, rr, np.where(no_r, ra, r))
    p = np.where(no_a, pr, np.where(no_r, pa, p))
    f = np.where(no_a, fr, np.where(no_r, fa, f))
    none = no_a & no_r
    return np.where(none, 0.0, r), np.where(none, 0.0, p), np.where(none, 0.0, f)


@dataclass
class Scores:
    """Per-document numerators/denominators of every computed metric, and their totals.

    per_doc[metric]: array (n_docs, 4) = (recall_num, recall_den, precision_num,
    precision_den); BLANC (n_docs, 8) = coreference-link then non-coreference-link counts.
    """

    per_doc: dict
    doc_keys: list
    repeated_response: int = 0
    repeated_key: int = 0
    metrics: tuple = field(default=ALL_METRICS)

    def totals(self, metric):
        return self.per_doc[metric].sum(axis=0)

    def prf(self, metric):
        """Micro-averaged (recall, precision, F1) as fractions."""
        r, p, f = prf_from_sums(metric, self.totals(metric))
        return float(r), float(p), float(f)

    def f1(self, metric):
        return self.prf(metric)[2]

    @property
    def mela(self):
        """MELA / CoNLL score: mean F1 of MUC, B3 and CEAFe, in percent."""
        missing = [m for m in MELA_METRICS if m not in self.per_doc]
        if missing:
            raise ValueError(f"MELA needs {', '.join(missing)}: score with metrics='mela' or 'all'")
        return 100.0 * sum(self.f1(m) for m in MELA_METRICS) / 3.0

    def metric_dict(self, metric, rows=None):
        sums = self.per_doc[metric].sum(axis=0) if rows is None else self.per_doc[metric][rows]
        r, p, f = (float(x) for x in prf_from_sums(metric, sums))
        out = {"recall": 100 * r, "precision": 100 * p, "f1": 100 * f}
        if metric == "blanc":
            out.update(recall_num=r, recall_den=1, precision_num=p, precision_den=1)
            for name, part in (("coreference_links", sums[:4]), ("non_coreference_links", sums[4:])):
                out[name] = _counts_dict(part)
        else:
            out.update(_counts_dict(sums))
        return out

    def to_dict(self, per_doc=False):
        """The JSON object of `coreflab score --format json` (percentages unrounded)."""
        out = {m: self.metric_dict(m) for m in self.metrics}
        if all(m in self.per_doc for m in MELA_METRICS):
            out["mela"] = self.mela
        if per_doc:
            docs = []
            for i, key in enumerate(self.doc_keys):
                entry = {"doc_id": key[0], "part": key[1]}
                entry.update({m: self.metric_dict(m, rows=i) for m in self.metrics})
                if all(m in self.per_doc for m in MELA_METRICS):
                    entry["mela"] = 100 * sum(self.metric_dict(m, rows=i)["f1"] / 100 for m in MELA_METRICS) / 3
                docs.append(entry)
            out["documents"] = docs
        return out


def _counts_dict(s):
    r, p, f = (float(x) for x in prf_from_sums("muc", s))
    return {
        "recall": 100 * r,
        "precision": 100 * p,
        "f1": 100 * f,
        "recall_num": float(s[0]),
        "recall_den": float(s[1]),
        "precision_num": float(s[2]),
        "precision_den": float(s[3]),
    }


def score_documents(key_docs, response_docs, metrics="all"):
    """Score response `Document`s against key `Document`s, matched on (doc_id, part)."""
    by_key = {}
    for doc in response_docs:
        by_key[doc.key] = doc
    responses = [by_key[d.key].clusters if d.key in by_key else [] for d in key_docs]
    return score_clusterings([d.clusters for d in key_docs], responses, metrics, [d.key for d in key_docs])


def score_clusters(key_clusters, response_clusters, metrics="all"):
    """Score one document given as clusters (lists of (start, end) spans)."""
    return score_clusterings([key_clusters], [response_clusters], metrics)


def score_clusterings(key_clusterings, response_clusterings, metrics="all", doc_keys=None):
    """The fast path: per-document lists of clusters of spans, no files involved."""
    n_docs = len(key_clusterings)
    if len(response_clusterings) != n_docs:
        raise ValueError("key and response must hold the same number of documents")
    if doc_keys is None:
        doc_keys = [(str(i), 0) for i in range(n_docs)]
    k_doc, k_span, k_cl, k_cl_doc = _flatten(key_clusterings)
    r_doc, r_span, r_cl, r_cl_doc = _flatten(response_clusterings)
    return _score_flat(
        (k_doc, k_span[:, 0], k_span[:, 1], k_cl, k_cl_doc),
        (r_doc, r_span[:, 0], r_span[:, 1], r_cl, r_cl_doc),
        n_docs,
        doc_keys,
        expand_metrics(metrics),
        key_clusterings.__getitem__,
        response_clusterings.__getitem__,
    )


def score_files(key, response, metrics="all"):
    """Score a response `CorefFile` against a key `CorefFile` (`coreflab.metrics.coref_file`).

    The file path of `coreflab score`: mentions stay flat arrays from the reader to the
    contingency table. Documents are matched on (doc_id, part) as in `score_documents`.
    """
    n_docs = len(key.docs)
    index = {k: i for i, k in enumerate(key.docs)}
    to_key = np.array([index.get(k, -1) for k in response.docs] + [-1], dtype=np.int64)
    from_key = {index[k]: j for j, k in enumerate(response.docs) if k in index}
    k_cl, k_cl_doc = key.cluster_arrays()
    r_doc = to_key[response.m_doc]
    keep = r_doc >= 0
    r_doc = r_doc[keep]
    r_cl, r_cl_doc = group_ids(r_doc, response.m_label[keep])
    return _score_flat(
        (key.m_doc, key.m_start, key.m_end, k_cl, k_cl_doc),
        (r_doc, response.m_start[keep], response.m_end[keep], r_cl, r_cl_doc),
        n_docs,
        list(key.docs),
        expand_metrics(metrics),
        key.clusters,
        lambda d: response.clusters(from_key[d]) if d in from_key else [],
    )


def _score_flat(key, response, n_docs, doc_keys, metrics, key_clusters, response_clusters):
    """Score flat mention arrays (doc, start, end, cluster, cluster doc) of both sides.

    Clusters must be numbered document by document on each side. Documents with a span
    repeated on one side are re-scored by the v8.01 transcription, which gets their
    clusters from `key_clusters(d)` / `response_clusters(d)`.
    """
    k_doc, k_start, k_end, k_cl, k_cl_doc = key
    r_doc, r_start, r_end, r_cl, r_cl_doc = response
    width = int(max(k_start.max(initial=0), k_end.max(initial=0), r_start.max(initial=0), r_end.max(initial=0))) + 2
    k_code = (k_doc * width + k_start) * width + k_end
    r_code = (r_doc * width + r_start) * width + r_end
    k_dup_docs = _docs_with_repeats(k_code, width)
    r_dup_docs = _docs_with_repeats(r_code, width)
    slow = np.zeros(n_docs, dtype=bool)
    slow[k_dup_docs] = True
    slow[r_dup_docs] = True
    k_keep, r_keep = ~slow[k_doc], ~slow[r_doc]
    codes = np.concatenate([k_code[k_keep], r_code[r_keep]])
    _, inverse = np.unique(codes, return_inverse=True)
    inverse = inverse.ravel()
    n_union = int(inverse.max(initial=-1)) + 1
    key_of = np.full(n_union, -1, dtype=np.int64)
    response_of = np.full(n_union, -1, dtype=np.int64)
    nk = int(k_keep.sum())
    key_of[inverse[:nk]] = k_cl[k_keep]
    response_of[inverse[nk:]] = r_cl[r_keep]
    per_doc = document_counts(n_docs, k_cl_doc, r_cl_doc, key_of, response_of, metrics)
    repeated_response = repeated_key = repeated_matched = 0
    for d in np.flatnonzero(slow).tolist():
        kc, rc = key_clusters(d), response_clusters(d)
        ref = reference.score_document(kc, rc)
        for m in metrics:
            per_doc[m][d] = ref[m]
        repeated_matched += ref["repeated"]
        repeated_response += ref["repeated"] + _twinless_repeats(kc, rc)
        repeated_key += _repeats(kc)
    if repeated_response or repeated_key:
        refused = (
            f"; the official scorer v8.01 refuses to score a response with more than {V801_REPEAT_LIMIT} repeats "
            f"of key-matched spans (here {repeated_matched})"
            if repeated_matched > V801_REPEAT_LIMIT
            else ""
        )
        warnings.warn(
            f"repeated mentions: {repeated_response} in the response, {repeated_key} in the key; "
            "repeats of key-matched response spans were removed and the rest scored as the official scorer v8.01 does"
            + refused,
            RepeatedMentionWarning,
            stacklevel=3,
        )
    return Scores(per_doc, list(doc_keys), repeated_response, repeated_key, metrics)


def score_labels(key_labels, response_labels, doc_index=None, metrics="all"):
    """Score per-mention cluster ids over one shared mention list (e.g. gold mentions).

    key_labels[i] / response_labels[i]: cluster id of mention i on each side, -1 when the
    mention is absent from that side; ids need only be unique within a document.
    doc_index[i]: document of mention i (default: one document). No spans are needed,
    which makes this the cheapest way to score a learner's clustering every epoch.
    """
    key_labels = np.asarray(key_labels, dtype=np.int64)
    response_labels = np.asarray(response_labels, dtype=np.int64)
    doc_index = (
        np.zeros(len(key_labels), dtype=np.int64) if doc_index is None else np.asarray(doc_index, dtype=np.int64)
    )
    n_docs = int(doc_index.max(initial=-1)) + 1
    key_of, key_cl_doc = _compact(doc_index, key_labels)
    response_of, resp_cl_doc = _compact(doc_index, response_labels)
    per_doc = document_counts(n_docs, key_cl_doc, resp_cl_doc, key_of, response_of, expand_metrics(metrics))
    return Scores(per_doc, [(str(i), 0) for i in range(n_docs)], metrics=expand_metrics(metrics))


def _compact(doc_index, labels):
    """Renumber (document, label) pairs 0..C-1 in document order; -1 stays -1."""
    present = labels >= 0
    out = np.full(len(labels), -1, dtype=np.int64)
    if not present.any():
        return out, np.zeros(0, dtype=np.int64)
    width = int(labels.max()) + 1
    uniq, inv = np.unique(doc_index[present] * width + labels[present], return_inverse=True)
    out[present] = inv.ravel()
    return out, uniq // width


def _flatten(clusterings):
    """Flat arrays: mention doc, mention span (m, 2), mention cluster, cluster doc."""
    sizes, cl_doc = [], []
    for d, clusters in enumerate(clusterings):
        lengths = [len(c) for c in clusters]
        sizes += lengths
        cl_doc += [d] * len(lengths)
    spans = list(chain.from_iterable(chain.from_iterable(clusterings)))
    sizes = np.asarray(sizes, dtype=np.int64)
    keep = sizes > 0
    cl_doc = np.asarray(cl_doc, dtype=np.int64)[keep]
    span = np.fromiter(chain.from_iterable(spans), dtype=np.int64, count=2 * len(spans)).reshape(-1, 2)
    m_cl = np.repeat(np.arange(len(cl_doc), dtype=np.int64), sizes[keep])
    return cl_doc[m_cl], span, m_cl, cl_doc


def _docs_with_repeats(code, width):
    s = np.sort(code)
    return np.unique(s[1:][s[1:] == s[:-1]] // (width * width))


def _repeats(clusters):
    spans = [tuple(s) for c in clusters for s in c]
    return len(spans) - len(set(spans))


def _twinless_repeats(key_clusters, response_clusters):
    key = {tuple(s) for c in key_clusters for s in c}
    spans = [tuple(s) for c in response_clusters for s in c if tuple(s) not in key]
    return len(spans) - len(set(spans))
