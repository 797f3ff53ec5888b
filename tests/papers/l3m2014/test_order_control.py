"""Order control: shuffled items keep every pair's features and the gold clustering."""

import numpy as np

from coreflab.papers.l3m2014.order_control import shuffled_data
from tests.learn.leftlink.leftlink_data import separable


def _pair_features(data, rows_map=None):
    s = data.store
    off, doc_off = s.m_arc_offsets, np.asarray(s.doc_mention_offsets)
    out = {}
    for d in range(len(doc_off) - 1):
        lo = doc_off[d]
        for i in range(lo, doc_off[d + 1]):
            for a in range(off[i], off[i + 1]):
                j = s.arc_ante[a]
                feats = tuple(sorted(s.arc_feats[s.arc_feat_offsets[a] : s.arc_feat_offsets[a + 1]].tolist()))
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


def _windowed(data, window):
    """The same data as a store with at most `window` candidates per mention (the latest ones)."""
    from types import SimpleNamespace

    from coreflab.learn.base import TrainingData

    s = data.store
    off, ante, foff = np.asarray(s.m_arc_offsets), np.asarray(s.arc_ante), np.asarray(s.arc_feat_offsets)
    keep_arcs = [
        a for i in range(off.size - 1) for a in range(off[i], off[i + 1]) if ante[a] < 0 or a >= off[i + 1] - window
    ]
    lengths = foff[np.array(keep_arcs) + 1] - foff[keep_arcs]
    entries = np.concatenate([np.arange(foff[a], foff[a + 1]) for a in keep_arcs])
    counts = [sum(1 for a in keep_arcs if off[i] <= a < off[i + 1]) for i in range(off.size - 1)]
    store = SimpleNamespace(
        n_bits=s.n_bits,
        doc_mention_offsets=s.doc_mention_offsets,
        m_arc_offsets=np.concatenate([[0], np.cumsum(counts)]),
        arc_ante=ante[keep_arcs],
        arc_feat_offsets=np.concatenate([[0], np.cumsum(lengths)]),
        arc_feats=np.asarray(s.arc_feats)[entries],
        arc_vals=None if getattr(s, "arc_vals", None) is None else np.asarray(s.arc_vals)[entries],
    )
    return TrainingData(data.corpus, store)


def test_windowed_store_shuffles_over_the_same_candidate_pairs():
    import pytest

    from coreflab.errors import UserError

    data = separable([[0, 1, 0, 2, 1, 1, 0], [0, 0, 1, 1, 2, 2, 0, 1]], seed=4)
    window = 2
    text = _windowed(data, window)
    shuffled, new_to_old = shuffled_data(text, seed=9)
    pairs = _pair_features(shuffled, new_to_old)
    assert pairs == _pair_features(text)  # the same pairs, each with its text-order features
    doc_of = np.repeat([0, 1], [7, 8])
    assert {p for p in pairs if p[1] is not None} == {
        (i, j) for i in range(15) for j in range(i) if doc_of[i] == doc_of[j] and i - j <= window
    }
    wide = shuffled_data(_windowed(data, 100), seed=9)[0]  # a window past every document: the full store
    full = shuffled_data(data, seed=9)[0]
    assert np.array_equal(wide.store.arc_feats, full.store.arc_feats)
    text.store.arc_ante = text.store.arc_ante[::-1].copy()  # not a layout coreflab writes
    with pytest.raises(UserError, match="order control needs"):
        shuffled_data(text, seed=1)


def test_a_shared_row_store_shuffles_to_its_expanded_stores_shuffle_without_expanding():
    from coreflab.corpus.compile import compile_documents
    from coreflab.corpus.synthetic.generator import generate_corpus
    from coreflab.features.extract import extract_tagged_arc_store
    from coreflab.features.shared_rows import expand, share_rows
    from coreflab.learn.base import TrainingData

    corpus = compile_documents(generate_corpus("tiny", seed=2)["train"][:4], "synth", "train")
    features = ["bias", "ana_type", "ante_type+ana_type", "ante_head+ana_type", "ana_head+ante_type", "sent_dist"]
    for window in (None, 3):
        flat, tags = extract_tagged_arc_store(corpus, features, n_bits=12, window=window)
        shared = share_rows(flat, tags)
        assert shared.n_rows > 0
        from_flat, order_flat = shuffled_data(TrainingData(corpus, expand(shared)), seed=3)  # the path it replaced
        from_shared, order_shared = shuffled_data(TrainingData(corpus, shared), seed=3)
        assert np.array_equal(order_flat, order_shared)
        s = from_shared.store
        assert s.n_rows == shared.n_rows and s.arc_feats.size == shared.arc_feats.size  # rows kept, not expanded
        back = expand(s)
        for name in ("m_arc_offsets", "arc_ante", "arc_feat_offsets", "arc_feats"):
            assert np.array_equal(getattr(back, name), getattr(from_flat.store, name)), name
