"""The learner contract (DESIGN.md, scikit-learn conventions), checked for every registered learner:
parameters round-trip, a `seed` parameter, nothing learned before `fit`, `fit` returns self and calls
`callback(epoch, model)` once per epoch, the same seed gives the same weights, `predict` gives every
mention -1 or an earlier mention of its document, save + load predict the same, and `predict(corpus,
store)` is one signature for all."""

import inspect

import numpy as np
import pytest

from coreflab.corpus.compile import compile_documents
from coreflab.corpus.synthetic.generator import generate_corpus
from coreflab.features.extract import extract_arc_store
from coreflab.learn.base import Learner
from coreflab.learn.curve import expected_epochs
from coreflab.learn.output import check_antecedents
from coreflab.learn.registry import available_learners, make_learner

FEATURES = ["bias", "ana_type", "ana_type+ante_type", "sent_dist", "exact_match", "head_match"]
# parameters that bound the work of a fit: one pass each keeps the whole contract run fast
FAST = {"n_iter": 1, "epochs": 1, "em_iterations": 1, "max_passes": 1, "max_items": 8, "time_limit": 0.2, "beam": 2}
# every learner the default configuration and the papers use (a learner missing here means the
# registry no longer finds a sub-package)
EXPECTED = {
    "bk_baseline",
    "bk_early",
    "bk_maxviolation",
    "bk_laso",
    "bk_delayed_laso",
    "lsp_f",
    "lsp_yj",
    "lsp_rho",
    "cc_base",
    "cc_slt_closest",
    "cc_slt_preserving",
    "l3m",
    "sumlink",
    "binleftlink",
    "spanning_forest",
    "corr_clustering",
    "string_match",
}


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    """The tiny synthetic training split, compiled, with a small arc store, and a MELA regressor."""
    from coreflab.mela.features import FEATURE_NAMES
    from coreflab.mela.mode import corpus_key_has_singletons
    from coreflab.mela.regressor import fit_regressor, save_regressor
    from coreflab.papers.hm2017.regressor_data import regressor_table

    docs = generate_corpus("tiny", seed=0)["train"][:6]
    corpus = compile_documents(docs, "synth", "train")
    store = extract_arc_store(corpus, FEATURES, n_bits=12)
    keep = corpus_key_has_singletons(corpus)
    df = regressor_table(corpus, store, per_sample=2, n_iter=2, seed=3, keep_singletons=keep)
    regressor = tmp_path_factory.mktemp("contract") / "regressor.json"
    save_regressor(
        regressor,
        fit_regressor(df[list(FEATURE_NAMES)].to_numpy(), df["mela"].to_numpy()),
        len(df),
        keep_singletons=keep,
    )
    return corpus, store, str(regressor)


def _params(name, regressor):
    params = {k: v for k, v in FAST.items() if k in make_learner(name)._param_names()}
    if "regressor" in make_learner(name)._param_names():
        params["regressor"] = regressor
    if "seed" in make_learner(name)._param_names():
        params["seed"] = 7
    return params


def test_registry_finds_every_learner_of_the_sub_packages():
    assert EXPECTED <= set(available_learners())


@pytest.mark.parametrize("name", available_learners())
def test_parameters_round_trip(name):
    model = make_learner(name)
    params = model.get_params()
    assert make_learner(name, params).get_params() == params
    assert model.set_params(**params) is model and model.get_params() == params
    assert repr(model).startswith(type(model).__name__ + "(")


@pytest.mark.parametrize("name", sorted(set(available_learners()) - {"string_match"}))
def test_takes_the_seed_every_train_job_passes(name):
    # string_match is the one registered learner no train job runs: the workflow calls `coreflab baseline`
    assert "seed" in make_learner(name)._param_names()


@pytest.mark.parametrize("name", available_learners())
def test_nothing_learned_before_fit(name):
    model = make_learner(name)
    assert isinstance(model, Learner) and model.name == name
    assert [a for a in vars(model) if a.endswith("_")] == []


@pytest.mark.parametrize("name", available_learners())
def test_predict_is_one_signature(name):
    params = list(inspect.signature(type(make_learner(name)).predict).parameters.values())
    assert [p.name for p in params[:3]] == ["self", "corpus", "store"]
    assert all(p.default is not inspect.Parameter.empty for p in params[3:])


@pytest.mark.parametrize("name", available_learners())
def test_fit_is_deterministic_and_saved_models_predict_the_same(name, tiny, tmp_path):
    corpus, store, regressor = tiny
    params = _params(name, regressor)
    first = make_learner(name, params)
    epochs = []
    assert first.fit((corpus, store), callback=lambda epoch, model: epochs.append(epoch)) is first
    assert epochs and epochs == list(range(1, len(epochs) + 1))
    assert expected_epochs(first) in (None, len(epochs))
    second = make_learner(name, params).fit((corpus, store))
    assert np.array_equal(first.coef_, second.coef_)
    predicted = check_antecedents(corpus, first.predict(corpus, store), name)
    assert len(predicted) == len(corpus.m_start)
    loaded = Learner.load(first.save(tmp_path / f"{name}.npz"))
    assert type(loaded) is type(first) and loaded.get_params() == first.get_params()
    assert np.array_equal(np.asarray(loaded.predict(corpus, store)), predicted)
