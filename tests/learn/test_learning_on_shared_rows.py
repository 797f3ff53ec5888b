"""Every registered learner learns the same from a shared-row store as from the flat store of the same
split (features/shared_rows.py): the kernels read the rows' ids wherever they read an arc's. A
perceptron's weights are sums of integers, so there the two runs are bit for bit the same; elsewhere
the sums are grouped differently, so weights agree to rounding and predictions exactly."""

import numpy as np
import pytest

from coreflab.corpus.compile import compile_documents
from coreflab.corpus.synthetic.generator import generate_corpus
from coreflab.features.extract import extract_tagged_arc_store
from coreflab.features.shared_rows import share_rows
from coreflab.learn.registry import available_learners, make_learner

# own, antecedent-row, anaphor-row and relation-row templates (shared_rows.template_class)
FEATURES = [
    "bias",
    "ana_type",
    "ana_head+ante_head",
    "ante_type+ana_type",
    "ante_head+ana_type",
    "ana_head+ante_type",
    "sent_dist",
    "exact_match",
    "head_match+ana_type+ante_type",
]
FAST = {"n_iter": 2, "epochs": 2, "em_iterations": 1, "max_passes": 2, "max_items": 8, "time_limit": 5.0, "beam": 3}


@pytest.fixture(scope="module")
def split(tmp_path_factory):
    from coreflab.corpus.singletons import corpus_key_has_singletons
    from coreflab.mela.features import FEATURE_NAMES
    from coreflab.mela.regressor import fit_regressor, save_regressor
    from coreflab.papers.hm2017.regressor_data import regressor_table

    docs = generate_corpus("tiny", seed=1)["train"][:6]
    corpus = compile_documents(docs, "synth", "train")
    flat, tags = extract_tagged_arc_store(corpus, FEATURES, n_bits=14)
    shared = share_rows(flat, tags)
    keep = corpus_key_has_singletons(corpus)
    df = regressor_table(corpus, flat, per_sample=2, n_iter=2, seed=3, keep_singletons=keep)
    regressor = tmp_path_factory.mktemp("shared") / "regressor.json"
    save_regressor(regressor, fit_regressor(df[list(FEATURE_NAMES)].to_numpy(), df["mela"].to_numpy()), len(df), keep)
    return corpus, flat, shared, str(regressor)


def test_the_split_shares_rows_of_every_kind(split):
    _, flat, shared, _ = split
    assert shared.n_rows > 0 and shared.nbytes < flat.nbytes


def _params(name, regressor, **extra):
    names = make_learner(name)._param_names()
    params = {k: v for k, v in FAST.items() if k in names}
    if "regressor" in names:
        params["regressor"] = regressor
    if "seed" in names:
        params["seed"] = 5
    params.update({k: v for k, v in extra.items() if k in names})
    return params


@pytest.mark.parametrize("name", sorted(set(available_learners()) - {"string_match"}))
def test_learns_the_same_from_shared_rows(name, split):
    corpus, flat, shared, regressor = split
    params = _params(name, regressor)
    a = make_learner(name, params).fit((corpus, flat))
    b = make_learner(name, params).fit((corpus, shared))
    np.testing.assert_allclose(np.asarray(b.coef_), np.asarray(a.coef_), rtol=1e-7, atol=1e-9)
    assert np.array_equal(np.asarray(a.predict(corpus, flat)), np.asarray(b.predict(corpus, shared)))
    assert np.array_equal(np.asarray(b.predict(corpus, flat)), np.asarray(b.predict(corpus, shared)))


@pytest.mark.parametrize("name", ["bk_baseline", "bk_early", "bk_laso", "bk_delayed_laso", "bk_maxviolation"])
def test_a_perceptron_learns_bit_for_bit_the_same(name, split):
    corpus, flat, shared, regressor = split
    params = _params(name, regressor, update="perceptron", average=False)
    a = make_learner(name, params).fit((corpus, flat))
    b = make_learner(name, params).fit((corpus, shared))
    assert sum(h["updates"] for h in a.history_) > 3
    assert np.array_equal(a.coef_, b.coef_)
