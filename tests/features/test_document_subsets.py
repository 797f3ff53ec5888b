"""A compiled split and its arc store cut to some documents (`coreflab.features.document_subsets`): the
same arrays as compiling those documents alone, the same arcs with the same features as the whole
store's, from a flat store and from a shared-row one alike."""

import numpy as np
import pytest

from coreflab.corpus.compile import compile_documents
from coreflab.corpus.synthetic.generator import generate_corpus
from coreflab.features.document_subsets import (
    corpus_subset,
    document_subset,
    ranges,
    sample_documents,
    subsample_docs,
)
from coreflab.features.extract import extract_tagged_arc_store
from coreflab.features.shared_rows import expand, share_rows

FEATURES = ["bias", "ana_type", "ante_type+ana_type", "ante_head+ana_type", "sent_dist", "exact_match"]
DOCS = [1, 4, 5, 9]


@pytest.fixture(scope="module")
def split():
    docs = generate_corpus("tiny", seed=3)["train"]
    corpus = compile_documents(docs, "synth", "train", mentions="predicted")  # nested mentions: m_embedded rows
    flat, tags = extract_tagged_arc_store(corpus, FEATURES, n_bits=14)
    return docs, corpus, flat, share_rows(flat, tags)


def _strings(corpus, key):
    return [corpus.string(int(i)) for i in corpus.arrays[key]]


def test_the_cut_corpus_is_the_corpus_of_those_documents(split):
    docs, corpus, _, _ = split
    got = corpus_subset(corpus, DOCS)
    want = compile_documents([docs[d] for d in DOCS], "synth", "train", mentions="predicted")
    assert (got.arrays["m_embedded"] >= 0).any()
    assert got.doc_ids == want.doc_ids and got.n_mentions == want.n_mentions
    assert set(got.arrays) == set(corpus.arrays)
    # vocabulary ids (a vocabulary of the documents compiled alone numbers them otherwise): by string
    ids = {"doc_genre", "tok_word", "tok_lower", "tok_pos", "tok_speaker", "m_ne", "m_pronoun", "m_category"}
    ids |= {"m_head_str", "m_first_str", "m_last_str", "m_full_str", "m_subcategory", "m_path_root", "m_path_s"}
    for key in corpus.arrays:
        if key in ids:
            assert _strings(got, key) == _strings(want, key), key
        else:
            np.testing.assert_array_equal(got.arrays[key], want.arrays[key], err_msg=key)
    assert (got.response_singletons, got.mention_mode, got.missing) == (
        corpus.response_singletons,
        corpus.mention_mode,
        corpus.missing,
    )


def test_the_cut_store_has_the_arcs_of_those_documents_flat_or_shared(split):
    _, corpus, flat, shared = split
    offs, m_arc = flat.doc_mention_offsets, flat.m_arc_offsets
    want_arcs = np.concatenate([np.arange(m_arc[offs[d]], m_arc[offs[d + 1]]) for d in DOCS])
    for store in (flat, shared):
        sub_corpus, sub = document_subset(corpus, store, DOCS)
        sub.validate()
        assert sub.n_rows == 0 and sub.n_docs == len(DOCS) and sub.n_arcs == want_arcs.size
        np.testing.assert_array_equal(sub.doc_mention_offsets, sub_corpus.doc_mention_offsets)
        np.testing.assert_array_equal(sub.arc_ante, flat.arc_ante[want_arcs])
        for a, whole in enumerate(want_arcs):
            np.testing.assert_array_equal(np.sort(sub.arc_features(a)), np.sort(flat.arc_features(int(whole))))
        assert "shared_rows" not in sub.meta


def test_samples_are_seeded_and_the_whole_split_is_not_cut(split):
    _, corpus, flat, shared = split
    a, b = sample_documents(12, 5, seed=7), sample_documents(12, 5, seed=7)
    np.testing.assert_array_equal(a, b)
    assert list(a) == sorted(set(a.tolist())) and len(a) == 5
    assert not np.array_equal(a, sample_documents(12, 5, seed=8))
    np.testing.assert_array_equal(sample_documents(12, 20), np.arange(12))
    same_corpus, whole = subsample_docs(corpus, shared, 99)
    assert same_corpus is corpus and whole.n_rows == 0 and whole.n_arcs == expand(shared).n_arcs
    np.testing.assert_array_equal(ranges([3, 10], [2, 3]), [3, 4, 10, 11, 12])
