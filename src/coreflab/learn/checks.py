"""The learner contract as checks anyone can run, like scikit-learn's `check_estimator`.

`check_learner(learner)` takes a registered name, a registered `Learner` subclass or an instance,
and runs every check of `CHECKS` on a tiny synthetic training split (or on `data`, a
(CompiledCorpus, ArcStore) pair); the first broken rule raises `ContractError`, which names the
learner and the check. docs/adding-a-learner.md states the contract:

- `parameters`: `__init__` names every parameter, each with a default, and stores it under its own
  name; `get_params`/`set_params` round-trip, also through JSON and `make_learner`.
- `seed`: it takes a `seed` parameter (every train job passes one).
- `unfitted`: nothing learned (no `_`-suffixed attribute) before `fit`.
- `signatures`: `fit(train, dev=None, callback=None)` and `predict(corpus, store)`.
- `fit`: `fit` returns the learner and calls `callback(epoch, model)` once per epoch, epochs counted
  from 1 (as many as `expected_epochs` says, when it knows); `predict` gives each mention -1 or an
  earlier mention of its document (`learn.output.check_antecedents`).
- `deterministic`: the same parameters and seed give the same weights and predictions.
- `save_load`: a saved and reloaded model has the same class and parameters and predicts the same.

The parameters are the defaults, with those of `FAST_PARAMS` the learner takes cut to one short
pass, `seed` set, a parameter named `regressor` given a MELA regressor (`coreflab.mela.regressor`)
fitted in the corpus's singleton mode, and then `params` on top.
"""

import inspect
import json
import tempfile
from functools import lru_cache
from pathlib import Path

import numpy as np

from coreflab.errors import UserError
from coreflab.learn.base import Learner, as_training_data
from coreflab.learn.curve import expected_epochs
from coreflab.learn.output import check_antecedents
from coreflab.learn.registry import LEARNERS, check_param_types, get_learner, make_learner

CHECKS = ("parameters", "seed", "unfitted", "signatures", "fit", "deterministic", "save_load")

# parameters that bound the work of a fit: one short pass each keeps a check run fast
FAST_PARAMS = {
    "n_iter": 1,
    "epochs": 1,
    "em_iterations": 1,
    "max_passes": 1,
    "max_items": 8,
    "time_limit": 0.2,
    "beam": 2,
}
SEED = 7
FEATURES = ("bias", "ana_type", "ana_type+ante_type", "sent_dist", "exact_match", "head_match")


class ContractError(AssertionError):
    """A learner breaks a rule of the contract (the message names the learner and the check)."""


@lru_cache(maxsize=1)
def contract_data():
    """The checks' default training data: six documents of the tiny synthetic corpus, compiled, with a
    small arc store (`FEATURES`, 2**12 weights)."""
    from coreflab.corpus.compile import compile_documents
    from coreflab.corpus.synthetic.generator import generate_corpus
    from coreflab.features.extract import extract_arc_store

    docs = generate_corpus("tiny", seed=0)["train"][:6]
    corpus = compile_documents(docs, "synth", "train")
    return as_training_data((corpus, extract_arc_store(corpus, list(FEATURES), n_bits=12)))


def write_regressor(path, keep_singletons, seed=0):
    """A MELA regressor file for learners that take one: fitted on random values of the nine features to
    the mean of their three F1 columns (what MELA averages), in the given singleton mode."""
    from coreflab.mela.features import FEATURE_NAMES
    from coreflab.mela.regressor import fit_regressor, save_regressor

    rng = np.random.default_rng(seed)
    X = rng.uniform(0.0, 100.0, (64, len(FEATURE_NAMES)))
    y = X[:, [i for i, name in enumerate(FEATURE_NAMES) if name.endswith("_f")]].mean(axis=1)
    return save_regressor(path, fit_regressor(X, y, seed=seed), len(X), keep_singletons=keep_singletons)


def _learner_class(learner):
    """(class, params of an instance or None) of a name, a class or an instance; the class registered."""
    own = None
    if isinstance(learner, str):
        cls = get_learner(learner)  # a UserError names the known learners
    elif isinstance(learner, Learner):
        cls, own = type(learner), learner.get_params()
    else:
        cls = learner
    if not (isinstance(cls, type) and issubclass(cls, Learner)):
        raise ContractError(f"{learner!r} is not a coreflab.learn.base.Learner (a subclass, an instance or a name)")
    if not cls.name or LEARNERS.get(cls.name) is not cls:
        raise ContractError(
            f"{cls.__name__} is not registered: decorate it with @register(name) (coreflab.learn.registry); "
            "Learner.load finds a saved model's class by that name"
        )
    return cls, own


class _Run:
    """What the checks of one learner share: its class, parameters, data, a folder, the fitted model."""

    def __init__(self, cls, params, data, folder):
        self.cls, self.name, self.data, self.folder = cls, cls.name, data, Path(folder)
        self.params = params
        self._fitted = None

    def fail(self, check, what):
        raise ContractError(f"learner {self.name!r} breaks the contract ({check}): {what}")

    def make(self, params=None):
        return make_learner(self.name, self.params if params is None else params)

    def predict(self, check, model):
        corpus = self.data.corpus
        try:
            return check_antecedents(corpus, model.predict(corpus, self.data.store), self.name)
        except UserError as err:
            self.fail(check, str(err))

    def fitted(self):
        """(model, epochs its callback saw, returned value of fit), fitted once."""
        if self._fitted is None:
            model, epochs = self.make(), []
            returned = model.fit(self.data, callback=lambda epoch, m: epochs.append(epoch))
            self._fitted = (model, epochs, returned)
        return self._fitted


def _default_params(cls, data, folder):
    names = cls._param_names()
    params = {k: v for k, v in FAST_PARAMS.items() if k in names}
    if "seed" in names:
        params["seed"] = SEED
    params.update(cls.check_inputs(data, folder))
    return params


def _check_parameters(run):
    for p in list(inspect.signature(run.cls.__init__).parameters.values())[1:]:
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            run.fail("parameters", f"__init__ takes {p}; name every parameter (get_params reads the signature)")
        if p.default is p.empty:
            run.fail("parameters", f"parameter {p.name!r} has no default (make_learner(name) passes none)")
    model = run.cls()
    try:
        params = model.get_params()
    except AttributeError as err:
        run.fail("parameters", f"__init__ does not store every parameter under its own name ({err})")
    if make_learner(run.name, params).get_params() != params:
        run.fail("parameters", "make_learner(name, get_params()) has other parameters")
    if model.set_params(**params) is not model or model.get_params() != params:
        run.fail("parameters", "set_params(**get_params()) does not return the learner with the same parameters")
    if not repr(model).startswith(type(model).__name__ + "("):
        run.fail("parameters", f"repr {repr(model)!r} does not show the class and its parameters")
    try:
        as_json = json.loads(json.dumps(params))
    except (TypeError, ValueError) as err:
        run.fail("parameters", f"the parameters are not JSON-able, as a model file keeps them ({err})")
    try:
        check_param_types(run.cls, as_json)
    except UserError as err:
        run.fail("parameters", f"its defaults, read back from JSON, are refused: {err}")


def _check_seed(run):
    if "seed" not in run.cls._param_names():
        run.fail("seed", "no `seed` parameter: every train job passes one, and randomness comes from it alone")


def _check_unfitted(run):
    model = run.cls()
    learned = sorted(a for a in vars(model) if a.endswith("_"))
    if learned:
        run.fail("unfitted", f"learned attribute(s) {', '.join(learned)} set before fit")


def _check_signatures(run):
    fit = list(inspect.signature(run.cls.fit).parameters.values())
    if [p.name for p in fit[:4]] != ["self", "train", "dev", "callback"] or fit[2].default is not None:
        run.fail("signatures", "fit must be fit(self, train, dev=None, callback=None, ...)")
    predict = list(inspect.signature(run.cls.predict).parameters.values())
    if [p.name for p in predict[:3]] != ["self", "corpus", "store"]:
        run.fail("signatures", "predict must be predict(self, corpus, store, ...)")
    if any(p.default is p.empty for p in fit[4:] + predict[3:]):
        run.fail("signatures", "parameters of fit and predict after the common ones need defaults")


def _check_fit(run):
    model, epochs, returned = run.fitted()
    if returned is not model:
        run.fail("fit", f"fit returned {type(returned).__name__}, not the learner itself")
    if not epochs or epochs != list(range(1, len(epochs) + 1)):
        run.fail("fit", f"the callback saw epochs {epochs}; it is called once per epoch, epochs counted from 1")
    expected = expected_epochs(model)
    if expected not in (None, len(epochs)):
        run.fail("fit", f"{len(epochs)} epoch(s) called back where the parameters ask for {expected}")
    if not hasattr(model, "coef_"):
        run.fail("fit", "no coef_ after fit (the weight vector a model file holds)")
    run.predict("fit", model)


def _check_deterministic(run):
    first = run.fitted()[0]
    second = run.make().fit(run.data)
    if not np.array_equal(np.asarray(first.coef_), np.asarray(second.coef_)):
        run.fail("deterministic", "two fits with the same parameters and seed learned different weights")
    if not np.array_equal(run.predict("deterministic", first), run.predict("deterministic", second)):
        run.fail("deterministic", "two fits with the same parameters and seed predict differently")


def _check_save_load(run):
    model = run.fitted()[0]
    try:
        loaded = Learner.load(model.save(run.folder / f"{run.name}.npz"))
    except UserError as err:
        run.fail("save_load", str(err))
    if type(loaded) is not type(model) or loaded.get_params() != model.get_params():
        run.fail("save_load", f"the model file loads as {loaded!r}")
    if not np.array_equal(run.predict("save_load", loaded), run.predict("save_load", model)):
        run.fail("save_load", "the reloaded model predicts differently (list what predict needs in _meta_fields)")


_RUN = {
    "parameters": _check_parameters,
    "seed": _check_seed,
    "unfitted": _check_unfitted,
    "signatures": _check_signatures,
    "fit": _check_fit,
    "deterministic": _check_deterministic,
    "save_load": _check_save_load,
}


def check_learner(learner, params=None, data=None, skip=()):
    """Run the checks of `CHECKS` (but those named in `skip`) on a learner: a registered name, a
    registered `Learner` subclass or an instance (then its own parameters). `params` are laid over
    the checks' parameters; `data` is a (CompiledCorpus, ArcStore) pair or TrainingData (default
    `contract_data()`). Raises ContractError at the first broken rule; returns the checks run."""
    cls, own = _learner_class(learner)
    unknown = sorted(set(skip) - set(CHECKS))
    if unknown:
        raise ValueError(f"unknown check(s) {', '.join(unknown)}; the checks are {', '.join(CHECKS)}")
    data = contract_data() if data is None else as_training_data(data)
    done = []
    with tempfile.TemporaryDirectory(prefix="coreflab-checks-") as folder:
        base = own if own is not None else _default_params(cls, data, folder)
        run = _Run(cls, {**base, **(params or {})}, data, folder)
        for check in CHECKS:
            if check in skip:
                continue
            try:
                _RUN[check](run)
            except ContractError:
                raise
            except Exception as err:
                err.add_note(f"in check {check!r} of learner {cls.name!r} (coreflab.learn.checks)")
                raise
            done.append(check)
    return done


__all__ = ["CHECKS", "FAST_PARAMS", "ContractError", "check_learner", "contract_data", "write_regressor"]
