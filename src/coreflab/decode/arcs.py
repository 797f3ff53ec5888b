"""Arc scores, gold-consistent arcs and the per-arc loss over an `ArcStore`.

These are the pieces every latent-tree decoder and learner shares (docs/methods.md,
"Notation"): the score w·Φ(a) of every candidate arc, the mask of gold-consistent arcs Ã
(Fernandes et al. 2012; Björkelund & Kuhn 2014, Sec. 3.2) and the arc loss of
Björkelund & Kuhn (1.5 for a wrong root attachment, 1 for another wrong arc, 0 for a
gold-consistent arc). All work on the flat CSR arrays of the store (no Python object
per arc).

Gold-consistent antecedents of mention j: the earlier candidates with j's gold cluster
id; when there is none (j starts its cluster, is a singleton, has an unknown cluster
-1, or a window hides all its earlier cluster mates) the root alone. With a window the
last case makes the latent tree cluster slightly differently from gold; without a
window "every arc gold-consistent" is exactly "the tree encodes the gold clustering".
"""

from collections import namedtuple

import numpy as np
from numba import njit

from coreflab.features.shared_rows import row_dot, row_of
from coreflab.prefetch import prefetch

AHEAD = 64  # feature entries whose weight is prefetched ahead (hashed ids: a cache miss each otherwise)

ArcArrays = namedtuple(
    "ArcArrays",
    ["arc_feat_offsets", "arc_feats", "doc_mention_offsets", "m_arc_offsets", "arc_ante", "arc_gold", "arc_loss"],
)
ArcArrays.__doc__ = """The arc store as the kernels read it: features, document and mention offsets, each arc's
antecedent, its gold-consistency (Ã) and its loss (the loss is empty where no learner reads it)."""


def arc_arrays(store, arc_gold, arc_loss=None):
    """`ArcArrays` of an `ArcStore` with the dtypes every kernel is compiled for."""
    return ArcArrays(
        store.arc_feat_offsets,
        store.arc_feats,
        np.asarray(store.doc_mention_offsets, dtype=np.int64),
        np.asarray(store.m_arc_offsets, dtype=np.int64),
        np.asarray(store.arc_ante, dtype=np.int32),
        np.asarray(arc_gold, dtype=np.int8),
        np.zeros(0) if arc_loss is None else np.asarray(arc_loss, dtype=np.float64),
    )


@njit(cache=True, inline="always")
def doc_rows(arcs, d):
    """(lo, hi): the mention rows of document d."""
    return arcs.doc_mention_offsets[d], arcs.doc_mention_offsets[d + 1]


@njit(cache=True)
def max_doc_sizes(arcs):
    """(arcs, mentions) of the largest document, at least 1 each: the size of per-document buffers."""
    max_arcs = 1
    max_n = 1
    for d in range(arcs.doc_mention_offsets.shape[0] - 1):
        lo, hi = doc_rows(arcs, d)
        max_arcs = max(max_arcs, arcs.m_arc_offsets[hi] - arcs.m_arc_offsets[lo])
        max_n = max(max_n, hi - lo)
    return max_arcs, max_n


@njit(cache=True)
def any_outside_gold(arcs, pred, n):
    """True when some arc of pred[:n] is not gold-consistent (the tree is not in Ã)."""
    for i in range(n):
        if arcs.arc_gold[pred[i]] == 0:
            return True
    return False


@njit(cache=True)
def score_arcs(w, arc_feat_offsets, arc_feats, a_lo, a_hi, out):
    """out[a - a_lo] = w·Φ(a) (`shared_rows.arc_dot`) for a in [a_lo, a_hi).

    A shared-row store's rows are read once each when that costs fewer reads than reading them per
    arc (a document's rows are contiguous): the sums are cached, with the operations of `arc_dot`."""
    if a_hi <= a_lo:
        return
    rmin, rmax, per_arc = _referenced_rows(arc_feat_offsets, arc_feats, a_lo, a_hi)
    cached = rmax >= rmin and arc_feat_offsets[rmax + 1] - arc_feat_offsets[rmin] < per_arc
    cache = np.empty(rmax + 1 - rmin if cached else 0, dtype=np.float64)
    for r in range(cache.shape[0]):
        cache[r] = row_dot(w, arc_feat_offsets, arc_feats, rmin + r)
    last = arc_feat_offsets[a_hi] - 1
    for a in range(a_lo, a_hi):
        s = 0.0
        for e in range(arc_feat_offsets[a], arc_feat_offsets[a + 1]):
            f = arc_feats[e]
            if f < 0:
                r = row_of(f)
                s += cache[r - rmin] if cached else row_dot(w, arc_feat_offsets, arc_feats, r)
            else:
                prefetch(w, max(arc_feats[min(e + AHEAD, last)], 0))
                s += w[f]
        out[a - a_lo] = s


@njit(cache=True)
def _referenced_rows(arc_feat_offsets, arc_feats, a_lo, a_hi):
    """(first, last, reads): the lowest and highest row the arcs refer to and the ids read reading
    each reference's row (a flat store: (0, -1, 0)). References lead an arc's segment."""
    rmin, rmax, reads = arc_feat_offsets.shape[0], -1, 0
    for a in range(a_lo, a_hi):
        e = arc_feat_offsets[a]
        while e < arc_feat_offsets[a + 1] and arc_feats[e] < 0:
            r = row_of(arc_feats[e])
            rmin, rmax = min(rmin, r), max(rmax, r)
            reads += arc_feat_offsets[r + 1] - arc_feat_offsets[r]
            e += 1
    return (0, -1, 0) if rmax < 0 else (rmin, rmax, reads)


def arc_scores(w, store):
    """float64[n_arcs] scores of every arc of the store under weights w."""
    n = int(store.arc_ante.shape[0])
    out = np.empty(n, dtype=np.float64)
    score_arcs(np.asarray(w, dtype=np.float64), store.arc_feat_offsets, store.arc_feats, 0, n, out)
    return out


@njit(cache=True)
def _gold_mask(doc_mention_offsets, m_arc_offsets, arc_ante, m_cluster, out):
    for d in range(doc_mention_offsets.shape[0] - 1):
        lo, hi = doc_mention_offsets[d], doc_mention_offsets[d + 1]
        for r in range(lo, hi):
            c = m_cluster[r]
            a0, a1 = m_arc_offsets[r], m_arc_offsets[r + 1]
            found = False
            for a in range(a0, a1):
                ante = arc_ante[a]
                ok = ante >= 0 and c >= 0 and m_cluster[lo + ante] == c
                out[a] = 1 if ok else 0
                found = found or ok
            if not found:
                for a in range(a0, a1):
                    if arc_ante[a] < 0:
                        out[a] = 1


def gold_arc_mask(corpus, store):
    """int8[n_arcs]: 1 where the arc is gold-consistent (the arc is in Ã_j)."""
    out = np.zeros(store.arc_ante.shape[0], dtype=np.int8)
    _gold_mask(
        np.asarray(store.doc_mention_offsets, dtype=np.int64),
        np.asarray(store.m_arc_offsets, dtype=np.int64),
        np.asarray(store.arc_ante, dtype=np.int32),
        np.asarray(corpus.arrays["m_cluster"], dtype=np.int32),
        out,
    )
    return out


def bk_arc_loss(arc_gold, arc_ante, root_loss=1.5):
    """Björkelund & Kuhn's arc loss: 0 gold-consistent, root_loss wrong root, else 1."""
    loss = np.where(np.asarray(arc_ante) < 0, root_loss, 1.0)
    loss[np.asarray(arc_gold) == 1] = 0.0
    return loss.astype(np.float64)


@njit(cache=True)
def antecedents_to_clusters(ante):
    """Cluster id per mention (index of the cluster's first mention) of one document tree."""
    n = ante.shape[0]
    cl = np.empty(n, dtype=np.int32)
    for j in range(n):
        cl[j] = j if ante[j] < 0 else cl[ante[j]]
    return cl
