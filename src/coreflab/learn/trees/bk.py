"""Björkelund & Kuhn (2014): latent-tree learners with PA updates and beam search.

Five registered learners (docs/methods.md, "Björkelund & Kuhn 2014"), all with the passive-aggressive update (or
the plain perceptron, `update="perceptron"`; `pa_cap` = C bounds the PA step, PA-I), the
root-attachment loss `root_loss` (1.5), weight averaging and per-epoch document shuffling by `seed`:

- `bk_baseline` (Alg. 1): best-first over A; if the tree is wrong, update against the
  best-first tree over Ã. Local features only (exact search).
- `bk_early` (Alg. 2): beam search, early update at the first prefix where no
  predicted item is correct.
- `bk_maxviolation`: update at the most violating prefix (Huang et al. 2012).
- `bk_laso` (Sec. 5.2): update and continue; gold agenda rebuilt, predictions re-seeded.
- `bk_delayed_laso` (Alg. 3): LaSO with the Δs and losses summed and one update per
  document. With local features it equals `bk_baseline` (tested).

Non-local templates are chosen by name (`nonlocal_templates`, see
`coreflab.features.nonlocal_templates`), or `"selected"`: the non-local entries of the feature
set the training arc store was built from (its metadata), so that template selection feeds the
learner (B&K §6); the beam learners use beam size `beam`.
"""

import time

import numpy as np

from coreflab.decode.arcs import arc_arrays, arc_scores, bk_arc_loss, gold_arc_mask
from coreflab.decode.beam import beam_antecedents
from coreflab.decode.best_first import best_first_antecedents
from coreflab.errors import UserError
from coreflab.features.nonlocal_templates import NONLOCAL_TEMPLATES, NonLocal, mention_attributes, resolve_nonlocal
from coreflab.learn.base import Learner, as_training_data
from coreflab.learn.pa import PA, Accumulator, averaged_weights
from coreflab.learn.registry import register
from coreflab.learn.trees import bk_kernels as K


class BKLearner(Learner):
    """Shared implementation; subclasses set `mode` (None = baseline)."""

    mode = None
    tuned_params = ("root_loss",)  # the workflow passes the root loss tuned on dev unless params set one
    _meta_fields = ("n_bits_", "nonlocal_used_", "unavailable_", "n_epochs_", "history_")
    _param_keywords = {"nonlocal_templates": ("selected",)}

    def __init__(
        self, n_iter=25, beam=20, update="pa", root_loss=1.5, average=True, nonlocal_templates=(), seed=0, pa_cap=None
    ):
        self.n_iter = n_iter
        self.beam = beam
        self.update = update
        self.pa_cap = pa_cap
        self.root_loss = root_loss
        self.average = average
        self.nonlocal_templates = nonlocal_templates
        self.seed = seed

    def _validate(self):
        if self.update not in ("pa", "perceptron"):
            raise UserError(f"{self.name}: update must be 'pa' or 'perceptron', not {self.update!r}")
        if self.pa_cap is not None and not float(self.pa_cap) > 0:
            raise UserError(f"{self.name}: pa_cap must be a positive number (or null: no cap), not {self.pa_cap!r}")
        if int(self.n_iter) < 0:
            raise UserError(f"{self.name}: n_iter must be >= 0, not {self.n_iter!r}")
        if int(self.beam) < 1:
            raise UserError(f"{self.name}: beam must be >= 1, not {self.beam!r}")
        if isinstance(self.nonlocal_templates, str):
            if self.nonlocal_templates != "selected":
                raise UserError(
                    f"{self.name}: nonlocal_templates must be a list of template names or "
                    f"'selected', not {self.nonlocal_templates!r}"
                )
            if self.mode is None:
                raise UserError(
                    f"{self.name}: the baseline learner uses local features only (exact search); "
                    "use bk_delayed_laso for the selected non-local templates"
                )
            return
        if self.mode is None and len(self.nonlocal_templates) > 0:
            raise UserError(
                f"{self.name}: the baseline learner uses local features only "
                "(exact search); use bk_delayed_laso for non-local templates"
            )
        unknown = [t for t in self.nonlocal_templates if t not in NONLOCAL_TEMPLATES]
        if unknown:
            resolve_nonlocal(unknown)  # raises the UserError naming the known templates

    def _nonlocal_names(self, store):
        """The configured names, or with `"selected"` those recorded in the arc store."""
        if isinstance(self.nonlocal_templates, str):
            return list(store.meta.get("nonlocal", []))
        return list(self.nonlocal_templates)

    def fit(self, train, dev=None, callback=None):
        """Train for n_iter epochs; callback(epoch, self) after each (coef_ = averaged).

        train: TrainingData or (CompiledCorpus, ArcStore). dev is accepted for the common
        interface; dev scores per epoch come from the callback (`coreflab.learn.curve`).
        """
        self._validate()
        data = as_training_data(train)
        corpus, store = data.corpus, data.store
        if corpus.n_mentions and not np.any(np.asarray(corpus.arrays["m_cluster"]) >= 0):
            raise UserError(f"{self.name}: the training split has no gold clusters (no key)")
        n_bits = int(store.n_bits)
        codes, unavailable = resolve_nonlocal(self._nonlocal_names(store), corpus)
        self.n_bits_ = n_bits
        self.nonlocal_used_ = [NONLOCAL_TEMPLATES[c] for c in codes]
        self.unavailable_ = unavailable
        self.history_ = []
        w = np.zeros(1 << n_bits, dtype=np.float64)
        u = np.zeros_like(w)
        acc = Accumulator(n_bits).arrays()
        nl = NonLocal(codes, mention_attributes(corpus), n_bits)
        arc_gold = gold_arc_mask(corpus, store)
        arc_loss = bk_arc_loss(arc_gold, np.asarray(store.arc_ante, dtype=np.int32), float(self.root_loss))
        arcs = arc_arrays(store, arc_gold, arc_loss)
        tau_cap = np.inf if self.pa_cap is None else float(self.pa_cap)
        pa = PA(w, u, self.update == "perceptron", tau_cap)
        rng = np.random.default_rng(self.seed)
        n_docs = arcs.doc_mention_offsets.shape[0] - 1
        trace = np.full(n_docs, -1, dtype=np.int64)
        n_seen = 0
        self.trace_ = trace  # per document: prefix length of the first update, -1 none
        self.weights_ = w  # raw (non-averaged) weights, updated in place
        for epoch in range(1, int(self.n_iter) + 1):
            order = rng.permutation(n_docs).astype(np.int64)
            stats = np.zeros(2, dtype=np.int64)
            t0 = time.perf_counter()
            if self.mode is None:
                n_seen = K.baseline_epoch(order, pa, n_seen, arcs, acc, trace, stats)
            else:
                n_seen = K.beam_epoch(self.mode, order, int(self.beam), pa, n_seen, arcs, nl, acc, trace, stats)
            if callback is not None or epoch == int(self.n_iter):  # 2**bits floats: only where read
                self.coef_ = averaged_weights(w, u, n_seen) if self.average else w.copy()
            self.n_epochs_ = epoch
            self.history_.append(
                {
                    "epoch": epoch,
                    "updates": int(stats[0]),
                    "violations": int(stats[1]),
                    "seconds": round(time.perf_counter() - t0, 4),
                }
            )
            if callback is not None:
                callback(epoch, self)
        if int(self.n_iter) == 0:
            self.coef_ = w.copy()
            self.n_epochs_ = 0
        return self

    def predict(self, corpus, store):
        """Antecedent per mention row (index within its document, -1 = root)."""
        self._checked_data(corpus, store)
        codes, _ = resolve_nonlocal(list(self.nonlocal_used_), corpus)
        if len(codes) == 0:  # local features: best-first is the exact argmax
            return best_first_antecedents(arc_scores(self.coef_, store), store)
        return beam_antecedents(self.coef_, store, mention_attributes(corpus), codes, int(self.beam))


@register("bk_baseline")
class BKBaseline(BKLearner):
    """Alg. 1: best-first, exact with local features."""

    mode = None


@register("bk_early")
class BKEarly(BKLearner):
    """Alg. 2: beam search with early update."""

    mode = K.EARLY


@register("bk_maxviolation")
class BKMaxViolation(BKLearner):
    """Max-violation update (Huang et al. 2012), the paper's optional variant."""

    mode = K.MAXVIOLATION


@register("bk_laso")
class BKLaso(BKLearner):
    """Sec. 5.2: LaSO, update and continue from the re-seeded gold agenda."""

    mode = K.LASO


@register("bk_delayed_laso")
class BKDelayedLaso(BKLearner):
    """Alg. 3: delayed LaSO, one summed update per document."""

    mode = K.DELAYED
