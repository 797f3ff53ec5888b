"""Choi & Cardie 2007: E-steps reproduce gold by single link, BASE = logistic regression, biased weights."""

from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.linear_model import LogisticRegression

from coreflab.learn.crf_slt import CCBase, PairwiseCRF, make_cc_learner as make_learner, pair_decision_scores
from coreflab.learn.pair_data import FeatureIndex, arc_feature_rows, build_pairs
from coreflab.learn.slt_estep import closest_positive_pairs, estep_closest, estep_preserving, single_link


def make_data(clusters_per_doc, seed=0, noise=0.2, n_bits=10):
    """A compiled corpus + arc store by hand: every earlier mention is a candidate."""
    rng = np.random.default_rng(seed)
    m_doc, m_cluster, offsets = [], [], [0]
    for d, clusters in enumerate(clusters_per_doc):
        m_doc += [d] * len(clusters)
        m_cluster += list(clusters)
        offsets.append(offsets[-1] + len(clusters))
    m_cluster = np.array(m_cluster, dtype=np.int32)
    corpus = SimpleNamespace(
        name="t", split="train", m_doc=np.array(m_doc, dtype=np.int32), m_cluster=m_cluster,
        doc_mention_offsets=np.array(offsets, dtype=np.int64), n_mentions=len(m_doc),
    )
    arc_off, ante, feat_off, feats = [0], [], [0], []
    for j in range(len(m_doc)):
        lo = offsets[m_doc[j]]
        for a in [-1] + list(range(j - lo)):
            ante.append(a)
            if a < 0:
                f = [1]
            else:
                same = m_cluster[lo + a] == m_cluster[j]
                signal = same if rng.random() > noise else not same
                f = [2 + int(signal), 10 + min(j - lo - a, 5), 20 + int(rng.integers(0, 4))]
            feats += f
            feat_off.append(len(feats))
        arc_off.append(len(ante))
    store = SimpleNamespace(
        n_bits=n_bits, m_arc_offsets=np.array(arc_off, np.int64), arc_ante=np.array(ante, np.int32),
        arc_feat_offsets=np.array(feat_off, np.int64), arc_feats=np.array(feats, np.int32),
    )
    return corpus, store


def canonical(labels, rows):
    first = {}
    return [first.setdefault(labels[r], len(first)) for r in rows]


clusterings = st.lists(st.lists(st.integers(0, 3), min_size=1, max_size=7), min_size=1, max_size=3)


@settings(max_examples=80, deadline=None)
@given(clusterings, st.integers(0, 2**16))
def test_estep_outputs_single_link_to_gold(docs, seed):
    corpus, store = make_data(docs)
    pairs = build_pairs(corpus, store)
    prob = np.random.default_rng(seed).random(len(pairs))
    gold_labels = corpus.m_cluster + 100 * corpus.m_doc
    rows = np.arange(corpus.n_mentions)
    for estep in (estep_closest, estep_preserving):
        h = estep(pairs, prob)
        assert not (h & ~pairs.gold).any()  # never links across gold clusters
        assert canonical(single_link(pairs.n_mentions, pairs.ante, pairs.ana, h), rows) == canonical(gold_labels, rows)


@settings(max_examples=60, deadline=None)
@given(clusterings, st.integers(0, 2**16))
def test_closest_changes_no_correct_prediction_and_preserving_keeps_clusters_connected(docs, seed):
    corpus, store = make_data(docs)
    pairs = build_pairs(corpus, store)
    prob = np.random.default_rng(seed).random(len(pairs))
    pred = prob >= 0.5
    h = estep_closest(pairs, prob)
    correct = pred == pairs.gold
    assert (h[correct] == pred[correct]).all()
    h2 = estep_preserving(pairs, prob)
    # kept: every intra-cluster pair the model predicts positive
    assert (h2[pairs.gold & pred]).all()


def test_preserving_drops_only_negatives_off_the_spanning_tree():
    # one cluster of three mentions: pairs (0,1) (0,2) (1,2)
    corpus, store = make_data([[0, 0, 0]])
    pairs = build_pairs(corpus, store)
    order = list(zip(pairs.ante, pairs.ana))
    assert order == [(0, 1), (0, 2), (1, 2)]
    prob = np.array([0.9, 0.1, 0.2])  # (0,2) and (1,2) predicted negative; MST = (0,1) + (1,2)
    assert estep_preserving(pairs, prob).tolist() == [True, False, True]
    # closest: (0,1) positive is kept; mention 2 is joined with its best pair (1,2)
    assert estep_closest(pairs, prob).tolist() == [True, False, True]


def test_closest_positive_pairs_picks_nearest_antecedent():
    corpus, store = make_data([[0, 0, 1, 0]])
    pairs = build_pairs(corpus, store)
    p1 = closest_positive_pairs(pairs, pairs.gold)
    chosen = sorted((int(a), int(b)) for a, b in zip(pairs.ante[p1], pairs.ana[p1]))
    assert chosen == [(0, 1), (1, 3)]


def _design(corpus, store):
    pairs = build_pairs(corpus, store)
    indptr, indices = arc_feature_rows(store, pairs.arcs)
    return pairs, FeatureIndex(indices).matrix(indptr, indices)


def test_base_equals_plain_logistic_regression_on_gold_labels():
    data = make_data([[0, 1, 0, 2, 1, 0], [0, 0, 1, 1, 2]], seed=3)
    model = make_learner("cc_base", tol=1e-8, max_iter=2000).fit(data)
    pairs, X = _design(*data)
    ref = LogisticRegression(C=1.0, solver="lbfgs", tol=1e-8, max_iter=2000).fit(X, pairs.gold)
    coef, intercept = model.iterations_[0]
    assert len(model.iterations_) == 1
    np.testing.assert_allclose(coef, ref.coef_.ravel(), atol=1e-5)
    assert intercept == pytest.approx(ref.intercept_[0], abs=1e-5)


def test_bias_weight_equals_repeating_biased_pairs():
    data = make_data([[0, 1, 0, 2, 1, 0, 2], [0, 0, 1, 1, 2, 0]], seed=5)
    model = CCBase(bias="pa", bias_weight=3.0, tol=1e-9, max_iter=5000).fit(data)
    pairs, X = _design(*data)
    rows = np.concatenate([np.arange(len(pairs))] + [np.flatnonzero(pairs.gold)] * 2)
    ref = LogisticRegression(C=1.0, tol=1e-9, max_iter=5000).fit(X[rows], pairs.gold[rows])
    np.testing.assert_allclose(model.iterations_[0][0], ref.coef_.ravel(), atol=1e-4)
    # the weights touch only the biased pairs
    w = model.pair_weights(pairs, pairs.gold)
    assert set(np.unique(w[pairs.gold])) == {3.0} and set(np.unique(w[~pairs.gold])) == {1.0}


def test_slt_runs_em_keeps_every_iteration_and_round_trips(tmp_path):
    data = make_data([[0, 1, 0, 2, 1, 0, 2, 2], [0, 0, 1, 1, 2, 0]], seed=7, noise=0.3)
    seen = []
    model = make_learner("cc_slt_closest", em_iterations=4).fit(data, callback=lambda t, m: seen.append(t))
    assert seen == [1, 2, 3, 4] and len(model.iterations_) == 4
    labels = model.predict_labels(data)
    model.save(tmp_path / "m.npz")
    again = PairwiseCRF.load(tmp_path / "m.npz")
    assert type(again).__name__ == "CCSLTClosest" and again.n_iterations_ == 4
    assert (again.predict_labels(data) == labels).all()
    assert (again.predict_labels(data, iteration=1) == model.predict_labels(data, iteration=1)).all()


def test_pair_decision_scores_by_hand():
    s = pair_decision_scores([1, 1, 0, 0, 1], [1, 0, 1, 0, 1])
    assert s["precision"] == pytest.approx(200 / 3) and s["recall"] == pytest.approx(200 / 3)
    assert s["error_rate"] == pytest.approx(40.0)


@settings(max_examples=60, deadline=None)
@given(clusterings, st.integers(0, 2**16))
def test_the_two_reconstructed_esteps_coincide(docs, seed):
    """A finding, not a design: as METHODS.md §3 reconstructs them, Kruskal over all intra-cluster
    pairs by descending P meets every predicted positive (P ≥ 0.5) before any negative, so
    'positives + MST' (Fig. 2) adds exactly the negatives that 'connect with the best pairs'
    (Fig. 1) adds. The tables therefore show identical SLT rows; this test keeps that visible."""
    corpus, store = make_data(docs)
    pairs = build_pairs(corpus, store)
    prob = np.random.default_rng(seed).random(len(pairs))
    assert (estep_closest(pairs, prob) == estep_preserving(pairs, prob)).all()
