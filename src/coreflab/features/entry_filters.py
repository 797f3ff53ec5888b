"""Features of an arc store filtered by id or by arc, in numba passes that allocate only the output.

The numpy way (a boolean per entry, its int64 cumulative sum, fancy-indexed copies) holds several
arrays as long as the store's feature list at once: at CoNLL-2012 size with `local_fine` (510M
entries) H&M's feature ranking peaked at 14.3 GB, its reduced-store runs at 11.1 GB and L3M's order
control at 12.8 GB, beyond the 8 GB their rules ask a cluster for. These kernels count first, then
fill: the result is all they allocate.
"""

import numpy as np
from numba import njit


@njit(cache=True)
def count_kept(arc_feat_offsets, labels, keep, off):
    """off[a + 1] = off[a] + the number of arc a's entries k with keep[labels[k]] (keep: uint8); returns the total.
    labels: the entries' ids (filter by id) or their templates (template subsets)."""
    n_arcs = arc_feat_offsets.shape[0] - 1
    off[0] = 0
    m = 0
    for a in range(n_arcs):
        for k in range(arc_feat_offsets[a], arc_feat_offsets[a + 1]):
            m += keep[labels[k]]
        off[a + 1] = m
    return m


@njit(cache=True)
def fill_kept(arc_feat_offsets, arc_feats, labels, keep, out):
    """Copy the entries k with keep[labels[k]] to out, in order, in one branch-free pass (the arcs'
    entries are contiguous): out holds one slot more than the kept entries, where a dropped entry is
    written and then overwritten by the next."""
    j = 0
    for k in range(arc_feat_offsets[0], arc_feat_offsets[arc_feat_offsets.shape[0] - 1]):
        out[j] = arc_feats[k]
        j += keep[labels[k]]


def features_with_ids(arc_feat_offsets, arc_feats, keep_id):
    """(offsets, features) of every arc keeping only the features f with keep_id[f] (uint8 per id),
    in their order."""
    off = np.empty(arc_feat_offsets.shape[0], dtype=np.int64)
    m = count_kept(arc_feat_offsets, arc_feats, keep_id, off)
    out = np.empty(m + 1, dtype=arc_feats.dtype)
    fill_kept(arc_feat_offsets, arc_feats, arc_feats, keep_id, out)
    return off, out[:m]


@njit(cache=True)
def _count_kept_or_refs(offsets, feats, keep, off):
    n = offsets.shape[0] - 1
    off[0] = 0
    m = 0
    for a in range(n):
        for k in range(offsets[a], offsets[a + 1]):
            f = feats[k]
            if f < 0 or keep[f]:
                m += 1
        off[a + 1] = m
    return m


@njit(cache=True)
def _fill_kept_or_refs(offsets, feats, keep, out):
    j = 0
    for k in range(offsets[0], offsets[offsets.shape[0] - 1]):
        f = feats[k]
        if f < 0 or keep[f]:
            out[j] = f
            j += 1


def features_with_ids_or_refs(arc_feat_offsets, arc_feats, keep_id):
    """`features_with_ids` of a shared-row store: every segment (arc or row) keeps its row references
    and the ids f with keep_id[f], in their order, so each arc reads its kept ids through the cut rows
    in the order the expanded store would list them."""
    off = np.empty(arc_feat_offsets.shape[0], dtype=np.int64)
    m = _count_kept_or_refs(arc_feat_offsets, arc_feats, keep_id, off)
    out = np.empty(m, dtype=arc_feats.dtype)
    _fill_kept_or_refs(arc_feat_offsets, arc_feats, keep_id, out)
    return off, out


@njit(cache=True)
def fill_arcs(arc_feat_offsets, arc_feats, arcs, off, out):
    """Write the entries of the given arcs, in that order, into out (offsets into off)."""
    m = 0
    off[0] = 0
    for i in range(arcs.shape[0]):
        a = arcs[i]
        for k in range(arc_feat_offsets[a], arc_feat_offsets[a + 1]):
            out[m] = arc_feats[k]
            m += 1
        off[i + 1] = m


def features_of_arcs(arc_feat_offsets, arc_feats, arcs):
    """(offsets, features) of the given arcs (ascending or not), one row per arc in that order."""
    arcs = np.asarray(arcs, dtype=np.int64)
    total = int((arc_feat_offsets[arcs + 1] - arc_feat_offsets[arcs]).sum())
    off = np.empty(arcs.shape[0] + 1, dtype=np.int64)
    out = np.empty(total, dtype=arc_feats.dtype)
    fill_arcs(arc_feat_offsets, arc_feats, arcs, off, out)
    return off, out


@njit(cache=True)
def relabel_in_place(values, table):
    """values[i] = table[values[i]] for every i, in place: a column map over a store's features that
    does not hold a second array as long as them (numpy's `take` buffers its output when it may raise)."""
    for i in range(values.shape[0]):
        values[i] = table[values[i]]


__all__ = [
    "count_kept",
    "features_of_arcs",
    "fill_arcs",
    "features_with_ids",
    "features_with_ids_or_refs",
    "fill_kept",
    "relabel_in_place",
]
