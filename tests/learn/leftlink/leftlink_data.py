"""Small left-link problems shared by the L3M, baseline and Corr-Clustering tests (a helper
module, so that no test file imports another)."""

from types import SimpleNamespace

import numpy as np

from coreflab.learn.base import TrainingData
from coreflab.learn.leftlink.baselines import gold_representatives


def random_data(seed, docs=3, max_items=7, n_bits=6, valued=True):
    rng = np.random.default_rng(seed)
    offsets, clusters, arc_off, ante, feat_off, feats, vals = [0], [], [0], [], [0], [], []
    for _ in range(docs):
        n = int(rng.integers(1, max_items + 1))
        clusters += list(rng.integers(0, 3, size=n))
        offsets.append(offsets[-1] + n)
        for i in range(n):
            for a in [-1] + list(range(i)):
                ante.append(a)
                k = int(rng.integers(1, 4))
                feats += list(rng.integers(0, 1 << n_bits, size=k))
                vals += list(rng.normal(size=k) if valued else np.ones(k))
                feat_off.append(len(feats))
            arc_off.append(len(ante))
    store = SimpleNamespace(
        n_bits=n_bits,
        doc_mention_offsets=np.array(offsets),
        m_arc_offsets=np.array(arc_off),
        arc_ante=np.array(ante, np.int32),
        arc_feat_offsets=np.array(feat_off),
        arc_feats=np.array(feats, np.int32),
        arc_vals=np.array(vals),
    )
    corpus = SimpleNamespace(m_cluster=np.array(clusters, np.int32), arrays={"doc_mention_offsets": np.array(offsets)})
    return TrainingData(corpus, store)


def separable(docs_clusters, seed=0, n_bits=5):
    """Feature 1 fires on same-cluster links, 2 on others; 3..8 are noise."""
    rng = np.random.default_rng(seed)
    offsets, clusters, ante, arc_off, foff, feats = [0], [], [], [0], [0], []
    for cl in docs_clusters:
        clusters += cl
        offsets.append(len(clusters))
        for i in range(len(cl)):
            for a in [-1] + list(range(i)):
                ante.append(a)
                if a >= 0:
                    feats.append(1 if cl[a] == cl[i] else 2)
                feats += list(rng.integers(3, 9, size=2))
                foff.append(len(feats))
            arc_off.append(len(ante))
    store = SimpleNamespace(
        n_bits=n_bits,
        doc_mention_offsets=np.array(offsets),
        m_arc_offsets=np.array(arc_off),
        arc_ante=np.array(ante, np.int32),
        arc_feat_offsets=np.array(foff),
        arc_feats=np.array(feats, np.int32),
    )
    corpus = SimpleNamespace(m_cluster=np.array(clusters, np.int32), arrays={"doc_mention_offsets": np.array(offsets)})
    return TrainingData(corpus, store)


def local_gold(data):
    return gold_representatives(np.asarray(data.store.doc_mention_offsets), np.asarray(data.corpus.m_cluster, np.int64))
