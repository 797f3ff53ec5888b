"""Unbounded L-BFGS that takes the steps scipy's L-BFGS-B takes, at a fraction of its cost per iteration.

The pair model has a weight per hashed feature (3.5M on GUM), and at that size scipy's L-BFGS-B spent
about as long in its own bookkeeping (the compact representation, the Cauchy point, the subspace
minimisation, the copies its Python driver makes of x and g) as in our loss and gradient pass. Without
bounds every variable is free, and L-BFGS-B's step is then the quasi-Newton step −H·g of the usual
L-BFGS matrix: the generalized Cauchy point is x − g/θ and the subspace minimisation over all
variables lands on the model's minimiser. So this module computes that step with the two-loop
recursion, and copies the rest of L-BFGS-B (Byrd, Lu, Nocedal & Zhu 1995; version 3.0 as scipy runs
it) where it decides anything:

- the first step of a run is 1/‖d‖ (the first direction is −g), every later one starts at 1;
- the line search is MINPACK-2's dcsrch (Moré & Thuente 1994) with ftol 1e-3, gtol 0.9, xtol 0.1 and
  steps in [0, 1e10], at most `maxls` evaluations; when it fails, the memory is dropped and the
  iteration restarts from steepest descent (a second failure there ends the run, status 2);
- a pair (s, y) is kept only if s·y > ε·(−g·s), with s·y taken as (g_new·d − g_old·d)·step, and
  the oldest of `m` pairs is dropped; the initial matrix is (s·y / y·y)·I of the newest pair;
- an iteration ends when a step is accepted: the run stops there at `max_iter` iterations
  (status 1), else if max|g| ≤ gtol or (f_old − f) ≤ ftol·max(|f_old|, |f|, 1) (status 0).

The two recursions differ from L-BFGS-B's compact form only in floating-point rounding:
tests/learn/pairwise/test_lbfgs.py checks the iterates against scipy's, stopped early and run to the
optimum. The line search is scipy's own `DCSRCH` (a Python translation of dcsrch in
scipy.optimize._dcsrch); where a scipy release lacks it, `available()` is False and callers use
scipy's L-BFGS-B instead.
"""

import numpy as np
from numba import njit

DCSRCH = ...  # scipy's line search class once imported (None: this scipy lacks it)

STEP_MAX = 1e10  # L-BFGS-B's `big`: the line search's upper bound on the step
LINE_SEARCH = {"ftol": 1e-3, "gtol": 0.9, "xtol": 0.1}  # L-BFGS-B's lnsrlb constants


def _dcsrch_class():
    """scipy's DCSRCH, imported at first use: scipy.optimize would add 0.2 s to every command's start."""
    global DCSRCH
    if DCSRCH is ...:
        try:  # scipy >= 1.13 (the dcsrch translation; pyproject.toml asks for it); private, so guarded
            from scipy.optimize._dcsrch import DCSRCH as found
        except ImportError:  # pragma: no cover - exercised only on old scipy
            found = None
        DCSRCH = found
    return DCSRCH


def available():
    """True if this scipy has the line search this module needs."""
    return _dcsrch_class() is not None


@njit(cache=True)
def _two_loop(g, S, Y, rho, order, gamma, alpha, d):
    """d = −H·g for the L-BFGS matrix of the pairs S[i], Y[i] (i in `order`, oldest first), H0 = gamma·I.

    Each pass over n fuses one recursion step's update of d with the next step's dot product, so d is
    read and written once per stored pair and direction (2m + 1 passes over the vectors, not 4m)."""
    n = g.shape[0]
    k = order.shape[0]
    if k == 0:
        for j in range(n):
            d[j] = -g[j]
        return
    newest = order[k - 1]
    a = 0.0
    for j in range(n):  # d = −g and the first backward dot s_newest·d
        v = -g[j]
        d[j] = v
        a += S[newest, j] * v
    for t in range(k - 1, -1, -1):  # backward: α_i = ρ_i s_i·d, d −= α_i y_i (fused with the next s·d)
        i = order[t]
        a *= rho[i]
        alpha[i] = a
        nxt = order[t - 1] if t > 0 else -1
        a = 0.0
        if nxt >= 0:
            for j in range(n):
                v = d[j] - alpha[i] * Y[i, j]
                d[j] = v
                a += S[nxt, j] * v
        else:  # the last backward update, the initial matrix, and the first forward dot y_oldest·d
            first = order[0]
            for j in range(n):
                v = (d[j] - alpha[i] * Y[i, j]) * gamma
                d[j] = v
                a += Y[first, j] * v
    for t in range(k):  # forward: β_i = ρ_i y_i·d, d += (α_i − β_i) s_i (fused with the next y·d)
        i = order[t]
        c = alpha[i] - rho[i] * a
        a = 0.0
        if t + 1 < k:
            nxt = order[t + 1]
            for j in range(n):
                v = d[j] + c * S[i, j]
                d[j] = v
                a += Y[nxt, j] * v
        else:
            for j in range(n):
                d[j] += c * S[i, j]


@njit(cache=True)
def _step(x0, d, step, out):
    """out = x0 + step·d."""
    for j in range(x0.shape[0]):
        out[j] = x0[j] + step * d[j]


@njit(cache=True)
def _abs_max(g):
    m = 0.0
    for j in range(g.shape[0]):
        v = abs(g[j])
        if v > m:
            m = v
    return m


class Memory:
    """The last `m` correction pairs (s, y) as rows of two (m, n) arrays, oldest first in `order`."""

    def __init__(self, n, m):
        self.S = np.empty((m, n), dtype=np.float64)
        self.Y = np.empty((m, n), dtype=np.float64)
        self.rho = np.zeros(m, dtype=np.float64)
        self.alpha = np.zeros(m, dtype=np.float64)
        self.m = m
        self.clear()

    def clear(self):
        self.order = np.empty(0, dtype=np.int64)
        self.gamma = 1.0

    def __len__(self):
        return int(self.order.shape[0])

    def push(self, d, step, g_new, g_old, sy):
        """Keep s = step·d and y = g_new − g_old (s·y = sy), dropping the oldest pair when full."""
        slot = len(self) if len(self) < self.m else int(self.order[0])
        np.multiply(d, step, out=self.S[slot])
        y = np.subtract(g_new, g_old, out=self.Y[slot])
        self.rho[slot] = 1.0 / sy
        self.gamma = sy / float(y @ y)
        self.order = np.append(self.order if len(self) < self.m else self.order[1:], slot)

    def direction(self, g, d):
        _two_loop(g, self.S, self.Y, self.rho, self.order, self.gamma, self.alpha, d)


def minimize(fun, x0, max_iter, gtol, ftol, m=10, maxls=50):
    """(x, f, n_iterations, status, message) minimising fun(x) -> (f, g) from x0, as L-BFGS-B would.

    status 0: converged (max|g| ≤ gtol, or the relative decrease of f ≤ ftol); 1: `max_iter`
    iterations; 2: the line search failed from steepest descent. `fun` may reuse its g array only
    if it never hands the same array out twice in a row (the previous gradient is kept).
    """
    x = np.array(x0, dtype=np.float64)
    n = x.shape[0]
    f, g = fun(x)
    f = float(f)
    if _abs_max(g) <= gtol:
        return x, f, 0, 0, "CONVERGENCE: NORM_OF_PROJECTED_GRADIENT_<=_PGTOL"
    memory = Memory(n, m)
    d = np.empty(n, dtype=np.float64)
    x_new = np.empty(n, dtype=np.float64)
    eps = np.finfo(np.float64).eps
    accepted = 0  # L-BFGS-B's `iter`: steps taken in this run (the first one is 1/‖d‖ long)
    while True:
        memory.direction(g, d)
        found = _line_search(fun, x, f, g, d, 1.0 / np.sqrt(d @ d) if accepted == 0 else 1.0, maxls, x_new)
        if found is None:  # restart from steepest descent, or give up if this already was it
            if len(memory) == 0:
                return x, f, accepted, 2, "ABNORMAL_TERMINATION_IN_LNSRCH"
            memory.clear()
            continue
        step, f_new, g_new, gd_new, gd_old = found
        x, x_new = x_new, x
        f_old, g_old = f, g
        f, g = f_new, g_new
        accepted += 1
        if accepted >= max_iter:
            return x, f, accepted, 1, "STOP: TOTAL NO. OF ITERATIONS REACHED LIMIT"
        if _abs_max(g) <= gtol:
            return x, f, accepted, 0, "CONVERGENCE: NORM_OF_PROJECTED_GRADIENT_<=_PGTOL"
        if f_old - f <= ftol * max(abs(f_old), abs(f), 1.0):
            return x, f, accepted, 0, "CONVERGENCE: REL_REDUCTION_OF_F_<=_FACTR*EPSMCH"
        sy = (gd_new - gd_old) * step
        if sy > eps * (-gd_old * step):
            memory.push(d, step, g, g_old, sy)


def _line_search(fun, x, f, g, d, step, maxls, x_new):
    """(step, f, g, g·d at the step, g·d at x) of an acceptable step along d, with x_new = x + step·d; None if it fails."""
    gd = float(g @ d)
    if not gd < 0.0:  # not a descent direction: L-BFGS-B's info = -4
        return None
    search = _dcsrch_class()(None, None, LINE_SEARCH["ftol"], LINE_SEARCH["gtol"], LINE_SEARCH["xtol"], 0.0, STEP_MAX)
    step = min(step, STEP_MAX)
    step, _, _, task = search._iterate(step, f, gd, b"START")
    for _ in range(maxls):
        _step(x, d, step, x_new)
        f_new, g_new = fun(x_new)
        f_new = float(f_new)
        gd_new = float(g_new @ d)
        step_taken = step
        step, _, _, task = search._iterate(step, f_new, gd_new, task)
        if task[:4] in (b"CONV", b"WARN"):
            return step_taken, f_new, g_new, gd_new, gd
        if task[:5] == b"ERROR":
            return None
    return None
