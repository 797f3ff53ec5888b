"""Correlation clustering: the ILP optimum is a partition and beats greedy; the learner learns."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coreflab.learn.corr_clustering import CorrClustering
from coreflab.learn.correlation_solver import exact_partition, greedy_partition, partition_objective
from tests.learn.test_leftlink_baselines import local_gold, separable


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
    assert model.exact_ > 0 and model.fallback_ > 0  # documents above 5 items use the greedy solver
    assert (model.predict_labels(test) == local_gold(test)).all()
