"""Cluster labels ↔ antecedents: the two ways learners report a clustering.

Tree learners predict an antecedent per mention (document-local index, -1 = new cluster);
clustering learners (L3M, Sum-Link, spanning forest, correlation clustering, pairwise CRF)
predict a label per mention. `predict(corpus, store)` always returns antecedents, so the
predict command and the dev curves treat every learner alike: each mention's antecedent is
the previous mention with its label.
"""

import numpy as np


def local_labels(global_labels, doc_offsets):
    """Relabel cluster ids as the document-local index of each cluster's first item."""
    doc_offsets = np.asarray(doc_offsets, dtype=np.int64)
    global_labels = np.asarray(global_labels, dtype=np.int64)
    n = global_labels.shape[0]
    doc = np.repeat(np.arange(len(doc_offsets) - 1), np.diff(doc_offsets))
    _, dense = np.unique(np.stack([doc, global_labels]), axis=1, return_inverse=True) if n else (None, global_labels)
    dense = np.asarray(dense).ravel()
    first = np.full(int(dense.max()) + 1 if n else 0, n, dtype=np.int64)
    np.minimum.at(first, dense, np.arange(n))
    return first[dense] - doc_offsets[doc]


def labels_to_antecedents(labels, doc_offsets):
    """Antecedent per item: the closest earlier item of the document with the same label, else -1."""
    doc_offsets = np.asarray(doc_offsets, dtype=np.int64)
    labels = np.asarray(labels, dtype=np.int64)
    n = labels.shape[0]
    doc = np.repeat(np.arange(len(doc_offsets) - 1), np.diff(doc_offsets))
    rows = np.arange(n)
    order = np.lexsort((rows, labels, doc))
    ante = np.full(n, -1, dtype=np.int32)
    same = (doc[order][1:] == doc[order][:-1]) & (labels[order][1:] == labels[order][:-1])
    ante[order[1:][same]] = (order[:-1][same] - doc_offsets[doc[order[1:][same]]]).astype(np.int32)
    return ante


class ClusteringLearnerMixin:
    """Shared by the clustering learners: antecedents from labels, end-of-epoch bookkeeping.

    Their passes are tuned on dev (Samdani et al. 2014 §5): with a dev split `coreflab train` keeps
    the epoch of the best dev MELA, and `epochs` is the most it trains."""

    epochs_tuned_on_dev = True

    def predict(self, corpus, store):
        """Antecedent per mention (document-local, -1 = new cluster) of the predicted clustering."""
        return labels_to_antecedents(self.predict_labels((corpus, store)), store.doc_mention_offsets)

    def _end_averaged_epoch(self, epoch, total, steps, v, scale, callback):
        """As `_end_epoch`, publishing the average of the per-step weights when `total` sums them."""
        if total is not None:
            self._end_epoch(epoch, total / max(steps, 1), 1.0, callback)
        else:
            self._end_epoch(epoch, v, scale, callback)

    def _end_epoch(self, epoch, v, scale, callback):
        """Publish the weights of a scaled SGD vector after an epoch and call the callback."""
        self.coef_ = v * scale
        self.epochs_done_ = epoch
        if callback is not None:
            callback(epoch, self)
