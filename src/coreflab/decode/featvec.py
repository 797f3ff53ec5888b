"""Feature vectors of (partial) trees as sparse accumulations, for learner updates.

The update of every B&K learner needs Δ = Φ(ỹ) − Φ(ŷ) over a prefix of two trees
(docs/methods.md, "Björkelund & Kuhn 2014"). With non-local features Φ depends on the order the arcs were added,
so a tree's features are recomputed by replaying it arc by arc through the same
`state_push`/`emit_nonlocal` the beam uses: the replayed Φ·w equals the beam score.

Accumulator (`Acc`): a dense float64 vector `acc` (size 2**n_bits) plus `mark` (int8) and the
list `touched` of ids with a nonzero mark; cleared by `acc_clear` in O(touched).
"""

from collections import namedtuple

import numpy as np
from numba import njit

from coreflab.decode.arcs import arc_arrays
from coreflab.features.nonlocal_templates import A_TYPE, NF, NonLocal, emit_nonlocal, state_push
from coreflab.features.shared_rows import row_span

Acc = namedtuple("Acc", ["acc", "mark", "touched"])
Acc.__doc__ = "The sparse accumulator: dense sums, a mark per id, and the ids marked so far."


@njit(cache=True, inline="always")
def acc_add(f, v, sums, mark, touched, nt):
    """sums[f] += v, marking f as touched the first time (the arrays of an `Acc`, unpacked once
    by the caller: a field read inside a per-id loop costs a reference count each time)."""
    if mark[f] == 0:
        mark[f] = 1
        touched[nt] = f
        nt += 1
    sums[f] += v
    return nt


@njit(cache=True)
def acc_clear(acc, nt):
    sums, mark, touched = acc
    for i in range(nt):
        f = touched[i]
        sums[f] = 0.0
        mark[f] = 0
    return 0


@njit(cache=True)
def add_arc_features(a, sign, arcs, acc, nt):
    """Add sign·Φ(a) (its shared rows' ids included) to the accumulator."""
    offs, feats = arcs.arc_feat_offsets, arcs.arc_feats
    sums, mark, touched = acc
    for e in range(offs[a], offs[a + 1]):
        f = feats[e]
        if f < 0:
            e0, e1 = row_span(offs, f)
            for e2 in range(e0, e1):
                nt = acc_add(feats[e2], sign, sums, mark, touched, nt)
        else:
            nt = acc_add(f, sign, sums, mark, touched, nt)
    return nt


@njit(cache=True)
def add_arc_delta(gold, pred, n, arcs, acc, nt):
    """Add Φ(gold) − Φ(pred) of two trees given as arc ids, over the mentions where they differ."""
    for i in range(n):
        if pred[i] != gold[i]:
            nt = add_arc_features(gold[i], 1.0, arcs, acc, nt)
            nt = add_arc_features(pred[i], -1.0, arcs, acc, nt)
    return nt


@njit(cache=True, inline="always")
def _add_emitted(nf, buf, sign, acc, nt):
    """Add sign for each of the nf feature ids in buf."""
    sums, mark, touched = acc
    for e in range(nf):
        nt = acc_add(buf[e], sign, sums, mark, touched, nt)
    return nt


@njit(cache=True)
def add_tree_features(pos, upto, lo, sign, arcs, nl, buf, acc, nt):
    """Add sign·Φ(tree prefix m_0..m_{upto-1}) to the accumulator.

    pos[i] = position of mention i's chosen arc within its candidate list; nl = `NonLocal`.
    """
    n = max(upto, 1)
    st = np.zeros((NF, n), dtype=np.int32)
    shp = np.zeros(n, dtype=np.uint64)
    for i in range(upto):
        row = lo + i
        a = arcs.m_arc_offsets[row] + pos[i]
        nt = add_arc_features(a, sign, arcs, acc, nt)
        ante = arcs.arc_ante[a]
        if ante >= 0 and nl.codes.shape[0] > 0:
            nf = emit_nonlocal(nl.codes, nl.attrs, lo, i, ante, st, shp, nl.n_bits, buf)
            nt = _add_emitted(nf, buf, sign, acc, nt)
        state_push(st, shp, i, ante, pos[i], nl.attrs[row, A_TYPE])
    return nt


@njit(cache=True)
def add_tree_delta(gpos, ppos, upto, lo, arcs, nl, buf, acc, nt):
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
    codes, attrs, n_bits = nl
    arc_ante = arcs.arc_ante
    diverged = False
    for i in range(upto):
        row = lo + i
        ag = arcs.m_arc_offsets[row] + gpos[i]
        ap = arcs.m_arc_offsets[row] + ppos[i]
        if ag != ap:
            diverged = True
            nt = add_arc_features(ag, 1.0, arcs, acc, nt)
            nt = add_arc_features(ap, -1.0, arcs, acc, nt)
        if diverged and codes.shape[0] > 0:
            if arc_ante[ag] >= 0:
                nf = emit_nonlocal(codes, attrs, lo, i, arc_ante[ag], sg, hg, n_bits, buf)
                nt = _add_emitted(nf, buf, 1.0, acc, nt)
            if arc_ante[ap] >= 0:
                nf = emit_nonlocal(codes, attrs, lo, i, arc_ante[ap], sp, hp, n_bits, buf)
                nt = _add_emitted(nf, buf, -1.0, acc, nt)
        t_i = attrs[row, A_TYPE]
        state_push(sg, hg, i, arc_ante[ag], gpos[i], t_i)
        state_push(sp, hp, i, arc_ante[ap], ppos[i], t_i)
    return nt


@njit(cache=True)
def tree_loss(pos, upto, lo, arcs):
    """Summed arc loss of a tree prefix."""
    total = 0.0
    for i in range(upto):
        total += arcs.arc_loss[arcs.m_arc_offsets[lo + i] + pos[i]]
    return total


def tree_feature_vector(pos, lo, store, codes, attrs):
    """{feature id: count} of a complete tree of one document (for tests and inspection)."""
    size = 1 << int(store.n_bits)
    acc = np.zeros(size, dtype=np.float64)
    mark = np.zeros(size, dtype=np.int8)
    touched = np.zeros(size, dtype=np.int64)
    buf = np.empty(max(1, len(codes)) * 16, dtype=np.int64)
    pos = np.asarray(pos, dtype=np.int32)
    arcs = arc_arrays(store, np.ones(store.arc_ante.shape[0], dtype=np.int8))
    nl = NonLocal(np.asarray(codes, dtype=np.int32), attrs, int(store.n_bits))
    nt = add_tree_features(pos, len(pos), int(lo), 1.0, arcs, nl, buf, Acc(acc, mark, touched), 0)
    return {int(f): float(acc[f]) for f in touched[:nt] if acc[f] != 0.0}


__all__ = [
    "Acc",
    "acc_add",
    "acc_clear",
    "add_arc_features",
    "add_arc_delta",
    "add_tree_features",
    "add_tree_delta",
    "tree_loss",
    "tree_feature_vector",
]
