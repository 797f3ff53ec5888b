"""Order control: shuffled items keep every pair's features and the gold clustering."""

import numpy as np

from coreflab.learn.order_control import shuffled_data
from tests.learn.test_leftlink_baselines import separable


def _pair_features(data, rows_map=None):
    s = data.store
    off, doc_off = s.m_arc_offsets, np.asarray(s.doc_mention_offsets)
    out = {}
    for d in range(len(doc_off) - 1):
        lo = doc_off[d]
        for i in range(lo, doc_off[d + 1]):
            for a in range(off[i], off[i + 1]):
                j = s.arc_ante[a]
                feats = tuple(sorted(s.arc_feats[s.arc_feat_offsets[a]:s.arc_feat_offsets[a + 1]].tolist()))
                oi = i if rows_map is None else rows_map[i]
                oj = None if j < 0 else (lo + j if rows_map is None else rows_map[lo + j])
                out[(oi, oj) if oj is None or oj < oi else (oj, oi)] = feats
    return out


def test_shuffled_store_keeps_pair_features_and_clusters():
    data = separable([[0, 1, 0, 2, 1], [0, 0, 1, 1, 2, 2, 0]], seed=4)
    shuffled, new_to_old = shuffled_data(data, seed=9)
    assert sorted(new_to_old.tolist()) == list(range(12)) and new_to_old.tolist() != list(range(12))
    assert (shuffled.corpus.m_cluster == np.asarray(data.corpus.m_cluster)[new_to_old]).all()
    assert _pair_features(shuffled, new_to_old) == _pair_features(data)
