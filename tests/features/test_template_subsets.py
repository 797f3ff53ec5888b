"""Stores of template subsets cut from a pool store are the stores extraction builds, array for
array: any subset, in any order, with templates a corpus lacks, with and without a window."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coreflab.features import extract_arc_store, load_featureset
from coreflab.features.extract import extract_tagged_arc_store
from coreflab.features.random_corpus import random_compiled_corpus
from coreflab.features.template_subsets import TemplatePool
from coreflab.features.templates import REGISTRY

ALL = sorted(REGISTRY)


def _same_store(a, b):
    for name in ("doc_mention_offsets", "m_arc_offsets", "arc_ante", "arc_feat_offsets", "arc_feats"):
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype == y.dtype and np.array_equal(x, y), name
    assert (a.n_bits, a.templates, a.unavailable, a.window, a.meta) == (
        b.n_bits,
        b.templates,
        b.unavailable,
        b.window,
        b.meta,
    )


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    window=st.sampled_from([None, 2, 5]),
    missing=st.lists(st.sampled_from(["pos", "parse", "speaker", "ne"]), unique=True, max_size=2),
    data=st.data(),
)
def test_a_subset_cut_from_the_pool_is_the_extracted_store(seed, window, missing, data):
    corpus = random_compiled_corpus(
        3, mean_mentions=9, sigma=0.6, max_mentions=16, n_words=4, missing=missing, seed=seed
    )
    singles = data.draw(st.lists(st.sampled_from(ALL), unique=True, min_size=2, max_size=14))
    pairs = data.draw(st.lists(st.tuples(st.sampled_from(ALL), st.sampled_from(ALL)), max_size=5))
    pool = list(dict.fromkeys(singles + [f"{a}+{b}" for a, b in pairs]))
    tp = TemplatePool(corpus, pool, n_bits=16, window=window)
    # selection's sets: the pool minus one template, a subset plus one appended out of pool order, any shuffle
    subset = data.draw(st.lists(st.sampled_from(pool), unique=True, min_size=1, max_size=len(pool)))
    for entries in (pool[1:], subset, [t for t in pool if t not in subset[:1]] + subset[:1], subset[::-1]):
        _same_store(tp.subset_store(entries), extract_arc_store(corpus, entries, n_bits=16, window=window))


def test_tags_name_the_template_of_every_feature():
    corpus = random_compiled_corpus(2, mean_mentions=8, n_words=3, seed=4)
    store, tags = extract_tagged_arc_store(corpus, ["bias", "ana_type", "exact_match"], n_bits=18)
    # by hand: each template alone gives the ids the pool store lists under its tag
    for t, name in enumerate(store.templates):
        alone = extract_arc_store(corpus, [name], n_bits=18)
        assert store.arc_feats[tags == t].tolist() == alone.arc_feats.tolist()
    assert extract_tagged_arc_store(corpus, ["bias"], n_bits=18)[1].shape == (
        corpus.n_mentions,
    )  # bias: every root arc


def test_the_local_set_and_repeats():
    corpus = random_compiled_corpus(2, mean_mentions=12, n_words=5, seed=11)
    local = load_featureset("local").local
    tp = TemplatePool(corpus, local, n_bits=20, window=4)
    for drop in (0, len(local) // 2, len(local) - 1):
        entries = local[:drop] + local[drop + 1 :]
        _same_store(tp.subset_store(entries), extract_arc_store(corpus, entries, n_bits=20, window=4))
    assert not tp.covers(["bias", "bias"]) and not tp.covers(["no_such_template"])
    with pytest.raises(ValueError):
        tp.subset_store(["bias", "bias"])


def test_the_filter_for_sets_in_pool_order_is_the_sorting_cut():
    """Sets listed in pool order (selection's remove steps) take the filter; it gives the sorting cut's arrays."""
    from coreflab.features.entry_filters import count_kept, fill_kept
    from coreflab.features.template_subsets import _subset_entries

    corpus = random_compiled_corpus(3, mean_mentions=12, n_words=5, seed=19)
    local = load_featureset("local").local
    tp = TemplatePool(corpus, local, n_bits=20, window=6)
    for drop in ([0], [3, 7], list(range(1, len(local), 2)), [len(local) - 1]):
        rank = np.full(len(tp.store.templates), -1, dtype=np.int32)
        kept = [t for t in range(len(tp.store.templates)) if t not in drop]
        rank[kept] = np.arange(len(kept), dtype=np.int32)
        keep = (rank >= 0).astype(np.uint8)
        off = np.empty_like(tp.store.arc_feat_offsets)
        m = count_kept(tp.store.arc_feat_offsets, tp.tags, keep, off)
        fast, slow = np.full(m + 1, -7, dtype=np.int32), np.full(m + 1, -7, dtype=np.int32)
        fill_kept(tp.store.arc_feat_offsets, tp.store.arc_feats, tp.tags, keep, fast)
        _subset_entries(tp.store.arc_feat_offsets, tp.store.arc_feats, tp.tags, rank, tp.max_len, off, slow)
        assert np.array_equal(fast[:m], slow[:m]) and (slow[:m] != -7).all()
        assert off[-1] == m and m == int(keep[tp.tags].sum()) < tp.store.arc_feats.shape[0]  # something was cut


def test_scratch_cuts_are_the_extracted_stores_and_reuse_one_buffer():
    """A scratch cut writes into the pool's one buffer (no fresh array per cut) and is the same store;
    the buffer is not pickled (selection's workers make their own)."""
    import pickle

    corpus = random_compiled_corpus(3, mean_mentions=12, n_words=5, seed=23)
    local = load_featureset("local").local
    tp = TemplatePool(corpus, local, n_bits=20, window=6)
    bases = set()
    for entries in (local[1:], local[::-1], local[:5], local):
        store = tp.subset_store(entries, scratch=True)
        _same_store(store, extract_arc_store(corpus, entries, n_bits=20, window=6))
        bases.add(id(store.arc_feats.base))
    assert len(bases) == 1 and tp._scratch.shape[0] == tp.store.arc_feats.shape[0] + 1
    copy = pickle.loads(pickle.dumps(tp))
    assert getattr(copy, "_scratch", None) is None
    _same_store(copy.subset_store(local[2:], scratch=True), tp.subset_store(local[2:]))


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 40), window=st.sampled_from([None, 3]), block_arcs=st.sampled_from([1, 50, 10**9]))
def test_tagged_store_bytes_counts_what_the_pool_holds(seed, window, block_arcs):
    """The counting pass alone gives the bytes of the pool's store and tags, to the byte."""
    from coreflab.features.extract import tagged_store_bytes

    corpus = random_compiled_corpus(4, mean_mentions=10, seed=seed)
    pool = load_featureset("local_fine").local
    expected = TemplatePool(corpus, pool, n_bits=16, window=window).nbytes
    assert tagged_store_bytes(corpus, pool, n_bits=16, window=window, block_arcs=block_arcs) == expected
