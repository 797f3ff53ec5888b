"""L2-regularised binary logistic regression over mention pairs, read straight from the arc store.

A pair is a non-root arc of an `ArcStore`; its features are the arc's hashed ids, as binary
indicators (an id the store repeats within one arc counts once: hashing can map two
templates' strings to one id). Nothing per pair is copied: a dense int32 column map of
size 2**n_bits sends a hashed id to its compact column (-1 = not seen in training), and one
numba pass over the arcs gives the loss and its gradient together.

The objective and the optimiser are scikit-learn's `LogisticRegression(solver="lbfgs")`:
C·Σ_i s_i·logloss(y_i, w·x_i + b) + ½‖w‖², intercept b not penalised, minimised on the same
scaling (divided by C·Σ s_i) with the same L-BFGS-B options (maxiter, maxls=50, gtol=tol,
ftol=64·eps), warm-started from the previous solution as `warm_start=True` does, so a fit
follows the path scikit-learn's would (up to floating-point rounding). The steps are
`coreflab.learn.pairwise.lbfgs`'s: L-BFGS-B's own without bounds, at less than half its cost
per iteration at GUM's 3.5M columns (bench/results/lbfgs.json).

Memory: the column map (4·2**n_bits bytes), a duplicate flag per pair (1 byte), and per
feature the weights, the gradient, their interleaved copy the kernels work on, and the
optimiser's history and vectors (`lbfgs.Memory`'s 2 × 10 plus about 6: ~27 doubles). For speed, a fit
also keeps each pair's columns as one flat int32 array (4 bytes per pair feature + an 8-byte
offset per pair) when that fits in `COMPACT_BUDGET_BYTES`: a loss-and-gradient pass then reads
columns directly instead of through the map (twice as fast on the default synthetic corpus), with
the same sums in the same order, so the fit is bit for bit the same either way; above the
budget (corpora of CoNLL-2012 size) it reads through the map.
"""

import warnings

import numpy as np
from numba import njit
from scipy import optimize

from coreflab.features.shared_rows import expand
from coreflab.learn.pairwise import lbfgs
from coreflab.prefetch import prefetch, prefetch_write

AHEAD = 64  # entries the kernels prefetch ahead (GUM: 32 or 64 cut a pass from 1.3 s to 0.85-0.9 s, 8 too few)


@njit(cache=True)
def _duplicate_flags(arc_feats, arc_feat_offsets, arcs, n_ids):
    """uint8 per pair: 1 if its arc lists some hashed id more than once."""
    last = np.full(n_ids, -1, dtype=np.int32)  # pair index (< 2**31) that last used the id
    flags = np.zeros(arcs.shape[0], dtype=np.uint8)
    for i in range(arcs.shape[0]):
        a = arcs[i]
        for k in range(arc_feat_offsets[a], arc_feat_offsets[a + 1]):
            f = arc_feats[k]
            if last[f] == i:
                flags[i] = 1
            last[f] = i
    return flags


@njit(cache=True)
def _column_map(arc_feats, arc_feat_offsets, arcs, n_ids):
    """int32[n_ids]: compact column of every id the given arcs use (ascending id order), else -1."""
    cols = np.full(n_ids, -1, dtype=np.int32)
    for i in range(arcs.shape[0]):
        a = arcs[i]
        for k in range(arc_feat_offsets[a], arc_feat_offsets[a + 1]):
            cols[arc_feats[k]] = 0
    n = 0
    for f in range(n_ids):
        if cols[f] == 0:
            cols[f] = n
            n += 1
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
def _loss_grad(arc_feats, arc_feat_offsets, arcs, dup, cols, y, sw, wg, b, max_len):
    """(Σ s_i·logloss_i, Σ s_i·(σ(z_i) − y_i)); the feature gradient is added into wg[:, 1] (wg[:, 0] = w)."""
    loss = 0.0
    g_b = 0.0
    seen = np.empty(max_len, dtype=np.int32)  # the arc's columns, looked up once for both passes
    last = arc_feats.shape[0] - 1
    for i in range(arcs.shape[0]):
        a = arcs[i]
        start, end = arc_feat_offsets[a], arc_feat_offsets[a + 1]
        z = b
        m = 0
        for k in range(start, end):
            _prefetch_through_map(arc_feats, cols, wg, k, last, True)
            c = cols[arc_feats[k]]
            if c >= 0 and (dup[i] == 0 or not _repeated(arc_feats, start, k)):
                z += wg[c, 0]
                seen[m] = c
                m += 1
        loss_i, p = _logloss_sigmoid(z, y[i])
        loss += sw[i] * loss_i
        g = sw[i] * (p - y[i])
        g_b += g
        for q in range(m):
            wg[seen[q], 1] += g
    return loss, g_b


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


@njit(cache=True)
def _loss_grad_compact(col, off, y, sw, wg, b):
    """_loss_grad over precomputed columns: the same sums in the same order."""
    loss = 0.0
    g_b = 0.0
    last = col.shape[0] - 1
    for i in range(off.shape[0] - 1):
        z = b
        for k in range(off[i], off[i + 1]):
            prefetch_write(wg, col[min(k + AHEAD, last)])
            z += wg[col[k], 0]
        loss_i, p = _logloss_sigmoid(z, y[i])
        loss += sw[i] * loss_i
        g = sw[i] * (p - y[i])
        g_b += g
        for k in range(off[i], off[i + 1]):
            wg[col[k], 1] += g
    return loss, g_b


@njit(cache=True)
def _scaled_gradient(wg, w, scale, l2, grad):
    """grad[j] = wg[j, 1]·scale + l2·w[j] for every feature, in one pass; returns Σ w²."""
    ww = 0.0
    for j in range(w.shape[0]):
        grad[j] = wg[j, 1] * scale + l2 * w[j]
        ww += w[j] * w[j]
    return ww


COMPACT_BUDGET_BYTES = 1 << 30  # the flat per-pair column copy is kept only below this size


class StorePairs:
    """The pairs (arc indices) of one store, with their per-arc duplicate flags: what scoring needs."""

    def __init__(self, store, arcs):
        store = expand(store)  # the pairs' columns are copied per pair anyway (`_compact`)
        self.store = store
        self.arcs = np.ascontiguousarray(arcs, dtype=np.int64)
        self.feats = np.asarray(store.arc_feats, dtype=np.int32)
        self.offsets = np.asarray(store.arc_feat_offsets, dtype=np.int64)
        self.n_ids = 2 ** int(store.n_bits)
        self.dup = _duplicate_flags(self.feats, self.offsets, self.arcs, self.n_ids)
        self.max_len = int(np.diff(self.offsets).max()) if self.offsets.shape[0] > 1 else 0
        self._held = None  # (column map, its flat columns or None): see _compact
        self._wg = None  # (n, 2): weights and gradient side by side, see loss_grad

    def __len__(self):
        return int(self.arcs.shape[0])

    def column_map(self):
        """Columns of the ids these pairs use (fit)."""
        return _column_map(self.feats, self.offsets, self.arcs, self.n_ids)

    def decision(self, cols, coef, intercept):
        return _decision(self.feats, self.offsets, self.arcs, self.dup, cols, coef, float(intercept))

    def loss_grad(self, cols, y, sw, w, b, grad):
        """Σ s_i·logloss_i, its gradient added into grad (through the flat column copy when it fits the budget).

        The columns are hashed, so every weight read is a cache miss unless helped: the kernels read a
        feature's weight and add to its gradient in one cache line (w and grad interleaved in a held
        (n, 2) buffer) and prefetch the lines AHEAD entries on; on GUM the pass takes half the time
        it took without both (bench/results/pair_kernel.json), with the same sums in the same order.
        """
        n = w.shape[0]
        wg = self._weights_and_gradient(w)
        loss, g_b = self._pass(cols, y, sw, wg, b)
        grad[:n] += wg[:, 1]
        grad[n] = g_b
        return loss

    def objective(self, cols, y, sw, x, scale, l2, grad):
        """scale·Σ s_i·logloss_i + l2/2·‖w‖² at x = (w, b), its gradient written into grad: the fit's
        objective in one pass over the pairs and one over the features (`loss_grad`, scaled, fused)."""
        n = x.shape[0] - 1
        w = x[:n]
        wg = self._weights_and_gradient(w)
        loss, g_b = self._pass(cols, y, sw, wg, x[n])
        ww = _scaled_gradient(wg, w, scale, l2, grad)
        grad[n] = g_b * scale
        return loss * scale + 0.5 * l2 * ww

    def _weights_and_gradient(self, w):
        """The held (n, 2) buffer with w in column 0 and zeros in column 1."""
        n = w.shape[0]
        if self._wg is None or self._wg.shape[0] != n:
            self._wg = np.empty((n, 2), dtype=np.float64)
        self._wg[:, 0] = w
        self._wg[:, 1] = 0.0
        return self._wg

    def _pass(self, cols, y, sw, wg, b):
        """(Σ s_i·logloss_i, Σ s_i·(σ(z_i) − y_i)) with the feature gradient added into wg[:, 1]."""
        compact = self._compact(cols)
        if compact is not None:
            return _loss_grad_compact(compact[0], compact[1], y, sw, wg, b)
        return _loss_grad(self.feats, self.offsets, self.arcs, self.dup, cols, y, sw, wg, b, self.max_len)

    def _compact(self, cols):
        """The flat columns of these pairs under `cols`, built once per column map; None above the budget."""
        if self._held is not None and self._held[0] is cols:
            return self._held[1]
        starts, ends = self.offsets[self.arcs], self.offsets[self.arcs + 1]
        n_entries = int((ends - starts).sum())
        size = 4 * n_entries + 8 * (len(self) + 1)
        compact = None
        if size <= COMPACT_BUDGET_BYTES:
            compact = _compact_columns(self.feats, self.offsets, self.arcs, self.dup, cols, n_entries)
        self._held = (cols, compact)
        return compact


def column_map_of(feature_ids, n_bits):
    """The column map of a fitted model's sorted feature ids (ids ≥ 2**n_bits cannot occur; dropped)."""
    ids = np.asarray(feature_ids, dtype=np.int64)
    ids = ids[ids < 2 ** int(n_bits)]
    cols = np.full(2 ** int(n_bits), -1, dtype=np.int32)
    cols[ids] = np.arange(ids.shape[0], dtype=np.int32)
    return cols


def fit_logistic(pairs, cols, n_columns, y, sample_weight, C=1.0, tol=1e-4, max_iter=100, warm=None):
    """(coef, intercept, n_iter) minimising scikit-learn's lbfgs objective; warm = (coef, intercept) to start from."""
    y = np.ascontiguousarray(y, dtype=np.float64)
    sw = np.ascontiguousarray(sample_weight, dtype=np.float64)
    sw_sum = float(sw.sum())
    l2 = 1.0 / (C * sw_sum)  # scikit-learn's scaling: mean loss + l2/2·‖w‖²
    x0 = np.zeros(n_columns + 1, dtype=np.float64)
    if warm is not None:
        x0[:-1], x0[-1] = warm[0], warm[1]

    def fun(x):
        grad = np.empty_like(x)  # a new array per call: the optimiser keeps the previous gradient
        return pairs.objective(cols, y, sw, x, 1.0 / sw_sum, l2, grad), grad

    x, nit, status, message = _minimize(fun, x0, max_iter, tol)
    if status != 0:
        from sklearn.exceptions import ConvergenceWarning

        warnings.warn(
            f"lbfgs failed to converge after {nit} iteration(s) (status={status}): {message}",
            ConvergenceWarning,
            stacklevel=2,
        )
    return x[:-1].copy(), float(x[-1]), min(int(nit), max_iter)


def _minimize(fun, x0, max_iter, tol):
    """(x, iterations, status, message) of L-BFGS-B's path with scikit-learn's lbfgs options (maxls 50,
    gtol = tol, ftol = 64·eps): `lbfgs.minimize`, or scipy's own L-BFGS-B where scipy lacks its line search."""
    ftol = 64 * np.finfo(float).eps
    if lbfgs.available():
        x, _, nit, status, message = lbfgs.minimize(fun, x0, max_iter, gtol=tol, ftol=ftol, maxls=50)
        return x, nit, status, message
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
