"""The nine regressor features: exact MUC/B3 equal the scorer; the CEAFe approximation by hand."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from coreflab.mela.features import FEATURE_NAMES, clustering_features, response_labels_for_scorer
from coreflab.metrics.scorer import score_labels


def _scorer_values(gold, resp):
    s = score_labels(gold, response_labels_for_scorer(resp), metrics=("muc", "bcub", "ceafe"))
    return [100 * x for m in ("muc", "bcub") for x in s.prf(m)]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(-1, 4), st.integers(0, 5)), min_size=1, max_size=14))
def test_muc_and_b3_features_equal_the_scorer(pairs):
    gold = [p[0] for p in pairs]
    resp = [p[1] for p in pairs]
    f = clustering_features(gold, resp)
    # exact MUC R/P/F and B3 R/P/F (percent), response singletons dropped as in scored output
    assert np.allclose(f[:6], _scorer_values(gold, resp), atol=1e-9)


def test_hand_computed_document():
    # key {0,1,2} {3,4}; response {0,1} {2,3} {4} (singleton dropped) ; mention 5 not in key, alone
    gold = [0, 0, 0, 1, 1, -1]
    resp = [7, 7, 8, 8, 9, 10]
    f = dict(zip(FEATURE_NAMES, clustering_features(gold, resp)))
    # MUC: recall (3-2 + 2-2)/(2+1) = 1/3; precision (2-1 + 2-2)/(1+1) = 1/2
    assert np.isclose(f["muc_r"], 100 / 3) and np.isclose(f["muc_p"], 50)
    assert np.isclose(f["muc_f"], 40)
    # B3: recall (4/3 + 1/3 + 1/2)/5; precision (4/2 + 2/2)/4
    assert np.isclose(f["b3_r"], 100 * (4 / 3 + 1 / 3 + 1 / 2) / 5)
    assert np.isclose(f["b3_p"], 75)
    # CEAFe approx: Ψ̃ = 2/(3+2)·2 + 2/(3+2) + 2/(2+2) = 1.2 + 0.5 = 1.7 over mentions of kept clusters
    assert np.isclose(f["ceafe_r"], 100 * 1.7 / 2) and np.isclose(f["ceafe_p"], 100 * 1.7 / 2)


def test_perfect_clustering_scores_100():
    gold = [0, 0, 1, 1, 1]
    assert np.allclose(clustering_features(gold, [4, 4, 2, 2, 2]), 100.0)


# ---- response singletons kept (keys that annotate singletons: LitBank, GUM) ------------------


def _ceafe_approximation(gold, resp, keep_singletons):
    """The paper's alignment-free CEAFe, directly over cluster pairs: Ψ̃ = Σ_{K,R} 2|K∩R|/(|K|+|R|)
    over the kept response clusters R; recall Ψ̃/#key clusters, precision Ψ̃/#kept response clusters."""
    keys = {}
    for m, k in enumerate(gold):
        if k >= 0:
            keys.setdefault(k, set()).add(m)
    resps = {}
    for m, r in enumerate(resp):
        resps.setdefault(r, set()).add(m)
    kept = [R for R in resps.values() if len(R) >= (1 if keep_singletons else 2)]
    psi = sum(2 * len(K & R) / (len(K) + len(R)) for K in keys.values() for R in kept)
    r = psi / len(keys) if keys else 0.0
    p = psi / len(kept) if kept else 0.0
    f = 2 * p * r / (p + r) if p + r > 0 else 0.0
    return [100 * r, 100 * p, 100 * f]


def _with_a_key_singleton(pairs):
    """gold/resp of the drawn mentions plus one mention alone in the key (the key has singletons)."""
    gold = [p[0] for p in pairs] + [99]
    resp = [p[1] for p in pairs] + [pairs[0][1]]
    return gold, resp


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(-1, 4), st.integers(0, 5)), min_size=1, max_size=14))
def test_features_with_singletons_kept_equal_the_scorer(pairs):
    gold, resp = _with_a_key_singleton(pairs)
    f = clustering_features(gold, resp, keep_singletons=True)
    # every response cluster, singletons included, is scored (as `coreflab score` sees a kept response)
    s = score_labels(gold, response_labels_for_scorer(resp, keep_singletons=True), metrics=("muc", "bcub"))
    assert np.allclose(f[:6], [100 * x for m in ("muc", "bcub") for x in s.prf(m)], atol=1e-9)
    assert np.allclose(f[6:], _ceafe_approximation(gold, resp, True), atol=1e-9)
    # MUC has no singleton terms: the same in both modes
    assert np.allclose(f[:3], clustering_features(gold, resp, keep_singletons=False)[:3], atol=1e-12)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(-1, 4), st.integers(0, 5)), min_size=1, max_size=14))
def test_ceafe_features_equal_the_direct_approximation_when_dropped(pairs):
    gold, resp = _with_a_key_singleton(pairs)
    assert np.allclose(clustering_features(gold, resp)[6:], _ceafe_approximation(gold, resp, False), atol=1e-9)


def test_hand_computed_document_with_singletons_kept():
    # key {0,1,2} {3,4}; response {0,1} {2,3} {4} {5}, all kept; mention 5 is not in the key
    gold = [0, 0, 0, 1, 1, -1]
    resp = [7, 7, 8, 8, 9, 10]
    f = dict(zip(FEATURE_NAMES, clustering_features(gold, resp, keep_singletons=True)))
    assert np.isclose(f["muc_r"], 100 / 3) and np.isclose(f["muc_p"], 50)  # as when dropped
    # B3 recall ((2²+1²)/3 + (1²+1²)/2)/5 = 8/15; precision (2²/2 + (1+1)/2 + 1/1 + 0)/6 = 2/3
    assert np.isclose(f["b3_r"], 100 * 8 / 15) and np.isclose(f["b3_p"], 100 * 2 / 3)
    # Ψ̃ = 2·2/5 + 2/5 + 2/4 + 2/3 over 2 key and 4 response clusters
    psi = 0.8 + 0.4 + 0.5 + 2 / 3
    assert np.isclose(f["ceafe_r"], 100 * psi / 2) and np.isclose(f["ceafe_p"], 100 * psi / 4)


def test_all_singletons_against_a_singleton_key_scores_100_only_when_kept():
    gold = [0, 1, 2]
    assert np.allclose(clustering_features(gold, [5, 6, 7], keep_singletons=True)[3:], 100.0)
    assert np.allclose(clustering_features(gold, [5, 6, 7])[3:], 0.0)
    assert np.allclose(clustering_features(gold, [5, 6, 7], keep_singletons=True)[:3], 0.0)  # MUC: no links
