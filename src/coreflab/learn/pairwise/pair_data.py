"""Mention pairs of an arc store, for the pairwise learners (Choi & Cardie 2007).

The pairs are the non-root candidate arcs of an `ArcStore` (every earlier mention of the
same document, or those within the store's window), so the pairwise models see exactly the
features the tree learners see; `coreflab.learn.pairwise.pair_logistic` reads those features from
the store itself (no per-pair copy).
"""

from dataclasses import dataclass

import numpy as np


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
