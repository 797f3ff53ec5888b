"""Mention pairs as a sparse design matrix, for the pairwise learners (Choi & Cardie 2007).

The pairs are the non-root candidate arcs of an `ArcStore` (every earlier mention of the
same document, or those within the store's window), so the pairwise models see exactly the
features the tree learners see. Feature ids are hashed into a large space; the columns are
compacted to the ids seen in training (`FeatureIndex`), which keeps scikit-learn's dense
coefficient vector small.
"""

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp


@dataclass
class PairData:
    """All candidate pairs of one split: (antecedent row, anaphor row) with features and gold labels."""

    ante: np.ndarray  # global mention row of the earlier mention
    ana: np.ndarray  # global mention row of the later mention
    doc: np.ndarray  # document index of the pair
    gold: np.ndarray  # bool: same gold cluster
    arcs: np.ndarray  # arc index in the store (to reach the features)
    n_mentions: int

    def __len__(self):
        return int(self.ante.shape[0])


def build_pairs(corpus, store):
    """Every non-root arc of the store as a pair, with its gold label from `m_cluster`."""
    off = np.asarray(store.m_arc_offsets)
    n = corpus.n_mentions
    arc_mention = np.repeat(np.arange(n, dtype=np.int64), np.diff(off))
    ante_local = np.asarray(store.arc_ante)
    keep = np.flatnonzero(ante_local >= 0)
    ana = arc_mention[keep]
    doc = corpus.m_doc[ana].astype(np.int64)
    ante = corpus.doc_mention_offsets[doc] + ante_local[keep]
    cl = corpus.m_cluster
    gold = (cl[ante] == cl[ana]) & (cl[ana] >= 0)
    return PairData(ante=ante.astype(np.int64), ana=ana.astype(np.int64), doc=doc, gold=gold, arcs=keep, n_mentions=n)


def arc_feature_rows(store, arcs):
    """CSR (len(arcs) × 2**n_bits) of the hashed features of the given arcs, binary valued."""
    off = np.asarray(store.arc_feat_offsets)
    starts, ends = off[arcs], off[arcs + 1]
    lengths = ends - starts
    indptr = np.zeros(len(arcs) + 1, dtype=np.int64)
    np.cumsum(lengths, out=indptr[1:])
    total = int(indptr[-1])
    within = np.arange(total, dtype=np.int64) - np.repeat(indptr[:-1], lengths)
    indices = np.asarray(store.arc_feats)[np.repeat(starts, lengths) + within].astype(np.int64)
    return indptr, indices


class FeatureIndex:
    """Maps hashed feature ids to compact columns; ids unseen in training are dropped."""

    def __init__(self, ids):
        self.ids_ = np.unique(ids)

    @property
    def n_columns(self):
        return int(self.ids_.shape[0])

    def matrix(self, indptr, indices):
        pos = np.searchsorted(self.ids_, indices)
        pos = np.minimum(pos, max(self.n_columns - 1, 0))
        known = self.ids_[pos] == indices if self.n_columns else np.zeros(indices.shape, bool)
        data = known.astype(np.float64)
        X = sp.csr_matrix((data, pos, indptr), shape=(len(indptr) - 1, self.n_columns))
        X.sum_duplicates()
        X.eliminate_zeros()
        # a feature firing twice on one arc still counts once (binary indicator features)
        X.data[:] = 1.0
        return X
