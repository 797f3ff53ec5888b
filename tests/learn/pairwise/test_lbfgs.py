"""The pair model's L-BFGS: L-BFGS-B's steps without bounds (scipy's iterates), and the two-loop recursion by hand."""

import numpy as np
import pytest
from scipy import optimize

from coreflab.learn.pairwise import lbfgs

FTOL = 64 * np.finfo(float).eps


def logistic_problem(seed, n=300):
    """A weighted, L2-regularised logistic loss over sparse non-negative features (with intercept), and a start."""
    rng = np.random.default_rng(seed)
    p = int(rng.integers(5, 120))
    X = (rng.random((n, p)) < 0.1) * rng.exponential(3.0, (n, p))
    y = (rng.random(n) < 0.3).astype(float)
    lam = 10 ** rng.uniform(-4, -1)

    def fun(w):
        z = X @ w[:-1] + w[-1]
        r = (1.0 / (1.0 + np.exp(-z)) - y) / n
        g = np.empty_like(w)
        g[:-1], g[-1] = X.T @ r + lam * w[:-1], r.sum()
        return float(np.sum(np.logaddexp(0.0, z) - y * z) / n + 0.5 * lam * w[:-1] @ w[:-1]), g

    return fun, rng.normal(0.0, 1.0, p + 1)


def scipy_lbfgsb(fun, x0, max_iter, gtol):
    return optimize.minimize(
        fun, x0, method="L-BFGS-B", jac=True, options={"maxiter": max_iter, "maxls": 50, "gtol": gtol, "ftol": FTOL}
    )


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("max_iter", [1, 2, 5, 12, 30])
def test_iterates_are_scipys_lbfgsb(seed, max_iter):
    """Stopped after 1..30 iterations (the memory of 10 pairs wraps after 10), from a random start: scipy's
    iterate, status and iteration count, up to rounding (the compact form sums in another order)."""
    fun, x0 = logistic_problem(seed)
    ref = scipy_lbfgsb(fun, x0, max_iter, 1e-5)
    x, f, nit, status, _ = lbfgs.minimize(fun, x0, max_iter, gtol=1e-5, ftol=FTOL)
    assert (nit, status) == (ref.nit, ref.status)
    np.testing.assert_allclose(x, ref.x, rtol=1e-8, atol=1e-10)
    assert f == pytest.approx(ref.fun, rel=1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_converges_to_scipys_optimum(seed):
    fun, x0 = logistic_problem(seed)
    ref = scipy_lbfgsb(fun, x0, 5000, 1e-9)
    x, f, nit, status, message = lbfgs.minimize(fun, x0, 5000, gtol=1e-9, ftol=FTOL)
    assert status == ref.status == 0 and message.startswith("CONVERGENCE")
    assert nit < 5000
    np.testing.assert_allclose(x, ref.x, rtol=1e-5, atol=1e-6)  # strictly convex: one optimum
    assert np.abs(fun(x)[1]).max() <= 1e-9 or (ref.fun - f) <= FTOL * max(abs(f), 1.0) * 10


def test_a_start_at_the_optimum_takes_no_step():
    def fun(x):
        return float((x - 2.0) @ (x - 2.0)), 2.0 * (x - 2.0)

    x, f, nit, status, message = lbfgs.minimize(fun, np.full(3, 2.0), 10, gtol=1e-8, ftol=FTOL)
    assert (nit, status, f) == (0, 0, 0.0) and "PROJECTED_GRADIENT" in message
    np.testing.assert_array_equal(x, [2.0, 2.0, 2.0])


def test_a_quadratic_is_solved_exactly_by_the_first_steps():
    # f = ½ xᵀAx − bᵀx in 2D: BFGS with exact-enough line searches reaches A⁻¹b in a few steps
    A, b = np.array([[3.0, 1.0], [1.0, 2.0]]), np.array([1.0, -1.0])

    def fun(x):
        return float(0.5 * x @ A @ x - b @ x), A @ x - b

    x, _, nit, status, _ = lbfgs.minimize(fun, np.zeros(2), 50, gtol=1e-12, ftol=0.0)
    np.testing.assert_allclose(x, np.linalg.solve(A, b), atol=1e-11)
    assert status == 0 and nit <= 6


@pytest.mark.parametrize("seed", range(6))
def test_failed_line_searches_restart_and_end_as_lbfgsb_does(seed):
    """One evaluation per line search (maxls=1): searches fail, the memory is dropped and the iteration
    restarts from −g, and a failure from −g ends the run (status 2 on seeds 1, 3, 5): all as scipy's."""
    fun, x0 = logistic_problem(seed)
    ref = optimize.minimize(
        fun, x0, method="L-BFGS-B", jac=True, options={"maxiter": 40, "maxls": 1, "gtol": 1e-5, "ftol": FTOL}
    )
    x, _, nit, status, _ = lbfgs.minimize(fun, x0, 40, gtol=1e-5, ftol=FTOL, maxls=1)
    assert (nit, status) == (ref.nit, ref.status)
    np.testing.assert_allclose(x, ref.x, rtol=1e-8, atol=1e-10)
    if seed in (1, 3, 5):
        assert status == 2


def bfgs_inverse(pairs, gamma, n):
    """H of the BFGS inverse update applied to H0 = gamma·I for each (s, y), oldest first (the textbook formula)."""
    H = gamma * np.eye(n)
    for s, y in pairs:
        rho = 1.0 / (s @ y)
        V = np.eye(n) - rho * np.outer(y, s)
        H = V.T @ H @ V + rho * np.outer(s, s)
    return H


@pytest.mark.parametrize("k", [0, 1, 3, 4])
def test_two_loop_direction_is_minus_h_g(k):
    """The fused two-loop recursion against the dense BFGS matrix, with the pairs stored in ring order."""
    rng = np.random.default_rng(k)
    n, m = 5, 4
    memory = lbfgs.Memory(n, m)
    pairs = []
    for _ in range(k + 2):  # more pairs than slots once k = 3, 4: the oldest are dropped
        s = rng.normal(size=n)
        y = s + 0.3 * rng.normal(size=n)  # s·y > 0
        g_old = rng.normal(size=n)
        memory.push(s, 1.0, g_old + y, g_old, float(s @ y))
        pairs = (pairs + [(s, y)])[-m:]
    if k == 0:
        memory.clear()
        pairs = []
    gamma = memory.gamma if pairs else 1.0
    g = rng.normal(size=n)
    d = np.empty(n)
    memory.direction(g, d)
    np.testing.assert_allclose(d, -bfgs_inverse(pairs, gamma, n) @ g, rtol=1e-10, atol=1e-12)
    if pairs:
        s, y = pairs[-1]
        assert gamma == pytest.approx((s @ y) / (y @ y))
