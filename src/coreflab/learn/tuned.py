"""Parameters a learner takes from tuning on dev.

A learner class lists them in `tuned_params` (B&K's learners: `("root_loss",)`); the workflow reads
it: the train job of such a learner, unless its config sets the parameter, passes the tuning job's
JSON (`coreflab train --tuned`), whose values fill the parameters the learner takes from it.
`TUNINGS` names the parameters a tuning job of the workflow makes (workflow/rules/learn.smk).
"""

import json
from pathlib import Path

from coreflab.errors import UserError

TUNINGS = ("root_loss",)  # `coreflab tune-root-loss`


def tuned_params(learner):
    """The parameters a learner (class or instance) takes from tuning: its `tuned_params`, else none."""
    return tuple(getattr(learner, "tuned_params", ()))


def untuned(learner, params):
    """The tuned parameters a config's params leave to tuning (those it does not set)."""
    return [name for name in tuned_params(learner) if name not in params]


def read_tuned(path, names):
    """{name: value} of the tuned values at path (a tuning job's JSON; one-line error for anything else)."""
    try:
        found = json.loads(Path(path).read_text(encoding="utf-8"))
        return {name: float(found[name]) for name in names}
    except (OSError, ValueError, KeyError, TypeError) as err:
        wanted = " and ".join(names)
        raise UserError(f"{path}: expected a JSON object with a {wanted} ({err})") from None
