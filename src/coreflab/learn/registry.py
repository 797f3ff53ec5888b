"""Learner registry: name → class, filled by the `register` decorator.

A researcher adds a learner by writing one module under `coreflab/learn/` (or one of its
family sub-packages: trees/, leftlink/, pairwise/, clustering/) whose class is decorated with
`@register("name")`; `get_learner` imports every module of the package and its sub-packages
once (pkgutil discovery), so no central list needs editing. Modules outside the
package are named in the environment variable COREFLAB_LEARNER_MODULES (colon-separated).
"""

import importlib
import os
import pkgutil

from coreflab.errors import UserError

LEARNERS = {}
_discovered = False
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


def _discover():
    global _discovered
    if _discovered:
        return
    import coreflab.learn as pkg

    modules = [info.name for info in pkgutil.walk_packages(pkg.__path__, prefix="coreflab.learn.")]
    # learners living outside the package: COREFLAB_LEARNER_MODULES=mypkg.learners:other.module
    modules += [m for m in os.environ.get("COREFLAB_LEARNER_MODULES", "").split(":") if m]
    for module in modules:
        try:
            importlib.import_module(module)
        except Exception as err:  # one broken module must not hide the other learners
            _import_errors[module] = f"{type(err).__name__}: {err}"
    _discovered = True


def available_learners():
    _discover()
    return sorted(LEARNERS)


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
    from coreflab.learn.base import check_param_types

    name = entry["learner"]
    return make_learner(name, check_param_types(get_learner(name), entry.get("params", {})))
