import numpy as np
import pytest

from coreflab.metrics import paired_test, score_clusterings


def systems(seed=0, n_docs=30):
    rng = np.random.default_rng(seed)
    keys, good, bad = [], [], []
    for _ in range(n_docs):
        k = [[(i * 3, i * 3), (i * 3 + 1, i * 3 + 1), (i * 3 + 2, i * 3 + 2)] for i in range(4)]
        keys.append(k)
        good.append([list(c) for c in k] if rng.random() < 0.9 else [c[:2] for c in k])
        bad.append([[m] for c in k for m in c] if rng.random() < 0.7 else [list(c) for c in k])
    return score_clusterings(keys, good), score_clusterings(keys, bad)


@pytest.mark.parametrize("test", ["bootstrap", "randomization"])
def test_clear_difference_is_significant_and_deterministic(test):
    a, b = systems()
    r1 = paired_test(a, b, metric="mela", test=test, samples=2000, seed=3)
    r2 = paired_test(a, b, metric="mela", test=test, samples=2000, seed=3)
    assert r1 == r2
    assert r1.difference == pytest.approx(a.mela - b.mela)
    assert r1.low <= r1.difference <= r1.high
    assert r1.p_value < 0.01


@pytest.mark.parametrize("test", ["bootstrap", "randomization"])
def test_identical_systems_are_not_different(test):
    a, _ = systems()
    r = paired_test(a, a, metric="muc", test=test, samples=500, seed=1)
    assert r.difference == 0
    assert r.p_value == 1.0
    assert r.low == r.high == 0


def test_replicate_equals_rescoring_the_resampled_documents():
    # a bootstrap replicate sums per-document counts: the same as scoring those documents
    from coreflab.metrics.significance import metric_value

    a, _ = systems(n_docs=5)
    w = np.array([[2.0, 0, 1, 1, 1]])
    sums = w @ a.per_doc["ceafe"]
    direct = a.per_doc["ceafe"][[0, 0, 2, 3, 4]].sum(axis=0)
    assert np.allclose(sums[0], direct)
    assert metric_value(a.per_doc, "mela", np.ones((1, 5)))[0] == pytest.approx(a.mela)
