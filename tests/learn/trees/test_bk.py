"""Björkelund & Kuhn learners: the paper's equivalence, early update, LaSO re-seeding."""

import numpy as np
import pytest

from coreflab.decode.arcs import arc_arrays, arc_scores, bk_arc_loss, gold_arc_mask
from coreflab.decode.random_problem import random_problem
from coreflab.errors import UserError
from coreflab.learn.base import Learner
from coreflab.learn.registry import make_learner

NL = [
    "cluster_size",
    "cluster_shape",
    "syntactic_context",
    "cluster_start_distance",
    "ante_ante_head",
    "cluster_first_name_head",
    "cluster_bag_head",
    "cluster_bag_ne",
]


def _data(seed=0, sizes=(6, 9, 4, 12, 7, 3, 10), **kw):
    return random_problem(list(sizes), n_bits=10, seed=seed, **kw)


@pytest.mark.parametrize("update", ["pa", "perceptron"])
@pytest.mark.parametrize("beam", [1, 4])
@pytest.mark.parametrize("seed", [0, 1])
def test_delayed_laso_with_local_features_equals_baseline(update, beam, seed):
    data = _data(seed, informative=False)  # random features: many updates over 4 epochs
    kw = dict(n_iter=4, update=update, seed=seed)
    base = make_learner("bk_baseline", dict(kw)).fit(data)
    delayed = make_learner("bk_delayed_laso", dict(kw, beam=beam)).fit(data)
    assert sum(h["updates"] for h in base.history_) > 5
    assert np.array_equal(base.weights_, delayed.weights_)
    assert np.array_equal(base.coef_, delayed.coef_)


def _phi(store, arcs):
    out = {}
    for a in arcs:
        for f in store.arc_feats[store.arc_feat_offsets[a] : store.arc_feat_offsets[a + 1]]:
            out[int(f)] = out.get(int(f), 0.0) + 1.0
    return out


def test_early_update_stops_at_first_violation():
    corpus, store = _data(3, sizes=(8,))
    corpus.arrays["m_cluster"][:] = [0, 1, 2, 1, 0, 3, 1, 0]
    m = make_learner("bk_early", dict(n_iter=1, beam=1, average=False)).fit((corpus, store))
    # w = 0: every predicted arc is the root (first candidate); m3 is the first mention
    # whose root arc is wrong, so the only update is at prefix m0..m3
    assert m.trace_[0] == 4 and m.history_[0]["updates"] == 1
    gold = gold_arc_mask(corpus, store)
    off = store.m_arc_offsets
    pred_arcs = [off[i] for i in range(4)]
    gold_arcs = [next(a for a in range(off[i], off[i + 1]) if gold[a]) for i in range(4)]
    delta = _phi(store, gold_arcs)
    for f, v in _phi(store, pred_arcs).items():
        delta[f] = delta.get(f, 0.0) - v
    norm = sum(v * v for v in delta.values())
    tau = 1.5 / norm  # loss: one wrong root attachment, margin 0
    expected = np.zeros(1 << 10)
    for f, v in delta.items():
        expected[f] = tau * v
    np.testing.assert_allclose(m.weights_, expected)


def _laso_reference(corpus, store, order_seed, n_iter):
    """Beam-1 LaSO with local features in plain Python: after each update the prediction
    continues from the gold prefix recomputed with the new weights."""
    w = np.zeros(1 << store.n_bits)
    gold = gold_arc_mask(corpus, store)
    loss = bk_arc_loss(gold, store.arc_ante)
    off, doffs = store.m_arc_offsets, store.doc_mention_offsets
    rng = np.random.default_rng(order_seed)

    def best(r, sc, only_gold):
        arcs = [a for a in range(off[r], off[r + 1]) if not only_gold or gold[a]]
        return max(arcs, key=lambda a: (sc[a], -a))

    for _ in range(n_iter):
        for d in rng.permutation(len(doffs) - 1):
            lo, hi = doffs[d], doffs[d + 1]
            sc = arc_scores(w, store)
            pred = []
            for j in range(lo, hi):
                pred.append(best(j, sc, False))
                if gold[pred[-1]]:
                    continue
                g = [best(r, sc, True) for r in range(lo, j + 1)]
                delta = _phi(store, g)
                for f, v in _phi(store, pred).items():
                    delta[f] = delta.get(f, 0.0) - v
                ids = sorted(f for f in delta if delta[f] != 0)
                margin = sum(w[f] * delta[f] for f in ids)
                norm = sum(delta[f] ** 2 for f in ids)
                tau = (sum(loss[a] for a in pred) - margin) / norm if norm else 0.0
                if tau > 0:
                    for f in ids:
                        w[f] += tau * delta[f]
                sc = arc_scores(w, store)
                pred = [best(r, sc, True) for r in range(lo, j + 1)]  # re-seed from gold
    return w


def test_laso_reseeds_from_the_gold_agenda():
    corpus, store = _data(5, informative=False)
    m = make_learner("bk_laso", dict(n_iter=3, beam=1, average=False, seed=7)).fit((corpus, store))
    assert sum(h["updates"] for h in m.history_) > 5
    np.testing.assert_allclose(m.weights_, _laso_reference(corpus, store, 7, 3), rtol=1e-10, atol=1e-12)


def test_averaged_weights_are_the_mean_over_documents():
    data = _data(2, sizes=(9,), informative=False)
    seen = []
    m = make_learner("bk_laso", dict(n_iter=4, beam=2))
    m.fit(data, callback=lambda epoch, model: seen.append(model.weights_.copy()))
    np.testing.assert_allclose(m.coef_, np.mean(seen, axis=0))


@pytest.mark.parametrize("name", ["bk_early", "bk_maxviolation", "bk_laso", "bk_delayed_laso"])
def test_nonlocal_learners_run_deterministically(name, tmp_path):
    data = _data(4)
    params = dict(n_iter=3, beam=3, nonlocal_templates=NL, seed=11)
    epochs = []
    a = make_learner(name, params).fit(data, callback=lambda e, model: epochs.append(e))
    b = make_learner(name, params).fit(data)
    assert epochs == [1, 2, 3]
    assert np.array_equal(a.coef_, b.coef_) and np.any(a.coef_ != 0)
    c = make_learner(name, dict(params, seed=12)).fit(data)
    assert not np.array_equal(a.coef_, c.coef_)
    pred = a.predict(*data)
    path = a.save(tmp_path / "m.npz")
    back = Learner.load(path)
    assert back.get_params() == a.get_params() and back.name == name
    assert np.array_equal(back.coef_, a.coef_)
    assert np.array_equal(back.predict(*data), pred)


def test_learning_separates_the_informative_feature():
    data = _data(6, sizes=(12,) * 10)
    m = make_learner("bk_delayed_laso", dict(n_iter=5, beam=4, nonlocal_templates=NL)).fit(data)
    pred = m.predict(*data)
    gold = gold_arc_mask(*data)
    store = data[1]
    chosen = [
        store.m_arc_offsets[r]
        + np.flatnonzero(store.arc_ante[store.m_arc_offsets[r] : store.m_arc_offsets[r + 1]] == pred[r])[0]
        for r in range(len(pred))
    ]
    assert gold[chosen].mean() > 0.95


def test_user_errors():
    data = _data(0, sizes=(3,))
    with pytest.raises(UserError, match="local features only"):
        make_learner("bk_baseline", dict(nonlocal_templates=["cluster_size"])).fit(data)
    with pytest.raises(UserError, match="update must be"):
        make_learner("bk_early", dict(update="sgd")).fit(data)
    with pytest.raises(UserError, match="unfitted"):
        make_learner("bk_early").save("x.npz")
    corpus, store = data
    corpus.arrays["m_cluster"][:] = -1
    with pytest.raises(UserError, match="no gold clusters"):
        make_learner("bk_early").fit(data)


def _maxviolation_reference(corpus, store, order_seed, n_iter):
    """Beam-1 max-violation with local features in plain Python: decode the whole document
    without re-seeding, update at the incorrect prefix with the largest score(pred) −
    score(gold) (earliest on ties)."""
    w = np.zeros(1 << store.n_bits)
    gold = gold_arc_mask(corpus, store)
    loss = bk_arc_loss(gold, store.arc_ante)
    off, doffs = store.m_arc_offsets, store.doc_mention_offsets
    rng = np.random.default_rng(order_seed)
    for _ in range(n_iter):
        for d in rng.permutation(len(doffs) - 1):
            lo, hi = doffs[d], doffs[d + 1]
            sc = arc_scores(w, store)
            p = [max(range(off[r], off[r + 1]), key=lambda a: (sc[a], -a)) for r in range(lo, hi)]
            g = [
                max((a for a in range(off[r], off[r + 1]) if gold[a]), key=lambda a: (sc[a], -a)) for r in range(lo, hi)
            ]
            best, best_j, wrong = -np.inf, None, False
            for j in range(hi - lo):
                wrong = wrong or not gold[p[j]]
                v = sum(sc[a] for a in p[: j + 1]) - sum(sc[a] for a in g[: j + 1])
                if wrong and v > best + 1e-12:
                    best, best_j = v, j + 1
            if best_j is None:
                continue
            delta = _phi(store, g[:best_j])
            for f, v in _phi(store, p[:best_j]).items():
                delta[f] = delta.get(f, 0.0) - v
            ids = [f for f in sorted(delta) if delta[f] != 0]
            norm = sum(delta[f] ** 2 for f in ids)
            tau = (sum(loss[a] for a in p[:best_j]) - sum(w[f] * delta[f] for f in ids)) / norm if norm else 0
            if tau > 0:
                for f in ids:
                    w[f] += tau * delta[f]
    return w


def test_maxviolation_updates_at_the_largest_violation():
    corpus, store = _data(8, informative=False)
    m = make_learner("bk_maxviolation", dict(n_iter=3, beam=1, average=False, seed=2)).fit((corpus, store))
    assert sum(h["updates"] for h in m.history_) > 5
    np.testing.assert_allclose(m.weights_, _maxviolation_reference(corpus, store, 2, 3), rtol=1e-10, atol=1e-12)


def test_delayed_laso_equals_baseline_on_real_features():
    """Real templates give exact score ties and absorbed differences; still identical."""
    from coreflab.corpus.compile import compile_documents
    from coreflab.corpus.synthetic.generator import generate_corpus
    from coreflab.features.extract import extract_arc_store

    docs = generate_corpus("tiny", seed=1)["train"]
    corpus = compile_documents(docs, "synth", "train")
    store = extract_arc_store(
        corpus,
        [
            "bias",
            "ana_type",
            "ana_type+ante_type",
            "sent_dist",
            "ment_dist",
            "exact_match",
            "head_match",
            "gender_agree",
        ],
        n_bits=14,
    )
    base = make_learner("bk_baseline", dict(n_iter=3, seed=3)).fit((corpus, store))
    for beam in (1, 5):
        delayed = make_learner("bk_delayed_laso", dict(n_iter=3, beam=beam, seed=3)).fit((corpus, store))
        assert np.array_equal(base.coef_, delayed.coef_)


@pytest.mark.parametrize("learner", ["bk_baseline", "bk_delayed_laso", "bk_early"])
def test_pa_cap_above_every_step_changes_nothing_and_a_small_cap_does(learner):
    data = _data(2, informative=False)
    kw = dict(n_iter=3, seed=2, **({} if learner == "bk_baseline" else {"beam": 3}))
    free = make_learner(learner, dict(kw)).fit(data)
    assert np.array_equal(free.coef_, make_learner(learner, dict(kw, pa_cap=1e12)).fit(data).coef_)
    capped = make_learner(learner, dict(kw, pa_cap=1e-3)).fit(data)
    assert not np.array_equal(free.coef_, capped.coef_)
    assert np.abs(capped.weights_).max() < np.abs(free.weights_).max()  # bounded steps stay small


def test_pa_cap_must_be_positive():
    with pytest.raises(UserError, match="pa_cap must be a positive number"):
        make_learner("bk_baseline", dict(pa_cap=0)).fit(_data())


def test_a_bad_beam_or_n_iter_is_named_alone():
    with pytest.raises(UserError, match=r"^bk_delayed_laso: beam must be >= 1, not -3$"):
        make_learner("bk_delayed_laso", dict(beam=-3)).fit(_data())
    with pytest.raises(UserError, match=r"^bk_baseline: n_iter must be >= 0, not -1$"):
        make_learner("bk_baseline", dict(n_iter=-1)).fit(_data())


def test_selected_nonlocal_templates_come_from_the_arc_store():
    from coreflab.learn.registry import check_param_types, get_learner

    corpus, store = _data(2)
    store.meta["nonlocal"] = ["cluster_size", "cluster_shape"]  # what `coreflab features` records
    params = check_param_types(
        get_learner("bk_delayed_laso"), {"nonlocal_templates": "selected", "n_iter": 1, "beam": 2}
    )
    m = make_learner("bk_delayed_laso", params).fit((corpus, store))
    assert m.nonlocal_used_ == ["cluster_size", "cluster_shape"]
    explicit = make_learner("bk_delayed_laso", dict(params, nonlocal_templates=["cluster_size", "cluster_shape"]))
    assert np.array_equal(explicit.fit((corpus, store)).coef_, m.coef_)
    with pytest.raises(UserError, match="must be a list"):
        check_param_types(get_learner("bk_delayed_laso"), {"nonlocal_templates": "chosen"})
    with pytest.raises(UserError, match="baseline learner uses local features only"):
        make_learner("bk_baseline", {"nonlocal_templates": "selected"}).fit((corpus, store))


def test_laso_rescoring_after_an_update_touches_only_gold_arcs():
    """After a LaSO update the gold agenda is rebuilt from Ã alone: `_gold_scores` gives the gold
    arcs exactly `score_arcs`'s sums and leaves every other entry as it was."""
    from coreflab.decode.arcs import score_arcs
    from coreflab.learn.trees.bk_kernels import _gold_scores

    corpus, store = _data(3)
    gold = gold_arc_mask(corpus, store)
    w = np.random.default_rng(0).normal(size=1 << store.n_bits)
    n = store.arc_ante.shape[0]
    full = np.empty(n)
    score_arcs(w, store.arc_feat_offsets, store.arc_feats, 0, n, full)
    out = np.full(n, -7.0)
    _gold_scores(w, arc_arrays(store, gold), 0, n, out)
    assert 0 < gold.sum() < n
    assert np.array_equal(out[gold != 0], full[gold != 0])
    assert np.all(out[gold == 0] == -7.0)
