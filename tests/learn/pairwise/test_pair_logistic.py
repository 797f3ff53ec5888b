"""The arc-store logistic regression: scikit-learn's lbfgs objective and path, binary features, unseen ids."""

import warnings
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression

from coreflab.learn.pairwise.pair_logistic import StorePairs, column_map_of, fit_logistic, probabilities

from .reference_design import design_matrix


def store_of(rows, n_bits=8):
    """An arc store holding only the given feature rows (one arc per row)."""
    offsets = np.zeros(len(rows) + 1, dtype=np.int64)
    np.cumsum([len(r) for r in rows], out=offsets[1:])
    feats = np.array([f for r in rows for f in r], dtype=np.int32)
    return SimpleNamespace(n_bits=n_bits, arc_feats=feats, arc_feat_offsets=offsets)


def random_problem(seed, n_arcs=60, n_bits=7, dup=0.2):
    """Random arcs (some listing an id twice), labels from a noisy linear rule, weights in [0.5, 3]."""
    rng = np.random.default_rng(seed)
    truth = rng.normal(0, 1.5, 2**n_bits)
    rows, y = [], []
    for _ in range(n_arcs):
        r = rng.choice(2**n_bits, size=int(rng.integers(1, 8)), replace=False).tolist()
        if rng.random() < dup:
            r.insert(int(rng.integers(0, len(r) + 1)), r[int(rng.integers(0, len(r)))])
        rows.append(r)
        y.append(truth[list(set(r))].sum() + rng.normal() > 0)
    y = np.array(y)
    if y.all() or not y.any():
        y[0] = not y[0]
    return store_of(rows, n_bits), y, rng.uniform(0.5, 3.0, n_arcs)


def fit_on_store(store, y, weights=None, C=1.0, **opts):
    pairs = StorePairs(store, np.arange(len(store.arc_feat_offsets) - 1))
    cols = pairs.column_map()
    n = int(np.count_nonzero(cols >= 0))
    coef, intercept, _ = fit_logistic(pairs, cols, n, y, np.ones(len(y)) if weights is None else weights, C=C, **opts)
    return pairs, cols, coef, intercept


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**16), st.booleans(), st.sampled_from([0.3, 1.0, 4.0]))
def test_optimum_equals_scikit_learn(seed, weighted, C):
    store, y, w = random_problem(seed)
    sw = w if weighted else None
    pairs, cols, coef, intercept = fit_on_store(store, y, sw, C=C, tol=1e-10, max_iter=10000)
    X, ids = design_matrix(store, pairs.arcs)
    assert np.flatnonzero(cols >= 0).tolist() == ids  # columns in ascending id order, as saved models expect
    ref = LogisticRegression(C=C, solver="lbfgs", tol=1e-10, max_iter=10000).fit(X, y, sample_weight=sw)
    np.testing.assert_allclose(coef, ref.coef_.ravel(), rtol=1e-5, atol=1e-7)
    assert intercept == pytest.approx(ref.intercept_[0], rel=1e-5, abs=1e-7)


@pytest.mark.parametrize("max_iter", [3, 8])
def test_unconverged_path_follows_scikit_learn_and_warm_start(max_iter):
    """Same scaling and L-BFGS-B options: stopped early (and warm-started), still the same iterate."""
    store, y, w = random_problem(5, n_arcs=200)
    flipped = y.copy()
    flipped[::7] = ~flipped[::7]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        pairs, cols, coef, b = fit_on_store(store, y, w, tol=1e-4, max_iter=max_iter)
        X, _ = design_matrix(store, pairs.arcs)
        ref = LogisticRegression(C=1.0, tol=1e-4, max_iter=max_iter, warm_start=True).fit(X, y, sample_weight=w)
        np.testing.assert_allclose(coef, ref.coef_.ravel(), rtol=1e-7, atol=1e-9)
        coef2, b2, _ = fit_logistic(pairs, cols, len(coef), flipped, w, tol=1e-4, max_iter=max_iter, warm=(coef, b))
        ref.fit(X, flipped, sample_weight=w)
    np.testing.assert_allclose(coef2, ref.coef_.ravel(), rtol=1e-7, atol=1e-9)
    assert b2 == pytest.approx(ref.intercept_[0], rel=1e-7, abs=1e-9)


def test_an_id_repeated_within_an_arc_counts_once():
    # by hand: arc 0 lists id 5 twice; w(5) = 1.5, w(7) = -0.25, b = 0.1 -> 0.1 + 1.5 - 0.25 (not + 3.0)
    store = store_of([[5, 7, 5], [7], [9, 9, 9]])
    pairs = StorePairs(store, np.arange(3))
    assert pairs.dup.tolist() == [1, 0, 1]
    cols = pairs.column_map()
    assert np.flatnonzero(cols >= 0).tolist() == [5, 7, 9]
    z = pairs.decision(cols, np.array([1.5, -0.25, 2.0]), 0.1)
    np.testing.assert_allclose(z, [1.35, -0.15, 2.1])
    # the fit too: the same coefficients as on the arcs with the repeats removed
    y = np.array([True, False, True, False])
    with_dups = store_of([[5, 7, 5], [7], [9, 9, 9], [5, 9, 5, 3]])
    without = store_of([[5, 7], [7], [9], [5, 9, 3]])
    a, b = fit_on_store(with_dups, y, tol=1e-10)[2:], fit_on_store(without, y, tol=1e-10)[2:]
    np.testing.assert_array_equal(a[0], b[0])
    assert a[1] == b[1]


def test_unseen_ids_are_ignored_when_scoring():
    train = store_of([[1, 2], [2, 3], [1, 3], [3]])
    pairs, cols, coef, b = fit_on_store(train, np.array([True, False, True, False]), tol=1e-10)
    test = StorePairs(store_of([[1, 40, 2], [50, 60], [3, 3, 70]]), np.arange(3))
    z = test.decision(cols, coef, b)
    w = dict(zip([1, 2, 3], coef))
    np.testing.assert_allclose(z, [b + w[1] + w[2], b, b + w[3]])
    # a saved model's feature ids give the same column map
    np.testing.assert_array_equal(column_map_of(np.flatnonzero(cols >= 0).tolist(), train.n_bits), cols)


def test_probabilities_are_the_logistic_function():
    z = np.array([-800.0, -2.0, 0.0, 3.0])
    with np.errstate(over="ignore"):
        np.testing.assert_allclose(probabilities(z.copy()), [0.0, 1 / (1 + np.e**2), 0.5, 1 / (1 + np.e**-3)])


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**16))
def test_flat_column_copy_fits_bit_for_bit_like_the_map(seed):
    """The fast path (each pair's columns copied flat) and the memory-bounded path (through the id map)
    give the very same loss, gradient and fitted weights: same sums, same order."""
    import coreflab.learn.pairwise.pair_logistic as pl

    store, y, w = random_problem(seed, n_arcs=120, dup=0.5)
    fits = []
    for budget in (pl.COMPACT_BUDGET_BYTES, 0):
        old, pl.COMPACT_BUDGET_BYTES = pl.COMPACT_BUDGET_BYTES, budget
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ConvergenceWarning)
                pairs, cols, coef, b = fit_on_store(store, y, w, tol=1e-6, max_iter=50)
            grad = np.zeros(len(coef) + 1)
            loss = pairs.loss_grad(cols, y.astype(float), w, coef, b, grad)
            fits.append((pairs._layout(cols) is not None, coef, b, loss, grad))
        finally:
            pl.COMPACT_BUDGET_BYTES = old
    (flat_a, *a), (flat_b, *b) = fits
    assert flat_a and not flat_b  # the two paths were both taken
    for x, z in zip(a, b):
        assert np.array_equal(x, z)


@pytest.mark.parametrize("max_iter", [4, 15])
def test_scipys_lbfgsb_where_the_line_search_is_missing_takes_the_same_steps(monkeypatch, max_iter):
    """On a scipy without scipy.optimize._dcsrch, fits run scipy's own L-BFGS-B: the same iterates."""
    from coreflab.learn.pairwise import lbfgs

    store, y, w = random_problem(11, n_arcs=150)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        ours = fit_on_store(store, y, w, tol=1e-6, max_iter=max_iter)[2:]
        monkeypatch.setattr(lbfgs, "DCSRCH", None)
        assert not lbfgs.available()
        theirs = fit_on_store(store, y, w, tol=1e-6, max_iter=max_iter)[2:]
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-8, atol=1e-10)
    assert ours[1] == pytest.approx(theirs[1], rel=1e-8, abs=1e-10)


def shared_problem(seed, n_arcs=80, n_rows=12, n_bits=7):
    """A shared-row store (arcs referring to rows stored after them, as `features/shared_rows.py`
    lays them out; some arcs repeat an id of their rows) and the flat store of the same ids."""
    rng = np.random.default_rng(seed)
    rows = [rng.choice(2**n_bits, size=int(rng.integers(1, 6)), replace=False).tolist() for _ in range(n_rows)]
    arcs, flat = [], []
    for _ in range(n_arcs):
        refs = sorted(rng.choice(n_rows, size=int(rng.integers(0, 4)), replace=False).tolist())
        own = rng.choice(2**n_bits, size=int(rng.integers(0, 4)), replace=False).tolist()
        ids = [f for r in refs for f in rows[r]]
        if ids and rng.random() < 0.2:  # an id of a row again among the arc's own
            own.append(ids[int(rng.integers(0, len(ids)))])
        if not refs and not own:
            own = [0]
        arcs.append([-1 - (n_arcs + r) for r in refs] + own)
        flat.append(ids + own)
    lists = arcs + rows
    offsets = np.zeros(len(lists) + 1, dtype=np.int64)
    np.cumsum([len(x) for x in lists], out=offsets[1:])
    feats = np.array([f for x in lists for f in x], dtype=np.int32)
    shared = SimpleNamespace(n_bits=n_bits, arc_feats=feats, arc_feat_offsets=offsets, n_rows=n_rows)
    truth = rng.normal(0, 1.5, 2**n_bits)
    y = np.array([truth[list(set(x))].sum() + rng.normal() > 0 for x in flat])
    if y.all() or not y.any():
        y[0] = not y[0]
    return shared, store_of(flat, n_bits), y, rng.uniform(0.5, 3.0, n_arcs)


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**16))
def test_a_shared_row_store_gives_the_flat_stores_loss_gradient_fit_and_scores(seed):
    """Read through its rows (each row's sum once, its gradient gathered per row), a shared-row store
    gives the flat store's objective, gradient, optimum and scores, to rounding: the same terms summed
    in another grouping. An id an arc lists twice (in a row and among its own) counts once there too."""
    import coreflab.learn.pairwise.pair_logistic as pl

    shared, flat, y, w = shared_problem(seed)
    arcs = np.arange(len(y))
    a, b = StorePairs(shared, arcs), StorePairs(flat, arcs)
    assert a.shared and not b.shared
    np.testing.assert_array_equal(a.dup, b.dup)
    cols = a.column_map()
    np.testing.assert_array_equal(cols, b.column_map())
    n = int(np.count_nonzero(cols >= 0))
    x = np.random.default_rng(seed).normal(size=n)
    ga, gb = np.zeros(n + 1), np.zeros(n + 1)
    la = a.loss_grad(cols, y.astype(float), w, x, 0.3, ga)
    lb = b.loss_grad(cols, y.astype(float), w, x, 0.3, gb)
    assert la == pytest.approx(lb, rel=1e-12)
    np.testing.assert_allclose(ga, gb, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(a.decision(cols, x, 0.3), b.decision(cols, x, 0.3), rtol=1e-12, atol=1e-12)
    assert a._layout(cols) is not None and a.shared  # the rows were read, not expanded
    fa = fit_logistic(a, cols, n, y, w, tol=1e-10, max_iter=500)
    fb = fit_logistic(b, cols, n, y, w, tol=1e-10, max_iter=500)
    np.testing.assert_allclose(fa[0], fb[0], rtol=1e-5, atol=1e-6)
    # above the layout's budget the store is expanded and read as a flat one: the flat store's sums
    old, pl.COMPACT_BUDGET_BYTES = pl.COMPACT_BUDGET_BYTES, 0
    try:
        c = StorePairs(shared, arcs)
        gc = np.zeros(n + 1)
        assert c.loss_grad(cols, y.astype(float), w, x, 0.3, gc) == lb and np.array_equal(gc, gb)
        assert not c.shared
    finally:
        pl.COMPACT_BUDGET_BYTES = old


def test_an_id_in_a_row_and_among_an_arcs_own_counts_once():
    # arc 0 refers to row 2 ({5, 6}) and lists 5 again; arc 1 refers to it and lists 7
    feats = np.array([-3, 5, -3, 7, 5, 6], dtype=np.int32)
    shared = SimpleNamespace(n_bits=4, arc_feats=feats, arc_feat_offsets=np.array([0, 2, 4, 6]), n_rows=1)
    pairs = StorePairs(shared, np.arange(2))
    np.testing.assert_array_equal(pairs.dup, [1, 0])
    cols = pairs.column_map()
    w = np.array([1.0, 10.0, 100.0])  # columns of ids 5, 6, 7
    np.testing.assert_allclose(pairs.decision(cols, w, 0.5), [0.5 + 1 + 10, 0.5 + 1 + 10 + 100])
