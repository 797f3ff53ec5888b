"""The pair model's truncated Newton solver: its Hessian products, diagonal and curvature block against a
plain design matrix on every layout of the pairs, the block preconditioner's exactness, the cap."""

import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning

import coreflab.learn.pairwise.pair_logistic as pl
from coreflab.learn.pairwise import newton
from coreflab.learn.pairwise.pair_logistic import LogisticProblem, StorePairs, fit_logistic

from .problems import random_problem, shared_problem
from .reference_design import design_matrix


def layouts(seed):
    """(name, StorePairs, the flat store) of one problem read three ways: through shared rows, through the
    flat column copy, and through the id map (the path above the copy's budget)."""
    shared, flat, y, w = shared_problem(seed, n_arcs=150)
    arcs = np.arange(len(y))
    yield "shared rows", StorePairs(shared, arcs), flat, y, w
    yield "flat copy", StorePairs(flat, arcs), flat, y, w
    old, pl.COMPACT_BUDGET_BYTES = pl.COMPACT_BUDGET_BYTES, 0
    try:
        through = StorePairs(flat, arcs)
        through._layout(through.column_map())  # decided while the budget is 0
        yield "through the map", through, flat, y, w
    finally:
        pl.COMPACT_BUDGET_BYTES = old


@pytest.mark.parametrize("seed", [0, 1])
def test_products_diagonal_and_block_are_the_design_matrix_ones(seed):
    for name, pairs, flat, y, w in layouts(seed):
        cols = pairs.column_map()
        n = int(np.count_nonzero(cols >= 0))
        X, _ = design_matrix(flat, pairs.arcs)
        Xb = np.hstack([X.toarray(), np.ones((len(y), 1))])  # the intercept's column last
        scale, l2 = 0.7, 0.3
        problem = LogisticProblem(pairs, cols, n, y.astype(float), w, scale, l2)
        rng = np.random.default_rng(seed)
        x = rng.normal(size=n + 1)
        g = np.empty(n + 1)
        f = problem.value_grad(x, g)
        z = Xb @ x
        p = 1.0 / (1.0 + np.exp(-z))
        loss = np.sum(w * (np.logaddexp(0.0, z) - y * z))
        assert f == pytest.approx(scale * loss + 0.5 * l2 * x[:-1] @ x[:-1], rel=1e-12), name
        ridge = np.append(np.full(n, l2), 0.0)  # the intercept is not penalised
        np.testing.assert_allclose(g, scale * Xb.T @ (w * (p - y)) + ridge * x, rtol=1e-10, atol=1e-12)
        H = scale * Xb.T @ ((w * p * (1 - p))[:, None] * Xb) + np.diag(ridge)
        v, out = rng.normal(size=n + 1), np.empty(n + 1)
        problem.hessp(v, out)
        np.testing.assert_allclose(out, H @ v, rtol=1e-10, atol=1e-12, err_msg=name)
        problem.diagonal(out)
        np.testing.assert_allclose(out, np.diag(H), rtol=1e-10, atol=1e-12, err_msg=name)
        columns = np.sort(rng.choice(n, size=min(n, 12), replace=False))
        B, c, h = problem.curvature_block(columns)
        np.testing.assert_allclose(
            np.tril(B), np.tril(H[np.ix_(columns, columns)] - np.diag(ridge[columns])), atol=1e-12
        )
        np.testing.assert_allclose(c, H[columns, n], rtol=1e-10)
        assert h == pytest.approx(H[n, n], rel=1e-12)
        # above a cutoff, the pairs of smaller curvature are left out of the block
        d = w * p * (1 - p)
        keep = d > np.median(d)
        B2, _, h2 = problem.curvature_block(columns, cutoff=float(np.median(d)))
        Hk = scale * Xb[keep][:, columns].T @ (d[keep][:, None] * Xb[keep][:, columns])
        np.testing.assert_allclose(np.tril(B2), np.tril(Hk), atol=1e-12)
        assert h2 == pytest.approx(scale * d[keep].sum(), rel=1e-12)


def test_an_exact_block_solves_every_newton_system_in_one_product(monkeypatch):
    """With every column in the block (and every pair in it), the preconditioner is the Schur complement's
    inverse: CG takes one product per iteration, so the block is the system CG solves."""
    monkeypatch.setattr(newton, "BLOCK_MIN_RATIO", 0.0)
    monkeypatch.setattr(newton, "BLOCK_CUTOFF", 0.0)
    shared, _, y, w = shared_problem(3)
    pairs = StorePairs(shared, np.arange(len(y)))
    cols = pairs.column_map()
    n = int(np.count_nonzero(cols >= 0))
    problem = LogisticProblem(pairs, cols, n, y.astype(float), w, 1.0 / w.sum(), 1.0 / w.sum())
    products = []
    result = newton.minimize(
        problem, np.zeros(n + 1), 1e-12, 100, block=n, block_after=-1, callback=lambda *a: products.append(a[3])
    )
    assert result.converged and result.blocks == result.iterations
    assert products == [1] * result.iterations


@pytest.mark.parametrize("seed", [0, 4])
def test_the_block_preconditioner_changes_the_path_not_the_optimum(seed, monkeypatch):
    store, y, w = random_problem(seed, n_arcs=300)
    pairs = StorePairs(store, np.arange(len(y)))
    cols = pairs.column_map()
    n = int(np.count_nonzero(cols >= 0))
    fits = []
    for block in (0, 40):
        monkeypatch.setattr(newton, "BLOCK", block)
        monkeypatch.setattr(newton, "BLOCK_AFTER", 0)
        fits.append(fit_logistic(pairs, cols, n, y, w, tol=1e-11))
    assert fits[0].convergence["blocks"] == 0 and fits[1].convergence["blocks"] > 0
    np.testing.assert_allclose(fits[0].coef, fits[1].coef, rtol=1e-7, atol=1e-9)


def test_the_iteration_cap_stops_a_fit_that_warns_and_records_it():
    store, y, w = random_problem(2, n_arcs=200)
    pairs = StorePairs(store, np.arange(len(y)))
    cols = pairs.column_map()
    n = int(np.count_nonzero(cols >= 0))
    with pytest.warns(ConvergenceWarning, match=r"newton failed to converge after 1 iteration\(s\) \(status=1\)"):
        capped = fit_logistic(pairs, cols, n, y, w, max_iter=1)
    assert capped.n_iter == 1 and capped.convergence["status"] == 1 and not capped.convergence["converged"]
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)  # a converged fit does not warn
        done = fit_logistic(pairs, cols, n, y, w)
    rec = done.convergence
    assert rec["converged"] and rec["grad_norm_rel"] <= rec["tol"] == pl.TOL and rec["solver"] == "newton"
    assert rec["passes"] >= rec["cg_iterations"] + rec["iterations"]


def test_a_warm_start_at_the_optimum_takes_no_step():
    store, y, w = random_problem(6, n_arcs=200)
    pairs = StorePairs(store, np.arange(len(y)))
    cols = pairs.column_map()
    n = int(np.count_nonzero(cols >= 0))
    first = fit_logistic(pairs, cols, n, y, w, tol=1e-10)
    again = fit_logistic(pairs, cols, n, y, w, tol=1e-10, warm=(first.coef, first.intercept))
    assert again.n_iter == 0 and np.array_equal(again.coef, first.coef)


@pytest.mark.parametrize("seed", [0, 1])
def test_the_gradient_pass_adds_up_the_diagonal_pass_and_the_zero_pass_is_the_gradient_at_zero(seed):
    """The Hessian's diagonal comes with every gradient (no DIAGONAL pass), and ∇f(0) from a scatter-only
    ZERO pass: bit for bit the sums of the passes they replace, on every layout, leaving the state at x alone."""
    for name, pairs, _, y, w in layouts(seed):
        cols = pairs.column_map()
        n = int(np.count_nonzero(cols >= 0))
        problem = LogisticProblem(pairs, cols, n, y.astype(float), w, 0.7, 0.3)
        x, g = np.random.default_rng(seed).normal(size=n + 1), np.empty(n + 1)
        problem.value_grad(x, g)
        fused = np.empty(n + 1)
        problem.diagonal(fused)
        buf = pl.column_buffer(n, 2)
        buf[:] = 0.0
        _, d_b, _ = pairs.newton_pass(cols, pl.DIAGONAL, buf, 0.0, problem.y, w, problem.d, np.empty(len(y)))
        assert np.array_equal(fused[:-1], buf[:, 1] * problem.scale + problem.l2), name
        assert fused[-1] == d_b * problem.scale, name
        d, z = problem.d.copy(), problem.z.copy()
        g0 = problem.grad_norm_at_zero()
        assert np.array_equal(problem.d, d) and np.array_equal(problem.z, z), name
        problem.diagonal(fused)  # still the diagonal at x
        assert np.array_equal(fused[:-1], buf[:, 1] * problem.scale + problem.l2), name
        at_zero = np.empty(n + 1)
        problem.value_grad(np.zeros(n + 1), at_zero)
        assert g0 == float(np.sqrt(at_zero @ at_zero)), name


@pytest.mark.parametrize("seed", [1, 5])
def test_a_warm_start_reaches_the_optimum_of_a_cold_start(seed):
    """The criterion is relative to ‖∇f(0)‖ whatever the start, so a fit started far off (weights of
    another problem, scaled up: a gradient there larger than at 0) stops at the cold fit's optimum to
    the tolerance: f is μ-strongly convex (μ = l2), so both are within ‖∇f‖²/(2μ) of f* in objective
    and ‖∇f‖/μ of x* in weights. A criterion relative to the start's gradient stops short of it."""
    store, y, w = random_problem(seed, n_arcs=400)
    pairs = StorePairs(store, np.arange(len(y)))
    cols = pairs.column_map()
    n = int(np.count_nonzero(cols >= 0))
    other = fit_logistic(pairs, cols, n, ~y, np.ones(len(y)))  # the opposite labels
    start = (5.0 * other.coef, 5.0 * other.intercept)
    tol = 1e-4
    cold = fit_logistic(pairs, cols, n, y, w, tol=tol)
    warm = fit_logistic(pairs, cols, n, y, w, tol=tol, warm=start)
    rc, rw = cold.convergence, warm.convergence
    assert rc["converged"] and rw["converged"] and rc["grad_norm_zero"] == rw["grad_norm_zero"]
    problem = LogisticProblem(pairs, cols, n, y.astype(float), w, 1.0 / w.sum(), 1.0 / w.sum())
    g = np.empty(n + 1)
    problem.value_grad(np.append(*start), g)
    g0 = rw["grad_norm_zero"]
    assert float(np.sqrt(g @ g)) > 2 * g0  # steeper than at 0: a criterion relative to it would stop early
    assert rw["grad_norm"] <= tol * g0 and rc["grad_norm"] <= tol * g0
    mu = problem.l2  # both within (tol·g0)²/(2μ) of f* and tol·g0/μ of x*
    assert abs(rc["f"] - rw["f"]) <= (tol * g0) ** 2 / mu
    x_cold, x_warm = np.append(cold.coef, cold.intercept), np.append(warm.coef, warm.intercept)
    assert float(np.linalg.norm(x_cold - x_warm)) <= 2 * tol * g0 / mu
    assert rw["iterations"] > 0 and not np.array_equal(x_cold, x_warm)  # another path to the same optimum
    tight = [fit_logistic(pairs, cols, n, y, w, tol=1e-10, warm=s) for s in (None, start)]
    np.testing.assert_allclose(tight[0].coef, tight[1].coef, rtol=1e-6, atol=1e-8)
