"""Truncated Newton with a line search, for the pair model, run to a stated tolerance.

L-BFGS stops the pair model at its iteration cap far from the optimum: where it stops moves
with the order of floating-point sums, by up to 3 table points. The objective is
f(x) = scale·Σ_i s_i·ℓ(x_i·w + b) + l2/2·‖w‖² over x = (w, b) (b, the intercept, not penalised;
binary features), weakly regularised and badly conditioned: near the optimum most pairs are
confidently classified and add almost no curvature, so the directions that trade a few thousand
columns of the uncertain pairs against each other are held only by the L2 term, and a diagonal
(Jacobi) preconditioner leaves conjugate gradients with a condition number in the tens of
thousands (GUM: hundreds of Hessian products per Newton iteration near the end). This module is
liblinear's truncated Newton method (Galli & Lin 2021; newton.cpp of liblinear 2.4x: CG for the
Newton system, a backtracking line search evaluated from X·s, the criterion ‖∇f‖ ≤ tol·‖∇f(0)‖),
with two changes for this problem:

- the intercept is eliminated from the Newton system (a Schur complement: CG solves for s_w with
  S = H_ww − c·cᵀ/h_bb, c = H_wb, then s_b = −(g_b + c·s_w)/h_bb; the same Newton step), so the
  directions that trade the intercept against columns present in most pairs do not look flat;
- the preconditioner is exact on the `block` columns of largest curvature (the dense block S_KK,
  built from the pairs by `problem.curvature_block` and factorised by Cholesky) and diagonal on the
  rest. On a 30-document GUM sample (400k pairs) a block of 4,000 columns cut CG's condition
  number from 27,000 to 800; the block is built only once CG needs more than `block_after`
  products, as the early iterations take few.

Each iteration: CG until ‖r‖ ≤ η·‖rhs‖ with η = min(0.5, √(‖g‖/‖g(0)‖)) (superlinear forcing,
Eisenstat & Walker; but not below what meeting the tolerance needs, ½·tol·‖g(0)‖/‖g‖), at most
`max_cg` products; then the largest step of 1, ½, ¼, … (at most
`max_ls`) meeting Armijo's condition f(x + t·s) − f(x) ≤ 0.01·t·g·s. Near the optimum the decrease
the model predicts is below what f's rounding resolves (F_ROUNDING): the full step is then taken
unless it raises f beyond that rounding. The run stops converged when ‖∇f(x)‖₂ ≤ tol·‖∇f(0)‖₂
(relative to the gradient at zero, so a warm start does not loosen it), with status 1 at
`max_iter` iterations, and status 2 if the line search fails or the gradient stops decreasing
(`STALLED` iterations in a row: rounding has the last word).

The problem is an object with `n` (variables, the intercept last), `l2`, `grad_norm_at_zero()`,
`value_grad(x, g)` (f, g written; the curvature at x kept), and at that x `diagonal(out)`,
`hessp(v, out)` and `curvature_block(columns)`; and, for the direction s CG builds,
`direction_begin()`, `direction_add(t)` (s += t·v of the last `hessp`), `direction_add_intercept(t)`
and `line_losses(x, s, steps)` (f at x + t·s for each t): `pair_logistic.LogisticProblem`.
"""

from dataclasses import asdict, dataclass

import numpy as np
from numba import njit
from scipy import linalg
from scipy.linalg import blas

ETA = 0.01  # Armijo's sufficient decrease
F_ROUNDING = 1e-12  # a predicted decrease below F_ROUNDING·|f| is rounding: the full step, unless f grows more
STALLED = 3  # iterations in a row without a smaller gradient: rounding has the last word, the run stops
BLOCK = 4000  # columns the preconditioner is exact on (a dense block of BLOCK² doubles: 128 MB)
BLOCK_AFTER = 10  # build the block once an iteration's CG took more products than this
BLOCK_MIN_RATIO = 2.0  # ... over columns whose diagonal is at least this times l2 (the rest is Jacobi-easy)
BLOCK_CUTOFF = 1e-2  # ... from the pairs of curvature d_i = s_i·p_i(1 − p_i) above this (GUM: 8% near the optimum)
FORCING_MARGIN = 0.5  # CG need not reduce the residual below this times the gradient the tolerance asks for


@dataclass
class Result:
    """What a run did: the solution, and the convergence record kept with every fit."""

    x: np.ndarray
    f: float
    iterations: int  # Newton iterations (accepted steps)
    cg_iterations: int  # Hessian-vector products, over all iterations
    line_search_steps: int  # step lengths tried, over all iterations
    blocks: int  # block preconditioners built
    status: int  # 0 converged, 1 iteration cap, 2 line search failed / the gradient stopped decreasing
    message: str
    grad_norm: float  # ‖∇f(x)‖₂ at the end
    grad_norm_zero: float  # ‖∇f(0)‖₂, the reference of the criterion
    rel_decrease: float  # |f_old − f| / |f| of the last step (0 if none)
    tol: float

    @property
    def converged(self):
        return self.status == 0

    def record(self):
        """The JSON-able convergence record (no x)."""
        out = asdict(self)
        del out["x"]
        out["converged"] = self.converged
        out["grad_norm_rel"] = self.grad_norm / self.grad_norm_zero if self.grad_norm_zero > 0 else 0.0
        return out


def minimize(problem, x0, tol, max_iter, block=None, block_after=None, max_cg=2000, max_ls=30, callback=None):
    """Minimise problem's objective from x0 until ‖∇f‖ ≤ tol·‖∇f(0)‖ (module docstring): a `Result`.
    block, block_after: BLOCK and BLOCK_AFTER unless given; callback(iteration, f, ‖g‖, CG products,
    step) after every iteration, if given."""
    block = BLOCK if block is None else block
    block_after = BLOCK_AFTER if block_after is None else block_after
    n = problem.n
    l2 = problem.l2
    x = np.array(x0, dtype=np.float64)
    g = np.empty(n, dtype=np.float64)
    f = problem.value_grad(x, g)
    gnorm = float(np.sqrt(g @ g))
    g0 = gnorm if not x.any() else problem.grad_norm_at_zero()  # a cold start's first gradient is ∇f(0)
    s = np.empty(n, dtype=np.float64)
    m = np.empty(n, dtype=np.float64)
    work = [np.empty(n - 1, dtype=np.float64) for _ in range(4)]
    full_v, full_out = np.zeros(n, dtype=np.float64), np.empty(n, dtype=np.float64)
    iterations = cg_total = ls_total = stalled = blocks = 0
    cg = 0
    rel = 0.0

    def result(status, message):
        return Result(x, f, iterations, cg_total, ls_total, blocks, status, message, gnorm, g0, rel, tol)

    while gnorm > tol * g0:
        if iterations >= max_iter:
            return result(1, "STOP: ITERATION CAP")
        problem.diagonal(m)
        c = m[:-1] - l2  # binary features: H_wb = Σ_i d_i·x_ij, the data part of H's diagonal
        hbb = m[-1]
        diag_s = m[:-1] - c * (c / hbb)  # the Schur complement's diagonal
        rhs = g[:-1] - c * (g[-1] / hbb)
        precondition = _jacobi(diag_s)
        if block and cg > block_after:
            precondition = _block_jacobi(problem, diag_s, block, l2)
            blocks += 1

        def apply(v, out, c=c, hbb=hbb):  # S·v = H_ww·v − c·(cᵀv)/h_bb, from H·(v, 0)
            full_v[:-1] = v
            problem.hessp(full_v, full_out)
            _subtract_scaled(full_out, c, full_out[-1] / hbb, out)

        # superlinear forcing, but no tighter than this iteration needs to meet the tolerance
        eta = max(min(0.5, np.sqrt(gnorm / g0)), min(0.5, FORCING_MARGIN * tol * g0 / gnorm))
        problem.direction_begin()
        cg = _pcg(apply, problem.direction_add, precondition, rhs, s[:-1], *work, eta, max_cg)
        cg_total += cg
        s[-1] = -(g[-1] + float(c @ s[:-1])) / hbb
        problem.direction_add_intercept(s[-1])
        gs = float(g @ s)
        if not gs < 0.0:
            return result(2, "ABNORMAL: NOT A DESCENT DIRECTION")
        step, _, tried = _armijo(problem, x, s, f, gs, max_ls)
        ls_total += tried
        if step == 0.0:
            return result(2, "ABNORMAL: LINE SEARCH FAILED")
        x += step * s
        f_old, gnorm_old = f, gnorm
        f = problem.value_grad(x, g)
        gnorm = float(np.sqrt(g @ g))
        iterations += 1
        rel = abs(f_old - f) / max(abs(f), np.finfo(float).tiny)
        if callback is not None:
            callback(iterations, f, gnorm, cg, step)
        stalled = stalled + 1 if gnorm >= gnorm_old else 0
        if stalled >= STALLED and gnorm > tol * g0:
            return result(2, "ABNORMAL: THE GRADIENT STOPPED DECREASING")
    return result(0, "CONVERGENCE: ‖g‖ ≤ tol·‖g(0)‖")


def _jacobi(diag):
    def precondition(r, out):
        np.divide(r, diag, out=out)

    return precondition


def _block_jacobi(problem, diag_s, block, l2):
    """M⁻¹ exact on the block of the `block` columns of largest Schur diagonal (at least
    BLOCK_MIN_RATIO·l2; ties to the lower column), diagonal on the rest; Jacobi if no column qualifies."""
    # ranked on 7 significant digits (float32), ties to the lower column: a rounding difference (another
    # order of the same sums) does not change which columns are in the block
    order = np.argsort(-diag_s.astype(np.float32), kind="stable")[:block]
    columns = np.sort(order[diag_s[order] >= BLOCK_MIN_RATIO * l2])
    if columns.shape[0] == 0:
        return _jacobi(diag_s)
    B, c, h = problem.curvature_block(columns, BLOCK_CUTOFF)
    # S_KK = l2·I + Σ d_i x_iK x_iKᵀ − c·cᵀ/h: the Schur complement of the block with the intercept
    # (c, h of the same pairs as B, so it stays positive definite); lower triangle only
    B = blas.dsyr(-1.0 / h, c, lower=1, a=B, overwrite_a=1)  # in place, lower triangle
    B[np.diag_indices_from(B)] += l2
    factor = linalg.cho_factor(B, lower=True, overwrite_a=True, check_finite=False)

    def precondition(r, out):
        np.divide(r, diag_s, out=out)
        out[columns] = linalg.cho_solve(factor, r[columns], check_finite=False)

    return precondition


def _pcg(apply, accumulate, precondition, g, s, r, d, hd, z, eta, max_cg):
    """s ≈ −A⁻¹g by preconditioned conjugate gradients (A·v = apply(v, out), M⁻¹ = precondition),
    until ‖r‖ ≤ eta·‖g‖; the number of products. accumulate(t) as t·d is added to s (the problem
    keeps X·s alongside)."""
    s[:] = 0.0
    np.negative(g, out=r)
    precondition(r, z)
    d[:] = z
    ztr = float(z @ r)
    target = eta * float(np.sqrt(g @ g))
    it = 0
    while it < max_cg:
        it += 1
        apply(d, hd)
        dhd = float(d @ hd)
        if not dhd > 0.0:  # a zero direction (or rounding): nothing left to solve
            break
        alpha = ztr / dhd
        _cg_step(alpha, d, hd, s, r)  # s += α·d, r −= α·hd
        accumulate(alpha)
        if float(np.sqrt(r @ r)) <= target:
            break
        precondition(r, z)
        ztr_new = float(z @ r)
        _cg_direction(ztr_new / ztr, z, d)  # d = d·β + z
        ztr = ztr_new
    return it


# CG's vector updates in one sweep each over the vectors (numpy's would make a temporary and a second
# sweep), with numpy's roundings: each product rounded, then the sum (no fused multiply-add), so the
# iterates are bit for bit those of the numpy expressions in the comments.
@njit(cache=True)
def _subtract_scaled(h, c, t, out):
    """out = h[:len(out)] − c·t (np.multiply, then np.subtract)."""
    for j in range(out.shape[0]):
        out[j] = h[j] - c[j] * t


@njit(cache=True)
def _cg_step(alpha, d, hd, s, r):
    """s += α·d; r −= α·hd."""
    for j in range(s.shape[0]):
        s[j] += alpha * d[j]
        r[j] -= alpha * hd[j]


@njit(cache=True)
def _cg_direction(beta, z, d):
    """d *= β; d += z."""
    for j in range(d.shape[0]):
        d[j] = d[j] * beta + z[j]


def _armijo(problem, x, s, f, gs, max_ls):
    """(step, f at x + step·s, steps tried): 1, ½, ¼, ... until Armijo's condition holds; step 0 if none does.
    Near the optimum the decrease the quadratic model predicts (−½·g·s) is below what f's rounding
    resolves: then the full step is taken unless it raises f beyond that rounding."""
    if -0.5 * gs <= F_ROUNDING * abs(f):
        f_new = problem.line_losses(x, s, np.array([1.0]))[0]
        return (1.0, f_new, 1) if f_new - f <= F_ROUNDING * abs(f) else (0.0, f, 1)
    step = 1.0
    for k in range(max_ls):
        f_new = problem.line_losses(x, s, np.array([step]))[0]
        if f_new - f <= ETA * step * gs:
            return step, f_new, k + 1
        step *= 0.5
    return 0.0, f, max_ls
