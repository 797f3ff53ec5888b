"""Choi & Cardie 2007: E-steps reproduce gold by single link, BASE = logistic regression, biased weights."""

from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.linear_model import LogisticRegression

from coreflab.decode.single_link import single_link
from coreflab.errors import UserError
from coreflab.learn.pairwise.crf_slt import (
    ESTEPS,
    CCBase,
    PairwiseCRF,
    pair_decision_scores,
)
from coreflab.learn.pairwise.crf_slt import (
    make_cc_learner as make_learner,
)
from coreflab.learn.pairwise.pair_data import build_pairs
from coreflab.learn.pairwise.slt_estep import closest_positive_pairs, estep_closest, estep_preserving

from .reference_design import design_matrix


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
        name="t",
        split="train",
        m_doc=np.array(m_doc, dtype=np.int32),
        m_cluster=m_cluster,
        doc_mention_offsets=np.array(offsets, dtype=np.int64),
        n_mentions=len(m_doc),
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
        n_bits=n_bits,
        m_arc_offsets=np.array(arc_off, np.int64),
        arc_ante=np.array(ante, np.int32),
        arc_feat_offsets=np.array(feat_off, np.int64),
        arc_feats=np.array(feats, np.int32),
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
def test_closest_changes_no_correct_prediction_and_preserving_keeps_positives_and_chain(docs, seed):
    corpus, store = make_data(docs)
    pairs = build_pairs(corpus, store)
    prob = np.random.default_rng(seed).random(len(pairs))
    pred = prob >= 0.5
    h = estep_closest(pairs, prob)
    correct = pred == pairs.gold
    assert (h[correct] == pred[correct]).all()
    h2 = estep_preserving(pairs, prob)
    # kept: every intra-cluster pair the model predicts positive, and y*'s closest-antecedent chain
    assert (h2[pairs.gold & pred]).all()
    assert h2[closest_positive_pairs(pairs, pairs.gold)].all()


def test_esteps_by_hand():
    # one cluster of three mentions: pairs (0,1) (0,2) (1,2)
    corpus, store = make_data([[0, 0, 0]])
    pairs = build_pairs(corpus, store)
    order = list(zip(pairs.ante, pairs.ana))
    assert order == [(0, 1), (0, 2), (1, 2)]
    prob = np.array([0.9, 0.1, 0.2])  # (0,2) and (1,2) predicted negative
    # preserving: positive (0,1) + the closest-antecedent chain (0,1), (1,2)
    assert estep_preserving(pairs, prob).tolist() == [True, False, True]
    # closest: (0,1) positive is kept; mention 2 is joined with its best pair (1,2)
    assert estep_closest(pairs, prob).tolist() == [True, False, True]
    # the model connects the cluster through (0,1), (0,2): Fig. 1 stops, Fig. 2 adds the chain pair (1,2)
    prob = np.array([0.9, 0.8, 0.1])
    assert estep_closest(pairs, prob).tolist() == [True, True, False]
    assert estep_preserving(pairs, prob).tolist() == [True, True, True]


def test_closest_positive_pairs_picks_nearest_antecedent():
    corpus, store = make_data([[0, 0, 1, 0]])
    pairs = build_pairs(corpus, store)
    p1 = closest_positive_pairs(pairs, pairs.gold)
    chosen = sorted((int(a), int(b)) for a, b in zip(pairs.ante[p1], pairs.ana[p1]))
    assert chosen == [(0, 1), (1, 3)]


def _design(corpus, store):
    pairs = build_pairs(corpus, store)
    return pairs, design_matrix(store, pairs.arcs)[0]


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
    w = model.pair_weights(pairs)
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


def _plant_triple(docs):
    """Append a document whose cluster {0, 1, 2} the model connects through (0,1) and (0,2) only."""
    return docs + [[0, 0, 0]]


@settings(max_examples=60, deadline=None)
@given(clusterings, st.integers(0, 2**16))
def test_the_two_esteps_differ_and_both_single_link_to_gold(docs, seed):
    """Fig. 2 keeps y*'s closest-antecedent chain where Fig. 1 is content with the model's
    positives: a planted cluster connected by (0,1), (0,2) (P ≥ 0.5) but with (1,2) below 0.5
    makes them differ on every random corpus; both still single-link to gold exactly."""
    docs = _plant_triple(docs)
    corpus, store = make_data(docs)
    pairs = build_pairs(corpus, store)
    prob = np.random.default_rng(seed).random(len(pairs))
    planted = pairs.doc == len(docs) - 1
    prob[planted] = [0.9, 0.8, 0.1]  # (0,1) (0,2) (1,2)
    h1, h2 = estep_closest(pairs, prob), estep_preserving(pairs, prob)
    assert (h1 != h2).any()
    assert h1[planted].tolist() == [True, True, False] and h2[planted].tolist() == [True, True, True]
    gold_labels = corpus.m_cluster + 100 * corpus.m_doc
    rows = np.arange(corpus.n_mentions)
    for h in (h1, h2):
        assert canonical(single_link(pairs.n_mentions, pairs.ante, pairs.ana, h), rows) == canonical(gold_labels, rows)
    # Fig. 2 = model positives inside clusters + y*'s chain (no window here, so nothing else)
    chain = closest_positive_pairs(pairs, pairs.gold)
    assert (h2 == (pairs.gold & ((prob >= 0.5) | chain))).all()


def _slt_design(seed=11):
    data = make_data([[0, 1, 0, 2, 1, 0, 2, 2, 0], [0, 0, 1, 1, 2, 0, 1]], seed=seed, noise=0.35)
    pairs, X = _design(*data)
    return data, pairs, X


@pytest.mark.parametrize("bias", ["pa", "p1"])
def test_biased_potentials_under_slt_read_gold_not_h(bias):
    data, pairs, X = _slt_design()
    model = make_learner("cc_slt_closest", bias=bias, bias_weight=3.0, em_iterations=2, tol=1e-10, max_iter=5000).fit(
        data
    )
    h = model.train_labels_
    assert (h != pairs.gold).any()  # the E-step dropped some gold pairs: h and y* disagree
    if bias == "pa":
        gold_biased = pairs.gold
    else:
        gold_biased = closest_positive_pairs(pairs, pairs.gold)
    w = np.where(gold_biased, 3.0, 1.0)
    assert (model.pair_weights(pairs) == w).all()
    # iteration 2 is the weighted likelihood optimum on h with weights from y* (strictly convex: unique)
    ref = LogisticRegression(C=1.0, tol=1e-10, max_iter=5000).fit(X, h, sample_weight=w)
    np.testing.assert_allclose(model.iterations_[1][0], ref.coef_.ravel(), atol=1e-4)
    wrong = LogisticRegression(C=1.0, tol=1e-10, max_iter=5000).fit(
        X, h, sample_weight=np.where(h if bias == "pa" else closest_positive_pairs(pairs, h), 3.0, 1.0)
    )
    assert np.abs(model.iterations_[1][0] - wrong.coef_.ravel()).max() > 1e-3


def _old_csr_path(data, learner, iterations, **params):
    """What PairwiseCRF computed before issue 17: CSR design + LogisticRegression(lbfgs, warm_start).
    Pair probabilities of every EM iteration."""
    corpus, store = data
    pairs, X = _design(corpus, store)
    model = make_learner(learner, em_iterations=iterations, **params)
    lr = LogisticRegression(
        C=model.prior_variance, solver="lbfgs", max_iter=model.max_iter, tol=model.tol, warm_start=True
    )
    labels, weights, out = pairs.gold.copy(), model.pair_weights(pairs), []
    for t in range(iterations):
        if t:
            labels = ESTEPS[model.estep](pairs, lr.predict_proba(X)[:, 1], model.threshold)
        lr.fit(X, labels, sample_weight=weights)
        out.append(lr.predict_proba(X)[:, 1])
    return out


@pytest.mark.parametrize("learner,bias", [("cc_base", "none"), ("cc_slt_closest", "p1"), ("cc_slt_preserving", "pa")])
def test_pair_probabilities_equal_the_old_csr_path(learner, bias):
    data = make_data([[0, 1, 0, 2, 1, 0, 2, 2, 0], [0, 0, 1, 1, 2, 0, 1], [0, 1, 1, 0]], seed=13, noise=0.3)
    iterations = 1 if learner == "cc_base" else 3
    # both run to a tight tolerance (the Newton solver's default 1e-4 is relative to ‖∇f(0)‖, L-BFGS's an
    # absolute max|g|): the same optimum
    old = _old_csr_path(data, learner, iterations, bias=bias, bias_weight=3.0, tol=1e-10)
    model = make_learner(learner, em_iterations=iterations, bias=bias, bias_weight=3.0, tol=1e-10).fit(data)
    for t in range(iterations):
        np.testing.assert_allclose(model.pair_probabilities(data, iteration=t + 1)[1], old[t], atol=1e-6)


def test_same_seed_gives_identical_coefficients():
    data = make_data([[0, 1, 0, 2, 1, 0, 2, 2], [0, 0, 1, 1, 2, 0]], seed=7, noise=0.3)
    a = make_learner("cc_slt_closest", em_iterations=3, seed=4).fit(data)
    b = make_learner("cc_slt_closest", em_iterations=3, seed=4).fit(data)
    np.testing.assert_array_equal(a.coef_, b.coef_)
    assert a.feature_ids_ == b.feature_ids_ and a.relabelled_ == b.relabelled_


def test_pairs_are_built_once_per_store_and_never_saved(tmp_path, monkeypatch):
    import coreflab.learn.pairwise.crf_slt as crf

    calls = []
    monkeypatch.setattr(crf, "build_pairs", lambda c, s: calls.append(id(s)) or build_pairs(c, s))
    train = make_data([[0, 1, 0, 2, 1, 0, 2], [0, 0, 1, 1, 2, 0]], seed=5)
    test = make_data([[0, 1, 1, 0, 2]], seed=6)
    model = make_learner("cc_slt_closest", em_iterations=3)
    assert not [k for k in vars(model) if k.endswith("_")]  # no fitted attribute before fit
    model.fit(train)
    for t in (1, 2, 3):
        model.pair_probabilities(train, t), model.predict_labels(test, t), model.pair_probabilities(test, t)
    assert calls == [id(train[1]), id(test[1])]
    others = [make_data([[0, 1, 0]], seed=s) for s in range(5)]
    for other in others:
        model.pair_probabilities(other)
    assert len(model._pair_cache) == model._CACHED_STORES and id(others[-1][1]) in model._pair_cache
    cache = model._pair_cache
    assert model.fit(train)._pair_cache is not cache and len(model._pair_cache) == 1  # fit starts a new cache
    model.save(tmp_path / "m.npz")
    with np.load(tmp_path / "m.npz") as z:
        assert sorted(z.files) == ["_learner", "_meta", "_params", "coef_"]
        assert "cache" not in str(z["_meta"])


def test_a_model_file_in_the_old_layout_loads_and_predicts_like_its_coefficients(tmp_path):
    """The file layout is unchanged: feature_ids_ (sorted hashed ids) + coef_ packing every
    iteration's coefficients then intercepts. One written by hand from scikit-learn's fit."""
    import json

    data = make_data([[0, 1, 0, 2, 1, 0, 2], [0, 0, 1, 1, 2, 0]], seed=5)
    pairs = build_pairs(*data)
    X, ids = design_matrix(data[1], pairs.arcs)
    ref = LogisticRegression(C=1.0).fit(X, pairs.gold)
    np.savez(
        tmp_path / "old.npz",
        coef_=np.concatenate([ref.coef_.ravel(), ref.intercept_]),
        _learner=np.array("cc_base"),
        _params=np.array(json.dumps(CCBase().get_params())),
        _meta=np.array(json.dumps({"feature_ids_": ids, "n_iterations_": 1, "iteration_": 1, "relabelled_": []})),
    )
    model = PairwiseCRF.load(tmp_path / "old.npz")
    test = make_data([[0, 1, 1, 0, 2, 2, 0]], seed=9)
    test_pairs = build_pairs(*test)
    X_test, _ = design_matrix(test[1], test_pairs.arcs, ids)
    np.testing.assert_allclose(model.pair_probabilities(test)[1], ref.predict_proba(X_test)[:, 1], atol=1e-12)


@settings(max_examples=15, deadline=None)
@given(clusterings, st.integers(0, 2**16), st.sampled_from([("none", 1.0), ("p1", 1.5), ("pa", 3.0)]))
def test_shared_first_fit_is_the_fit_each_variant_makes_itself(docs, seed, bias):
    """Iteration 1 of BASE and both SLT E-steps is one fit on y*: sharing it changes nothing."""
    corpus, store = make_data(docs + [[0, 1, 0, 1]], seed=seed)
    params = {"bias": bias[0], "bias_weight": bias[1], "em_iterations": 3, "max_iter": 40}
    base = make_learner("cc_base", **params).fit((corpus, store))
    for variant in ("cc_slt_closest", "cc_slt_preserving"):
        alone = make_learner(variant, **params).fit((corpus, store))
        shared = make_learner(variant, **params).fit((corpus, store), first_fit=base.first_fit())
        assert len(shared._iterations) == len(alone._iterations) == 3
        for (c1, b1), (c2, b2) in zip(alone._iterations, shared._iterations):
            assert np.array_equal(c1, c2) and b1 == b2
        assert np.array_equal(alone.train_labels_, shared.train_labels_)


def test_first_fit_from_other_settings_is_refused():
    corpus, store = make_data([[0, 1, 0, 1], [0, 0, 1]])
    base = make_learner("cc_base", bias="pa", bias_weight=3.0, max_iter=20).fit((corpus, store))
    other = make_learner("cc_slt_closest", bias="pa", bias_weight=1.5, em_iterations=2, max_iter=20)
    with pytest.raises(UserError, match="other settings"):
        other.fit((corpus, store), first_fit=base.first_fit())


@pytest.mark.parametrize("seed", [0, 3])
def test_a_biased_fit_warm_started_from_base_reaches_the_optimum_of_a_cold_one(seed):
    """Issue 57: the Pa fit starts from the unbiased BASE fit's weights. Same criterion (relative to
    ‖∇f(0)‖, the same for both), so the same optimum to tolerance: objectives within (tol·‖∇f(0)‖)²/μ,
    weights within 2·tol·‖∇f(0)‖/μ (f is μ-strongly convex, μ = 1/(C·Σ s_i)), the record says how it started."""
    corpus, store = make_data([[0, 1, 0, 2, 1, 0, 2, 1, 0], [0, 0, 1, 1, 2, 0, 2], [0, 1, 2, 0, 1, 2]], seed=seed)
    base = make_learner("cc_base").fit((corpus, store))
    params = {"bias": "pa", "bias_weight": 3.0}
    cold = make_learner("cc_base", **params).fit((corpus, store))
    warm = make_learner("cc_base", **params).fit((corpus, store), warm_start=base.first_fit())
    rc, rw = cold.convergence_[0], warm.convergence_[0]
    assert (rc["start"], rw["start"]) == ("cold", "warm") and rc["converged"] and rw["converged"]
    g0, tol = rc["grad_norm_zero"], rc["tol"]
    assert rw["grad_norm_zero"] == g0 and rw["iterations"] <= rc["iterations"]
    mu = 1.0 / warm.pair_weights(build_pairs(corpus, store)).sum()
    assert abs(rc["f"] - rw["f"]) <= (tol * g0) ** 2 / mu
    (c1, b1), (c2, b2) = cold.iterations_[0], warm.iterations_[0]
    assert float(np.linalg.norm(np.append(c1 - c2, b1 - b2))) <= 2 * tol * g0 / mu
    # SLT's later iterations start from the one before, as always
    slt = make_learner("cc_slt_closest", em_iterations=3, **params).fit((corpus, store), warm_start=base.first_fit())
    assert [r["start"] for r in slt.convergence_] == ["warm", "previous", "previous"]


def test_a_warm_start_by_hashed_id_leaves_ids_it_lacks_at_zero():
    from coreflab.learn.pairwise.crf_slt import _aligned_start

    fit = {"feature_ids": [3, 7, 9], "coef": [0.5, -1.0, 2.0], "intercept": 0.25}
    coef, intercept = _aligned_start(fit, np.array([1, 7, 9, 12]))
    assert coef.tolist() == [0.0, -1.0, 2.0, 0.0] and intercept == 0.25


def test_models_sharing_pairs_fit_and_score_as_alone():
    """`share_pairs`: a job's models read each store through one model's pairs and column map: the same
    coefficients and probabilities as each building its own."""
    corpus, store = make_data([[0, 1, 0, 2, 1, 0], [0, 0, 1, 1, 2]], seed=4)
    test = make_data([[0, 1, 1, 0, 2, 2, 0]], seed=9)
    base = make_learner("cc_base").fit((corpus, store))
    base.pair_probabilities(test)
    alone = make_learner("cc_slt_preserving", em_iterations=3).fit((corpus, store), first_fit=base.first_fit())
    shared = make_learner("cc_slt_preserving", em_iterations=3)
    shared.share_pairs(base)
    shared.fit((corpus, store), first_fit=base.first_fit())
    assert shared._pair_cache is base._pair_cache and shared._column_map(store.n_bits) is base._column_map(10)
    assert np.array_equal(alone.coef_, shared.coef_)
    for t in (1, 2, 3):
        assert np.array_equal(alone.pair_probabilities(test, t)[1], shared.pair_probabilities(test, t)[1])
