"""The nine regressor features: exact MUC/B3 equal the scorer; the CEAFe approximation by hand."""

import numpy as np
from hypothesis import given, settings, strategies as st

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
