"""Spanning Forest: the latent structural SVM of Yu & Joachims (2009), a baseline of L3M.

The clustering is a maximum spanning forest of the undirected mention graph (edges of
positive score only). Training is per-document SGD on the latent structural hinge:
the latent gold structure h* is the maximum spanning tree of each gold cluster under the
current weights, the prediction ĥ is the loss-augmented maximum spanning forest with the
Δ_YJ edge loss (−1 for an edge inside a gold cluster, r otherwise; docs/methods.md, "Samdani, Chang & Roth 2014"), and
w ← (1 − ηλ)w + (η/n)(Φ(h*) − Φ(ĥ)) when the hinge is positive (n = the document's mentions).
Kruskal's algorithm (numba union-find, `coreflab.decode.single_link.kruskal`) does both searches.

The hinge is max_h [w·Φ(h) + Δ_YJ(y, h)] − w·Φ(h*) with the whole loss
Δ_YJ = n − k + Σ_{e∈h} l(e) (n mentions, k gold clusters of the document). The constant
n − k does not move the argmax, but it is part of the hinge: leaving it out (as this
module once did) updates only when the violation exceeds n − k, so a forest that links
across gold clusters while scoring its intra-cluster edges highly is never corrected
(`hinge`, tests/learn/clustering/test_spanning_forest.py).

Two safeguards against the last iterate swinging between one cluster and all singletons
(a forest joins two clusters through any single positive edge, and one
document's update sums up to 2(n − 1) arcs, so features shared by most pairs act as a
bias that each document moved by about η·n):
- the update is divided by the document's mention count n, as Corr-Clustering does, so
  a step is a per-mention average and η0 = 1 is the natural scale;
- the weights are averaged over all document steps (averaged SGD).
Measured on test (1 / 3 / 5 passes, AVG of MUC, B3, CEAFe): without them (η0 = 0.1)
synth 56.0 / 39.7 / 43.1 and the first 20 LitBank fold-0 documents 54.7 / 68.1 / 32.6
(3 passes with η0 = 0.01: CEAFe 1.0, one cluster per document); with them synth
57.4 / 56.4 / 56.3 and LitBank 71.4 / 69.8 / 69.7.
"""

import numpy as np
from numba import njit

from coreflab.decode.left_link import arc_score
from coreflab.decode.single_link import kruskal, single_link
from coreflab.decode.spanning_forest import max_spanning_forest
from coreflab.learn.base import Learner, as_training_data
from coreflab.learn.labels import ClusteringLearnerMixin, local_labels
from coreflab.learn.leftlink.baselines import gold_representatives
from coreflab.learn.leftlink.l3m import kernel_arrays
from coreflab.learn.registry import register
from coreflab.learn.sgd import add_arc, shrink


def edges(data):
    """(ante row, anaphor row, arc index) of every non-root arc, global rows."""
    s = data.store
    off = np.asarray(s.m_arc_offsets, dtype=np.int64)
    ana = np.repeat(np.arange(off.shape[0] - 1), np.diff(off))
    ante_local = np.asarray(s.arc_ante)
    keep = np.flatnonzero(ante_local >= 0)
    doc_off = np.asarray(s.doc_mention_offsets, dtype=np.int64)
    doc = np.searchsorted(doc_off, ana[keep], side="right") - 1
    return doc_off[doc] + ante_local[keep], ana[keep], keep


def document_edges(data):
    """(doc offsets, ante rows, anaphor rows, arc ids, per-document edge offsets) of the non-root arcs."""
    doc_off = np.asarray(data.store.doc_mention_offsets, dtype=np.int64)
    ante, ana, arcs = edges(data)
    doc_of_row = np.repeat(np.arange(len(doc_off) - 1), np.diff(doc_off))
    edge_doc_off = np.searchsorted(doc_of_row[ana], np.arange(len(doc_off)), side="left")
    return doc_off, ante, ana, arcs, edge_doc_off


@register("spanning_forest")
class SpanningForest(ClusteringLearnerMixin, Learner):
    """Latent structural SVM with maximum-spanning-forest inference (Yu & Joachims 2009)."""

    _meta_fields = ("epochs_done_", "updates_")

    def __init__(self, lam=1e-4, eta0=1.0, r=1.0, epochs=1, average=True, seed=0):
        self.average = average
        self.lam = lam
        self.eta0 = eta0
        self.r = r
        self.epochs = epochs
        self.seed = seed

    def fit(self, train, dev=None, callback=None):
        data = as_training_data(train)
        _, arc_off, arc_ante, foff, feats, vals = kernel_arrays(data, lean=True)
        # edges of each document are contiguous (rows are sorted by document)
        doc_off, ante, ana, arcs, edge_doc_off = document_edges(data)
        rep = gold_representatives(doc_off, np.asarray(data.corpus.m_cluster, dtype=np.int64))
        same = rep[ante] == rep[ana]
        edge_loss = np.where(same, -1.0, float(self.r))
        n_minus_k = loss_constants(doc_off, rep)
        rng = np.random.default_rng(self.seed)
        v = np.zeros(1 << int(data.store.n_bits))
        total = np.zeros_like(v) if self.average else None
        scale, step, self.updates_ = 1.0, 0, 0
        for epoch in range(1, self.epochs + 1):
            for d in rng.permutation(len(doc_off) - 1):
                e0, e1 = edge_doc_off[d], edge_doc_off[d + 1]
                if e0 == e1:
                    continue
                a_idx = arcs[e0:e1]
                s = edge_scores(v, scale, foff, feats, vals, arc_ante, a_idx)
                lo = doc_off[d]
                violation, gold_tree, pred = hinge(
                    s,
                    same[e0:e1],
                    edge_loss[e0:e1],
                    ante[e0:e1] - lo,
                    ana[e0:e1] - lo,
                    doc_off[d + 1] - lo,
                    n_minus_k[d],
                )
                eta = self.eta0 / (1.0 + self.eta0 * self.lam * step)
                scale = shrink(v, scale, eta, self.lam)
                if violation > 0:
                    self.updates_ += 1
                    step_size = eta / (doc_off[d + 1] - lo)  # per-mention average of the subgradient
                    _add_arcs(v, scale, foff, feats, vals, a_idx[gold_tree & ~pred], step_size)
                    _add_arcs(v, scale, foff, feats, vals, a_idx[pred & ~gold_tree], -step_size)
                step += 1
                if total is not None:
                    total += v * scale
            self._end_averaged_epoch(epoch, total, step, v, scale, callback)
        return self

    def predict_labels(self, data):
        """Cluster id per mention: components of the maximum spanning forest (document-local ids)."""
        data = as_training_data(data)
        doc_off, arc_off, arc_ante, foff, feats, vals = kernel_arrays(data, lean=True)
        ante, ana, arcs = edges(data)
        s = edge_scores(np.asarray(self.coef_, dtype=np.float64), 1.0, foff, feats, vals, arc_ante, arcs)
        n = arc_off.shape[0] - 1
        chosen = max_spanning_forest(n, ante, ana, s)
        return local_labels(single_link(n, ante, ana, chosen), doc_off)


def loss_constants(doc_off, rep):
    """n − k of Δ_YJ per document: mentions minus gold clusters (a mention is its cluster's first iff rep = own index)."""
    doc_off = np.asarray(doc_off, dtype=np.int64)
    local = np.arange(doc_off[-1]) - np.repeat(doc_off[:-1], np.diff(doc_off))
    not_first = (rep != local).astype(np.int64)
    return np.diff(np.concatenate([[0], np.cumsum(not_first)])[doc_off])


def hinge(score, same, edge_loss, ante, ana, n, n_minus_k):
    """(violation, h*, ĥ) of one document's latent structural hinge under Δ_YJ.

    h* = maximum spanning tree of each gold cluster (edges inside gold clusters only);
    ĥ = maximum spanning forest under score + l(e); violation =
    w·Φ(ĥ) + Δ_YJ(y, ĥ) − w·Φ(h*) with Δ_YJ(y, ĥ) = n − k + Σ_{e∈ĥ} l(e).
    """
    gold_tree = kruskal(n, ante, ana, np.zeros(score.shape[0], dtype=np.bool_), _desc(score, same))
    pred = max_spanning_forest(n, ante, ana, score + edge_loss)
    violation = float(score[pred].sum() + n_minus_k + edge_loss[pred].sum() - score[gold_tree].sum())
    return violation, gold_tree, pred


def _desc(score, mask):
    idx = np.flatnonzero(mask)
    return idx[np.lexsort((idx, -score[idx]))]


def edge_scores(v, scale, foff, feats, vals, arc_ante, arcs):
    out = np.empty(arcs.shape[0])
    for k in range(0, arcs.shape[0], 1 << 16):
        chunk = arcs[k : k + (1 << 16)]
        out[k : k + chunk.shape[0]] = _scores_at(v, scale, foff, feats, vals, arc_ante, chunk)
    return out


@njit(cache=True)
def _add_arcs(v, scale, foff, feats, vals, arcs, coef):
    """v += coef·Σ_a φ_a/scale over the given arcs."""
    for k in range(arcs.shape[0]):
        add_arc(v, scale, foff, feats, vals, arcs[k], coef)


@njit(cache=True)
def _scores_at(v, scale, foff, feats, vals, arc_ante, arcs):
    out = np.empty(arcs.shape[0])
    for k in range(arcs.shape[0]):
        out[k] = arc_score(v, scale, foff, feats, vals, arcs[k], arc_ante)
    return out
