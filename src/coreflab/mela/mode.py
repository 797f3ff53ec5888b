"""Which MELA the learned loss Δ_ρ approximates: response singletons kept or dropped.

The project's scorer and every scored response keep singleton clusters iff the corpus's
training key annotates them and the singleton policy keeps any (`coreflab.corpus.singletons`): OntoNotes-style keys (the synthetic corpora, OntoGUM) drop them, LitBank and GUM
keep them. B3 and CEAFe differ between the
two, so the nine regressor features, the MELA labels of the regressor data, the
incremental inference of Alg. 3 and the regressor itself must all be in the mode of the
MELA that is reported. This module names the mode, resolves `auto` from what a step has
(the decision `coreflab prepare` recorded in the compiled split, one per corpus; else a key, else
the compiled split's clusters) and guards a regressor against use in the other mode.
"""

import numpy as np

from coreflab.corpus.singletons import SINGLETON_SCHEME_SHARE, annotates_singletons
from coreflab.errors import UserError

CHOICES = ("auto", "keep", "drop")
KEPT, DROPPED = "kept", "dropped"


def parse_mode(value):
    """None for auto, else True (keep) / False (drop); accepts bools and keep/drop/true/false/auto."""
    if value is None or isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text == "auto":
        return None
    if text in ("keep", "kept", "true", "yes", "1"):
        return True
    if text in ("drop", "dropped", "false", "no", "0"):
        return False
    raise UserError(f"keep_singletons must be auto, keep (true) or drop (false), not {value!r}")


def corpus_key_has_singletons(corpus):
    """Does the compiled split's key annotate singletons (`annotates_singletons` of its clusters)?

    Read from `m_cluster` over the mentions in the key (`m_in_key`; twinless predicted
    mentions carry fresh ids and are not key mentions). Exact with gold mentions; with
    predicted mentions a key cluster of which only one mention was detected also looks
    like a singleton, so steps that have the key file resolve from it instead
    (`resolve_keep_singletons(..., key_docs=...)`).
    """
    from coreflab.mela.features import key_labels

    cluster = key_labels(corpus)
    keep = cluster >= 0
    if not keep.any():
        return False
    doc = np.asarray(corpus.arrays["m_doc"], dtype=np.int64)[keep]
    width = int(cluster.max()) + 1
    _, counts = np.unique(doc * width + cluster[keep], return_counts=True)
    return bool(annotates_singletons(int(np.count_nonzero(counts == 1)), int(counts.shape[0])))


def resolve_keep_singletons(value, corpus=None, key_docs=None):
    """bool: the explicit choice, else the corpus's (what `coreflab prepare` recorded in the compiled
    split: the config's choice, or whether the training key annotates singletons), else the key's
    (key_docs first, then the compiled corpus).

    Why the corpus first: a corpus's splits may fall on both sides of SINGLETON_SCHEME_SHARE (documents
    cut into parts leave one-mention clusters), and dev and test must be scored by one convention."""
    mode = parse_mode(value)
    if mode is not None:
        return mode
    recorded = getattr(corpus, "response_singletons", None) if corpus is not None else None
    if recorded is not None:
        return bool(recorded)
    if key_docs is not None:
        from coreflab.learn.output import key_has_singletons

        return bool(key_has_singletons(key_docs))
    if corpus is None:
        raise UserError("keep_singletons auto needs a key or a compiled split")
    return corpus_key_has_singletons(corpus)


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
            f"responses have them {mode_name(keep)} (refit it with `coreflab hm2017 mela-data "
            f"--keep-singletons {'keep' if keep else 'drop'}`, or set transfer_regressor: true)"
        )
    return fitted


__all__ = [
    "CHOICES",
    "SINGLETON_SCHEME_SHARE",
    "annotates_singletons",
    "KEPT",
    "DROPPED",
    "parse_mode",
    "corpus_key_has_singletons",
    "resolve_keep_singletons",
    "mode_name",
    "regressor_mode",
    "check_regressor_mode",
]
