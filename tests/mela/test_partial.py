"""Alg. 3: the incremental partial loss equals the from-scratch loss; the objective never drops."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from coreflab.decode.arcs import arc_arrays, arc_scores
from coreflab.decode.random_problem import random_problem
from coreflab.mela.features import clustering_features, compact_gold, gold_constants
from coreflab.mela.partial import Gold, Rho, alg3_doc, rho_loss

COEF = np.array([-0.05, 0.01, 0.35, 0.02, 0.03, 0.54, 0.2, -0.02, -0.08])


def _run(n, seed, C, use_order, use_c=True, max_passes=8, window=None, check=True, min_size=2):
    corpus, store = random_problem([n], n_bits=10, seed=seed, window=window, informative=False)
    rng = np.random.default_rng(seed)
    scores = arc_scores(rng.normal(size=1 << 10), store)
    mc = np.asarray(corpus.arrays["m_cluster"], dtype=np.int64)
    g, gsize, K = compact_gold(mc)
    G, K = gold_constants(g, gsize, K)
    out = np.empty(n, dtype=np.int64)
    stats = np.zeros(2)
    objs = np.full(max_passes, np.nan)
    calib = G / 100.0 if use_c else 1.0
    arcs = arc_arrays(store, np.zeros(store.arc_ante.shape[0]))
    rho = Rho(COEF, 0.5, calib, C, use_order, max_passes, min_size)
    passes = alg3_doc(scores, arcs, 0, n, Gold(g, gsize, K, G), rho, check, out, stats, objs)
    return store, scores, mc, out, stats, objs[:passes], passes, calib


@settings(max_examples=80, deadline=None)
@given(
    st.integers(1, 16),
    st.integers(0, 10_000),
    st.sampled_from([0.1, 1.0, 10.0, 100.0]),
    st.booleans(),
    st.sampled_from([None, 3]),
    st.sampled_from([1, 2]),
)
def test_incremental_totals_equal_from_scratch(n, seed, C, use_order, window, min_size):
    # min_size 1: response singletons kept, 2: dropped; the random keys hold singletons
    *_, stats, objs, passes, _ = _run(n, seed, C, use_order, window=window, min_size=min_size)
    assert stats[1] < 1e-9  # every candidate's totals and the state after every node
    assert 1 <= passes <= 8


@settings(max_examples=80, deadline=None)
@given(st.integers(2, 18), st.integers(0, 10_000), st.sampled_from([1.0, 30.0, 300.0]), st.booleans(), st.booleans())
def test_objective_never_decreases_and_matches_returned_tree(n, seed, C, use_order, keep):
    store, scores, mc, out, _, objs, passes, calib = _run(n, seed, C, use_order, check=False, min_size=1 if keep else 2)
    assert np.all(np.diff(objs) >= -1e-9)
    # the returned tree's objective, recomputed from scratch, is the last recorded one
    ante = store.arc_ante[out]
    assert np.all(ante < np.arange(n))
    lab = np.arange(n)
    for i in range(n):
        if ante[i] >= 0:
            lab[i] = lab[ante[i]]
    f = clustering_features(mc, lab, keep_singletons=keep)
    obj = scores[out].sum() + C * calib * (100 - (COEF @ f + 0.5))
    assert np.isclose(obj, objs[-1], rtol=1e-9, atol=1e-7)


def test_rho_loss_of_the_gold_clustering():
    mc = np.array([0, 0, 1, 1, 1])
    g, gsize, K = compact_gold(mc)
    G, K = gold_constants(g, gsize, K)
    from coreflab.mela.features import clustering_totals

    T = clustering_totals(g, gsize, K, np.array([0, 0, 2, 2, 2]), 2)
    coef = np.full(9, 1 / 9)
    assert np.isclose(rho_loss(T, float(G), float(K), coef, 0.0, 1.0, np.zeros(9)), 0.0)


def test_the_start_state_is_scored_with_singletons_when_kept():
    # every mention alone: with singletons kept B3 precision is 100 and CEAFe counts every cluster
    mc = np.array([0, 0, 1, 2])
    g, gsize, K = compact_gold(mc)
    from coreflab.mela.features import clustering_totals, features_from_totals

    f = np.zeros(9)
    features_from_totals(clustering_totals(g, gsize, K, np.arange(4), 1), 4.0, float(K), f)
    assert np.isclose(f[4], 100.0) and np.isclose(f[3], 100 * 3 / 4)
    features_from_totals(clustering_totals(g, gsize, K, np.arange(4), 2), 4.0, float(K), f)
    assert np.allclose(f[3:], 0.0)


def test_singletons_of_the_key_make_the_random_problems_cover_both_modes():
    # the property tests above exercise min_size 1 on keys with singletons
    corpus, _ = random_problem([12], n_bits=8, seed=3, informative=False)
    _, counts = np.unique(corpus.arrays["m_cluster"], return_counts=True)
    assert (counts == 1).any() and (counts >= 2).any()
