"""Correlation clustering's cutting-plane LP (issue 43, item 8): equal to brute force where it says
it is exact, fractional optima detected, components solved apart equal the joint solve, and
documents shaped like real text (window-50 candidate arcs, mostly negative scores, positive
components well above the old 15-item budget) proved optimal."""

from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import coreflab.decode.correlation as solver
from coreflab.decode.correlation import (
    _improve,
    all_partitions,
    correlation_partition,
    greedy_partition,
    partition_objective,
    solve_edges,
)
from coreflab.decode.correlation_lp import cutting_plane_lp, graph_triangles


def _dense(n, a, b, w):
    W = np.zeros((n, n))
    W[a, b] = w
    W[b, a] = w
    return W


def _brute_force(W):
    """Best objective over every partition (restricted growth strings, n ≤ 8)."""
    n = W.shape[0]
    parts = all_partitions(n)
    iu, ju = np.triu_indices(n, 1)
    return float(((parts[:, iu] == parts[:, ju]) @ W[iu, ju]).max())


def _all_partitions_naive(n):
    out = []

    def grow(prefix, k):
        if len(prefix) == n:
            out.append(tuple(prefix))
            return
        for c in range(k + 1):
            grow(prefix + [c], max(k, c + 1))

    grow([0], 1)
    return out


@st.composite
def sparse_instances(draw, max_items=7):
    """n items, a random subset of the pairs scored (the others absent: weight 0), weights shifted
    so that anything from one positive component to many small ones comes up."""
    n = draw(st.integers(3, max_items))
    seed = draw(st.integers(0, 10**6))
    density = draw(st.sampled_from([0.4, 0.7, 1.0]))
    shift = draw(st.floats(-1.0, 1.0))
    rng = np.random.default_rng(seed)
    iu, ju = np.triu_indices(n, 1)
    keep = rng.random(iu.size) < density
    w = rng.normal(size=int(keep.sum())) + shift
    tied = rng.random(w.size) < 0.2
    w[tied] = np.round(w[tied])  # ties and zeros too
    return n, iu[keep], ju[keep], w


def test_all_partitions_are_the_restricted_growth_strings():
    for n in range(1, 7):
        assert [tuple(r) for r in all_partitions(n)] == _all_partitions_naive(n)


@settings(max_examples=60, deadline=None)
@given(sparse_instances())
def test_lp_when_integral_is_the_brute_force_optimum_and_else_a_bound(inst):
    n, a, b, w = inst
    W = _dense(n, a, b, w)
    best = _brute_force(W)
    nz = w != 0
    out = cutting_plane_lp(n, a[nz], b[nz], w[nz], 10**6)
    assert out.status in ("integral", "fractional")
    if out.status == "integral":
        assert partition_objective(W, out.labels) == pytest.approx(best, abs=1e-9)
        assert out.bound == pytest.approx(best, abs=1e-7)
    else:
        assert out.bound >= best - 1e-7  # a relaxation: never below the optimum
        assert np.any(np.minimum(out.y, 1 - out.y) > 1e-6)


@settings(max_examples=60, deadline=None)
@given(sparse_instances())
def test_decoder_without_enumeration_equals_brute_force(inst):
    # enumeration off: every component of 3 or more items goes through the LP, then branch and bound
    n, a, b, w = inst
    W = _dense(n, a, b, w)
    with mock.patch.object(solver, "ENUMERATE_ITEMS", 0):
        labels, exact, counts = solve_edges(n, a, b, w, max_items=None)
    assert exact and counts["heuristic"] == 0
    assert partition_objective(W, labels) == pytest.approx(_brute_force(W), abs=1e-9)


@settings(max_examples=40, deadline=None)
@given(sparse_instances(max_items=8))
def test_decoder_with_enumeration_equals_brute_force(inst):
    n, a, b, w = inst
    W = _dense(n, a, b, w)
    labels, exact, _ = solve_edges(n, a, b, w)
    assert exact
    assert partition_objective(W, labels) == pytest.approx(_brute_force(W), abs=1e-9)


def _star():
    """A centre liked by three items that repel each other: the LP optimum puts the centre half
    with each (value 1.5), a partition gets at most 1 (the centre with one of them)."""
    return 4, np.array([0, 0, 0, 1, 1, 2]), np.array([1, 2, 3, 2, 3, 3]), np.array([1.0, 1, 1, -1, -1, -1])


def test_fractional_lp_is_detected_and_branch_and_bound_or_the_fallback_takes_over():
    n, a, b, w = _star()
    out = cutting_plane_lp(n, a, b, w, 1000)
    assert out.status == "fractional" and out.bound == pytest.approx(1.5)
    np.testing.assert_allclose(out.y[:3], 0.5)
    with mock.patch.object(solver, "ENUMERATE_ITEMS", 0):
        labels, exact, counts = solve_edges(n, a, b, w, max_items=4)
        assert exact and counts["ilp"] == 1 and partition_objective(_dense(n, a, b, w), labels) == 1.0
        labels, exact, counts = solve_edges(n, a, b, w, max_items=3)  # too big for branch and bound
        assert not exact and counts["heuristic"] == 1
        assert partition_objective(_dense(n, a, b, w), labels) == 1.0  # the fallback's partition


def test_integral_lp_is_detected():
    # two cliques of attraction joined by one weak positive pair: the LP is integral at the optimum
    n = 6
    iu, ju = np.triu_indices(n, 1)
    block = (iu < 3) == (ju < 3)
    w = np.where(block, 2.0, -1.0)
    w[(iu == 2) & (ju == 3)] = 0.5
    out = cutting_plane_lp(n, iu, ju, w, 1000)
    assert out.status == "integral"
    assert list(out.labels[:3]) == [out.labels[0]] * 3 and list(out.labels[3:]) == [out.labels[3]] * 3
    assert out.labels[0] != out.labels[3]
    assert out.bound == pytest.approx(partition_objective(_dense(n, iu, ju, w), out.labels))


def test_lp_budget_runs_out_deterministically():
    n, a, b, w = _window_document(0, 120)
    out = cutting_plane_lp(n, a, b, w, 1)
    assert out.status == "budget" and out.y is None


def test_graph_triangles_are_the_triangles():
    rng = np.random.default_rng(0)
    n = 9
    iu, ju = np.triu_indices(n, 1)
    keep = rng.random(iu.size) < 0.5
    a, b = iu[keep], ju[keep]
    tri = graph_triangles(n, a, b)
    edges = {(int(x), int(y)): k for k, (x, y) in enumerate(zip(a, b))}
    expected = {
        (edges[(u, v)], edges[(u, t)], edges[(v, t)])
        for u in range(n)
        for v in range(u + 1, n)
        for t in range(v + 1, n)
        if (u, v) in edges and (u, t) in edges and (v, t) in edges
    }
    assert {tuple(int(x) for x in r) for r in tri} == expected


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 5), st.integers(3, 7))
def test_components_solved_apart_equal_the_joint_solve(seed, blocks, size):
    # blocks of random weights, pairs between blocks negative or absent: the decomposition solves
    # each positive component alone; the joint solve takes the whole document as one problem
    rng = np.random.default_rng(seed)
    n = blocks * size
    W = -np.abs(rng.normal(size=(n, n))) * (rng.random((n, n)) < 0.5)
    for k in range(blocks):
        s = slice(k * size, (k + 1) * size)
        W[s, s] = rng.normal(size=(size, size)) + 0.3
    perm = rng.permutation(n)
    W = np.triu(W[np.ix_(perm, perm)], 1)
    iu, ju = np.nonzero(W)
    w = W[iu, ju]
    W = W + W.T
    labels, exact, _ = solve_edges(n, iu, ju, w, max_items=None)
    joint, how = solver._solve_component(n, iu, ju, w, None, solver.NODE_LIMIT, solver.LP_ITERATIONS, None)
    assert exact and how != "heuristic"
    assert partition_objective(W, labels) == pytest.approx(partition_objective(W, joint), abs=1e-9)


def _window_document(seed, n, window=50):
    """A document's candidate arcs (each mention to its `window` nearest earlier ones) scored like a
    trained pair model's: entities of a few long chains and many short ones, arcs inside an entity
    mostly positive (N(1.5, 1)), arcs between entities negative (N(−2.5, 1), a few stray positives
    that join entities into positive components of 40–190 mentions). Non-candidate pairs: absent."""
    rng = np.random.default_rng(seed)
    share = rng.dirichlet(np.r_[np.full(4, 3.0), np.full(30, 0.3)])
    entity = rng.choice(share.size, size=n, p=share)
    b = np.repeat(np.arange(n), np.minimum(np.arange(n), window))
    a = np.concatenate([np.arange(max(0, j - window), j) for j in range(n)]).astype(np.int64)
    same = entity[a] == entity[b]
    w = np.where(same, rng.normal(1.5, 1.0, a.size), rng.normal(-2.5, 1.0, a.size))
    return n, a, b, w


@pytest.mark.parametrize("seed, n", [(0, 80), (1, 80), (2, 200), (3, 200)])
def test_documents_shaped_like_real_text_are_exact_where_the_old_budget_gave_up(seed, n):
    n, a, b, w = _window_document(seed, n)
    W = _dense(n, a, b, w)
    assert np.bincount(solver.positive_components(W)).max() > 40  # far above max_items = 15
    labels, exact = correlation_partition(W, max_items=15, node_limit=50)  # the GUM / LitBank budgets
    assert exact
    value = partition_objective(W, labels)
    assert value >= partition_objective(W, greedy_partition(W)) - 1e-9
    assert value == pytest.approx(partition_objective(W, _improve(W, labels)))  # no single move improves it
    # the sparse entry point the learner calls gives the same partition
    sparse, exact_sparse, counts = solve_edges(n, a, b, w, 15, None, 50)
    assert exact_sparse and (sparse == labels).all() and counts["lp"] >= 1


def test_pairs_given_twice_keep_the_last_weight_like_the_dense_matrix():
    a, b, w = np.array([0, 1, 0, 0]), np.array([1, 2, 2, 1]), np.array([-5.0, 1.0, 1.0, 2.0])
    labels, exact, _ = solve_edges(3, a, b, w)
    assert exact and (labels == 0).all()  # (0, 1) weighs 2, its last score


def test_max_items_zero_is_greedy_on_the_whole_document():
    n, a, b, w = _window_document(0, 80)
    W = _dense(n, a, b, w)
    labels, exact, counts = solve_edges(n, a, b, w, max_items=0)
    assert not exact and (labels == greedy_partition(W)).all() and sum(counts.values()) == 0
