"""The deterministic multi-pass sieve (Lee et al. 2013; Raghunathan et al. 2010) as a coreflab system.

Why: the strongest rule-based baseline of the CoNLL-2011/2012 era, run on the same mentions as
every learner. Passes, highest precision first: 1 speaker identification, 2 exact string match,
3 relaxed string match, 4 precise constructs, 5-7 strict head match A-C, 8 proper head word
match, 9 relaxed head match, 10 pronoun resolution (`rules.speaker`, `rules.passes`,
`rules.constructs`).
`sieve_links` gives antecedent rows and the merge log; the registered learner `sieve` learns
nothing and predicts document-local antecedents like `string_match`.
"""

import numpy as np

from coreflab.errors import UserError
from coreflab.learn.base import Learner
from coreflab.learn.registry import register
from coreflab.learn.rules.constructs import KINDS
from coreflab.learn.rules.passes import CLOSEST, PAPER, Text, run_passes
from coreflab.learn.rules.table import build_table

PASS_NAMES = {
    1: "speaker",
    2: "exact_string_match",
    3: "relaxed_string_match",
    4: "precise_constructs",
    5: "strict_head_match_a",
    6: "strict_head_match_b",
    7: "strict_head_match_c",
    8: "proper_head_word_match",
    9: "relaxed_head_match",
    10: "pronoun_resolution",
}
ALL_PASSES = tuple(PASS_NAMES)
ORDERS = {"paper": PAPER, "closest": CLOSEST}


def _checked(passes, order, pronoun_window, constructs):
    unknown = sorted(set(constructs) - set(KINDS))
    if unknown:
        raise UserError(f"sieve: unknown construct(s) {', '.join(unknown)}; known: {', '.join(KINDS)}")
    passes = [int(p) for p in passes]
    bad = [p for p in passes if p not in PASS_NAMES]
    if bad or len(set(passes)) != len(passes):
        raise UserError(f"sieve: passes {passes} must be distinct numbers from 1 to 10 (Lee et al. 2013's order)")
    if order not in ORDERS:
        raise UserError(f"sieve: order {order!r}; expected one of {', '.join(ORDERS)}")
    if int(pronoun_window) < 0:
        raise UserError(f"sieve: pronoun_window {pronoun_window} must be 0 or more sentences")
    return np.asarray(passes, np.int64), ORDERS[order], int(pronoun_window), sum(KINDS[k] for k in set(constructs))


def sieve_links(corpus, passes=ALL_PASSES, order="paper", pronoun_window=3, constructs=tuple(KINDS), table=None):
    """(antecedent row of every mention, -1 for a new cluster; merge log rows (pass, anaphor row,
    antecedent row) in the order the merges happened) of the sieve over a CompiledCorpus."""
    passes, order, window, kinds = _checked(passes, order, pronoun_window, constructs)
    t = build_table(corpus) if table is None else table
    tx = Text(
        t.mi,
        t.tok_lower,
        t.tok_flags,
        t.tok_mstart,
        t.tok_mend,
        t.doc_mention_offsets,
        t.doc_token_offsets,
        t.spk_off,
        t.spk_words,
    )
    return run_passes(tx, t.n_vocab, t.has_ne, passes, order, window, kinds)


@register("sieve")
class Sieve(Learner):
    """The sieve as a registered learner (nothing to learn): `fit` records an empty weight vector so
    the model saves and loads like any other; `predict(corpus, store)` ignores the arc store.
    passes: which passes run, in the order listed (default all ten, the paper's order); order:
    "paper" or "closest" candidate order (`rules.passes`); pronoun_window: sentences a pronoun looks
    back; constructs: the precise constructs pass 4 uses (`constructs.KINDS`; OntoNotes and LitBank
    annotate neither appositions nor copulas as coreference, GUM does); seed: unused (no
    randomness), taken because every train job passes one."""

    def __init__(self, passes=ALL_PASSES, order="paper", pronoun_window=3, constructs=tuple(KINDS), seed=0):
        self.passes = passes
        self.constructs = constructs
        self.order = order
        self.pronoun_window = pronoun_window
        self.seed = seed

    def fit(self, train=None, dev=None, callback=None):
        _checked(self.passes, self.order, self.pronoun_window, self.constructs)
        self.coef_ = np.zeros(0)
        if callback is not None:
            callback(1, self)
        return self

    def predict(self, corpus, store=None):
        """Document-local antecedents, as every learner's predict (`sieve_links` gives rows)."""
        ante, _ = sieve_links(corpus, self.passes, self.order, self.pronoun_window, self.constructs)
        return np.where(ante >= 0, ante - corpus.doc_mention_offsets[corpus.m_doc], -1)
