"""Pairwise features of posts in an item set, as an ArcStore-shaped store with real values.

The paper's forum features (Samdani et al. 2014, Sec. 5.2): TF-IDF cosine, time difference
(article-number difference here: bydate has no dates), position difference, and IDF-weighted
common words; plus a bias and bucket indicators so the linear left-link models can place
their threshold against the dummy link (which scores 0). Every earlier post of the same item
set is a candidate; arc order per post is dummy first, then earlier posts ascending (the
arc-store contract), so the left-link learners run on it unchanged.
"""

from types import SimpleNamespace

import numpy as np
from sklearn.feature_extraction.text import TfidfVectorizer

N_BITS = 6
BIAS, COSINE, TIME, POSITION, COMMON = 1, 2, 3, 4, 5
COS_BUCKETS, POS_BUCKETS = 8, 20
_POS_EDGES = np.array([1, 3, 10, 30, 100])


def fit_vectorizer(item_sets):
    """TF-IDF over the post bodies of `item_sets`. Cross-validation fits it on each fold's training sets
    only (`doccluster.fold_parts`): IDF weights and the vocabulary fitted on every set would carry the
    test sets' word statistics into the features."""
    texts = [p.body for items in item_sets for p in items]
    return TfidfVectorizer(sublinear_tf=True, stop_words="english", min_df=2, max_df=0.5, dtype=np.float64).fit(texts)


def item_set_arcs(items, vectorizer, order=None):
    """(n_items, item_arc_offsets, arc_ante, arc_feat_offsets, arc_feats, arc_vals) of one item set.

    `order` (a permutation) processes the posts in another order while every pair keeps the
    features it has in the original order (positions are the original ones): the paper's
    order-control experiment.
    """
    n = len(items)
    pos = np.arange(n) if order is None else np.asarray(order)
    items = [items[k] for k in pos]
    X = vectorizer.transform([p.body for p in items])
    cos = (X @ X.T).toarray()
    B = (X > 0).astype(np.float64)
    idf = vectorizer.idf_
    common = (B.multiply(idf) @ B.T).toarray()
    numbers = np.array([p.number for p in items], dtype=np.float64)
    i, j = np.tril_indices(n, -1)  # pairs (i, j) with j < i, ordered by i then j
    k = i.size
    vals = np.empty((k, 7))
    feats = np.empty((k, 7), dtype=np.int32)
    feats[:, 0], vals[:, 0] = BIAS, 1.0
    feats[:, 1], vals[:, 1] = COSINE, cos[i, j]
    feats[:, 2], vals[:, 2] = TIME, np.log1p(np.abs(numbers[i] - numbers[j])) / 10.0
    gap = np.abs(pos[i] - pos[j])
    feats[:, 3], vals[:, 3] = POSITION, np.log1p(gap) / 6.0
    feats[:, 4], vals[:, 4] = COMMON, np.log1p(common[i, j]) / 5.0
    feats[:, 5], vals[:, 5] = COS_BUCKETS + np.minimum((cos[i, j] * 10).astype(np.int32), 9), 1.0
    feats[:, 6], vals[:, 6] = POS_BUCKETS + np.searchsorted(_POS_EDGES, gap), 1.0
    # interleave the dummy arc (no features) before each post's candidates
    arc_ante = np.empty(n + k, dtype=np.int32)
    item_off = np.concatenate([[0], np.cumsum(np.arange(n) + 1)])
    dummy_pos = item_off[:-1]
    pair_pos = np.setdiff1d(np.arange(n + k), dummy_pos, assume_unique=True)
    arc_ante[dummy_pos] = -1
    arc_ante[pair_pos] = j
    counts = np.zeros(n + k, dtype=np.int64)
    counts[pair_pos] = 7
    feat_off = np.concatenate([[0], np.cumsum(counts)])
    return n, item_off, arc_ante, feat_off, feats.ravel(), vals.ravel()


def build_store(parts, labels):
    """(corpus, store) from `item_set_arcs` results; labels: cluster ids per set, in processing order."""
    doc_off = np.concatenate([[0], np.cumsum([p[0] for p in parts])]).astype(np.int64)
    arc_base = np.concatenate([[0], np.cumsum([p[2].size for p in parts])])
    feat_base = np.concatenate([[0], np.cumsum([p[4].size for p in parts])])
    m_arc = np.concatenate([[0]] + [p[1][1:] + arc_base[d] for d, p in enumerate(parts)]).astype(np.int64)
    feat_off = np.concatenate([[0]] + [p[3][1:] + feat_base[d] for d, p in enumerate(parts)]).astype(np.int64)
    store = SimpleNamespace(
        n_bits=N_BITS,
        doc_mention_offsets=doc_off,
        m_arc_offsets=m_arc,
        arc_ante=np.concatenate([p[2] for p in parts]),
        arc_feat_offsets=feat_off,
        arc_feats=np.concatenate([p[4] for p in parts]),
        arc_vals=np.concatenate([p[5] for p in parts]),
    )
    corpus = SimpleNamespace(
        m_cluster=np.concatenate(labels).astype(np.int32),
        arrays={"doc_mention_offsets": doc_off},
        n_mentions=int(doc_off[-1]),
    )
    return corpus, store
