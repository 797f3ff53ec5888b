"""features/shared_rows.py: a shared-row store lists every arc's ids (expanding it gives the flat
store's, grouped by rows), its rows are shared within a document, key collisions do not merge rows,
and every read (scores, cached or not, and updates) sees what the flat store gives."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coreflab.decode.arcs import arc_arrays, arc_scores, score_arcs
from coreflab.decode.featvec import Acc, add_arc_features
from coreflab.features import shared_rows
from coreflab.features.extract import extract_tagged_arc_store
from coreflab.features.featureset import load_featureset
from coreflab.features.random_corpus import random_compiled_corpus
from coreflab.features.shared_rows import CLASS_NAMES, arc_dot, expand, share_rows, template_class
from coreflab.features.store import ArcStore


@pytest.mark.parametrize(
    "entry, part",
    [
        ("bias", "own"),  # root arcs only
        ("ana_head+ante_head", "own"),  # words of both mentions
        ("ana_fine_type+sent_paths", "own"),  # the tree path between them
        ("ante_head", "antecedent"),
        ("ante_head+ana_fine_type+ante_fine_type", "antecedent"),
        ("ana_pronoun+ante_head", "own"),  # the anaphor's pronoun form would multiply the antecedent's rows
        ("ana_pronoun+ante_gender", "anaphor"),
        ("ana_head+ante_type", "anaphor"),
        ("sent_dist+ana_fine_type+ante_fine_type", "relation"),
        ("match_kind+ana_head", "own"),
    ],
)
def test_template_classes(entry, part):
    assert CLASS_NAMES[template_class(entry)] == part


def _pair(n_docs=10, seed=3, featureset="local_fine", window=10):
    corpus = random_compiled_corpus(n_docs, mean_mentions=30, seed=seed)
    flat, tags = extract_tagged_arc_store(corpus, load_featureset(featureset), n_bits=18, window=window)
    return corpus, flat, tags, share_rows(flat, tags)


@pytest.fixture(scope="module")
def pair():
    return _pair()


def _sorted_ids(store, a):
    return sorted(int(f) for f in store.arc_features(a))


def test_every_arc_reads_the_flat_stores_ids(pair):
    _, flat, tags, shared = pair
    shared.validate()
    back = expand(shared).validate()
    assert back.n_rows == 0 and np.array_equal(np.diff(back.arc_feat_offsets), np.diff(flat.arc_feat_offsets))
    for a in range(flat.n_arcs):
        assert sorted(back.arc_features(a).tolist()) == _sorted_ids(flat, a)
    # grouped: an arc reads its rows' ids (antecedent, anaphor, relation) and then its own, each in flat order
    cls = np.array([template_class(t) for t in flat.templates])[tags]
    for a in range(0, flat.n_arcs, 7):
        seg = slice(flat.arc_feat_offsets[a], flat.arc_feat_offsets[a + 1])
        order = [c for c in (1, 2, 3, 0)]
        want = [int(f) for c in order for f, k in zip(flat.arc_feats[seg], cls[seg]) if k == c]
        assert back.arc_features(a).tolist() == want


def test_rows_are_shared_within_a_document_and_cost_fewer_bytes(pair):
    _, flat, _, shared = pair
    n = shared.n_arcs
    refs = shared.arc_feats[: shared.arc_feat_offsets[n]]
    refs = -1 - refs[refs < 0].astype(np.int64)
    assert shared.meta["shared_rows"] == shared.n_rows > 0
    assert np.unique(refs).shape[0] == shared.n_rows < refs.shape[0]  # every row read, most by several arcs
    assert shared.nbytes < flat.nbytes  # real corpora: about half (bench/arc_store_shared_rows.py)
    # a document's rows are contiguous and in document order (what score_arcs caches)
    doc_of_arc = np.repeat(
        np.repeat(np.arange(shared.n_docs), np.diff(shared.doc_mention_offsets)), np.diff(shared.m_arc_offsets)
    )
    first_row_doc = {}
    for a in range(n):
        for f in shared.arc_feats[shared.arc_feat_offsets[a] : shared.arc_feat_offsets[a + 1]]:
            if f < 0:
                r = -1 - int(f)
                assert first_row_doc.setdefault(r, doc_of_arc[a]) == doc_of_arc[a]
    docs = [first_row_doc[r] for r in sorted(first_row_doc)]
    assert docs == sorted(docs)


def test_colliding_keys_do_not_merge_rows(monkeypatch):
    corpus = random_compiled_corpus(4, mean_mentions=20, seed=5)
    flat, tags = extract_tagged_arc_store(corpus, load_featureset("local_fine"), n_bits=16, window=8)
    real = shared_rows._class_keys

    def every_key_zero(fo, feats, cls, keys, lens):  # a worst case of hash collisions
        real(fo, feats, cls, keys, lens)
        keys[:] = 0

    monkeypatch.setattr(shared_rows, "_class_keys", every_key_zero)
    collided = share_rows(flat, tags)
    back = expand(collided)
    for a in range(flat.n_arcs):
        assert sorted(back.arc_features(a).tolist()) == _sorted_ids(flat, a)


def test_scores_agree_with_the_flat_store_cached_or_not(pair):
    _, flat, _, shared = pair
    w = np.random.default_rng(0).standard_normal(1 << flat.n_bits)
    want = arc_scores(w, flat)
    got = arc_scores(w, shared)  # one range: the rows cached
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-9)
    one_by_one = np.array([arc_dot(w, shared.arc_feat_offsets, shared.arc_feats, a) for a in range(shared.n_arcs)])
    assert np.array_equal(one_by_one, got)  # the same operations: one score whichever kernel reads it
    per_doc = np.empty(shared.n_arcs)
    for d in range(shared.n_docs):
        lo, hi = (
            shared.m_arc_offsets[shared.doc_mention_offsets[d]],
            shared.m_arc_offsets[shared.doc_mention_offsets[d + 1]],
        )
        score_arcs(w, shared.arc_feat_offsets, shared.arc_feats, lo, hi, per_doc[lo:])
    assert np.array_equal(per_doc, got)


def test_updates_add_the_same_vector(pair):
    _, flat, _, shared = pair
    size = 1 << flat.n_bits

    def arcs_of(store):
        return arc_arrays(store, np.ones(store.arc_ante.shape[0], np.int8))

    def accumulate(store, arcs):
        acc, mark, touched = np.zeros(size), np.zeros(size, np.int8), np.zeros(size, np.int64)
        nt = 0
        for a, sign in arcs:
            nt = add_arc_features(a, sign, arcs_of(store), Acc(acc, mark, touched), nt)
        return acc, set(touched[:nt].tolist())

    arcs = [(a, 1.0 if a % 3 else -2.0) for a in range(0, flat.n_arcs, 5)]
    (acc_f, t_f), (acc_s, t_s) = accumulate(flat, arcs), accumulate(shared, arcs)
    assert t_f == t_s
    np.testing.assert_allclose(acc_s, acc_f, atol=1e-12)


def test_store_round_trips_through_a_file_and_validation_rejects_a_bad_reference(pair, tmp_path):
    _, _, _, shared = pair
    shared.save(tmp_path / "s.npz")
    back = ArcStore.load(tmp_path / "s.npz").validate()
    assert back.n_rows == shared.n_rows and np.array_equal(back.arc_feats, shared.arc_feats)
    bad = ArcStore.load(tmp_path / "s.npz")
    k = int(np.flatnonzero(bad.arc_feats < 0)[0])
    bad.arc_feats[k] = -1  # refers to arc 0, not to a row
    with pytest.raises(ValueError, match="not a shared row"):
        bad.validate()


def test_sharing_twice_is_refused(pair):
    _, _, tags, shared = pair
    with pytest.raises(ValueError, match="already"):
        share_rows(shared, tags)


@settings(max_examples=15, deadline=None)
@given(
    n_docs=st.integers(1, 5),
    seed=st.integers(0, 10_000),
    window=st.sampled_from([None, 3, 12]),
    featureset=st.sampled_from(["local", "local_fine"]),
)
def test_expansion_is_the_flat_store_on_random_corpora(n_docs, seed, window, featureset):
    corpus = random_compiled_corpus(n_docs, mean_mentions=12, seed=seed)
    flat, tags = extract_tagged_arc_store(corpus, load_featureset(featureset), n_bits=14, window=window)
    shared = share_rows(flat, tags).validate()
    back = expand(shared)
    assert back.n_entries == flat.n_entries
    for a in range(flat.n_arcs):
        assert sorted(back.arc_features(a).tolist()) == _sorted_ids(flat, a)
    w = np.random.default_rng(seed).standard_normal(1 << flat.n_bits)
    np.testing.assert_allclose(arc_scores(w, shared), arc_scores(w, flat), atol=1e-9)


_ARRAY_NAMES = ("doc_mention_offsets", "m_arc_offsets", "arc_ante", "arc_feat_offsets", "arc_feats")


@settings(max_examples=15, deadline=None)
@given(
    n_docs=st.integers(1, 9),
    seed=st.integers(0, 50),
    window=st.sampled_from([None, 4]),
    block_arcs=st.sampled_from([1, 37, 400, 10**9]),
)
def test_blockwise_extraction_is_the_one_pass_store_array_for_array(n_docs, seed, window, block_arcs):
    """`extract_shared_arc_store` builds blocks of documents and joins them: the same arrays, rows,
    metadata and flat byte count as sharing the rows of the whole flat store at once."""
    from coreflab.features.extract import extract_shared_arc_store

    corpus = random_compiled_corpus(n_docs, mean_mentions=12, seed=seed)
    flat, tags = extract_tagged_arc_store(corpus, "local_fine", n_bits=18, window=window)
    whole = share_rows(flat, tags)
    blocks, flat_bytes = extract_shared_arc_store(corpus, "local_fine", n_bits=18, window=window, block_arcs=block_arcs)
    for name in _ARRAY_NAMES:
        np.testing.assert_array_equal(getattr(blocks, name), getattr(whole, name), err_msg=name)
        assert getattr(blocks, name).dtype == getattr(whole, name).dtype, name
    assert (blocks.meta, blocks.templates, blocks.window, blocks.n_rows) == (
        whole.meta,
        whole.templates,
        whole.window,
        whole.n_rows,
    )
    assert flat_bytes == flat.nbytes


def test_arcs_in_order_refuses_a_list_that_is_not_every_arc_once():
    import pytest

    from coreflab.features.shared_rows import arcs_in_order

    offsets = np.array([0, 2, 3, 5, 7], np.int64)  # three arcs, then one row
    feats = np.array([-4, 1, 2, -4, 3, 5, 6], np.int32)
    off, out = arcs_in_order(offsets, feats, [2, 0, 1])
    assert off.tolist() == [0, 2, 4, 5, 7] and out.tolist() == [-4, 3, -4, 1, 2, 5, 6]
    for bad in ([0, 0, 1], [0, 1, 3]):  # an arc twice; a row in place of an arc
        with pytest.raises(ValueError, match="every arc of the store once"):
            arcs_in_order(offsets, feats, bad)
