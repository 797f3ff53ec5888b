"""Corr-Clustering: structural SVM with correlation-clustering inference (Finley & Joachims 2005).

Per document, the pair weights W_ij = w·φ(i, j) (pairs outside the store's window weigh 0)
are clustered by `coreflab.decode.correlation`: per component of positive pairs, enumeration
(up to 8 mentions), else a cutting-plane LP within `lp_iterations` simplex iterations (exact when
integral; `train_lp_iterations` in training's loss-augmented inferences), then branch and bound
for components of at most `max_items` mentions within `node_limit` nodes, else a heuristic
(`max_items` = 0: greedy everywhere, no exact solver). Training is
per-document SGD on the structural hinge with the pairwise disagreement loss, whose
loss-augmented inference is the same problem with W_ij − 1 on gold-coreferent pairs and
W_ij + 1 on the others; the update is w ← (1 − ηλ)w + τ Σ_ij (y_ij − ŷ_ij) φ_ij / n with
τ = min(η, hinge/‖Δ‖²) (`clipped_step`: without the cap one pass predicted every mention
alone on real text). `exact_` and `fallback_` count the documents whose inference was proved
optimal (every component) or not (reported in the L3M tables: the exact share), `solved_` the
components of 3 or more mentions by how they were solved (`SOLVED_BY`: enumeration, LP integral,
LP bound, branch and bound, heuristic). The weights are averaged over all document steps
(averaged SGD).
"""

import numpy as np
from numba import njit

from coreflab.decode.correlation import LP_ITERATIONS, NODE_LIMIT, SOLVED_BY, solve_edges
from coreflab.features.shared_rows import row_span
from coreflab.learn.base import Learner, as_training_data
from coreflab.learn.clustering.spanning_forest import document_edges, edge_scores
from coreflab.learn.labels import ClusteringLearnerMixin
from coreflab.learn.leftlink.baselines import gold_representatives
from coreflab.learn.leftlink.l3m import kernel_arrays
from coreflab.learn.registry import register
from coreflab.learn.sgd import shrink

# Simplex iterations of the LP per component in the loss-augmented inferences of training: none by
# default. Adding 1 to every non-coreferent pair joins most of a document into one positive
# component (GUM train: a median of 216 of 272 mentions) whose LP is fractional or slow: with 1,000
# iterations 16 of GUM's 177 training documents were exact instead of 11, at 81 ms a document
# instead of 21 (bench/results/corr_clustering_lp.json). Components of up to 8 mentions are still
# enumerated and those of up to `max_items` go to branch and bound.
TRAIN_LP_ITERATIONS = 0


@njit(cache=True, inline="always")
def _mark_add(f, c, acc, mark, touched, nt):
    if not mark[f]:
        mark[f] = True
        touched[nt] = f
        nt += 1
    acc[f] += c
    return nt


@njit(cache=True)
def clipped_step(v, scale, foff, feats, vals, arcs, coef, eta, violation, acc, mark, touched):
    """v += τ·Δ/scale with Δ = Σ_k coef_k φ_{arcs_k}, τ = min(η, violation/‖Δ‖²); returns τ.

    The SGD step on a document's structural hinge, capped so that it never moves past the
    point where the document's loss-augmented margin is met (a passive-aggressive step,
    Crammer et al. 2006, with C = η). Without the cap the first document, whose
    loss-augmented inference at w = 0 puts every non-coreferent pair together, pushed all
    pair scores to about −145 on LitBank, and one pass predicted every mention alone.
    violation = ∞ gives the plain SGD step τ = η.
    acc/mark/touched are dim-sized scratch arrays, left zeroed/False.
    """
    nt = 0
    for k in range(arcs.shape[0]):
        a = arcs[k]
        for e in range(foff[a], foff[a + 1]):
            f = feats[e]
            if f < 0:  # a shared row (`shared_rows.py`; binary stores only)
                e0, e1 = row_span(foff, f)
                for e2 in range(e0, e1):
                    nt = _mark_add(feats[e2], coef[k], acc, mark, touched, nt)
            else:
                nt = _mark_add(f, coef[k] * (1.0 if vals.shape[0] == 0 else vals[e]), acc, mark, touched, nt)
    norm = 0.0
    for t in range(nt):
        norm += acc[touched[t]] * acc[touched[t]]
    tau = eta
    if norm > 0.0 and violation / norm < tau:
        tau = max(violation / norm, 0.0)
    for t in range(nt):
        f = touched[t]
        v[f] += tau * acc[f] / scale
        acc[f] = 0.0
        mark[f] = False
    return tau


@register("corr_clustering")
class CorrClustering(ClusteringLearnerMixin, Learner):
    """Structural SVM with correlation-clustering inference."""

    _meta_fields = ("epochs_done_", "exact_", "fallback_", "solved_")

    def __init__(
        self,
        lam=1e-4,
        eta0=0.1,
        epochs=1,
        max_items=40,
        time_limit=None,
        average=True,
        seed=0,
        node_limit=NODE_LIMIT,
        clip=True,
        lp_iterations=LP_ITERATIONS,
        train_lp_iterations=TRAIN_LP_ITERATIONS,
    ):
        self.lp_iterations = lp_iterations
        self.train_lp_iterations = train_lp_iterations
        self.average = average
        self.clip = clip
        self.node_limit = node_limit
        self.lam = lam
        self.eta0 = eta0
        self.epochs = epochs
        self.max_items = max_items
        self.time_limit = time_limit
        self.seed = seed

    def _reset_counts(self):
        self.exact_, self.fallback_ = 0, 0
        self.solved_ = dict.fromkeys(SOLVED_BY, 0)

    def _solve(self, n, la, lb, weights, training=False):
        budget = self.train_lp_iterations if training else self.lp_iterations
        labels, exact, counts = solve_edges(
            n, la, lb, weights, self.max_items, self.time_limit, self.node_limit, budget
        )
        for k, v in counts.items():
            self.solved_[k] = self.solved_.get(k, 0) + v
        if exact:
            self.exact_ += 1
        else:
            self.fallback_ += 1
        return labels

    def fit(self, train, dev=None, callback=None):
        data = as_training_data(train)
        _, arc_off, arc_ante, foff, feats, vals = kernel_arrays(data, lean=True)
        doc_off, ante, ana, arcs, edge_doc_off = document_edges(data)
        rep = gold_representatives(doc_off, np.asarray(data.corpus.m_cluster, dtype=np.int64))
        same = rep[ante] == rep[ana]
        rng = np.random.default_rng(self.seed)
        v = np.zeros(1 << int(data.store.n_bits))
        acc, mark, touched = np.zeros_like(v), np.zeros(v.shape[0], dtype=np.bool_), np.empty(v.shape[0], np.int64)
        total = np.zeros_like(v) if self.average else None  # averaged SGD: the greedy fallback makes
        scale, step = 1.0, 0  # single steps noisy, the average is stable
        self._reset_counts()
        for epoch in range(1, self.epochs + 1):
            for d in rng.permutation(len(doc_off) - 1):
                e0, e1 = edge_doc_off[d], edge_doc_off[d + 1]
                if e0 == e1:
                    continue
                lo, n = doc_off[d], doc_off[d + 1] - doc_off[d]
                la, lb = ante[e0:e1] - lo, ana[e0:e1] - lo
                s = edge_scores(v, scale, foff, feats, vals, arc_ante, arcs[e0:e1])
                labels = self._solve(n, la, lb, s + np.where(same[e0:e1], -1.0, 1.0), training=True)
                pred = labels[la] == labels[lb]
                # the subgradient sums over every pair of the document: normalise by its size so one
                # long document cannot swing the weights (without it, epoch 2 diverged on synth)
                coef = (same[e0:e1].astype(np.float64) - pred) / n
                eta = self.eta0 / (1.0 + self.eta0 * self.lam * step)
                scale = shrink(v, scale, eta, self.lam)
                hit = np.flatnonzero(coef)
                # the structural hinge of this document at the current weights, in the units of coef
                violation = float(np.abs(coef[hit]).sum() - coef[hit] @ s[hit])
                clipped_step(
                    v,
                    scale,
                    foff,
                    feats,
                    vals,
                    arcs[e0:e1][hit],
                    coef[hit],
                    eta,
                    violation if self.clip else np.inf,
                    acc,
                    mark,
                    touched,
                )
                step += 1
                if total is not None:
                    total += v * scale
            self._end_averaged_epoch(epoch, total, step, v, scale, callback)
        return self

    def predict_labels(self, data):
        """Cluster id per mention (document-local index of the cluster's first mention)."""
        data = as_training_data(data)
        _, arc_off, arc_ante, foff, feats, vals = kernel_arrays(data, lean=True)
        doc_off, ante, ana, arcs, edge_doc_off = document_edges(data)
        s = edge_scores(np.asarray(self.coef_, dtype=np.float64), 1.0, foff, feats, vals, arc_ante, arcs)
        out = np.arange(arc_off.shape[0] - 1) - np.repeat(doc_off[:-1], np.diff(doc_off))
        self.exact_, self.fallback_ = getattr(self, "exact_", 0), getattr(self, "fallback_", 0)
        self.solved_ = {k: getattr(self, "solved_", {}).get(k, 0) for k in SOLVED_BY}
        for d in range(len(doc_off) - 1):
            e0, e1 = edge_doc_off[d], edge_doc_off[d + 1]
            if e0 == e1:
                continue
            lo, n = doc_off[d], doc_off[d + 1] - doc_off[d]
            out[lo : lo + n] = self._solve(n, ante[e0:e1] - lo, ana[e0:e1] - lo, s[e0:e1])
        return out
