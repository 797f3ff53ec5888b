"""The learner contract (`coreflab.learn.checks`), run on every learner the registry finds, and the
checks shown to catch a learner that breaks each rule."""

import importlib
import pkgutil
import sys

import numpy as np
import pytest

import coreflab.learn
from coreflab.learn.base import Learner
from coreflab.learn.checks import CHECKS, ContractError, check_learner
from coreflab.learn.registry import LEARNERS, available_learners, discovery_errors, make_learner, register


def test_the_registry_imports_every_module_of_the_package():
    """A module that fails to import would silently take its learners out of every check."""
    assert discovery_errors() == {}
    families = {m.name for m in pkgutil.iter_modules(coreflab.learn.__path__) if m.ispkg}
    found = {c.__module__.split(".")[2] for c in LEARNERS.values() if c.__module__.startswith("coreflab.learn.")}
    assert families and families <= found  # every family sub-package registers a learner


@pytest.mark.parametrize("name", available_learners())
def test_every_registered_learner_keeps_the_contract(name):
    # string_match is the one registered learner no train job runs (`coreflab baseline` does): it takes no seed
    skip = ("seed",) if name == "string_match" else ()
    assert check_learner(name, skip=skip) == [c for c in CHECKS if c not in skip]


class Fine(Learner):
    """Keeps the contract: every mention starts a new cluster."""

    def __init__(self, epochs=2, seed=0):
        self.epochs, self.seed = epochs, seed

    def fit(self, train, dev=None, callback=None):
        self.coef_ = np.zeros(4)
        for epoch in range(1, self.epochs + 1):
            if callback is not None:
                callback(epoch, self)
        return self

    def predict(self, corpus, store):
        return np.full(int(corpus.arrays["doc_mention_offsets"][-1]), -1)


class KeywordsOnly(Fine):
    def __init__(self, seed=0, **options):
        self.seed, self.options = seed, options


class NoSeed(Fine):
    def __init__(self, epochs=2):
        self.epochs = epochs


class LearnsInInit(Fine):
    def __init__(self, epochs=2, seed=0):
        super().__init__(epochs, seed)
        self.coef_ = np.zeros(4)


class OwnPredictSignature(Fine):
    def predict(self, data):
        return super().predict(data.corpus, data.store)


class SkipsAnEpoch(Fine):
    def fit(self, train, dev=None, callback=None):
        self.coef_ = np.zeros(4)
        callback(2, self)
        return self


class LinksForward(Fine):
    def predict(self, corpus, store):
        out = super().predict(corpus, store)
        out[0] = 1  # the first mention of the first document takes the next one
        return out


class Unseeded(Fine):
    def fit(self, train, dev=None, callback=None):
        super().fit(train, dev, callback)
        self.coef_ = np.random.default_rng().normal(size=4)
        return self


class ArrayMeta(Fine):
    _meta_fields = ("counts_",)

    def fit(self, train, dev=None, callback=None):
        self.counts_ = np.arange(3)  # a numpy array where a model file keeps JSON
        return super().fit(train, dev, callback)


BROKEN = [
    (KeywordsOnly, "parameters", "takes \\*\\*options"),
    (NoSeed, "seed", "no `seed` parameter"),
    (LearnsInInit, "unfitted", "coef_ set before fit"),
    (OwnPredictSignature, "signatures", "predict must be"),
    (SkipsAnEpoch, "fit", "saw epochs \\[2\\]"),
    (LinksForward, "fit", "antecedent"),
    (Unseeded, "deterministic", "different weights"),
    (ArrayMeta, "save_load", "not JSON-able"),
]


@pytest.fixture
def registered():
    """register(cls) under a name of its own for one test."""
    names = []

    def add(cls):
        names.append(f"t_contract_{cls.__name__.lower()}")
        return register(names[-1])(cls)

    yield add
    for name in names:
        del LEARNERS[name]


@pytest.mark.parametrize("cls,check,message", BROKEN, ids=[c.__name__ for c, _, _ in BROKEN])
def test_the_checks_name_the_broken_rule(cls, check, message, registered):
    with pytest.raises(ContractError, match=rf"learner 't_contract_\w+' breaks the contract \({check}\): .*{message}"):
        check_learner(registered(cls))


def test_an_outside_learner_runs_the_checks(registered):
    with pytest.raises(ContractError, match="Fine is not registered"):
        check_learner(Fine)
    registered(Fine)
    assert check_learner(Fine) == list(CHECKS)
    assert check_learner("t_contract_fine", params={"epochs": 3}) == list(CHECKS)
    assert check_learner(Fine(epochs=1, seed=4), skip=("deterministic",))[-1] == "save_load"
    with pytest.raises(ValueError, match="unknown check"):
        check_learner(Fine, skip=("speed",))


def test_the_example_learner_of_the_docs_keeps_the_contract():
    """tests/workflow/example_learner.py, registered from outside the package as a user's learner is."""
    module = importlib.import_module("tests.workflow.example_learner")
    try:
        assert check_learner(module.ExampleCounts) == list(CHECKS)
        assert type(make_learner("example_counts")) is module.ExampleCounts
    finally:
        del LEARNERS["example_counts"], sys.modules["tests.workflow.example_learner"]
