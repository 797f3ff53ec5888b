"""Parameters a learner takes from tuning on dev (or from a model another job fits).

A learner class lists them in `tuned_params` (B&K's learners: `("root_loss",)`; H&M's LSPs: their C and
r, LSP_ρ its regressor). The workflow reads it: the train job of such a learner, for each of those
parameters its config does not set, passes the file of the job that makes it (`coreflab train --tuned`).
`coreflab.papers.registry.tunings()` says which file that is, by (learner, parameter): the workflow's own
root-loss tuning (`ROOT_LOSS`, for every learner), or a paper's (`Paper.tunings`, for its learners).
A value is read from the file's JSON (top level, or `best.params` as a paper's grid search writes it);
a parameter whose value is a fitted model (LSP_ρ's regressor) takes the file's path itself.
"""

import json
from dataclasses import dataclass
from pathlib import Path

from coreflab.errors import UserError


@dataclass(frozen=True)
class Tuning:
    """Where a tuned parameter comes from: `path` with {corpus} (and {learner}, the registered learner
    name) filled in; `is_file`: the parameter's value is that file's path, not a value in it."""

    path: str
    is_file: bool = False

    def file(self, corpus, learner):
        return self.path.format(corpus=corpus, learner=learner)


ROOT_LOSS = Tuning("results/{corpus}/tuning/root_loss.json")  # `coreflab tune-root-loss`
ANY_LEARNER = "*"  # the learner of a tuning that every learner taking the parameter shares (the root loss)


def tuning_of(known, learner_name, name):
    """The Tuning of a learner's parameter in known ({(learner, parameter): Tuning}): the learner's own,
    else the one every learner shares; None when no job tunes it."""
    return known.get((learner_name, name)) or known.get((ANY_LEARNER, name))


def tuned_names(known, learner_name):
    """The parameters some job tunes for a learner, for messages."""
    return sorted({name for learner, name in known if learner in (learner_name, ANY_LEARNER)})


def tuned_params(learner):
    """The parameters a learner (class or instance) takes from tuning: its `tuned_params`, else none."""
    return tuple(getattr(learner, "tuned_params", ()))


def untuned(learner, params):
    """The tuned parameters a config's params leave to tuning (those it does not set)."""
    return [name for name in tuned_params(learner) if name not in params]


def tuning_files(learner_name, learner, params, corpus, known):
    """{parameter: file} of the tuned parameters `params` leave to tuning, for a train job on `corpus`
    (known: {(learner, parameter): Tuning}, `coreflab.papers.registry.tunings()`)."""
    tunings = {name: tuning_of(known, learner_name, name) for name in untuned(learner, params)}
    return {name: t.file(corpus, learner_name) for name, t in tunings.items() if t is not None}


def tuned_args(files, known, learner_name):
    """`coreflab train`'s --tuned arguments for tuning_files' output: one per JSON file, NAME=PATH per
    parameter whose value is a file."""
    args = []
    for name, path in files.items():
        arg = f"{name}={path}" if tuning_of(known, learner_name, name).is_file else path
        if arg not in args:
            args.append(arg)
    return args


def read_tuned(path, names):
    """{name: value} of the tuned values at path (a tuning job's JSON; one-line error for anything else)."""
    try:
        found = json.loads(Path(path).read_text(encoding="utf-8"))
        if isinstance(found, dict) and "best" in found and not any(n in found for n in names):
            found = found["best"]["params"]  # a grid search's result: its best setting
        return {name: float(found[name]) for name in names}
    except (OSError, ValueError, KeyError, TypeError) as err:
        wanted = " and ".join(names)
        raise UserError(f"{path}: expected a JSON object with a {wanted} ({err})") from None


def read_tuned_args(args, names):
    """{name: value} of the learner's tuned parameters `names` given by --tuned arguments: NAME=PATH sets
    NAME to PATH; a JSON file gives each of the other names it holds. Every name must be given."""
    out = {}
    files = []
    for arg in args:
        name, sep, path = arg.partition("=")
        if sep and name in names:
            out[name] = path
        else:
            files.append(arg)
    for path in files:
        try:
            found = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError) as err:
            raise UserError(f"--tuned {path}: not a tuning job's JSON ({err})") from None
        holds = found.get("best", {}).get("params", found) if isinstance(found, dict) else {}
        wanted = [n for n in names if n not in out and isinstance(holds, dict) and n in holds]
        if not wanted:
            raise UserError(f"--tuned {path}: holds none of the tuned parameters {', '.join(names)}")
        out.update(read_tuned(path, wanted))
    missing = [n for n in names if n not in out]
    if missing:
        raise UserError(f"--tuned gives no {', '.join(missing)} (tuned parameters: {', '.join(names)})")
    return out
