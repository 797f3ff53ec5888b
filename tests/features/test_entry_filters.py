"""The entry filters give what the numpy expressions they replace give: a hand-computed case, then
random CSR layouts (empty arcs, empty stores, arcs in any order) against those expressions."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from coreflab.features.entry_filters import features_of_arcs, features_with_ids, relabel_in_place


def _csr(counts, n_ids, seed):
    counts = np.asarray(counts, dtype=np.int64)
    offsets = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    feats = np.random.default_rng(seed).integers(0, n_ids, int(offsets[-1])).astype(np.int32)
    return offsets, feats


def test_by_hand():
    # three arcs: [3, 1, 3], [], [2, 0]
    offsets = np.array([0, 3, 3, 5], dtype=np.int64)
    feats = np.array([3, 1, 3, 2, 0], dtype=np.int32)
    keep = np.array([0, 1, 0, 1], dtype=np.uint8)  # ids 1 and 3
    off, out = features_with_ids(offsets, feats, keep)
    assert off.tolist() == [0, 3, 3, 3] and out.tolist() == [3, 1, 3] and out.dtype == np.int32
    off, out = features_of_arcs(offsets, feats, [2, 1, 0])
    assert off.tolist() == [0, 2, 2, 5] and out.tolist() == [2, 0, 3, 1, 3]
    relabel_in_place(out, np.array([7, 8, 9, 5], dtype=np.int32))  # id -> column
    assert out.tolist() == [9, 7, 5, 8, 5] and out.dtype == np.int32


@settings(max_examples=60, deadline=None)
@given(
    counts=st.lists(st.integers(0, 6), max_size=30),
    n_ids=st.integers(1, 40),
    seed=st.integers(0, 10_000),
    data=st.data(),
)
def test_features_with_ids_is_the_mask_and_cumsum(counts, n_ids, seed, data):
    offsets, feats = _csr(counts, n_ids, seed)
    keep_ids = data.draw(st.lists(st.integers(0, n_ids - 1), unique=True))
    keep = np.zeros(n_ids, dtype=np.uint8)
    keep[keep_ids] = 1
    mask = keep[feats].astype(bool)
    expected_off = np.concatenate([[0], np.cumsum(mask)])[offsets]
    off, out = features_with_ids(offsets, feats, keep)
    assert np.array_equal(off, expected_off) and off.dtype == np.int64
    assert np.array_equal(out, feats[mask]) and out.dtype == feats.dtype


@settings(max_examples=60, deadline=None)
@given(
    counts=st.lists(st.integers(0, 6), min_size=1, max_size=30),
    seed=st.integers(0, 10_000),
    data=st.data(),
)
def test_features_of_arcs_are_the_arcs_rows_in_order(counts, seed, data):
    offsets, feats = _csr(counts, 50, seed)
    arcs = data.draw(st.lists(st.integers(0, len(counts) - 1), max_size=40))
    off, out = features_of_arcs(offsets, feats, arcs)
    rows = [feats[offsets[a] : offsets[a + 1]] for a in arcs]
    assert np.array_equal(np.diff(off), [len(r) for r in rows]) and off[0] == 0
    assert np.array_equal(out, np.concatenate(rows) if rows else np.empty(0, np.int32))
