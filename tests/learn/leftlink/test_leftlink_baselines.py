"""Sum-Link and Bin-Left-Link: representatives, certain-link inference, and learning a separable task."""

import numpy as np
import pytest

from coreflab.learn.leftlink.baselines import (
    BinLeftLink,
    SumLink,
    best_left_link_cluster,
    gold_representatives,
    sumlink_cluster,
)
from coreflab.learn.leftlink.l3m import L3M
from tests.learn.leftlink.leftlink_data import local_gold, separable


def test_gold_representatives_by_hand():
    rep = gold_representatives(np.array([0, 4, 7]), np.array([5, 2, 5, -1, 0, 0, 1]))
    assert rep.tolist() == [0, 1, 0, 3, 0, 0, 2]


def test_certain_weights_reproduce_gold():
    data = separable([[0, 1, 0, 2, 1, 1, 0], [0, 0, 1]])
    w = np.zeros(32)
    w[1], w[2] = 10.0, -10.0
    args = (
        np.asarray(data.store.doc_mention_offsets),
        data.store.m_arc_offsets,
        data.store.arc_ante,
        data.store.arc_feat_offsets,
        data.store.arc_feats,
        np.ones(len(data.store.arc_feats)),
    )
    gold = local_gold(data)
    assert (sumlink_cluster(w, *args) == gold).all()
    assert (best_left_link_cluster(w, *args) == gold).all()


@pytest.mark.parametrize(
    "cls, params", [(SumLink, {}), (BinLeftLink, {}), (L3M, {"gamma": 0.0}), (L3M, {"gamma": 0.6})]
)
def test_learners_solve_a_separable_task(cls, params):
    rng = np.random.default_rng(1)
    train = separable([list(rng.integers(0, 4, size=int(rng.integers(3, 9)))) for _ in range(30)], seed=2)
    test = separable([list(rng.integers(0, 4, size=int(rng.integers(3, 9)))) for _ in range(10)], seed=3)
    model = cls(epochs=3, eta0=0.5, lam=1e-4, seed=4, **params).fit(train)
    assert model.coef_[1] > 0 > model.coef_[2]
    assert (model.predict_labels(test) == local_gold(test)).all()


def test_save_load_round_trip(tmp_path):
    data = separable([[0, 1, 0, 1], [0, 0]])
    model = SumLink(epochs=2, seed=1).fit(data)
    model.save(tmp_path / "m.npz")
    again = SumLink.load(tmp_path / "m.npz")
    assert isinstance(again, SumLink) and np.array_equal(again.coef_, model.coef_)


def test_spanning_forest_learns_separable_task_and_forest_is_maximal():
    from coreflab.decode.spanning_forest import max_spanning_forest
    from coreflab.learn.clustering.spanning_forest import SpanningForest

    rng = np.random.default_rng(7)
    train = separable([list(rng.integers(0, 4, size=int(rng.integers(3, 9)))) for _ in range(30)], seed=2)
    test = separable([list(rng.integers(0, 4, size=int(rng.integers(3, 9)))) for _ in range(10)], seed=3)
    model = SpanningForest(epochs=3, eta0=0.5, seed=1).fit(train)
    assert (model.predict_labels(test) == local_gold(test)).all()
    # a triangle with weights 3, 2, 1 and a negative edge: the forest keeps 3 and 2 only
    chosen = max_spanning_forest(4, np.array([0, 0, 1, 2]), np.array([1, 2, 2, 3]), np.array([3.0, 2.0, 1.0, -1.0]))
    assert chosen.tolist() == [True, True, False, False]


def test_labels_and_antecedents_round_trip():
    from coreflab.learn.labels import labels_to_antecedents, local_labels

    offsets = np.array([0, 5, 8])
    labels = np.array([7, 3, 7, 3, 9, 4, 4, 1])
    ante = labels_to_antecedents(labels, offsets)
    assert ante.tolist() == [-1, -1, 0, 1, -1, -1, 0, -1]
    assert local_labels(labels, offsets).tolist() == [0, 1, 0, 1, 4, 0, 0, 2]


def test_predict_returns_antecedents_for_every_clustering_learner():
    from coreflab.learn.clustering.corr_clustering import CorrClustering
    from coreflab.learn.clustering.spanning_forest import SpanningForest
    from coreflab.learn.labels import labels_to_antecedents

    data = separable([[0, 1, 0, 1, 2], [0, 0]], seed=1)
    for cls in (SumLink, BinLeftLink, L3M, SpanningForest, CorrClustering):
        model = cls(epochs=1, seed=0).fit(data)
        expected = labels_to_antecedents(model.predict_labels(data), data.store.doc_mention_offsets)
        assert (model.predict(data.corpus, data.store) == expected).all()
