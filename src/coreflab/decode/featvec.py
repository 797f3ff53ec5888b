"""Feature vectors of (partial) trees as sparse accumulations, for learner updates.

The update of every B&K learner needs Δ = Φ(ỹ) − Φ(ŷ) over a prefix of two trees
(docs/methods.md, "Björkelund & Kuhn 2014"). With non-local features Φ depends on the order the arcs were added,
so a tree's features are recomputed by replaying it arc by arc through the same
`state_push`/`emit_nonlocal` the beam uses: the replayed Φ·w equals the beam score.

Accumulator: a dense float64 vector `acc` (size 2**n_bits) plus `mark` (int8) and the
list `touched` of ids with a nonzero mark; cleared by `acc_clear` in O(touched).
"""

import numpy as np
from numba import njit

from coreflab.features.nonlocal_templates import A_TYPE, NF, emit_nonlocal, state_push


@njit(cache=True, inline="always")
def acc_add(f, v, acc, mark, touched, nt):
    if mark[f] == 0:
        mark[f] = 1
        touched[nt] = f
        nt += 1
    acc[f] += v
    return nt


@njit(cache=True)
def acc_clear(acc, mark, touched, nt):
    for i in range(nt):
        f = touched[i]
        acc[f] = 0.0
        mark[f] = 0
    return 0


@njit(cache=True)
def add_arc_features(a, sign, arc_feat_offsets, arc_feats, acc, mark, touched, nt):
    """Add sign·Φ(a) (its shared rows' ids included) to the accumulator."""
    for e in range(arc_feat_offsets[a], arc_feat_offsets[a + 1]):
        f = arc_feats[e]
        if f < 0:
            r = -1 - f
            for e2 in range(arc_feat_offsets[r], arc_feat_offsets[r + 1]):
                nt = acc_add(arc_feats[e2], sign, acc, mark, touched, nt)
        else:
            nt = acc_add(f, sign, acc, mark, touched, nt)
    return nt


@njit(cache=True)
def add_tree_features(
    pos,
    upto,
    lo,
    sign,
    m_arc_offsets,
    arc_ante,
    arc_feat_offsets,
    arc_feats,
    codes,
    attrs,
    n_bits,
    buf,
    acc,
    mark,
    touched,
    nt,
):
    """Add sign·Φ(tree prefix m_0..m_{upto-1}) to the accumulator.

    pos[i] = position of mention i's chosen arc within its candidate list.
    """
    n = max(upto, 1)
    st = np.zeros((NF, n), dtype=np.int32)
    shp = np.zeros(n, dtype=np.uint64)
    for i in range(upto):
        row = lo + i
        a = m_arc_offsets[row] + pos[i]
        nt = add_arc_features(a, sign, arc_feat_offsets, arc_feats, acc, mark, touched, nt)
        ante = arc_ante[a]
        if ante >= 0 and codes.shape[0] > 0:
            nf = emit_nonlocal(codes, attrs, lo, i, ante, st, shp, n_bits, buf)
            for e in range(nf):
                nt = acc_add(buf[e], sign, acc, mark, touched, nt)
        state_push(st, shp, i, ante, pos[i], attrs[row, A_TYPE])
    return nt


@njit(cache=True)
def add_tree_delta(
    gpos,
    ppos,
    upto,
    lo,
    m_arc_offsets,
    arc_ante,
    arc_feat_offsets,
    arc_feats,
    codes,
    attrs,
    n_bits,
    buf,
    acc,
    mark,
    touched,
    nt,
):
    """Add Φ(gold prefix) − Φ(pred prefix) over m_0..m_{upto-1}, touching only what differs.

    Equal to add_tree_features(gold, +1) then (pred, −1) — the skipped terms cancel
    exactly: a local arc shared by both trees, and non-local features before the first
    differing arc (identical prefixes give identical states). Costs O(upto) state pushes
    plus the features of the differing part, instead of two full replays.
    """
    n = max(upto, 1)
    sg = np.zeros((NF, n), dtype=np.int32)
    hg = np.zeros(n, dtype=np.uint64)
    sp = np.zeros((NF, n), dtype=np.int32)
    hp = np.zeros(n, dtype=np.uint64)
    diverged = False
    for i in range(upto):
        row = lo + i
        ag = m_arc_offsets[row] + gpos[i]
        ap = m_arc_offsets[row] + ppos[i]
        if ag != ap:
            diverged = True
            nt = add_arc_features(ag, 1.0, arc_feat_offsets, arc_feats, acc, mark, touched, nt)
            nt = add_arc_features(ap, -1.0, arc_feat_offsets, arc_feats, acc, mark, touched, nt)
        if diverged and codes.shape[0] > 0:
            if arc_ante[ag] >= 0:
                nf = emit_nonlocal(codes, attrs, lo, i, arc_ante[ag], sg, hg, n_bits, buf)
                for e in range(nf):
                    nt = acc_add(buf[e], 1.0, acc, mark, touched, nt)
            if arc_ante[ap] >= 0:
                nf = emit_nonlocal(codes, attrs, lo, i, arc_ante[ap], sp, hp, n_bits, buf)
                for e in range(nf):
                    nt = acc_add(buf[e], -1.0, acc, mark, touched, nt)
        t_i = attrs[row, A_TYPE]
        state_push(sg, hg, i, arc_ante[ag], gpos[i], t_i)
        state_push(sp, hp, i, arc_ante[ap], ppos[i], t_i)
    return nt


@njit(cache=True)
def tree_loss(pos, upto, lo, m_arc_offsets, arc_loss):
    """Summed arc loss of a tree prefix."""
    total = 0.0
    for i in range(upto):
        total += arc_loss[m_arc_offsets[lo + i] + pos[i]]
    return total


def tree_feature_vector(pos, lo, store, codes, attrs):
    """{feature id: count} of a complete tree of one document (for tests and inspection)."""
    size = 1 << int(store.n_bits)
    acc = np.zeros(size, dtype=np.float64)
    mark = np.zeros(size, dtype=np.int8)
    touched = np.zeros(size, dtype=np.int64)
    buf = np.empty(max(1, len(codes)) * 16, dtype=np.int64)
    pos = np.asarray(pos, dtype=np.int32)
    nt = add_tree_features(
        pos,
        len(pos),
        int(lo),
        1.0,
        np.asarray(store.m_arc_offsets, dtype=np.int64),
        np.asarray(store.arc_ante, dtype=np.int32),
        store.arc_feat_offsets,
        store.arc_feats,
        np.asarray(codes, dtype=np.int32),
        attrs,
        int(store.n_bits),
        buf,
        acc,
        mark,
        touched,
        0,
    )
    return {int(f): float(acc[f]) for f in touched[:nt] if acc[f] != 0.0}


__all__ = [
    "acc_add",
    "acc_clear",
    "add_arc_features",
    "add_tree_features",
    "add_tree_delta",
    "tree_loss",
    "tree_feature_vector",
]
