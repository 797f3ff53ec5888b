"""Learner registry: name → class, filled by the `register` decorator.

A researcher adds a learner by writing one module under `coreflab/learn/` (or one of its
family sub-packages: trees/, leftlink/, pairwise/, clustering/) whose class is decorated with
`@register("name")`; `get_learner` imports every module of the package and its sub-packages
once (pkgutil discovery), so no central list needs editing. Modules outside the
package are named in the environment variable COREFLAB_LEARNER_MODULES (colon-separated), or by a
source handed over with `use_modules`: the paper registry hands over its papers' `learner_modules`.
`make_learner` and `learner_of_entry` build a learner from its name and (JSON) parameters. The
registry imports nothing of `learn.base`, which uses it to load a model file.
"""

import importlib
import inspect
import os
import pkgutil

from coreflab.errors import UserError

LEARNERS = {}
_discovered = False
_module_sources = []  # callables returning the names of more learner modules, called at discovery
_import_errors = {}  # module -> error, reported when a requested learner is missing


def register(name):
    """Class decorator: make the learner available under `name` (sets `cls.name`)."""

    def deco(cls):
        if name in LEARNERS and LEARNERS[name] is not cls:
            raise ValueError(f"learner {name!r} registered twice")
        cls.name = name
        LEARNERS[name] = cls
        return cls

    return deco


def use_modules(source):
    """Import the modules `source()` names too when learners are discovered (a layer above hands them over)."""
    if source not in _module_sources:
        _module_sources.append(source)


def _discover():
    global _discovered
    if _discovered:
        return
    import coreflab.learn as pkg

    modules = [info.name for info in pkgutil.walk_packages(pkg.__path__, prefix="coreflab.learn.")]
    # learners living outside the package: COREFLAB_LEARNER_MODULES=mypkg.learners:other.module
    modules += [m for m in os.environ.get("COREFLAB_LEARNER_MODULES", "").split(":") if m]
    modules += [m for source in _module_sources for m in source() if m not in modules]
    for module in modules:
        try:
            importlib.import_module(module)
        except Exception as err:  # one broken module must not hide the other learners
            _import_errors[module] = f"{type(err).__name__}: {err}"
    _discovered = True


def available_learners():
    _discover()
    return sorted(LEARNERS)


def discovery_errors():
    """{module: error} of the modules the discovery could not import (their learners are missing)."""
    _discover()
    return dict(_import_errors)


def get_learner(name):
    """The learner class registered as `name` (UserError naming the known ones otherwise)."""
    if name not in LEARNERS:
        _discover()
    if name not in LEARNERS:
        broken = "".join(f"; {m} failed to import ({e})" for m, e in sorted(_import_errors.items()))
        outside = os.environ.get("COREFLAB_LEARNER_MODULES", "")
        hint = (
            f" (COREFLAB_LEARNER_MODULES names {outside!r})"
            if outside
            else " (a learner outside the package: name its module in COREFLAB_LEARNER_MODULES)"
        )
        raise UserError(f"unknown learner {name!r}; known: {', '.join(sorted(LEARNERS))}{broken}{hint}")
    return LEARNERS[name]


def check_param_types(cls, params):
    """UserError naming the first parameter whose JSON value has the wrong type for the learner.

    The expected type is the type of the parameter's default (int, float, bool, str, list);
    an integral float is accepted for an int (JSON writes 10.0), an int for a float. A learner
    lists parameters that also take a keyword in `_param_keywords` (e.g. B&K's
    `nonlocal_templates: "selected"`); it validates those itself.
    Returns the parameters with integral floats converted to int.
    """
    sig = inspect.signature(cls.__init__)
    out = dict(params)
    keywords = getattr(cls, "_param_keywords", {})
    for name, value in params.items():
        if name not in sig.parameters or (isinstance(value, str) and value in keywords.get(name, ())):
            continue
        default = sig.parameters[name].default
        if default is inspect.Parameter.empty or default is None or value is None:
            continue
        if isinstance(default, bool):
            ok, kind = isinstance(value, bool), "true or false"
        elif isinstance(default, int):
            ok, kind = isinstance(value, int) and not isinstance(value, bool), "an integer"
            if isinstance(value, float) and value.is_integer():
                ok, out[name] = True, int(value)
        elif isinstance(default, float):
            ok, kind = isinstance(value, (int, float)) and not isinstance(value, bool), "a number"
        elif isinstance(default, str):
            ok, kind = isinstance(value, str), "a string"
        elif isinstance(default, (list, tuple)):
            ok, kind = isinstance(value, (list, tuple)), "a list"
        else:
            continue
        if not ok:
            raise UserError(
                f"{cls.name}: parameter {name!r} must be {kind} (like its default {default!r}), got {value!r}"
            )
    return out


def make_learner(name, params=None):
    """Instantiate a registered learner with a dict of parameters (unknown keys → UserError)."""
    cls = get_learner(name)
    params = dict(params or {})
    known = cls._param_names()
    bad = sorted(set(params) - set(known))
    if bad:
        raise UserError(f"learner {name!r} has no parameter(s) {', '.join(bad)}; known: {', '.join(known)}")
    return cls(**params)


def learner_of_entry(entry):
    """The learner a config entry `{learner: NAME, params: {...}}` describes (config["learners"]
    values), its JSON-typed parameters checked and converted as `coreflab train` does."""
    name = entry["learner"]
    return make_learner(name, check_param_types(get_learner(name), entry.get("params", {})))


def first_fit_source(learners, systems, system):
    """The leaderboard system whose fitted model is `system`'s first fit bit for bit, or None.

    A learner that fits a model and then refits it (`first_fit_key()` and `planned_epochs` > 1: C&C's
    SLT) makes, as its iteration 1, the fit a one-fit learner of the same key makes (C&C's BASE): its
    `coreflab train --first-fit` takes that system's model instead of fitting it again. learners: the
    config's `learners` entries; systems: the leaderboard's systems (the first that qualifies)."""
    entry = learners.get(system)
    if entry is None:
        return None
    model = learner_of_entry(entry)
    if not callable(getattr(model, "first_fit_key", None)) or (getattr(model, "planned_epochs", None) or 1) <= 1:
        return None
    key = model.first_fit_key()
    for other in systems:
        if other == system or other not in learners:
            continue
        candidate = learner_of_entry(learners[other])
        if (
            type(candidate).__mro__[1:] == type(model).__mro__[1:]  # the same family (its base classes)
            and callable(getattr(candidate, "first_fit_key", None))
            and (getattr(candidate, "planned_epochs", None) or 1) == 1
            and candidate.first_fit_key() == key
        ):
            return other
    return None
