"""Δ of two tree prefixes computed over their differing part equals two full replays."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from coreflab.decode.arcs import arc_arrays
from coreflab.decode.featvec import Acc, acc_clear, add_tree_delta, add_tree_features
from coreflab.decode.random_problem import random_problem
from coreflab.features.nonlocal_templates import NONLOCAL_TEMPLATES, NonLocal, mention_attributes, resolve_nonlocal

N_BITS = 10


def _acc():
    size = 1 << N_BITS
    return np.zeros(size), np.zeros(size, dtype=np.int8), np.zeros(size, dtype=np.int32)


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 12), st.integers(0, 10_000), st.booleans())
def test_delta_equals_full_replays(n, seed, nonlocal_on):
    corpus, store = random_problem([n], n_bits=N_BITS, seed=seed)
    attrs = mention_attributes(corpus)
    codes = resolve_nonlocal(NONLOCAL_TEMPLATES, corpus)[0] if nonlocal_on else np.zeros(0, np.int32)
    rng = np.random.default_rng(seed)
    cands = np.diff(store.m_arc_offsets)
    g = np.array([rng.integers(0, c) for c in cands], dtype=np.int32)
    p = g.copy()
    cut = int(rng.integers(0, n))
    p[cut:] = [rng.integers(0, c) for c in cands[cut:]]
    upto = int(rng.integers(1, n + 1))
    buf = np.empty(16 * max(1, len(codes)), dtype=np.int64)
    args = (arc_arrays(store, np.ones(store.arc_ante.shape[0], np.int8)), NonLocal(codes, attrs, N_BITS), buf)
    acc1, mark1, t1 = _acc()
    nt = add_tree_features(g, upto, 0, 1.0, *args, Acc(acc1, mark1, t1), 0)
    nt = add_tree_features(p, upto, 0, -1.0, *args, Acc(acc1, mark1, t1), nt)
    acc2, mark2, t2 = _acc()
    nt2 = add_tree_delta(g, p, upto, 0, *args, Acc(acc2, mark2, t2), 0)
    assert np.array_equal(acc1, acc2)
    acc_clear(Acc(acc2, mark2, t2), nt2)
    assert not acc2.any() and not mark2.any()
