"""What `coreflab train` and `predict` do with a learner that breaks the contract (docs/adding-a-learner.md):
one line naming the learner and the broken rule, nothing written, instead of a Snakemake
MissingOutputException or a leaderboard row scored on clusters read from the wrong mentions."""

import re

import numpy as np
import pytest

from coreflab import cli
from coreflab.corpus.synthetic.generator import generate_corpus
from coreflab.features.extract import extract_arc_store
from coreflab.learn.base import Learner
from coreflab.learn.registry import LEARNERS, register

from .learner_runs import FEATURES, train_argv, write_split_files


class _Fixed(Learner):
    """Predicts what `antecedents(n, offsets)` gives; calls the callback unless told not to."""

    calls_back = True

    def __init__(self, seed=0):
        self.seed = seed

    def fit(self, train, dev=None, callback=None):
        self.coef_ = np.zeros(4)
        if callback is not None and self.calls_back:
            callback(1, self)
        return self

    def predict(self, corpus, store):
        offs = np.asarray(corpus.doc_mention_offsets)
        return self.antecedents(int(offs[-1]), offs)


class _Calls(_Fixed):
    """Calls back with the epochs given and returns what it is told to (self by default)."""

    epochs = (1,)
    returns = "self"

    def fit(self, train, dev=None, callback=None):
        self.coef_ = np.zeros(4)
        for epoch in self.epochs:
            callback(epoch, self)
        return self if self.returns == "self" else self.returns

    @staticmethod
    def antecedents(n, offsets):
        return np.full(n, -1)


class _NoPredict(Learner):
    def __init__(self, seed=0):
        self.seed = seed

    def fit(self, train, dev=None, callback=None):
        self.coef_ = np.zeros(4)
        callback(1, self)
        return self


class _ArrayMeta(_Calls):
    _meta_fields = ("counts_",)

    def fit(self, train, dev=None, callback=None):
        self.counts_ = np.arange(3)  # an array where the contract asks for a list
        return super().fit(train, dev, callback)


def _learner(name, antecedents, calls_back=True):
    return register(name)(type(name, (_Fixed,), {"antecedents": staticmethod(antecedents), "calls_back": calls_back}))


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    made = {
        "t_no_callback": _learner("t_no_callback", lambda n, o: np.full(n, -1), calls_back=False),
        "t_short": _learner("t_short", lambda n, o: np.full(n - 1, -1)),
        "t_forward": _learner("t_forward", lambda n, o: np.r_[np.full(n - 1, -1), n]),
        "t_global": _learner("t_global", lambda n, o: np.arange(n) - 1),  # row of the previous mention
        "t_fine": _learner("t_fine", lambda n, o: np.full(n, -1)),
    }
    made["t_epoch0"] = register("t_epoch0")(type("t_epoch0", (_Calls,), {"epochs": (0, 1)}))
    made["t_twice"] = register("t_twice")(type("t_twice", (_Calls,), {"epochs": (1, 1)}))
    made["t_returns_none"] = register("t_returns_none")(type("t_returns_none", (_Calls,), {"returns": None}))
    made["t_no_predict"] = register("t_no_predict")(_NoPredict)
    made["t_array_meta"] = register("t_array_meta")(_ArrayMeta)
    yield write_split_files(tmp_path_factory.mktemp("contract"), generate_corpus("tiny", seed=0))
    for name in made:
        del LEARNERS[name]


def _train(files, learner, capsys):
    out = files["tmp"] / f"{learner}.npz"
    rc = cli.main(train_argv(files, learner, "{}", out))
    return rc, capsys.readouterr().err.strip().splitlines()[-1], out


def test_a_learner_that_never_calls_back_is_an_error_and_writes_nothing(files, capsys):
    rc, err, out = _train(files, "t_no_callback", capsys)
    assert rc == 2 and "t_no_callback: fit returned without calling callback(epoch, model)" in err
    assert not out.exists()


@pytest.mark.parametrize(
    "learner, message",
    [
        ("t_short", r"predict returned \d+ antecedents for \d+ mentions"),
        ("t_forward", r"the antecedent \d+ \(1 such mention\(s\)\)"),
        ("t_global", r"mention 0 of document '.*' the antecedent \d+"),
    ],
)
def test_predictions_that_break_the_contract_are_refused_naming_the_learner(files, capsys, learner, message):
    # the dev curve scores predictions every epoch: the train job stops at the first
    rc, err, out = _train(files, learner, capsys)
    assert rc == 2 and err.startswith(f"coreflab train: error: {learner}: predict ")
    assert re.search(message, err), err
    assert not out.exists()


def test_predict_refuses_a_store_hashed_into_another_size_for_any_learner(files, capsys, tmp_path):
    rc, _, model = _train(files, "t_fine", capsys)
    assert rc == 0 and Learner.load(model).n_bits_ == 16  # recorded by train, the learner sets none
    compiled, _, conll = files["dev"]
    from coreflab.corpus.compiled import CompiledCorpus

    wide = tmp_path / "dev_arcs22.npz"
    extract_arc_store(CompiledCorpus.load(compiled), FEATURES, n_bits=22).save(wide)
    argv = ["predict", "--model", str(model), "--compiled", compiled, "--conll", conll, "--out", str(tmp_path / "p")]
    assert cli.main([*argv, "--arcs", str(wide)]) == 2
    assert "t_fine: model has 2**16 weights but the arc store was hashed into 2**22" in capsys.readouterr().err
    assert cli.main([*argv, "--arcs", files["dev"][1]]) == 0


def test_an_outside_module_that_fails_to_import_is_named_as_given(monkeypatch):
    from coreflab.errors import UserError
    from coreflab.learn import registry

    monkeypatch.setenv("COREFLAB_LEARNER_MODULES", "my_lab.no_such_learners")
    monkeypatch.setattr(registry, "_discovered", False)
    monkeypatch.setattr(registry, "_import_errors", {})
    with pytest.raises(UserError, match=r"; my_lab\.no_such_learners failed to import \(ModuleNotFoundError"):
        registry.get_learner("my_ranker")


def test_an_out_epoch_snapshot_carries_n_bits_too(files, capsys, tmp_path):
    out = tmp_path / "snap.npz"
    argv = train_argv(files, "t_fine", "{}", out)
    assert cli.main([*argv, "--out-epoch", "1"]) == 0
    assert Learner.load(out).n_bits_ == 16


def test_a_key_document_the_compiled_split_lacks_is_named(files, tmp_path):
    from coreflab.corpus.compiled import CompiledCorpus
    from coreflab.corpus.readers.conll import read_conll_path
    from coreflab.errors import UserError
    from coreflab.learn.output import response_documents

    compiled, _, conll = files["dev"]
    corpus, key = CompiledCorpus.load(compiled), read_conll_path(conll)
    extra = key[0].with_clusters([])
    extra.doc_id = "extra/doc"
    ante = np.full(int(corpus.doc_mention_offsets[-1]), -1)
    assert len(response_documents(key, corpus, ante)) == len(key)
    with pytest.raises(UserError, match=r"document 'extra/doc; part 000' is not in the compiled split synth/dev"):
        response_documents([*key, extra], corpus, ante)


@pytest.mark.parametrize(
    "learner, message",
    [
        ("t_epoch0", r"t_epoch0: callback\(epoch, model\) called with epoch 0 after none; call it once per epoch"),
        ("t_twice", r"t_twice: callback\(epoch, model\) called with epoch 1 after 1;"),
        ("t_returns_none", r"t_returns_none: fit returned NoneType, not the learner itself; nothing written"),
        ("t_no_predict", r"t_no_predict: the learner has no predict\(\) method; every learner has fit"),
        ("t_array_meta", r"t_array_meta: _meta_fields attribute 'counts_' is not JSON-able .*; model not written"),
    ],
)
def test_a_learner_breaking_the_contract_in_fit_is_stopped_by_train(files, capsys, learner, message):
    """What only the contract test used to catch: a curve with an epoch 0 or an epoch twice, fit
    returning something else, no predict method, learned metadata that cannot be saved."""
    rc, err, out = _train(files, learner, capsys)
    assert rc == 2 and re.search(message, err), err
    assert not out.exists()
