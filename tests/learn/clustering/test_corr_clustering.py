"""Correlation clustering: the exact solver's optimum is a partition and beats greedy; the learner learns."""

import itertools
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import coreflab.decode.correlation as solver
from coreflab.decode.correlation import correlation_partition, exact_partition, greedy_partition, partition_objective
from coreflab.learn.clustering.corr_clustering import CorrClustering
from tests.learn.leftlink.leftlink_data import local_gold, separable


def _random_weights(seed, n):
    rng = np.random.default_rng(seed)
    W = np.triu(rng.normal(size=(n, n)), 1)
    return W + W.T


def _brute_force(W):
    """Best partition by enumerating restricted growth strings (n ≤ 7)."""
    n = W.shape[0]
    best = -np.inf

    def grow(prefix, k):
        nonlocal best
        if len(prefix) == n:
            best = max(best, partition_objective(W, np.array(prefix)))
            return
        for c in range(k + 1):
            grow(prefix + [c], max(k, c + 1))

    grow([0], 1)
    return best


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 11))
def test_ilp_is_a_partition_and_at_least_greedy(seed, n):
    W = _random_weights(seed, n)
    ilp = exact_partition(W, time_limit=20)
    assert ilp is not None
    same = ilp[:, None] == ilp[None, :]
    # a valid partition: same-cluster is transitive
    for i, j, k in itertools.permutations(range(n), 3):
        assert not (same[i, j] and same[j, k] and not same[i, k])
    assert partition_objective(W, ilp) >= partition_objective(W, greedy_partition(W)) - 1e-9


@pytest.mark.parametrize("seed", range(5))
def test_ilp_equals_brute_force_on_tiny_instances(seed):
    W = _random_weights(seed, 6)
    assert partition_objective(W, exact_partition(W, 20)) == pytest.approx(_brute_force(W))


def test_learner_learns_separable_task_and_counts_fallbacks():
    rng = np.random.default_rng(3)
    train = separable([list(rng.integers(0, 4, size=int(rng.integers(3, 9)))) for _ in range(20)], seed=2)
    test = separable([list(rng.integers(0, 4, size=int(rng.integers(3, 9)))) for _ in range(6)], seed=3)
    model = CorrClustering(epochs=2, eta0=0.5, max_items=5, seed=1).fit(train)
    assert (model.exact_, model.fallback_) == (40, 0)  # components of up to 8 items: enumerated
    assert model.solved_["heuristic"] == 0 and sum(model.solved_.values()) > 0
    assert (model.predict_labels(test) == local_gold(test)).all()
    assert (model.exact_, model.fallback_) == (46, 0)  # prediction adds its 6 documents
    # no enumeration, no LP: components above 5 items fall back to the heuristic, and are counted
    with mock.patch.object(solver, "ENUMERATE_ITEMS", 0):
        budgets = {"lp_iterations": 0, "train_lp_iterations": 0}
        model = CorrClustering(epochs=2, eta0=0.5, max_items=5, seed=1, **budgets).fit(train)
        assert model.exact_ > 0 and model.fallback_ > 0
        assert model.solved_["heuristic"] == model.fallback_ and model.solved_["lp"] == 0
        assert (model.predict_labels(test) == local_gold(test)).all()


def _block_weights(seed, sizes):
    """Random weights inside blocks, negative between them: the positive components are the blocks."""
    rng = np.random.default_rng(seed)
    n = sum(sizes)
    W = np.triu(-rng.uniform(0.1, 2.0, size=(n, n)), 1)
    lo = 0
    for k in sizes:
        W[lo : lo + k, lo : lo + k] = np.triu(rng.normal(size=(k, k)), 1)
        lo += k
    perm = rng.permutation(n)  # blocks scattered over the document, as mentions of entities are
    W = (W + W.T)[np.ix_(perm, perm)]
    return W, perm, sizes


@pytest.mark.parametrize("seed", range(4))
def test_documents_above_max_items_are_exact_when_their_positive_components_are_small(seed):
    # a 40-mention document with max_items 15: the optimum splits along the components of the
    # positive pairs, each solved exactly (the old solver refused the document and used greedy)
    W, perm, sizes = _block_weights(seed, [7, 6, 6, 5, 5, 4, 4, 3])
    labels, exact = correlation_partition(W, max_items=15, time_limit=60)
    assert exact
    inv = np.argsort(perm)
    lo, best = 0, 0.0
    for k in sizes:  # the optimum is the sum of the blocks' optima (brute force per block)
        idx = inv[lo : lo + k]
        best += _brute_force(W[np.ix_(idx, idx)])
        lo += k
    assert partition_objective(W, labels) == pytest.approx(best)


def test_a_component_above_max_items_falls_back_and_says_so():
    W, perm, _ = _block_weights(0, [17, 3])
    W[W > -0.05] = np.abs(W[W > -0.05]) + 0.01  # make the 17-block one positive component
    block = np.sort(np.argsort(perm)[:17])
    # without the LP, the 17-item component is beyond branch and bound's 15: the heuristic's partition
    labels, exact = correlation_partition(W, max_items=15, time_limit=60, lp_iterations=0)
    assert not exact
    sub = greedy_partition(W[np.ix_(block, block)])
    assert (labels[block] == block[sub]).all()
    # the LP proves it whatever its size (its optimum is integral here)
    labels, exact = correlation_partition(W, max_items=15, time_limit=60)
    assert exact and partition_objective(W, labels) >= partition_objective(W, greedy_partition(W)) - 1e-9


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 7), st.floats(-1.0, 1.0), st.booleans())
def test_exact_solver_equals_brute_force(seed, n, shift, enumerate_small):
    # shifted weights vary the share of positive pairs (many small components ... one big one);
    # without enumeration every component of 3 or more items goes through the LP and branch and bound
    W = _random_weights(seed, n) + shift
    np.fill_diagonal(W, 0.0)
    with mock.patch.object(solver, "ENUMERATE_ITEMS", solver.ENUMERATE_ITEMS if enumerate_small else 0):
        labels = exact_partition(W, time_limit=60)
    assert partition_objective(W, labels) == pytest.approx(_brute_force(W), abs=1e-9)


@pytest.mark.parametrize("seed", [3, 8, 17, 19, 30])
def test_fractional_lp_optima_are_finished_by_branch_and_bound(seed):
    # complete graphs of 8 items with N(0, 1) weights whose triangle LP optimum is fractional
    W = _random_weights(seed, 8)
    with mock.patch.object(solver, "ENUMERATE_ITEMS", 0):
        labels, exact, counts = solver._solve_dense(W, None, None, solver.NODE_LIMIT, solver.LP_ITERATIONS)
    assert exact and counts["ilp"] + counts["bound"] == 1 and counts["heuristic"] == 0
    assert partition_objective(W, labels) == pytest.approx(_brute_force(W), abs=1e-9)


def test_solver_budget_is_deterministic():
    W = _random_weights(7, 14)
    runs = {tuple(correlation_partition(W, max_items=40, time_limit=60, node_limit=50)[0]) for _ in range(2)}
    assert len(runs) == 1


def test_default_budget_does_not_read_the_clock(monkeypatch):
    """A loaded machine (a clock that races) must not change the partition: no wall-clock limit by default."""
    import coreflab.decode.correlation as solver

    W = _random_weights(11, 14) + 0.3
    np.fill_diagonal(W, 0.0)
    calm = correlation_partition(W, max_items=40, node_limit=200)
    ticks = iter(range(0, 10**9, 1000))  # every clock reading 1000 s after the last
    monkeypatch.setattr(solver.time, "monotonic", lambda: float(next(ticks)))
    loaded = correlation_partition(W, max_items=40, node_limit=200)
    assert calm[1] and loaded[1]
    assert (calm[0] == loaded[0]).all()
