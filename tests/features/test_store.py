"""ArcStore: save/load round trip, validation, unreadable files."""

import numpy as np
import pytest

from coreflab.errors import UserError
from coreflab.features import ArcStore, extract_arc_store

from .feature_builders import EXAMPLE, build_corpus


def test_round_trip(tmp_path):
    c = build_corpus([EXAMPLE], missing=("speaker",))
    s = extract_arc_store(c, "local", n_bits=20, window=3)
    path = tmp_path / "sub" / "arcs.npz"
    s.save(path)
    assert path.exists() and not list(path.parent.glob(".*tmp*"))
    t = ArcStore.load(path).validate()
    for k in ("doc_mention_offsets", "m_arc_offsets", "arc_ante", "arc_feat_offsets", "arc_feats"):
        assert np.array_equal(getattr(s, k), getattr(t, k)) and getattr(s, k).dtype == getattr(t, k).dtype
    assert (t.n_bits, t.window, t.templates, t.unavailable, t.meta) == (20, 3, s.templates, s.unavailable, s.meta)
    assert "same_speaker" in t.unavailable
    assert t.nbytes == 12 * t.n_arcs + 4 * t.n_entries + 8 * (t.n_mentions + 1) + 8 * (t.n_docs + 1) + 8


def test_hand_built_store_and_validation():
    s = ArcStore(
        n_bits=4,
        doc_mention_offsets=np.array([0, 2]),
        m_arc_offsets=np.array([0, 1, 3]),
        arc_ante=np.array([-1, -1, 0], np.int32),
        arc_feat_offsets=np.array([0, 1, 2, 4]),
        arc_feats=np.array([3, 1, 15, 0], np.int32),
    )
    s.validate()
    assert (s.n_docs, s.n_mentions, s.n_arcs, s.n_entries) == (1, 2, 3, 4)
    assert s.arc_features(2).tolist() == [15, 0] and s.mention_arcs(1) == (1, 3)
    s.arc_feats[0] = 16
    with pytest.raises(ValueError, match="outside"):
        s.validate()
    s.arc_feats[0] = 3
    s.arc_ante[1] = 0
    with pytest.raises(ValueError, match="root arc"):
        s.validate()


def test_load_errors(tmp_path):
    bad = tmp_path / "x.npz"
    bad.write_text("not a zip")
    with pytest.raises(UserError, match="x.npz"):
        ArcStore.load(bad)
    np.savez(tmp_path / "y.npz", a=np.zeros(2))
    with pytest.raises(UserError, match="not an arc store"):
        ArcStore.load(tmp_path / "y.npz")
