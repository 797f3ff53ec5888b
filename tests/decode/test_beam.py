"""Beam search with an unbounded beam equals exhaustive search with non-local features."""

import itertools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from coreflab.decode.arcs import arc_arrays, arc_scores, gold_arc_mask
from coreflab.decode.beam import Doc, beam_antecedents, beam_decode_doc
from coreflab.decode.best_first import best_first_antecedents
from coreflab.decode.featvec import tree_feature_vector
from coreflab.decode.random_problem import random_problem
from coreflab.features.nonlocal_templates import NONLOCAL_TEMPLATES, NonLocal, mention_attributes, resolve_nonlocal

N_BITS = 9


def _tree_score(w, pos, lo, store, codes, attrs):
    return sum(w[f] * c for f, c in tree_feature_vector(pos, lo, store, codes, attrs).items())


def _exhaustive(w, store, lo, hi, codes, attrs, allowed=None):
    choices = []
    for r in range(lo, hi):
        a0, a1 = store.m_arc_offsets[r], store.m_arc_offsets[r + 1]
        choices.append([a - a0 for a in range(a0, a1) if allowed is None or allowed[a]])
    best, best_pos = -np.inf, None
    for pos in itertools.product(*choices):
        s = _tree_score(w, pos, lo, store, codes, attrs)
        if s > best + 1e-12:
            best, best_pos = s, pos
    return best, best_pos


def _pos_of(ante, lo, hi, store):
    out = []
    for _i, r in enumerate(range(lo, hi)):
        a0, a1 = store.m_arc_offsets[r], store.m_arc_offsets[r + 1]
        out.append(int(np.flatnonzero(store.arc_ante[a0:a1] == ante[r])[0]))
    return out


@settings(max_examples=25, deadline=None)
@given(
    st.lists(st.integers(1, 5), min_size=1, max_size=3),
    st.integers(0, 10_000),
    st.sampled_from([None, 2]),
    st.booleans(),
)
def test_unbounded_beam_equals_exhaustive_search(sizes, seed, window, constrained):
    corpus, store = random_problem(sizes, n_bits=N_BITS, seed=seed, window=window, n_clusters=2)
    attrs = mention_attributes(corpus)
    codes, _ = resolve_nonlocal(NONLOCAL_TEMPLATES, corpus)
    w = np.random.default_rng(seed).normal(size=1 << N_BITS)
    gold = gold_arc_mask(corpus, store)
    ante = beam_antecedents(w, store, attrs, codes, beam=200, arc_gold=gold if constrained else None)
    offs = store.doc_mention_offsets
    for d in range(len(sizes)):
        lo, hi = int(offs[d]), int(offs[d + 1])
        best, _ = _exhaustive(w, store, lo, hi, codes, attrs, allowed=gold if constrained else None)
        got = _tree_score(w, _pos_of(ante, lo, hi, store), lo, store, codes, attrs)
        assert np.isclose(got, best, rtol=0, atol=1e-9)


def test_beam_score_equals_replayed_tree_score():
    corpus, store = random_problem([9, 7], n_bits=N_BITS, seed=3)
    attrs = mention_attributes(corpus)
    codes, _ = resolve_nonlocal(NONLOCAL_TEMPLATES, corpus)
    w = np.random.default_rng(3).normal(size=1 << N_BITS)
    gold = np.ones(store.arc_ante.shape[0], dtype=np.int8)
    scores = arc_scores(w, store)
    for d in range(2):
        lo, hi = int(store.doc_mention_offsets[d]), int(store.doc_mention_offsets[d + 1])
        out = np.empty(hi - lo, dtype=np.int32)
        s = beam_decode_doc(
            Doc(lo, hi - lo, 0, scores), 5, arc_arrays(store, gold), False, NonLocal(codes, attrs, N_BITS), w, out
        )
        full = np.full(store.m_arc_offsets.shape[0] - 1, -9, dtype=np.int32)
        full[lo:hi] = out
        assert np.isclose(s, _tree_score(w, _pos_of(full, lo, hi, store), lo, store, codes, attrs))


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(1, 15), min_size=1, max_size=4), st.integers(0, 10_000), st.integers(1, 6))
def test_local_beam_equals_best_first(sizes, seed, k):
    corpus, store = random_problem(sizes, n_bits=N_BITS, seed=seed)
    w = np.random.default_rng(seed).normal(size=1 << N_BITS)
    no_codes = np.zeros(0, dtype=np.int32)
    got = beam_antecedents(w, store, mention_attributes(corpus), no_codes, beam=k)
    assert np.array_equal(got, best_first_antecedents(arc_scores(w, store), store))


def test_absorbed_arc_score_differences_follow_best_first():
    # item score 1e17 absorbs arc scores 0 and 1 (ulp(1e17) = 16): the beam must still
    # prefer the higher arc score, as best-first does
    corpus, store = random_problem([3], n_bits=N_BITS, seed=0)
    scores = np.array([1e17, 0.0, 1.0, 0.0, 2.0, 3.0])  # arcs: m0:[R] m1:[R,0] m2:[R,0,1]
    gold = np.ones(6, dtype=np.int8)
    out = np.empty(3, dtype=np.int32)
    no_codes = np.zeros(0, dtype=np.int32)
    for k in (1, 3):
        beam_decode_doc(
            Doc(0, 3, 0, scores),
            k,
            arc_arrays(store, gold),
            False,
            NonLocal(no_codes, mention_attributes(corpus), N_BITS),
            np.zeros(1 << N_BITS),
            out,
        )
        assert out.tolist() == [-1, 0, 1]
