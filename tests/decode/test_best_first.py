"""Best-first decoding equals the brute-force argmax over trees (B&K 2014, Sec. 4)."""

import itertools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from coreflab.decode.arcs import antecedents_to_clusters, arc_scores, bk_arc_loss, gold_arc_mask
from coreflab.decode.best_first import best_first_antecedents
from coreflab.decode.random_problem import random_problem


def _brute_force(store, scores, lo, hi, allowed=None, bonus=None):
    """Highest-scoring tree of one document by enumerating every tree."""
    per_mention = []
    for r in range(lo, hi):
        arcs = [a for a in range(store.m_arc_offsets[r], store.m_arc_offsets[r + 1]) if allowed is None or allowed[a]]
        per_mention.append(arcs)
    best, best_tree = -np.inf, None
    for tree in itertools.product(*per_mention):
        s = sum(scores[a] + (0.0 if bonus is None else bonus[a]) for a in tree)
        if s > best:
            best, best_tree = s, tree
    return best, [int(store.arc_ante[a]) for a in best_tree]


problems = st.tuples(
    st.lists(st.integers(1, 5), min_size=1, max_size=4),
    st.one_of(st.none(), st.integers(1, 3)),
    st.integers(0, 10_000),
)


@settings(max_examples=40, deadline=None)
@given(problems)
def test_best_first_equals_brute_force(problem):
    sizes, window, seed = problem
    corpus, store = random_problem(sizes, n_bits=8, window=window, seed=seed)
    w = np.random.default_rng(seed).normal(size=1 << 8)
    scores = arc_scores(w, store)
    ante = best_first_antecedents(scores, store)
    gold = gold_arc_mask(corpus, store)
    loss = bk_arc_loss(gold, store.arc_ante)
    ante_c = best_first_antecedents(scores, store, allowed=gold)
    ante_l = best_first_antecedents(scores, store, loss=loss, loss_scale=0.7)
    offs = store.doc_mention_offsets
    for d in range(len(sizes)):
        lo, hi = offs[d], offs[d + 1]
        assert list(ante[lo:hi]) == _brute_force(store, scores, lo, hi)[1]
        assert list(ante_c[lo:hi]) == _brute_force(store, scores, lo, hi, allowed=gold)[1]
        assert list(ante_l[lo:hi]) == _brute_force(store, scores, lo, hi, bonus=0.7 * loss)[1]


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(1, 12), min_size=1, max_size=5), st.integers(0, 10_000))
def test_constrained_decoding_returns_gold_trees(sizes, seed):
    corpus, store = random_problem(sizes, n_bits=8, seed=seed)
    w = np.random.default_rng(seed).normal(size=1 << 8)
    gold = gold_arc_mask(corpus, store)
    ante = best_first_antecedents(arc_scores(w, store), store, allowed=gold)
    offs = store.doc_mention_offsets
    for d in range(len(sizes)):
        lo, hi = offs[d], offs[d + 1]
        got = antecedents_to_clusters(ante[lo:hi])
        cl = corpus.arrays["m_cluster"][lo:hi]
        # same partition as the gold clusters
        for i in range(hi - lo):
            for j in range(hi - lo):
                assert (got[i] == got[j]) == (cl[i] == cl[j])


def test_gold_mask_and_loss_hand_computed():
    corpus, store = random_problem([4], n_bits=6, seed=0)
    corpus.arrays["m_cluster"][:] = [0, 1, 0, 0]
    gold = gold_arc_mask(corpus, store)
    # arcs: m0:[R] m1:[R,0] m2:[R,0,1] m3:[R,0,1,2]
    assert list(gold) == [1, 1, 0, 0, 1, 0, 0, 1, 0, 1]
    loss = bk_arc_loss(gold, store.arc_ante, 1.5)
    assert list(loss) == [0, 0, 1, 1.5, 0, 1, 1.5, 0, 1, 0]


def test_ties_go_to_the_first_candidate():
    corpus, store = random_problem([3], n_bits=6, seed=0)
    ante = best_first_antecedents(np.zeros(store.arc_ante.shape[0]), store)
    assert list(ante) == [-1, -1, -1]
