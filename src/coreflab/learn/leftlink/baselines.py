"""Sum-Link (Haider et al. 2007) and Bin-Left-Link (Bengtson & Roth 2008), the L3M baselines.

Both read the same left-link arcs as L3M (`leftlink_kernels`), train by SGD with the same
O(1) L2 shrinkage, and cluster online:
- Sum-Link: joining cluster c scores Σ_{j∈c} w·φ(i,j); the best cluster is joined if its
  score is > 0, else a new cluster starts. Trained per item against the gold clustering of
  the earlier items with a loss-augmented (+1 for a wrong choice) perceptron-style SGD step.
- Bin-Left-Link: a linear SVM (hinge loss, SGD) on positives = the closest co-clustered
  antecedent, negatives = every item between it and i; inference links i to its best
  scoring candidate if that score is > 0. A candidate mention outside the gold key
  (`m_in_key` 0: a predicted mention with no twin in the key) makes a negative of every
  link to an earlier item: the paper's examples (gold mentions) come only from items with an
  antecedent, so a non-mention would otherwise never be an anaphor in training and the SVM
  would link it whenever it looks like an anaphor. With gold mentions, or items
  without `m_in_key` (document clustering), the examples are the paper's.
"""

import numpy as np
from numba import njit

from coreflab.decode.left_link import best_left_link_cluster, link_score, sumlink_cluster
from coreflab.learn.base import Learner, as_training_data
from coreflab.learn.labels import ClusteringLearnerMixin
from coreflab.learn.leftlink.l3m import kernel_arrays
from coreflab.learn.registry import register
from coreflab.learn.sgd import add_link, shrink


@njit(cache=True)
def sumlink_sgd_epoch(v, scale, doc_order, links, rep, lam, eta0, step):
    """One SGD pass of Sum-Link; clusters of earlier items are the gold ones (teacher forcing).

    rep[i] is the document-local index of the first item of i's gold cluster, so cluster
    sums live in an array indexed by it (O(arcs) per item, no dictionary).
    """
    doc_item_offsets, item_arc_offsets, arc_ante = links.doc_item_offsets, links.item_arc_offsets, links.arc_ante
    for d in doc_order:
        lo, hi = doc_item_offsets[d], doc_item_offsets[d + 1]
        total = np.zeros(hi - lo)
        for i in range(lo, hi):
            a0, a1 = item_arc_offsets[i], item_arc_offsets[i + 1]
            gold_c = -1
            for a in range(a0, a1):
                j = arc_ante[a]
                if j >= 0:
                    total[rep[lo + j]] += link_score(v, scale, links, a)
                    if rep[lo + j] == rep[i]:
                        gold_c = rep[i]
            best_c, best_s = -1, 0.0 if gold_c < 0 else 1.0  # a new cluster, +1 loss if wrong
            for a in range(a0, a1):
                j = arc_ante[a]
                if j >= 0:
                    c = rep[lo + j]
                    s = total[c] + (0.0 if c == gold_c else 1.0)
                    if s > best_s:
                        best_c, best_s = c, s
            for a in range(a0, a1):
                if arc_ante[a] >= 0:
                    total[rep[lo + arc_ante[a]]] = 0.0
            if best_c != gold_c:
                eta = eta0 / (1.0 + eta0 * lam * step)
                scale = shrink(v, scale, eta, lam)
                for a in range(a0, a1):
                    j = arc_ante[a]
                    if j >= 0:
                        c = rep[lo + j]
                        if c == gold_c:
                            add_link(v, scale, links, a, eta)
                        elif c == best_c:
                            add_link(v, scale, links, a, -eta)
            step += 1
    return scale, step


def gold_representatives(doc_item_offsets, item_cluster):
    """Per item, the document-local index of the first item of its gold cluster (own index if unknown)."""
    doc_item_offsets = np.asarray(doc_item_offsets, dtype=np.int64)
    n = item_cluster.shape[0]
    doc = np.repeat(np.arange(len(doc_item_offsets) - 1), np.diff(doc_item_offsets))
    local = np.arange(n) - doc_item_offsets[doc]
    rep = local.copy()
    known = np.flatnonzero(item_cluster >= 0)
    if known.size:
        order = known[np.lexsort((known, item_cluster[known], doc[known]))]
        key_d, key_c = doc[order], item_cluster[order]
        start = np.ones(order.size, dtype=bool)
        start[1:] = (key_d[1:] != key_d[:-1]) | (key_c[1:] != key_c[:-1])
        first = order[np.flatnonzero(start)[np.cumsum(start) - 1]]
        rep[order] = local[first]
    return rep.astype(np.int64)


def outside_key(corpus):
    """bool per item: a candidate mention that is not a mention of the gold key (`m_in_key` 0, a
    predicted mention without a twin in the key). Empty (no such item) when the corpus records no
    `m_in_key` (document clustering) or has no key mention at all (no key to be outside of)."""
    in_key = getattr(corpus, "m_in_key", None)
    if in_key is None or not np.any(np.asarray(in_key) == 1):
        return np.zeros(0, dtype=np.bool_)
    return np.asarray(in_key) == 0


@njit(cache=True)
def binleftlink_sgd_epoch(v, scale, doc_order, links, rep, off_key, lam, eta0, step):
    """One SGD pass of the hinge loss on Bengtson & Roth's examples.

    off_key[i] (empty: none) marks an item outside the gold key: all its links to earlier items
    are negatives (it has no closest antecedent); other items without one make no example."""
    doc_item_offsets, item_arc_offsets, arc_ante = links.doc_item_offsets, links.item_arc_offsets, links.arc_ante
    for d in doc_order:
        lo = doc_item_offsets[d]
        for i in range(lo, doc_item_offsets[d + 1]):
            a0, a1 = item_arc_offsets[i], item_arc_offsets[i + 1]
            closest, closest_j = -1, -1
            for a in range(a0, a1):
                j = arc_ante[a]
                if j >= 0 and rep[lo + j] == rep[i] and j > closest_j:
                    closest, closest_j = a, j
            if closest < 0 and (off_key.shape[0] == 0 or not off_key[i]):
                continue
            for a in range(a0, a1):
                j = arc_ante[a]
                if j < 0 or j < closest_j:
                    continue  # the root and mentions before the closest antecedent make no example
                y = 1.0 if a == closest else -1.0
                eta = eta0 / (1.0 + eta0 * lam * step)
                s = link_score(v, scale, links, a)
                scale = shrink(v, scale, eta, lam)
                if y * s < 1.0:
                    add_link(v, scale, links, a, eta * y)
                step += 1
    return scale, step


class _SGDLeftLinker(ClusteringLearnerMixin, Learner):
    """Shared fit/predict of the SGD-trained left-link baselines."""

    _meta_fields = ("epochs_done_",)
    _epoch_kernel = None
    _cluster_kernel = None

    def __init__(self, lam=1e-4, eta0=0.1, epochs=1, seed=0):
        self.lam = lam
        self.eta0 = eta0
        self.epochs = epochs
        self.seed = seed

    def fit(self, train, dev=None, callback=None):
        data = as_training_data(train)
        links = kernel_arrays(data, lean=True)
        rng = np.random.default_rng(self.seed)
        v = np.zeros(1 << int(data.store.n_bits))
        scale, step = 1.0, 0
        gold = self._gold_arrays(data, links)
        for epoch in range(1, self.epochs + 1):
            order = rng.permutation(links.doc_item_offsets.shape[0] - 1).astype(np.int64)
            scale, step = type(self)._epoch_kernel(
                v, scale, order, links, *gold, float(self.lam), float(self.eta0), step
            )
            self._end_epoch(epoch, v, scale, callback)
        return self

    def _gold_arrays(self, data, links):
        """What the epoch kernel reads of the gold clustering: the representatives."""
        return (gold_representatives(links.doc_item_offsets, np.asarray(data.corpus.m_cluster, dtype=np.int64)),)

    def predict_labels(self, data):
        """Cluster id per item (document-local index of the cluster's first item)."""
        data = as_training_data(data)
        return type(self)._cluster_kernel(np.asarray(self.coef_, dtype=np.float64), *kernel_arrays(data, lean=True))


@register("sumlink")
class SumLink(_SGDLeftLinker):
    """Sum-Link of Haider et al. (2007)."""

    _epoch_kernel = staticmethod(sumlink_sgd_epoch)
    _cluster_kernel = staticmethod(sumlink_cluster)


@register("binleftlink")
class BinLeftLink(_SGDLeftLinker):
    """Bin-Left-Link of Bengtson & Roth (2008)."""

    _epoch_kernel = staticmethod(binleftlink_sgd_epoch)
    _cluster_kernel = staticmethod(best_left_link_cluster)

    def _gold_arrays(self, data, links):
        """The representatives and the items outside the gold key (`outside_key`)."""
        return (*super()._gold_arrays(data, links), outside_key(data.corpus))
