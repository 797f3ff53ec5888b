"""Left-link kernels: the shared softmax, the exp cutoff, binary stores without a value array."""

import math
from types import SimpleNamespace

import numpy as np
import pytest

from coreflab.decode.left_link import Links, l3m_cluster, softmax
from coreflab.learn.base import TrainingData
from coreflab.learn.leftlink.kernels import l3m_objective, l3m_sgd_epoch
from coreflab.learn.leftlink.l3m import kernel_arrays
from coreflab.learn.leftlink.l3m_cccp import l3m_value_and_grad
from tests.learn.leftlink.leftlink_data import random_data

NO_WEIGHTS = np.empty(0)  # the kernels read an empty weight array as "every item weighs 1"


def test_softmax_probabilities_and_log_partition_by_hand():
    gamma = 0.5
    x = np.array([1.0, 1.0 + gamma * math.log(3.0), -np.inf])
    out = np.empty(3)
    # γ log(e^{2} + 3 e^{2}) = 0.5 (2 + log 4) = 1 + log 2
    assert softmax(x, 3, gamma, out) == pytest.approx(1.0 + math.log(2.0), rel=1e-14)
    np.testing.assert_allclose(out, [0.25, 0.75, 0.0], rtol=1e-14)
    assert out[2] == 0.0
    # γ = 0: the max, one-hot on its first occurrence
    assert softmax(np.array([1.0, 3.0, 3.0]), 3, 0.0, out) == 3.0
    assert out.tolist() == [0.0, 1.0, 0.0]
    # only the first n entries count
    assert softmax(np.array([2.0, 9.0]), 1, 1.0, out) == 2.0
    assert out[0] == 1.0


def test_softmax_drops_terms_below_the_cutoff_exactly():
    out = np.empty(3)
    lse = softmax(np.array([0.0, -49.0, -51.0]), 3, 1.0, out)
    assert out[2] == 0.0
    assert out[1] == pytest.approx(math.exp(-49.0), rel=1e-12)
    assert lse == 0.0  # log(1 + 5e-22) rounds to log 1: the kept term is already below rounding


def test_far_off_candidates_write_no_subnormal_weights():
    # item 1 (other cluster than item 0): the dummy is the only correct link; the antecedent
    # scores −720 (aug −719) so p_ante = e^{-719} would be subnormal; its second feature
    # (weight 0) must stay exactly 0
    arrays = Links(
        np.array([0, 2]),
        np.array([0, 1, 3]),
        np.array([-1, -1, 0], np.int32),
        np.array([0, 0, 0, 2]),
        np.array([0, 1]),
        np.array([1.0, 1.0]),
    )
    cluster = np.array([0, 1])
    v = np.array([-720.0, 0.0])
    scale, steps, obj = l3m_sgd_epoch(v, 1.0, np.array([0]), arrays, cluster, NO_WEIGHTS, 1.0, 0.0, 0.5, 0)
    assert steps == 2 and scale == 1.0
    assert v.tolist() == [-720.0, 0.0]
    assert obj == 0.0  # both items: γ log(e^0 [+ e^-719, dropped]) − γ log e^0
    assert not np.any((v != 0) & (np.abs(v) < np.finfo(float).tiny))


def binary_store_data(seed):
    data = random_data(seed, docs=4, valued=False)
    s = data.store
    store = SimpleNamespace(
        n_bits=s.n_bits,
        doc_mention_offsets=s.doc_mention_offsets,
        m_arc_offsets=s.m_arc_offsets,
        arc_ante=s.arc_ante,
        arc_feat_offsets=s.arc_feat_offsets,
        arc_feats=s.arc_feats,
    )
    return TrainingData(data.corpus, store)


def test_lean_arrays_share_the_store_and_omit_binary_values():
    data = binary_store_data(0)
    lean = kernel_arrays(data, lean=True)
    assert lean[4] is data.store.arc_feats and lean[4].dtype == np.int32
    assert lean[5].shape == (0,)
    full = kernel_arrays(data)
    assert full[4].dtype == np.int64 and full[5].tolist() == [1.0] * full[4].shape[0]
    valued = random_data(0)
    np.testing.assert_array_equal(kernel_arrays(valued, lean=True)[5], valued.store.arc_vals)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("gamma", [0.0, 0.4])
def test_binary_store_without_values_is_bit_identical(seed, gamma):
    data = binary_store_data(seed)
    lean, full = kernel_arrays(data, lean=True), kernel_arrays(data)
    cl = np.asarray(data.corpus.m_cluster, np.int64)
    dim = 1 << data.store.n_bits
    w = np.random.default_rng(seed).normal(size=dim)
    order = np.arange(lean[0].shape[0] - 1)[::-1].copy()
    runs = []
    for arrays in (lean, full):
        v = w.copy()
        scale, steps, obj = l3m_sgd_epoch(v, 1.0, order, arrays, cl, NO_WEIGHTS, gamma, 0.01, 0.3, 0)
        runs.append(
            (
                v,
                scale,
                steps,
                obj,
                l3m_objective(w, arrays, cl, NO_WEIGHTS, gamma, 0.01),
                l3m_cluster(w, *arrays, gamma),
                l3m_value_and_grad(w, arrays, cl, NO_WEIGHTS, gamma, 0.01, np.zeros(arrays[2].shape[0]), False),
            )
        )
    (v1, *r1), (v2, *r2) = runs
    assert np.array_equal(v1, v2)
    assert r1[:4] == r2[:4]
    assert np.array_equal(r1[4], r2[4])
    assert r1[5][0] == r2[5][0]
    assert np.array_equal(r1[5][1], r2[5][1]) and np.array_equal(r1[5][2], r2[5][2])


@pytest.mark.parametrize("gamma", [0.0, 0.3, 1.0])
def test_sgd_objective_at_rate_zero_is_the_objective(gamma):
    # eta0 = 0 leaves w fixed, so the per-item terms summed by the SGD pass are the objective's
    data = random_data(7, docs=5)
    arrays = kernel_arrays(data, lean=True)
    cl = np.asarray(data.corpus.m_cluster, np.int64)
    w = np.random.default_rng(3).normal(size=1 << data.store.n_bits)
    v = w.copy()
    order = np.arange(arrays[0].shape[0] - 1)
    _, _, obj = l3m_sgd_epoch(v, 1.0, order, arrays, cl, NO_WEIGHTS, gamma, 0.0, 0.0, 0)
    assert np.array_equal(v, w)
    assert obj == pytest.approx(l3m_objective(w, arrays, cl, NO_WEIGHTS, gamma, 0.0), rel=1e-12)


@pytest.mark.parametrize(
    "module, name",
    [
        ("leftlink.baselines", "sumlink"),
        ("leftlink.baselines", "binleftlink"),
        ("clustering.spanning_forest", "spanning_forest"),
        ("clustering.corr_clustering", "corr_clustering"),
    ],
)
def test_baselines_on_lean_binary_arrays_learn_the_same_weights(monkeypatch, module, name):
    import importlib

    from coreflab.learn.registry import make_learner

    data = binary_store_data(1)
    params = {"epochs": 2, "seed": 3}
    lean = make_learner(name, params).fit(data)
    mod = importlib.import_module(f"coreflab.learn.{module}")
    monkeypatch.setattr(mod, "kernel_arrays", lambda d, lean=False: kernel_arrays(d))  # the copying path
    full = make_learner(name, params).fit(data)
    assert np.count_nonzero(lean.coef_) > 0
    assert np.array_equal(lean.coef_, full.coef_)
