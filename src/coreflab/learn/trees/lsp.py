"""Latent structured perceptron with Δ_F, Δ_YJ and the learned MELA loss Δ_ρ.

Haponchyk & Moschitti (2017), Alg. 1; docs/methods.md, "Haponchyk & Moschitti 2017". Three registered learners:

- `lsp_f`: Δ_F (Fernandes et al. 2012), wrong arcs cost 1, wrong arcs of a mention that
  starts its gold cluster 1 + r; exact loss-augmented best-first.
- `lsp_yj`: Δ_YJ (Yu & Joachims 2009), −1 per correct link, r per wrong link; exact.
- `lsp_rho`: Δ_ρ = 100 − w_ρ·φ(y, ŷ) from a MELA regressor (`regressor` = the JSON path
  `coreflab.mela.regressor.save_regressor` wrote; docs/methods.md says how it is learned), calibrated by `calibration`: "none" (Δ_ρ), "c"
  (Δ'_ρ = (c/100)·Δ_ρ), "ci" (Δ''_ρ = (i/|V|)·Δ'_ρ, the paper's final choice);
  inexact inference Alg. 3 with at most `max_passes` passes. `keep_singletons`
  (auto | true | false) is the mode of the MELA that Δ_ρ approximates: response singletons
  kept (the key annotates them: LitBank, GUM) or dropped; auto reads the training key
  from the compiled split (`coreflab.corpus.singletons`). The regressor must have been fitted in
  that mode (its JSON records it), else a one-line error, unless `transfer_regressor` is
  set: then its weights are applied to features of this run's mode (loss transfer).

All: the loss weight C, averaged weights, per-epoch shuffling by `seed`, `callback(epoch,
self)` after each epoch with coef_ = the averaged weights. Only local features
(best-first is the exact argmax at prediction).
"""

import time
from pathlib import Path

import numpy as np

from coreflab.decode.arcs import arc_arrays, arc_scores, gold_arc_mask
from coreflab.decode.best_first import best_first_antecedents
from coreflab.errors import UserError
from coreflab.learn.base import Learner, as_training_data
from coreflab.learn.pa import PA, Accumulator, averaged_weights
from coreflab.learn.registry import register
from coreflab.learn.trees import lsp_kernels as K
from coreflab.mela.features import key_labels


class LSPLearner(Learner):
    """Shared implementation; subclasses set `loss`. On a leaderboard C and r come from H&M's tuning
    and the epochs are tuned on dev (T_best, as H&M report them)."""

    loss = None
    tuned_params = ("C", "r")
    epochs_tuned_on_dev = True
    _meta_fields = (
        "n_bits_",
        "n_epochs_",
        "history_",
        "rho_coef_",
        "rho_intercept_",
        "keep_singletons_",
        "rho_fitted_singletons_",
    )

    def __init__(self, n_iter=20, C=1.0, r=1.0, average=True, seed=0):
        self.n_iter = n_iter
        self.C = C
        self.r = r
        self.average = average
        self.seed = seed

    def _loss_setup(self, corpus, store, arc_gold):
        """(per-arc loss, `lsp_kernels.Loss`) of the augmented argmax."""
        loss = K.arc_losses(self.loss, arc_gold, store.arc_ante, store.m_arc_offsets, float(self.r))
        return loss, K.arc_loss_spec(self.C)

    def fit(self, train, dev=None, callback=None):
        """Train n_iter epochs of Alg. 1; callback(epoch, self) after each."""
        if int(self.n_iter) < 0 or float(self.C) < 0:
            raise UserError(f"{self.name}: n_iter and C must be >= 0")
        data = as_training_data(train)
        corpus, store = data.corpus, data.store
        m_cluster = np.asarray(corpus.arrays["m_cluster"], dtype=np.int64)
        if corpus.n_mentions and not np.any(m_cluster >= 0):
            raise UserError(f"{self.name}: the training split has no gold clusters (no key)")
        arc_gold = gold_arc_mask(corpus, store)
        m_key = key_labels(corpus)  # the key the scorer reads (Δ_ρ's features)
        loss, spec = self._loss_setup(corpus, store, arc_gold)
        self.n_bits_ = int(store.n_bits)
        self.history_ = []
        w = np.zeros(1 << self.n_bits_)
        u = np.zeros_like(w)
        acc = Accumulator(self.n_bits_).arrays()
        arcs = arc_arrays(store, arc_gold, loss)
        pa = PA(w, u, True, np.inf)
        rng = np.random.default_rng(self.seed)
        n_docs = arcs.doc_mention_offsets.shape[0] - 1
        n_seen = 0
        self.weights_ = w
        self.coef_ = w.copy()
        self.n_epochs_ = 0
        for epoch in range(1, int(self.n_iter) + 1):
            order = rng.permutation(n_docs).astype(np.int64)
            stats = np.zeros(4)
            t0 = time.perf_counter()
            n_seen = K.lsp_epoch(order, pa, n_seen, arcs, m_key, spec, acc, stats)
            if callback is not None or epoch == int(self.n_iter):  # 2**bits floats: only where read
                self.coef_ = averaged_weights(w, u, n_seen) if self.average else w.copy()
            self.n_epochs_ = epoch
            self.history_.append(
                {
                    "epoch": epoch,
                    "updates": int(stats[0]),
                    "passes": int(stats[2]),
                    "seconds": round(time.perf_counter() - t0, 4),
                }
            )
            if callback is not None:
                callback(epoch, self)
        return self

    def predict(self, corpus, store):
        """Antecedent per mention row (index within its document, -1 = root): best-first."""
        self._checked_data(corpus, store)
        return best_first_antecedents(arc_scores(self.coef_, store), store)


@register("lsp_f")
class LSPF(LSPLearner):
    """Alg. 1 with Δ_F (exact loss-augmented best-first)."""

    loss = "f"


@register("lsp_yj")
class LSPYJ(LSPLearner):
    """Alg. 1 with Δ_YJ (exact loss-augmented best-first)."""

    loss = "yj"

    def __init__(self, n_iter=20, C=1.0, r=0.1, average=True, seed=0):
        super().__init__(n_iter=n_iter, C=C, r=r, average=average, seed=seed)


CALIBRATIONS = ("none", "c", "ci")


@register("lsp_rho")
class LSPRho(LSPLearner):
    """Alg. 1 with the learned loss Δ_ρ and the inexact inference of Alg. 3."""

    loss = "rho"
    tuned_params = ("C", "regressor")

    @classmethod
    def check_inputs(cls, data, folder):
        """A regressor file in the training split's singleton mode (the contract checks' fits need one)."""
        from coreflab.corpus.singletons import resolve_keep_singletons
        from coreflab.learn.checks import write_regressor

        keep = resolve_keep_singletons(None, data.corpus)
        return {"regressor": str(write_regressor(Path(folder) / "regressor.json", keep))}

    def __init__(
        self,
        n_iter=20,
        C=1.0,
        regressor="",
        calibration="ci",
        max_passes=5,
        average=True,
        seed=0,
        keep_singletons="auto",
        transfer_regressor=False,
    ):
        self.keep_singletons = keep_singletons
        self.transfer_regressor = transfer_regressor
        self.n_iter = n_iter
        self.C = C
        self.regressor = regressor
        self.calibration = calibration
        self.max_passes = max_passes
        self.average = average
        self.seed = seed

    def _loss_setup(self, corpus, store, arc_gold):
        from coreflab.corpus.singletons import resolve_keep_singletons
        from coreflab.mela.features import min_cluster_size
        from coreflab.mela.mode import check_regressor_mode
        from coreflab.mela.regressor import load_regressor

        if self.calibration not in CALIBRATIONS:
            raise UserError(f"lsp_rho: calibration must be one of {', '.join(CALIBRATIONS)}, not {self.calibration!r}")
        if int(self.max_passes) < 1:
            raise UserError("lsp_rho: max_passes must be >= 1")
        if not self.regressor:
            raise UserError("lsp_rho: parameter 'regressor' (the JSON file of a fitted MELA regressor) is required")
        reg = load_regressor(self.regressor)
        keep = resolve_keep_singletons(self.keep_singletons, corpus=corpus)
        fitted = check_regressor_mode(reg, keep, f"lsp_rho: {self.regressor}", bool(self.transfer_regressor))
        self.keep_singletons_ = bool(keep)
        self.rho_fitted_singletons_ = bool(fitted)
        self.rho_coef_ = [float(x) for x in reg["coef"]]
        self.rho_intercept_ = float(reg["intercept"])
        spec = K.Loss(
            K.RHO,
            float(self.C),
            np.asarray(self.rho_coef_, dtype=np.float64),
            self.rho_intercept_,
            self.calibration in ("c", "ci"),
            self.calibration == "ci",
            int(self.max_passes),
            min_cluster_size(keep),
        )
        return np.zeros(1), spec


__all__ = ["LSPLearner", "LSPF", "LSPYJ", "LSPRho", "CALIBRATIONS"]
