"""Random pair-model problems shared by the pair-logistic and Newton tests."""

from types import SimpleNamespace

import numpy as np


def store_of(rows, n_bits=8):
    """An arc store holding only the given feature rows (one arc per row)."""
    offsets = np.zeros(len(rows) + 1, dtype=np.int64)
    np.cumsum([len(r) for r in rows], out=offsets[1:])
    feats = np.array([f for r in rows for f in r], dtype=np.int32)
    return SimpleNamespace(n_bits=n_bits, arc_feats=feats, arc_feat_offsets=offsets)


def random_problem(seed, n_arcs=60, n_bits=7, dup=0.2):
    """Random arcs (some listing an id twice), labels from a noisy linear rule, weights in [0.5, 3]."""
    rng = np.random.default_rng(seed)
    truth = rng.normal(0, 1.5, 2**n_bits)
    rows, y = [], []
    for _ in range(n_arcs):
        r = rng.choice(2**n_bits, size=int(rng.integers(1, 8)), replace=False).tolist()
        if rng.random() < dup:
            r.insert(int(rng.integers(0, len(r) + 1)), r[int(rng.integers(0, len(r)))])
        rows.append(r)
        y.append(truth[list(set(r))].sum() + rng.normal() > 0)
    y = np.array(y)
    if y.all() or not y.any():
        y[0] = not y[0]
    return store_of(rows, n_bits), y, rng.uniform(0.5, 3.0, n_arcs)


def shared_problem(seed, n_arcs=80, n_rows=12, n_bits=7):
    """A shared-row store (arcs referring to rows stored after them, as `features/shared_rows.py`
    lays them out; some arcs repeat an id of their rows) and the flat store of the same ids."""
    rng = np.random.default_rng(seed)
    rows = [rng.choice(2**n_bits, size=int(rng.integers(1, 6)), replace=False).tolist() for _ in range(n_rows)]
    arcs, flat = [], []
    for _ in range(n_arcs):
        refs = sorted(rng.choice(n_rows, size=int(rng.integers(0, 4)), replace=False).tolist())
        own = rng.choice(2**n_bits, size=int(rng.integers(0, 4)), replace=False).tolist()
        ids = [f for r in refs for f in rows[r]]
        if ids and rng.random() < 0.2:  # an id of a row again among the arc's own
            own.append(ids[int(rng.integers(0, len(ids)))])
        if not refs and not own:
            own = [0]
        arcs.append([-1 - (n_arcs + r) for r in refs] + own)
        flat.append(ids + own)
    shared = shared_store(arcs, rows, n_bits)
    truth = rng.normal(0, 1.5, 2**n_bits)
    y = np.array([truth[list(set(x))].sum() + rng.normal() > 0 for x in flat])
    if y.all() or not y.any():
        y[0] = not y[0]
    return shared, store_of(flat, n_bits), y, rng.uniform(0.5, 3.0, n_arcs)


def shared_store(arcs, rows, n_bits):
    """A shared-row store: the arcs' lists (a row referred to as -1 - (n_arcs + r)), then the rows."""
    lists = arcs + rows
    offsets = np.zeros(len(lists) + 1, dtype=np.int64)
    np.cumsum([len(x) for x in lists], out=offsets[1:])
    feats = np.array([f for x in lists for f in x], dtype=np.int32)
    return SimpleNamespace(n_bits=n_bits, arc_feats=feats, arc_feat_offsets=offsets, n_rows=len(rows))
