"""L2-regularised binary logistic regression over mention pairs, read straight from the arc store.

A pair is a non-root arc of an `ArcStore`; its features are the arc's hashed ids, as binary
indicators (an id the store repeats within one arc counts once: hashing can map two
templates' strings to one id). Nothing per pair is copied: a dense int32 column map of
size 2**n_bits sends a hashed id to its compact column (-1 = not seen in training), and one
numba pass over the arcs gives the loss and its gradient together.

The objective is scikit-learn's `LogisticRegression`'s: C·Σ_i s_i·logloss(y_i, w·x_i + b) + ½‖w‖²,
intercept b not penalised, on the same scaling (divided by C·Σ s_i), warm-started from the previous
solution as `warm_start=True` does. It is minimised by the truncated Newton solver of
`coreflab.learn.pairwise.newton` until ‖∇f‖ ≤ tol·‖∇f(0)‖ (`LogisticProblem`: Hessian-vector
products Xᵀ(d ∘ X·v) + λ·v with d_i = s_i·p_i(1 − p_i), through the same gather and scatter as the
gradient, and a dense block of the Hessian over its heaviest columns as a preconditioner), and
every fit returns its convergence record. solver="lbfgs" keeps the L-BFGS optimiser, for comparisons:
scikit-learn's L-BFGS-B options (maxiter, maxls=50, gtol=tol, ftol=64·eps),
whose path scikit-learn's follows up to rounding, with `coreflab.learn.pairwise.lbfgs`'s steps.
It stops at its iteration cap on every real corpus, where the order of the floating-point sums
moves the C&C tables by up to 3 points; converged fits do not move (tests/learn/pairwise/
test_pair_logistic.py, bench/results/lbfgs_convergence_gum.json).

Memory: the column map (4·2**n_bits bytes), a duplicate flag per pair (1 byte), per pair four
doubles of the Newton solver (scores, curvature, X·v, X·s), and per feature the weights, the
gradient, the (n, 4) buffer the kernels read and add into, and the solver's vectors (~20 doubles),
plus its block (`newton.BLOCK`² doubles, 128 MB). For speed, a fit
also keeps each pair's columns as one flat int32 array (4 bytes per pair feature + an 8-byte
offset per pair) when that fits in `COMPACT_BUDGET_BYTES`: a loss-and-gradient pass then reads
columns directly instead of through the map (twice as fast on the default synthetic corpus), with
the same sums in the same order, so the fit is bit for bit the same either way; above the
budget (corpora of CoNLL-2012 size) it reads through the map. A shared-row store (the features job's
default) is read through its rows instead, at any size: each row's weights are summed once a pass and
its gradient gathered once (on GUM 77M entries a pass instead of 179M, 342 MB instead of 736 MB:
bench/results/pair_kernel.json), the flat store's sums grouped otherwise, so equal to rounding.
"""

import warnings
from collections import namedtuple
from typing import NamedTuple

import numpy as np
from numba import njit

from coreflab.features.shared_rows import arc_ids, arc_length, mark_ids, row_of, row_span
from coreflab.learn.pairwise import lbfgs, newton
from coreflab.prefetch import prefetch, prefetch_write

AHEAD = 64  # entries the kernels prefetch ahead (GUM: 32 or 64 cut a pass from 1.3 s to 0.85-0.9 s, 8 too few)


@njit(cache=True)
def _duplicate_flags(arc_feats, arc_feat_offsets, arcs, n_ids):
    """uint8 per pair: 1 if its arc lists some hashed id more than once (its rows' ids included)."""
    last = np.full(n_ids, -1, dtype=np.int32)  # pair index (< 2**31) that last used the id
    flags = np.zeros(arcs.shape[0], dtype=np.uint8)
    for i in range(arcs.shape[0]):
        a = arcs[i]
        for k in range(arc_feat_offsets[a], arc_feat_offsets[a + 1]):
            f = arc_feats[k]
            if f < 0:  # a row reference: the row's ids
                k0, k1 = row_span(arc_feat_offsets, f)
                for k2 in range(k0, k1):
                    f2 = arc_feats[k2]
                    if last[f2] == i:
                        flags[i] = 1
                    last[f2] = i
                continue
            if last[f] == i:
                flags[i] = 1
            last[f] = i
    return flags


def _column_map(arc_feats, arc_feat_offsets, arcs, n_ids):
    """int32[n_ids]: compact column of every id the given arcs use (ascending id order), else -1."""
    used = mark_ids(arc_feat_offsets, arc_feats, arcs, np.zeros(n_ids, dtype=np.bool_))
    cols = np.full(n_ids, -1, dtype=np.int32)
    cols[used] = np.arange(int(np.count_nonzero(used)), dtype=np.int32)
    return cols


@njit(cache=True, inline="always")
def _repeated(arc_feats, start, k):
    """True if arc_feats[k] already occurred in arc_feats[start:k] (only asked of flagged arcs)."""
    for q in range(start, k):
        if arc_feats[q] == arc_feats[k]:
            return True
    return False


@njit(cache=True, inline="always")
def _prefetch_through_map(arc_feats, cols, w, k, last, write):
    """Prefetch the column map entry of the id 2·AHEAD entries on and the weights of the id AHEAD on
    (whose map entry was prefetched AHEAD entries ago). The pairs' arcs are nearly contiguous in the
    store, so the ids ahead are mostly the next pairs' ones."""
    prefetch(cols, arc_feats[min(k + 2 * AHEAD, last)])
    c = cols[arc_feats[min(k + AHEAD, last)]]
    if c >= 0:
        if write:
            prefetch_write(w, c)
        else:
            prefetch(w, c)


@njit(cache=True)
def _decision(arc_feats, arc_feat_offsets, arcs, dup, cols, w, b):
    """w·x + b of every pair; ids without a column (unseen in training) are ignored."""
    z = np.empty(arcs.shape[0], dtype=np.float64)
    last = arc_feats.shape[0] - 1
    for i in range(arcs.shape[0]):
        a = arcs[i]
        start, end = arc_feat_offsets[a], arc_feat_offsets[a + 1]
        s = b
        for k in range(start, end):
            _prefetch_through_map(arc_feats, cols, w, k, last, False)
            c = cols[arc_feats[k]]
            if c >= 0 and (dup[i] == 0 or not _repeated(arc_feats, start, k)):
                s += w[c]
        z[i] = s
    return z


@njit(cache=True, inline="always")
def _logloss_sigmoid(z, y):
    """(log(1 + e^z) − y·z, σ(z)), both without overflow."""
    if z > 0.0:
        e = np.exp(-z)
        return z + np.log1p(e) - y * z, 1.0 / (1.0 + e)
    e = np.exp(z)
    return np.log1p(e) - y * z, e / (1.0 + e)


@njit(cache=True)
def _compact_columns(arc_feats, arc_feat_offsets, arcs, dup, cols, n_entries):
    """(int32 columns, int64 offsets): each pair's mapped columns, in store order, repeats and unmapped ids left out."""
    out = np.empty(n_entries, dtype=np.int32)
    off = np.empty(arcs.shape[0] + 1, dtype=np.int64)
    off[0] = 0
    m = 0
    for i in range(arcs.shape[0]):
        a = arcs[i]
        start, end = arc_feat_offsets[a], arc_feat_offsets[a + 1]
        for k in range(start, end):
            c = cols[arc_feats[k]]
            if c >= 0 and (dup[i] == 0 or not _repeated(arc_feats, start, k)):
                out[m] = c
                m += 1
        off[i + 1] = m
    return out[:m], off


# ---------------------------------------------------------------- shared rows
# A shared-row store (`features/shared_rows.py`) lists most of a pair's ids once per document in
# rows its arcs refer to. The pass then sums each row's weights once, adds the sums to the pairs
# that refer to it (an arc's score: its rows' sums, then its own ids, as `shared_rows.arc_dot`),
# and gathers each row's share of the gradient before adding it to the row's columns once: on GUM
# 77M entries a pass instead of the flat copy's 179M. A pair whose ids repeat (counted once) keeps
# its own flat, deduplicated columns.


@njit(cache=True)
def _shared_columns(arc_feats, arc_feat_offsets, arcs, dup, cols, n_segments):
    """(items, item offsets, row columns, row offsets) of the pairs under `cols`.

    items: per pair its row references, -1 - (compact row index), then its own mapped columns
    (a flagged pair: all its ids, deduplicated, no references); rows: the mapped columns of every
    referenced row, numbered in order of first reference. Unmapped ids are left out."""
    n = arcs.shape[0]
    row_index = np.full(n_segments, -1, dtype=np.int64)
    n_rows = 0
    n_row_entries = 0
    n_items = 0
    scratch = np.empty(0, dtype=np.int32)
    for i in range(n):  # count, and number the rows
        a = arcs[i]
        for k in range(arc_feat_offsets[a], arc_feat_offsets[a + 1]):
            f = arc_feats[k]
            if f < 0:
                r = row_of(f)
                if dup[i] == 0:
                    n_items += 1
                    if row_index[r] < 0:
                        row_index[r] = n_rows
                        n_rows += 1
                        n_row_entries += arc_feat_offsets[r + 1] - arc_feat_offsets[r]
                else:
                    n_items += arc_feat_offsets[r + 1] - arc_feat_offsets[r]
            else:
                n_items += 1
    rows = np.empty(n_row_entries, dtype=np.int32)
    row_off = np.zeros(n_rows + 1, dtype=np.int64)
    row_segment = np.empty(n_rows, dtype=np.int64)
    for r in range(n_segments):
        if row_index[r] >= 0:
            row_segment[row_index[r]] = r
    m = 0
    for q in range(n_rows):
        r = row_segment[q]
        for k in range(arc_feat_offsets[r], arc_feat_offsets[r + 1]):
            c = cols[arc_feats[k]]
            if c >= 0:
                rows[m] = c
                m += 1
        row_off[q + 1] = m
    items = np.empty(n_items, dtype=np.int32)
    item_off = np.zeros(n + 1, dtype=np.int64)
    m = 0
    for i in range(n):
        a = arcs[i]
        if dup[i] == 0:
            for k in range(arc_feat_offsets[a], arc_feat_offsets[a + 1]):
                f = arc_feats[k]
                if f < 0:
                    items[m] = -1 - row_index[row_of(f)]
                    m += 1
                elif cols[f] >= 0:
                    items[m] = cols[f]
                    m += 1
        else:  # the arc's ids in reading order, each mapped column once
            length = arc_length(arc_feat_offsets, arc_feats, a)
            if scratch.shape[0] < length:
                scratch = np.empty(length, dtype=np.int32)
            t = arc_ids(arc_feat_offsets, arc_feats, a, scratch)
            for u in range(t):
                c = cols[scratch[u]]
                if c >= 0 and not _repeated(scratch, 0, u):
                    items[m] = c
                    m += 1
        item_off[i + 1] = m
    return items[:m], item_off, rows, row_off


@njit(cache=True)
def _row_sums(rows, row_off, w, out):
    """out[q] = Σ w over row q's columns (from 0, in row order)."""
    last = rows.shape[0] - 1
    for q in range(row_off.shape[0] - 1):
        t = 0.0
        for k in range(row_off[q], row_off[q + 1]):
            prefetch(w, rows[min(k + AHEAD, last)])
            t += w[rows[k]]
        out[q] = t


@njit(cache=True, inline="always")
def _pair_score(items, lo, hi, row_sum, w, s):
    """s plus pair items[lo:hi]'s score: its rows' sums, then its own columns' weights."""
    last = items.shape[0] - 1
    for k in range(lo, hi):
        c = items[k]
        ahead = items[min(k + AHEAD, last)]
        if ahead >= 0:
            prefetch(w, ahead)
        if c < 0:
            s += row_sum[row_of(c)]
        else:
            s += w[c]
    return s


@njit(cache=True)
def _decision_shared(items, item_off, row_sum, w, b):
    """w·x + b of every pair: its rows' sums, then its own columns."""
    z = np.empty(item_off.shape[0] - 1, dtype=np.float64)
    for i in range(item_off.shape[0] - 1):
        z[i] = _pair_score(items, item_off[i], item_off[i + 1], row_sum, w, b)
    return z


@njit(cache=True)
def _scaled_gradient(wg, w, scale, l2, grad):
    """grad[j] = wg[j, 1]·scale + l2·w[j] for every feature, in one pass; returns Σ w²."""
    ww = 0.0
    for j in range(w.shape[0]):
        grad[j] = wg[j, 1] * scale + l2 * w[j]
        ww += w[j] * w[j]
    return ww


# ---------------------------------------------------------------- Newton passes
# The second-order solver (`coreflab.learn.pairwise.newton`) needs, besides the loss and gradient,
# each pair's curvature d_i = s_i·σ(z_i)(1 − σ(z_i)) and products with the data part of the Hessian,
# Xᵀ(d ∘ (X v)): the same gather (a pair's score under a vector) and scatter (a pair's coefficient
# added to its columns) as the gradient, through the same layouts. One kernel per layout, by mode:
#   GRADIENT:   z_i = x_i·w + b; the loss, c_i = s_i·(σ(z_i) − y_i) scattered, d_i kept;
#   HESSIAN:    u_i = x_i·v + v_b (kept in z: the line search reuses X·direction), c_i = d_i·u_i scattered;
#   DIAGONAL:   c_i = d_i scattered (no gather): Σ_i d_i x_ij, the Hessian's diagonal (binary features);
#   ZERO:       c_i = s_i·(½ − y_i) scattered (no gather): the gradient at x = 0, which the solver's criterion
#               is relative to, bit for bit GRADIENT's at w = 0, b = 0 (every score 0, σ(0) = ½) at half the cost.
# GRADIENT also scatters d_i into buf[:, 2] (a buffer of width 3 or more): the Hessian's diagonal at the new x,
# the same sums in the same order as a DIAGONAL pass after it, which the solver then need not make.
# buf is (n, 2) or (n, 4): the vector read in column 0, the sums added into column 1 (and 2), one cache line
# per column (`column_buffer`).
GRADIENT, HESSIAN, DIAGONAL, ZERO = 0, 1, 2, 3

# The per-pair arrays a pass reads and writes, one bundle across the kernel boundary: the labels y,
# the sample weights sw, the curvature d (written by GRADIENT, read by HESSIAN and DIAGONAL) and the scores z
# (written by GRADIENT and HESSIAN: X·x, or X·v of a Hessian product).
PairState = namedtuple("PairState", ["y", "sw", "d", "z"])
# A kernel's per-row scratch of the shared layout: row_sum the rows' weight sums, row_acc and row_dacc the
# coefficients (and curvatures) added up per row before they are scattered to the row's columns.
RowScratch = namedtuple("RowScratch", ["row_sum", "row_acc", "row_dacc"])


def column_buffer(n, width=4):
    """An (n, width) float64 array whose rows do not straddle cache lines (width 2 or 4: 16 or 32 bytes,
    the array starting on a 64-byte boundary)."""
    raw = np.empty(n * width + 8, dtype=np.float64)
    start = (-raw.ctypes.data % 64) // 8
    return raw[start : start + n * width].reshape(n, width)


@njit(cache=True, inline="always")
def _newton_coefficient(mode, s, i, st):
    """(loss term, coefficient to scatter) of pair i with score s, by mode (see above); st: a PairState."""
    y, sw, d, z = st
    if mode == GRADIENT:
        z[i] = s
        loss_i, p = _logloss_sigmoid(s, y[i])
        d[i] = sw[i] * p * (1.0 - p)
        return sw[i] * loss_i, sw[i] * (p - y[i])
    if mode == HESSIAN:
        z[i] = s
        return 0.0, d[i] * s
    if mode == ZERO:
        return 0.0, sw[i] * (0.5 - y[i])
    return 0.0, d[i]


@njit(cache=True)
def _newton_items(items, item_off, rows, row_off, buf, b, mode, st, scratch):
    """A Newton pass over the item layout (shared rows, or a flat copy with no rows): (Σ loss, Σ c_i, Σ d_i),
    the last of a GRADIENT pass into a buffer with a diagonal column (else 0). st: a PairState; scratch: a
    RowScratch of the layout's rows."""
    d = st.d
    row_sum, row_acc, row_dacc = scratch
    w = buf[:, 0]
    gather = mode == GRADIENT or mode == HESSIAN
    diag = mode == GRADIENT and buf.shape[1] > 2
    if gather:
        _row_sums(rows, row_off, w, row_sum)
    row_acc[:] = 0.0
    if diag:
        row_dacc[:] = 0.0
    loss = 0.0
    acc_b = 0.0
    acc_d = 0.0
    last = items.shape[0] - 1
    for i in range(item_off.shape[0] - 1):
        lo, hi = item_off[i], item_off[i + 1]
        s = _pair_score(items, lo, hi, row_sum, w, b) if gather else 0.0
        loss_i, c = _newton_coefficient(mode, s, i, st)
        loss += loss_i
        acc_b += c
        if diag:
            di = d[i]
            acc_d += di
            for k in range(lo, hi):
                q = items[k]
                if q < 0:
                    row_acc[-1 - q] += c
                    row_dacc[-1 - q] += di
                else:
                    buf[q, 1] += c
                    buf[q, 2] += di
            continue
        for k in range(lo, hi):
            q = items[k]
            if not gather:
                ahead = items[min(k + AHEAD, last)]
                if ahead >= 0:
                    prefetch_write(buf, ahead)
            if q < 0:
                row_acc[row_of(q)] += c
            else:
                buf[q, 1] += c
    last = rows.shape[0] - 1
    for r in range(row_off.shape[0] - 1):
        c = row_acc[r]
        if diag:
            dr = row_dacc[r]
            for k in range(row_off[r], row_off[r + 1]):
                prefetch_write(buf, rows[min(k + AHEAD, last)])
                buf[rows[k], 1] += c
                buf[rows[k], 2] += dr
            continue
        for k in range(row_off[r], row_off[r + 1]):
            prefetch_write(buf, rows[min(k + AHEAD, last)])
            buf[rows[k], 1] += c
    return loss, acc_b, acc_d


@njit(cache=True)
def _newton_through_map(arc_feats, arc_feat_offsets, arcs, dup, cols, buf, b, mode, st, max_len):
    """A Newton pass reading the pairs' ids through the column map (stores above the compact budget);
    st: a PairState."""
    d = st.d
    gather = mode == GRADIENT or mode == HESSIAN
    diag = mode == GRADIENT and buf.shape[1] > 2
    loss = 0.0
    acc_b = 0.0
    acc_d = 0.0
    seen = np.empty(max_len, dtype=np.int32)
    last = arc_feats.shape[0] - 1
    for i in range(arcs.shape[0]):
        a = arcs[i]
        start, end = arc_feat_offsets[a], arc_feat_offsets[a + 1]
        s = b
        m = 0
        for k in range(start, end):
            _prefetch_through_map(arc_feats, cols, buf, k, last, True)
            c = cols[arc_feats[k]]
            if c >= 0 and (dup[i] == 0 or not _repeated(arc_feats, start, k)):
                if gather:
                    s += buf[c, 0]
                seen[m] = c
                m += 1
        if not gather:
            s = 0.0
        loss_i, coef = _newton_coefficient(mode, s, i, st)
        loss += loss_i
        acc_b += coef
        if diag:
            di = d[i]
            acc_d += di
            for q in range(m):
                buf[seen[q], 1] += coef
                buf[seen[q], 2] += di
        else:
            for q in range(m):
                buf[seen[q], 1] += coef
    return loss, acc_b, acc_d


@njit(cache=True)
def _line_losses(z, u, y, sw, steps, out):
    """out[k] = Σ_i s_i·logloss(z_i + steps[k]·u_i): the loss along a direction u = X·s, for each step."""
    for k in range(steps.shape[0]):
        t = steps[k]
        loss = 0.0
        for i in range(z.shape[0]):
            loss_i, _ = _logloss_sigmoid(z[i] + t * u[i], y[i])
            loss += sw[i] * loss_i
        out[k] = loss


COMPACT_BUDGET_BYTES = 1 << 30  # the flat per-pair column copy is kept only below this size


@njit(cache=True, inline="always")
def _block_add(idx, m, di, B, ck):
    """B[p, q] += d_i for every pair (p, q) of the pair's block positions idx[:m] (lower triangle), ck[p] += d_i."""
    for a in range(m):
        pa = idx[a]
        ck[pa] += di
        for b in range(a + 1):
            pb = idx[b]
            if pa >= pb:
                B[pa, pb] += di
            else:
                B[pb, pa] += di


@njit(cache=True)
def _block_items(items, item_off, rows, row_off, kpos, d, cutoff, B, ck):
    """Σ_i d_i·x_iK·x_iKᵀ (lower triangle of B), Σ_i d_i·x_iK (ck) and Σ_i d_i over the pairs with
    d_i > cutoff, K the columns with kpos ≥ 0, through the item layout."""
    idx = np.empty(B.shape[0], dtype=np.int32)
    total = 0.0
    for i in range(item_off.shape[0] - 1):
        di = d[i]
        if di <= cutoff:
            continue
        total += di
        m = 0
        for t in range(item_off[i], item_off[i + 1]):
            q = items[t]
            if q < 0:
                u0, u1 = row_span(row_off, q)
                for u in range(u0, u1):
                    p = kpos[rows[u]]
                    if p >= 0:
                        idx[m] = p
                        m += 1
            else:
                p = kpos[q]
                if p >= 0:
                    idx[m] = p
                    m += 1
        _block_add(idx, m, di, B, ck)
    return total


@njit(cache=True)
def _block_through_map(arc_feats, arc_feat_offsets, arcs, dup, cols, kpos, d, cutoff, B, ck):
    """_block_items reading the pairs' ids through the column map."""
    idx = np.empty(B.shape[0], dtype=np.int32)
    total = 0.0
    for i in range(arcs.shape[0]):
        di = d[i]
        if di <= cutoff:
            continue
        total += di
        a = arcs[i]
        start, end = arc_feat_offsets[a], arc_feat_offsets[a + 1]
        m = 0
        for k in range(start, end):
            c = cols[arc_feats[k]]
            if c >= 0 and kpos[c] >= 0 and (dup[i] == 0 or not _repeated(arc_feats, start, k)):
                idx[m] = kpos[c]
                m += 1
        _block_add(idx, m, di, B, ck)
    return total


_NO_ROWS = np.empty(0, dtype=np.int32)  # the flat copy read as items without rows
_NO_ROW_OFFSETS = np.zeros(1, dtype=np.int64)


class StorePairs:
    """The pairs (arc indices) of one store, with their per-arc duplicate flags: what scoring needs.

    A shared-row store is read through its rows (`_shared_columns`: each row's weights summed once
    per pass), at any size: the layout holds about the store's own entries, where expanding the store
    to a flat one would hold every arc's ids in full. A flat store's pairs are copied flat below
    `COMPACT_BUDGET_BYTES` and read through the id map above it."""

    def __init__(self, store, arcs):
        self.arcs = np.ascontiguousarray(arcs, dtype=np.int64)
        self.n_ids = 2 ** int(store.n_bits)
        self.shared = int(getattr(store, "n_rows", 0) or 0) > 0
        self.store = store
        self.feats = np.asarray(store.arc_feats, dtype=np.int32)
        self.offsets = np.asarray(store.arc_feat_offsets, dtype=np.int64)
        self.dup = _duplicate_flags(self.feats, self.offsets, self.arcs, self.n_ids)
        self._held = None  # (column map, its compact layout or None): see _layout
        self._rows = None  # per-row sums and gradients of the shared layout

    def __len__(self):
        return int(self.arcs.shape[0])

    def column_map(self):
        """Columns of the ids these pairs use (fit)."""
        return _column_map(self.feats, self.offsets, self.arcs, self.n_ids)

    def decision(self, cols, coef, intercept):
        layout = self._layout(cols)
        if self.shared:
            items, item_off, rows, row_off = layout
            row_sum = np.empty(row_off.shape[0] - 1, dtype=np.float64)
            _row_sums(rows, row_off, coef, row_sum)
            return _decision_shared(items, item_off, row_sum, coef, float(intercept))
        return _decision(self.feats, self.offsets, self.arcs, self.dup, cols, coef, float(intercept))

    def loss_grad(self, cols, y, sw, w, b, grad):
        """Σ s_i·logloss_i at (w, b), its gradient added into grad[:n] and grad[n] (n = len(w)): one
        GRADIENT pass of `newton_pass`, for callers outside the solver."""
        n = w.shape[0]
        buf = column_buffer(n, 2)
        buf[:, 0], buf[:, 1] = w, 0.0
        k = len(self)
        loss, g_b, _ = self.newton_pass(cols, GRADIENT, buf, b, y, sw, np.empty(k), np.empty(k))
        grad[:n] += buf[:, 1]
        grad[n] += g_b
        return loss

    def newton_pass(self, cols, mode, buf, b, y, sw, d, z):
        """One pass of the Newton solver's kernels (GRADIENT, HESSIAN, DIAGONAL or ZERO; see above) through
        this store's layout: (Σ s_i·logloss_i or 0, Σ c_i, Σ d_i or 0), with Σ c_i·x_i added into buf[:, 1]
        (and, by a GRADIENT pass into a buffer of width 3 or more, Σ d_i·x_i into buf[:, 2])."""
        layout = self._layout(cols)
        if self.shared or layout is not None:
            if self.shared:
                items, item_off, rows, row_off = layout
            else:
                (items, item_off), rows, row_off = layout, _NO_ROWS, _NO_ROW_OFFSETS
            n_rows = row_off.shape[0] - 1
            if self._rows is None or self._rows.shape[1] != n_rows:
                self._rows = np.empty((3, n_rows), dtype=np.float64)
            scratch = RowScratch(self._rows[0], self._rows[1], self._rows[2])
            return _newton_items(items, item_off, rows, row_off, buf, float(b), mode, PairState(y, sw, d, z), scratch)
        max_len = int(np.diff(self.offsets).max()) if self.offsets.shape[0] > 1 else 0
        return _newton_through_map(
            self.feats, self.offsets, self.arcs, self.dup, cols, buf, float(b), mode, PairState(y, sw, d, z), max_len
        )

    def curvature_block(self, cols, kpos, d, cutoff, B, ck):
        """Σ_i d_i·x_iK·x_iKᵀ into B's lower triangle, Σ_i d_i·x_iK into ck, over the pairs with
        d_i > cutoff (K: the columns c with kpos[c] ≥ 0, at position kpos[c]); returns Σ_i d_i over them."""
        layout = self._layout(cols)
        if self.shared or layout is not None:
            if self.shared:
                items, item_off, rows, row_off = layout
            else:
                (items, item_off), rows, row_off = layout, _NO_ROWS, _NO_ROW_OFFSETS
            return _block_items(items, item_off, rows, row_off, kpos, d, cutoff, B, ck)
        return _block_through_map(self.feats, self.offsets, self.arcs, self.dup, cols, kpos, d, cutoff, B, ck)

    def _layout(self, cols):
        """The compact columns of these pairs under `cols`, built once per column map: the shared-row
        layout (shared stores), else the flat copy; None (flat, read through the map) above the budget."""
        if self._held is not None and self._held[0] is cols:
            return self._held[1]
        layout = None
        if self.shared:  # at most the store's own size, whatever the budget: expanding it would cost more
            layout = _shared_columns(self.feats, self.offsets, self.arcs, self.dup, cols, self.offsets.shape[0] - 1)
        else:
            starts, ends = self.offsets[self.arcs], self.offsets[self.arcs + 1]
            n_entries = int((ends - starts).sum())
            if 4 * n_entries + 8 * (len(self) + 1) <= COMPACT_BUDGET_BYTES:
                layout = _compact_columns(self.feats, self.offsets, self.arcs, self.dup, cols, n_entries)
        self._held = (cols, layout)
        return layout


def column_map_of(feature_ids, n_bits):
    """The column map of a fitted model's sorted feature ids (ids ≥ 2**n_bits cannot occur; dropped)."""
    ids = np.asarray(feature_ids, dtype=np.int64)
    ids = ids[ids < 2 ** int(n_bits)]
    cols = np.full(2 ** int(n_bits), -1, dtype=np.int32)
    cols[ids] = np.arange(ids.shape[0], dtype=np.int32)
    return cols


class LogisticProblem:
    """f(x) = scale·Σ s_i·logloss_i + l2/2·‖w‖² at x = (w, b) over a StorePairs, for `newton.minimize`:
    its gradient, the curvature d_i of every pair at the last x whose gradient was taken, Hessian-vector
    products and the Hessian's diagonal there, and f along the direction CG builds (from X·s, which the
    Hessian products computed: a trial step costs one pass over the pairs' scores, not their features).

    Per pair it keeps four doubles (z = X·x, d, X·v of the last product, X·s); per feature, the (n, 4)
    buffer the kernels read and add into (the vector, the sums, and the Hessian's diagonal, which every
    gradient pass adds up as it goes: `diagonal` costs no pass)."""

    def __init__(self, pairs, cols, n_columns, y, sw, scale, l2):
        self.pairs, self.cols = pairs, cols
        self.y, self.sw = y, sw
        self.scale, self.l2 = float(scale), float(l2)
        self.n = n_columns + 1
        k = len(pairs)
        self.z, self.d, self.u, self.xs = (np.zeros(k, dtype=np.float64) for _ in range(4))
        self.buf = column_buffer(n_columns, 4)
        self.passes = 0  # passes over the pairs' features
        self.ww = 0.0
        self.d_b = None  # Σ d_i at the last gradient's x (its diagonal sums are in buf[:, 2]); None before one

    def _pass(self, mode, v, b, z):
        _load_buffer(self.buf, v if mode == GRADIENT or mode == HESSIAN else None, 3 if mode == GRADIENT else 2)
        self.passes += 1
        loss, acc_b, acc_d = self.pairs.newton_pass(self.cols, mode, self.buf, b, self.y, self.sw, self.d, z)
        if mode == GRADIENT:
            self.d_b = acc_d
        return loss, acc_b

    def value_grad(self, x, g):
        """f(x), with its gradient written into g; keeps each pair's score and curvature at x."""
        w = x[:-1]
        loss, g_b = self._pass(GRADIENT, w, x[-1], self.z)
        self.ww = _scaled_gradient(self.buf, w, self.scale, self.l2, g)
        g[-1] = g_b * self.scale
        return loss * self.scale + 0.5 * self.l2 * self.ww

    def grad_norm_at_zero(self):
        """‖∇f(0)‖₂, the reference of the convergence criterion: a ZERO pass (a scatter, no scores), bit for
        bit the gradient `value_grad` takes at 0, leaving the state of the last gradient's x as it was."""
        g = np.empty(self.n, dtype=np.float64)
        _, g_b = self._pass(ZERO, None, 0.0, self.u)
        _scaled_gradient(self.buf, np.zeros(self.n - 1, dtype=np.float64), self.scale, self.l2, g)
        g[-1] = g_b * self.scale
        return float(np.sqrt(g @ g))

    def diagonal(self, out):
        """The Hessian's diagonal at the last gradient's x (features are binary: Σ_i d_i·x_ij), as that
        gradient's pass added it up (the sums and order of a DIAGONAL pass)."""
        if self.d_b is None:
            raise RuntimeError("diagonal() before a gradient: the curvature is taken at the last gradient's x")
        out[:-1] = self.buf[:, 2] * self.scale + self.l2
        out[-1] = self.d_b * self.scale

    def hessp(self, v, out):
        """out = H·v at the last gradient's x; X·v is kept (`direction_add`)."""
        _, h_b = self._pass(HESSIAN, v[:-1], v[-1], self.u)
        _scaled_gradient(self.buf, v[:-1], self.scale, self.l2, out)
        out[-1] = h_b * self.scale

    def curvature_block(self, columns, cutoff=0.0):
        """(B, c, h) of the pairs with d_i > cutoff: B = scale·Σ_i d_i·x_iK·x_iKᵀ (lower triangle, the upper
        left zero; Fortran order), c = scale·Σ_i d_i·x_iK and h = scale·Σ_i d_i, over the columns K = `columns`."""
        k = columns.shape[0]
        kpos = np.full(self.n - 1, -1, dtype=np.int32)
        kpos[columns] = np.arange(k, dtype=np.int32)
        B = np.zeros((k, k), dtype=np.float64, order="F")  # LAPACK's order: factorised in place
        c = np.zeros(k, dtype=np.float64)
        h = self.pairs.curvature_block(self.cols, kpos, self.d, float(cutoff), B, c)
        B *= self.scale
        c *= self.scale
        return B, c, h * self.scale

    def direction_begin(self):
        self.xs[:] = 0.0

    def direction_add(self, t):
        """X·s += t·X·v (v: the vector of the last `hessp`), as the solver adds t·v to s."""
        _add_scaled(self.xs, t, self.u)

    def direction_add_intercept(self, t):
        """X·s += t (the direction's intercept)."""
        self.xs += t

    def line_losses(self, x, s, steps):
        """f(x + t·s) for each t of steps, from the scores at x and X·s."""
        out = np.empty(steps.shape[0], dtype=np.float64)
        _line_losses(self.z, self.xs, self.y, self.sw, steps, out)
        w, sw_ = x[:-1], s[:-1]
        ws, ss = float(w @ sw_), float(sw_ @ sw_)
        return out * self.scale + 0.5 * self.l2 * (self.ww + 2.0 * steps * ws + steps * steps * ss)


@njit(cache=True)
def _load_buffer(buf, v, clear):
    """buf[:, 0] = v (unless v is None), buf[:, 1:clear] = 0, in one sweep."""
    for j in range(buf.shape[0]):
        if v is not None:
            buf[j, 0] = v[j]
        for k in range(1, clear):
            buf[j, k] = 0.0


@njit(cache=True)
def _add_scaled(x, t, u):
    """x += t·u (np's rounding: the product, then the sum), without a temporary."""
    for i in range(x.shape[0]):
        x[i] += t * u[i]


class LogisticFit(NamedTuple):
    coef: np.ndarray
    intercept: float
    n_iter: int
    convergence: dict  # the solver's record (newton.Result.record(), plus solver and passes)


SOLVERS = ("newton", "lbfgs")
# The Newton solver's default criterion, ‖∇f‖₂ ≤ TOL·‖∇f(0)‖₂. On GUM's training split (2.29M pairs,
# bench/results/lbfgs_convergence_gum.json) a biased cc_base fit to 1e-4 takes 8 iterations and 100
# passes over the pairs (L-BFGS's 100 iterations took 107 and stopped at 1.7e-3, at twice the optimal
# objective), its objective within 8e-4 of the optimum; read through the flat store instead of the
# shared rows, its scores move by 3e-10 (L-BFGS's by 1e-4). 1e-5 takes about twice the passes
# (objective within 2e-5): C&C's GUM jobs would take as long as with L-BFGS, leaving the 15-minute run no margin.
TOL = 1e-4


def fit_logistic(pairs, cols, n_columns, y, sample_weight, C=1.0, tol=TOL, max_iter=100, warm=None, solver="newton"):
    """(coef, intercept, n_iter, convergence) minimising scikit-learn's lbfgs objective; warm = (coef,
    intercept) to start from.

    solver "newton" (the default): `newton.minimize` until ‖∇f‖₂ ≤ tol·‖∇f(0)‖₂, at most max_iter
    Newton iterations. solver "lbfgs": L-BFGS-B's path with scikit-learn's options (max|g| ≤ tol or
    the relative decrease ≤ 64·eps, at most max_iter iterations), kept for comparisons (bench/lbfgs.py, tests). A run that does not converge warns."""
    if solver not in SOLVERS:
        raise ValueError(f"unknown solver {solver!r}; expected one of {', '.join(SOLVERS)}")
    y = np.ascontiguousarray(y, dtype=np.float64)
    sw = np.ascontiguousarray(sample_weight, dtype=np.float64)
    sw_sum = float(sw.sum())
    l2 = 1.0 / (C * sw_sum)  # scikit-learn's scaling: mean loss + l2/2·‖w‖²
    x0 = np.zeros(n_columns + 1, dtype=np.float64)
    if warm is not None:
        x0[:-1], x0[-1] = warm[0], warm[1]
    problem = LogisticProblem(pairs, cols, n_columns, y, sw, 1.0 / sw_sum, l2)
    if solver == "newton":
        result = newton.minimize(problem, x0, tol, max_iter)
        x, nit, status, message = result.x, result.iterations, result.status, result.message
        record = result.record()
    else:

        def fun(x):
            grad = np.empty_like(x)  # a new array per call: the optimiser keeps the previous gradient
            return problem.value_grad(x, grad), grad

        x, nit, status, message = _minimize(fun, x0, max_iter, tol)
        g = np.empty_like(x)  # the record's gradient norms, as the Newton solver states them
        f = problem.value_grad(x, g)
        g0 = problem.grad_norm_at_zero()
        gnorm = float(np.sqrt(g @ g))
        record = {
            "f": f,
            "iterations": int(nit),
            "status": int(status),
            "message": str(message),
            "converged": status == 0,
            "grad_norm": gnorm,
            "grad_norm_zero": g0,
            "grad_norm_rel": gnorm / g0 if g0 > 0 else 0.0,
            "tol": tol,
        }
        problem.passes = 0  # the record's own passes are not the solver's
    record = {"solver": solver, **record, "passes": problem.passes if solver == "newton" else None}
    if status != 0:
        from sklearn.exceptions import ConvergenceWarning

        warnings.warn(
            f"{solver} failed to converge after {nit} iteration(s) (status={status}): {message}",
            ConvergenceWarning,
            stacklevel=2,
        )
    return LogisticFit(x[:-1].copy(), float(x[-1]), min(int(nit), max_iter), record)


def _minimize(fun, x0, max_iter, tol):
    """(x, iterations, status, message) of L-BFGS-B's path with scikit-learn's lbfgs options (maxls 50,
    gtol = tol, ftol = 64·eps): `lbfgs.minimize`, or scipy's own L-BFGS-B where scipy lacks its line search."""
    ftol = 64 * np.finfo(float).eps
    if lbfgs.available():
        x, _, nit, status, message = lbfgs.minimize(fun, x0, max_iter, gtol=tol, ftol=ftol, maxls=50)
        return x, nit, status, message
    # here, not at the top: every command imports this module, scipy.optimize takes 0.2 s
    from scipy import optimize

    res = optimize.minimize(
        fun, x0, method="L-BFGS-B", jac=True, options={"maxiter": max_iter, "maxls": 50, "gtol": tol, "ftol": ftol}
    )
    return res.x, int(res.nit), int(res.status), res.message


def probabilities(z):
    """σ(z) elementwise (in place on z)."""
    np.negative(z, out=z)
    np.exp(z, out=z)
    z += 1.0
    np.reciprocal(z, out=z)
    return z
