"""The arc store: window semantics, root arcs, and equality with a pure-Python reference."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coreflab.errors import UserError
from coreflab.features import arc_offsets, extract_arc_store, load_featureset
from coreflab.features.random_corpus import random_compiled_corpus
from coreflab.features.templates import REGISTRY

from .feature_builders import EXAMPLE, build_corpus, chain_doc
from .feature_reference import reference_store

ALL = sorted(REGISTRY)


def test_arc_counts_and_window():
    c = build_corpus([chain_doc(6), chain_doc(3)])
    s = extract_arc_store(c, ["bias"])
    # mention q of a document has 1 + q arcs: 1..6 and 1..3
    assert s.m_arc_offsets.tolist() == np.cumsum([0, 1, 2, 3, 4, 5, 6, 1, 2, 3]).tolist()
    assert s.n_arcs == 21 + 6
    assert s.arc_ante[s.m_arc_offsets[5] : s.m_arc_offsets[6]].tolist() == [-1, 0, 1, 2, 3, 4]
    assert s.arc_ante[s.m_arc_offsets[8] : s.m_arc_offsets[9]].tolist() == [-1, 0, 1]  # within-doc index
    w = extract_arc_store(c, ["bias"], window=2)
    assert np.diff(w.m_arc_offsets).tolist() == [1, 2, 3, 3, 3, 3, 1, 2, 3]
    assert w.arc_ante[w.m_arc_offsets[5] : w.m_arc_offsets[6]].tolist() == [-1, 3, 4]
    assert arc_offsets(c.doc_mention_offsets, 2).tolist() == w.m_arc_offsets.tolist()
    with pytest.raises(UserError):
        extract_arc_store(c, ["bias"], window=0)
    with pytest.raises(UserError):
        extract_arc_store(c, ["bias"], n_bits=40)


def test_root_arcs_always_have_features_with_local_set():
    c = build_corpus([EXAMPLE])
    s = extract_arc_store(c, "local", n_bits=18)
    s.validate()
    roots = s.m_arc_offsets[:-1]
    n_root = s.arc_feat_offsets[roots + 1] - s.arc_feat_offsets[roots]
    assert (n_root > 0).all()
    # bias fires on root arcs only, one per mention
    b = extract_arc_store(c, ["bias"], n_bits=18)
    assert b.n_entries == c.n_mentions
    assert (b.arc_feat_offsets[roots + 1] - b.arc_feat_offsets[roots] == 1).all()


def _compare(corpus, entries, n_bits, window, reach=True):
    store = extract_arc_store(corpus, entries, n_bits=n_bits, window=window, reach=reach)
    store.validate()
    m_off, ante, feats = reference_store(corpus, store.templates, n_bits, window, reach)
    assert store.m_arc_offsets.tolist() == m_off
    assert store.arc_ante.tolist() == ante
    got = [store.arc_features(a).tolist() for a in range(store.n_arcs)]
    assert got == feats


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    n_docs=st.integers(1, 3),
    window=st.sampled_from([None, 1, 3]),
    missing=st.lists(st.sampled_from(["pos", "parse", "speaker", "ne", "genre"]), unique=True, max_size=2),
    n_bits=st.integers(8, 24),
    data=st.data(),
)
def test_kernel_equals_python_reference(seed, n_docs, window, missing, n_bits, data):
    corpus = random_compiled_corpus(
        n_docs, mean_mentions=7, sigma=0.6, max_mentions=14, n_words=4, missing=missing, seed=seed
    )
    singles = data.draw(st.lists(st.sampled_from(ALL), unique=True, min_size=1, max_size=12))
    pairs = data.draw(st.lists(st.tuples(st.sampled_from(ALL), st.sampled_from(ALL)), max_size=6))
    triples = data.draw(st.lists(st.tuples(*[st.sampled_from(ALL)] * 3), max_size=4))
    entries = list(dict.fromkeys(singles + [f"{a}+{b}" for a, b in pairs] + ["+".join(t) for t in triples]))
    _compare(corpus, entries, n_bits, window)


def test_reference_with_every_template_and_the_local_set():
    corpus = random_compiled_corpus(4, mean_mentions=10, n_words=3, seed=7)
    _compare(corpus, ALL, 22, None)
    many = ALL + [f"ana_type+{n}" for n in ALL[:20]]  # > 64 entries: two mask words
    assert len(many) > 64
    _compare(corpus, many, 22, 3)
    _compare(corpus, load_featureset("local").local, 22, 4)
    _compare(build_corpus([EXAMPLE]), ALL, 16, None)


def test_acronyms_occur_in_random_corpora():
    # the equivalence test must exercise alias = 1 (acronym), not only 0/2
    from .feature_reference import Ref

    corpus = random_compiled_corpus(20, mean_mentions=20, n_words=3, seed=3)
    ref = Ref(corpus)
    values = set()
    off = corpus.doc_mention_offsets
    for d in range(corpus.n_docs):
        for j in range(off[d], off[d + 1]):
            for i in range(off[d], j):
                values.add(ref.pair("alias", j, i))
    assert values == {0, 1, 2}


def test_deterministic_and_nonlocal_entries_ignored():
    corpus = random_compiled_corpus(5, seed=11)
    a = extract_arc_store(corpus, "small")
    b = extract_arc_store(corpus, load_featureset("small"))
    assert np.array_equal(a.arc_feats, b.arc_feats) and a.templates == b.templates
    assert a.meta["featureset"] == "small"


def test_documents_without_mentions():
    empty = {"sentences": [["Nothing", "here", "."]], "mentions": []}
    c = build_corpus([empty, EXAMPLE, empty])
    s = extract_arc_store(c, "small").validate()
    assert s.n_arcs == 1 + 2 + 3 + 4 + 5 and s.doc_mention_offsets.tolist() == [0, 0, 5, 5]
    _compare(c, load_featureset("local").local, 20, None)


def test_on_the_compiled_synthetic_corpus():
    """Integration with the data layer: the real compiled arrays, checked against the reference."""
    synthetic = pytest.importorskip("coreflab.corpus.synthetic.generator")
    compile_mod = pytest.importorskip("coreflab.corpus.compile")
    docs = synthetic.generate_corpus("tiny", seed=0)["dev"]
    corpus = compile_mod.compile_documents(docs, "synth", "dev")
    entries = load_featureset("local").local + ["alias+ana_type", "ante_subcategory", "ana_path_root"]
    store = extract_arc_store(corpus, entries, n_bits=22).validate()
    assert store.unavailable == {} and store.n_arcs == sum(
        n * (n + 1) // 2 for n in np.diff(corpus.doc_mention_offsets)
    )
    _compare(corpus, entries, 22, None)


@settings(max_examples=15, deadline=None)
@given(st.integers(1, 12), st.floats(0.5, 6.0), st.integers(0, 5), st.integers(1, 40))
def test_per_document_bytes_add_up_to_the_tagged_store_bytes(n_docs, mean_mentions, seed, block_arcs):
    """Documents without arcs (one mention) or without mentions, and blocks cutting anywhere, included."""
    from coreflab.features.extract import tagged_store_bytes, tagged_store_bytes_per_document

    corpus = random_compiled_corpus(n_docs, mean_mentions=mean_mentions, n_words=3, seed=seed)
    fs = load_featureset("local")
    per_doc = tagged_store_bytes_per_document(corpus, fs, n_bits=14, window=5, block_arcs=block_arcs)
    assert per_doc.shape == (n_docs,) and (per_doc > 0).all()
    assert int(per_doc.sum()) + 24 == tagged_store_bytes(corpus, fs, n_bits=14, window=5)  # three closing offsets


def test_a_documents_bytes_are_those_of_its_store_alone():
    from coreflab.corpus.compile import compile_documents
    from coreflab.corpus.synthetic.generator import generate_corpus
    from coreflab.features.extract import tagged_store_bytes, tagged_store_bytes_per_document

    docs = generate_corpus("tiny", seed=1)["train"][:5]
    fs = load_featureset("local")
    per_doc = tagged_store_bytes_per_document(compile_documents(docs, "synth", "train"), fs, n_bits=14)
    alone = [tagged_store_bytes(compile_documents([d], "synth", "train"), fs, n_bits=14) - 24 for d in docs]
    assert per_doc.tolist() == alone
