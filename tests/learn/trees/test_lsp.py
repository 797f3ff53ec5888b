"""LSP learners (Haponchyk & Moschitti 2017): exact loss-augmented search, training, data generation."""

import itertools

import numpy as np
import pandas as pd
import pytest

from coreflab.corpus.singletons import corpus_key_has_singletons
from coreflab.decode.arcs import arc_scores, gold_arc_mask
from coreflab.decode.best_first import best_first_antecedents
from coreflab.decode.random_problem import random_problem
from coreflab.errors import UserError
from coreflab.learn.base import Learner
from coreflab.learn.registry import make_learner
from coreflab.learn.trees.lsp_kernels import arc_losses
from coreflab.mela.features import FEATURE_NAMES
from coreflab.mela.regressor import fit_regressor, load_regressor, mse_scc, save_regressor
from coreflab.papers.hm2017.regressor_data import regressor_table


def _delta(kind, ante, mc, r):
    """Δ_F / Δ_YJ of one tree from their definitions over the gold clustering."""
    n = len(ante)
    if kind == "f":
        total = 0.0
        for i in range(n):
            gold = [j for j in range(i) if mc[j] == mc[i]] or [-1]
            if ante[i] not in gold:
                total += 1 + r * (gold == [-1])
        return total
    k = len(set(mc))
    return n - k + sum(-1.0 if mc[a] == mc[i] else r for i, a in enumerate(ante) if a >= 0)


@pytest.mark.parametrize("kind,r", [("f", 0.5), ("f", 2.0), ("yj", 0.1), ("yj", 0.5)])
@pytest.mark.parametrize("seed", range(6))
def test_loss_augmented_best_first_equals_brute_force(kind, r, seed):
    corpus, store = random_problem([5, 4], n_bits=8, seed=seed, informative=False)
    w = np.random.default_rng(seed).normal(size=1 << 8)
    C = [0.3, 1.0, 3.0][seed % 3]
    scores = arc_scores(w, store)
    loss = arc_losses(kind, gold_arc_mask(corpus, store), store.arc_ante, store.m_arc_offsets, r)
    ante = best_first_antecedents(scores, store, loss=loss, loss_scale=C)
    mc = corpus.arrays["m_cluster"]
    offs = store.doc_mention_offsets
    for d in range(2):
        lo, hi = int(offs[d]), int(offs[d + 1])
        arcs = [range(store.m_arc_offsets[j], store.m_arc_offsets[j + 1]) for j in range(lo, hi)]
        doc_mc = list(mc[lo:hi])

        def value(tree):
            a = [int(store.arc_ante[x]) for x in tree]
            return scores[list(tree)].sum() + C * _delta(kind, a, doc_mc, r)

        best = max(value(t) for t in itertools.product(*arcs))
        chosen = [store.m_arc_offsets[j] + (0 if ante[j] < 0 else 1 + ante[j]) for j in range(lo, hi)]
        assert np.isclose(value(chosen), best)


def _regressor(tmp_path, corpus, store, keep=None):
    """A regressor fitted in `keep`'s mode (None: the mode lsp_rho's auto reads from the corpus)."""
    keep = corpus_key_has_singletons(corpus) if keep is None else keep
    df = regressor_table(corpus, store, per_sample=4, n_iter=10, seed=3, keep_singletons=keep)
    path = tmp_path / f"reg-{int(keep)}.json"
    save_regressor(
        path, fit_regressor(df[list(FEATURE_NAMES)].to_numpy(), df["mela"].to_numpy()), len(df), keep_singletons=keep
    )
    return path, df


def test_regressor_data_is_deterministic_and_exact(tmp_path):
    corpus, store = random_problem([6, 9, 4, 12, 7, 3, 10, 8], n_bits=10, seed=2, informative=False)
    a = regressor_table(corpus, store, per_sample=4, n_iter=10, seed=3)
    b = regressor_table(corpus, store, per_sample=4, n_iter=10, seed=3)
    pd.testing.assert_frame_equal(a, b)
    assert set(a["sample"]) == {1, 2}
    assert not set(a.loc[a["sample"] == 1, "doc"]) & set(a.loc[a["sample"] == 2, "doc"])
    assert len(a) > 8
    # the exact MUC and B3 F1 of the scorer equal the corresponding features
    assert np.allclose(a["muc"], a["muc_f"]) and np.allclose(a["bcub"], a["b3_f"])
    assert np.allclose(a["mela"], (a["muc"] + a["bcub"] + a["ceafe"]) / 3)


def test_regressor_round_trip_and_metrics(tmp_path):
    corpus, store = random_problem([6, 9, 4, 12, 7, 3, 10, 8], n_bits=10, seed=2, informative=False)
    path, df = _regressor(tmp_path, corpus, store)
    reg = load_regressor(path)
    assert len(reg["coef"]) == 9 and reg["n_examples"] == len(df)
    mse, scc = mse_scc([1.0, 2.0, 3.0], [2.0, 4.0, 6.0])
    assert np.isclose(mse, (1 + 4 + 9) / 3) and np.isclose(scc, 100.0)
    (tmp_path / "bad.json").write_text("{}")
    with pytest.raises(UserError):
        load_regressor(tmp_path / "bad.json")


@pytest.mark.parametrize("name", ["lsp_f", "lsp_yj", "lsp_rho"])
def test_learners_fit_predict_save_load(tmp_path, name):
    corpus, store = random_problem([6, 9, 4, 12, 7, 3, 10, 8], n_bits=10, seed=1)
    params = {"n_iter": 4, "C": 1.0, "seed": 5}
    if name == "lsp_rho":
        params["regressor"] = str(_regressor(tmp_path, corpus, store)[0])
    epochs = []
    model = make_learner(name, params).fit((corpus, store), callback=lambda e, m: epochs.append(e))
    assert epochs == [1, 2, 3, 4]
    assert model.history_[0]["updates"] > 0
    ante = model.predict(corpus, store)
    # informative features: after training the predicted trees are gold-consistent
    arc = store.m_arc_offsets[:-1] + np.where(ante < 0, 0, ante + 1)
    assert gold_arc_mask(corpus, store)[arc].mean() > 0.9
    path = model.save(tmp_path / "m.npz")
    again = Learner.load(path)
    assert np.array_equal(again.predict(corpus, store), ante)
    same = make_learner(name, params).fit((corpus, store))
    assert np.array_equal(same.coef_, model.coef_)  # deterministic for a seed


def test_lsp_rho_needs_a_regressor():
    corpus, store = random_problem([5, 4], n_bits=8, seed=0)
    with pytest.raises(UserError):
        make_learner("lsp_rho", {"n_iter": 1}).fit((corpus, store))


def test_reduce_store_keeps_only_ranked_features():
    from coreflab.papers.hm2017.experiments import keep_ids_for, n_features_grid, rank_features, reduce_store

    corpus, store = random_problem([6, 9, 4, 12, 7], n_bits=10, seed=1)
    ranked, root_only, weight = rank_features(corpus, store)
    assert np.all(np.diff(weight) <= 0)
    n = n_features_grid(len(ranked), [0.01, 0.1, 1.0])
    assert n[0] == max(1, round(0.01 * len(ranked))) and n[-1] == len(ranked)
    keep = keep_ids_for((ranked, root_only), 3)
    small = reduce_store(store, keep).validate()
    assert set(np.unique(small.arc_feats)) <= set(keep)
    assert np.array_equal(small.arc_ante, store.arc_ante)
    full = reduce_store(store, keep_ids_for((ranked, root_only), 0))
    assert np.array_equal(full.arc_feats, store.arc_feats)


# ---- keys that annotate singletons: the learned loss approximates the MELA that is reported ----


@pytest.fixture(scope="module")
def singleton_key(with_singletons):
    from coreflab.corpus.compile import compile_documents
    from coreflab.corpus.synthetic.generator import generate_corpus
    from coreflab.features.extract import extract_arc_store

    plain = generate_corpus("tiny", seed=0)["train"][:6]
    key = with_singletons(plain)
    corpus = compile_documents(key, "synth", "train")
    store = extract_arc_store(corpus, ["bias", "ana_type", "ana_type+ante_type", "sent_dist", "exact_match"], n_bits=12)
    plain_corpus = compile_documents(plain, "synth", "train")
    return key, corpus, store, plain, plain_corpus


def _score_command_mela(tmp_path, key_doc, response_doc, capsys):
    """MELA of `coreflab score KEY RESPONSE --format json` on one document."""
    import argparse
    import json

    from coreflab.commands import score
    from coreflab.corpus.readers.conll import write_conll

    write_conll([key_doc], tmp_path / "key.conll")
    write_conll([response_doc], tmp_path / "response.conll")
    p = argparse.ArgumentParser()
    score.add_arguments(p)
    capsys.readouterr()
    assert (
        score.run(p.parse_args([str(tmp_path / "key.conll"), str(tmp_path / "response.conll"), "--format", "json"]))
        == 0
    )
    return json.loads(capsys.readouterr().out)["mela"]


def test_regressor_labels_equal_coreflab_score_with_singletons_kept(tmp_path, singleton_key, capsys):
    from coreflab.corpus.singletons import key_has_singletons
    from coreflab.learn.output import response_documents
    from coreflab.papers.hm2017.regressor_data import regressor_examples

    key, corpus, store, *_ = singleton_key
    assert key_has_singletons(key) and corpus_key_has_singletons(corpus)
    df, labels = regressor_examples(
        corpus, store, range(corpus.n_docs), n_iter=4, keep_singletons=True, with_labels=True
    )
    dropped = regressor_examples(corpus, store, range(corpus.n_docs), n_iter=4, keep_singletons=False)
    assert len(df) >= 6 and (df["keep_singletons"] == 1).all()
    offs = corpus.doc_mention_offsets
    differs = 0
    for e in range(len(df)):
        d = int(df["doc"].iloc[e])
        lab = labels[e]
        ante = np.full(corpus.n_mentions, -1, dtype=np.int64)
        for i in range(len(lab)):
            earlier = [j for j in range(i) if lab[j] == lab[i]]
            ante[offs[d] + i] = earlier[-1] if earlier else -1
        response = response_documents(key, corpus, ante, keep_singletons=True)
        mela = _score_command_mela(tmp_path, key[d], response[d], capsys)
        assert np.isclose(df["mela"].iloc[e], mela, atol=1e-9)
        differs += not np.isclose(dropped["mela"].iloc[e], mela, atol=1e-6)
    assert differs > 0  # labels with singletons dropped are not the reported MELA


def test_auto_mode_reads_the_key(singleton_key):
    from coreflab.corpus.singletons import resolve_keep_singletons

    key, corpus, _, plain, plain_corpus = singleton_key
    assert resolve_keep_singletons("auto", corpus=corpus) is True
    assert resolve_keep_singletons("auto", corpus=plain_corpus) is False
    assert resolve_keep_singletons("auto", corpus=plain_corpus, key_docs=key) is True  # the key file wins
    assert resolve_keep_singletons("drop", corpus=corpus) is False
    with pytest.raises(UserError):
        resolve_keep_singletons("sometimes", corpus=corpus)


def test_lsp_rho_refuses_a_regressor_of_the_other_mode(tmp_path, singleton_key):
    import json

    _, corpus, store, *_ = singleton_key
    kept, _ = _regressor(tmp_path, corpus, store, keep=True)
    dropped, _ = _regressor(tmp_path, corpus, store, keep=False)
    assert load_regressor(kept)["response_singletons"] == "kept"
    assert load_regressor(dropped)["response_singletons"] == "dropped"
    model = make_learner("lsp_rho", {"n_iter": 1, "regressor": str(kept)}).fit((corpus, store))
    assert model.keep_singletons_ is True and model.rho_fitted_singletons_ is True
    with pytest.raises(UserError, match="dropped"):
        make_learner("lsp_rho", {"n_iter": 1, "regressor": str(dropped)}).fit((corpus, store))
    # a file from before the mode was recorded was fitted with singletons dropped
    legacy = tmp_path / "legacy.json"
    reg = json.loads(dropped.read_text())
    del reg["response_singletons"]
    legacy.write_text(json.dumps(reg))
    with pytest.raises(UserError):
        make_learner("lsp_rho", {"n_iter": 1, "regressor": str(legacy)}).fit((corpus, store))
    # explicit choices: the regressor's own mode, or transfer to this run's mode
    m = make_learner("lsp_rho", {"n_iter": 1, "regressor": str(dropped), "keep_singletons": "false"}).fit(
        (corpus, store)
    )
    assert m.keep_singletons_ is False
    m = make_learner("lsp_rho", {"n_iter": 1, "regressor": str(dropped), "transfer_regressor": True}).fit(
        (corpus, store)
    )
    assert m.keep_singletons_ is True and m.rho_fitted_singletons_ is False


def test_twinless_predicted_mentions_are_off_the_key_of_the_labels(tmp_path, singleton_key, capsys):
    """Predicted mentions: a twinless mention (fresh `m_cluster` id, `m_in_key` 0) alone in the
    response costs precision as in `coreflab score`; it is not a matched key singleton. The key is
    restricted to the detected key mentions (the labels cannot see undetected ones)."""
    from coreflab.corpus.compile import compile_documents
    from coreflab.features.extract import extract_arc_store
    from coreflab.learn.output import response_documents
    from coreflab.mela.features import clustering_features, key_labels
    from coreflab.papers.hm2017.regressor_data import regressor_examples

    key = singleton_key[0]
    corpus = compile_documents(key, "synth", "train", mentions="predicted")
    assert 0 < corpus.arrays["m_in_key"].mean() < 1
    store = extract_arc_store(corpus, ["bias", "ana_type", "sent_dist", "exact_match"], n_bits=12)
    df, labels = regressor_examples(
        corpus, store, range(corpus.n_docs), n_iter=3, keep_singletons=True, with_labels=True
    )
    assert len(df) >= 3
    offs = corpus.doc_mention_offsets
    spans = list(zip(corpus.arrays["m_start"].tolist(), corpus.arrays["m_end"].tolist()))
    gold = key_labels(corpus)
    for e in range(len(df)):
        d = int(df["doc"].iloc[e])
        detected = set(spans[offs[d] : offs[d + 1]])
        restricted = key[d].with_clusters(
            [c for c in ([s for s in c if tuple(s) in detected] for c in key[d].clusters) if c]
        )
        lab = labels[e]
        ante = np.full(corpus.n_mentions, -1, dtype=np.int64)
        for i in range(len(lab)):
            earlier = [j for j in range(i) if lab[j] == lab[i]]
            ante[offs[d] + i] = earlier[-1] if earlier else -1
        response = response_documents(key, corpus, ante, keep_singletons=True)[d]
        assert np.isclose(df["mela"].iloc[e], _score_command_mela(tmp_path, restricted, response, capsys), atol=1e-9)
        f = clustering_features(gold[offs[d] : offs[d + 1]], lab, keep_singletons=True)
        assert np.allclose(df[list(FEATURE_NAMES)].iloc[e].to_numpy(), f)
