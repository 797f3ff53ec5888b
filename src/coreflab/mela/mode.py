"""Which MELA the learned loss Δ_ρ approximates: response singletons kept or dropped.

B3 and CEAFe differ between the two, so the nine regressor features, the MELA labels of the
regressor data, the incremental inference of Alg. 3 and the regressor itself must all be in the
mode of the MELA that is reported: the corpus's, `coreflab.corpus.singletons.resolve_keep_singletons`.
This module names the mode and guards a regressor against use in the other mode.
"""

# re-exported: some verbs and paper modules import the corpus's singleton decision from here
from coreflab.corpus.singletons import CHOICES as CHOICES
from coreflab.corpus.singletons import parse_mode as parse_mode
from coreflab.corpus.singletons import resolve_keep_singletons as resolve_keep_singletons
from coreflab.errors import UserError

KEPT, DROPPED = "kept", "dropped"


def mode_name(keep):
    return KEPT if keep else DROPPED


def regressor_mode(reg):
    """True/False: the mode a regressor was fitted in (files without the field predate the
    keep mode and were all fitted with singletons dropped)."""
    name = reg.get("response_singletons", DROPPED)
    if name not in (KEPT, DROPPED):
        raise UserError(f"regressor: response_singletons must be {KEPT!r} or {DROPPED!r}, not {name!r}")
    return name == KEPT


def check_regressor_mode(reg, keep, source="regressor", transfer=False):
    """Raise a one-line UserError when the regressor was fitted in the other mode, unless transfer.

    transfer=True is the explicit conversion: the regressor's nine weights map metric
    values to MELA, so they are applied to features computed in `keep`'s mode.
    """
    fitted = regressor_mode(reg)
    if fitted != bool(keep) and not transfer:
        raise UserError(
            f"{source}: fitted with response singletons {mode_name(fitted)}, but this run's "
            f"responses have them {mode_name(keep)} (refit it on regressor data made "
            f"with `--keep-singletons {'keep' if keep else 'drop'}`, or set transfer_regressor: true)"
        )
    return fitted


__all__ = [
    "KEPT",
    "DROPPED",
    "mode_name",
    "regressor_mode",
    "check_regressor_mode",
]
