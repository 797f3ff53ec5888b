"""Open-addressing hash table of per-group sums, keyed by (level, group, feature).

Why: Singh et al. (2011, §2.2) only ever evaluate the factors touched by a move. With
normalised context vectors, Σ_{n∈e} cos(m, n) = m̂ · Σ_{n∈e} n̂, so keeping the sum vector
S_e of every entity (and of every sub- and super-entity, §4) makes a score change cost
O(nnz(m)) instead of O(|e|·nnz(m)). The sums are sparse and change as mentions move, so a
dense (groups × vocabulary) matrix is out of the question at 1.5M mentions; this linear-probing
table stores only the non-zero (group, feature) cells. A cell whose sum returns to zero is
deleted at once (`table_sub`, backward-shift deletion, no tombstones): context vectors are
non-negative, so a true sum is either 0 or at least the smallest TF-IDF weight, and a value
below `eps` is rounding residue of an empty cell. Keeping only live cells matters for speed:
a proposal makes ~2·nnz random probes, and with dead cells left in place (every emptied
singleton entity of a round) the table of a 25K-mention shard grew to 134 MB, far beyond the
cache; with deletion it stays at the live size (`rehash` is then only needed to grow or shrink).

Layout: one float64 array of (key, value) pairs, so a probe touches one cache line (keys are
integers below 2**53, exact in float64; -1 marks an empty slot). Key layout:
``(level * n_groups + group) * n_features + feature`` where the features are the
vocabulary followed by one pseudo-feature per mention string (its value is the count of
mentions with that string in the group: the STREQ term).
"""

import numpy as np
from numba import njit

EMPTY = -1.0
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MAX_LOAD = 0.6


def new_table(n_entries):
    """An empty table with room for `n_entries` cells below the rehash load (power-of-two size)."""
    cap = 1024
    while cap * MAX_LOAD < 1.25 * n_entries:
        cap *= 2
    kv = np.zeros(2 * cap, dtype=np.float64)
    kv[0::2] = EMPTY
    return kv


@njit(cache=True, inline="always")
def _home(kv, key):
    """The home slot of integer `key` (Fibonacci hashing onto the power-of-two table)."""
    mask = (kv.shape[0] >> 1) - 1
    return np.int64((np.uint64(key) * _GOLDEN) >> np.uint64(24)) & mask


@njit(cache=True, inline="always")
def _slot(kv, key):
    mask = (kv.shape[0] >> 1) - 1
    h = _home(kv, key)
    fk = np.float64(key)
    while True:
        k = kv[2 * h]
        if k == fk or k == EMPTY:
            return h
        h = (h + 1) & mask


@njit(cache=True, inline="always")
def table_touch(kv, key):
    """Load the key of `key`'s home slot (no probing): issued for all features of a mention
    before the real lookups, these independent loads overlap their cache misses."""
    return kv[2 * _home(kv, key)]


@njit(cache=True, inline="always")
def table_get(kv, key):
    """The stored sum for `key` (0.0 when absent)."""
    h = _slot(kv, key)
    return kv[2 * h + 1]


@njit(cache=True, inline="always")
def table_add(kv, used, key, delta):
    """Add `delta` to the cell `key`, inserting it if absent; used[0] counts occupied slots."""
    h = _slot(kv, key)
    if kv[2 * h] == EMPTY:
        kv[2 * h] = np.float64(key)
        used[0] += 1
    kv[2 * h + 1] += delta


@njit(cache=True)
def _delete_slot(kv, used, i):
    """Empty slot i and shift later entries of its probe run back (linear-probing deletion)."""
    mask = (kv.shape[0] >> 1) - 1
    j = i
    while True:
        j = (j + 1) & mask
        fk = kv[2 * j]
        if fk == EMPTY:
            break
        h = _home(kv, np.int64(fk))
        # the entry at j may fill the hole at i iff i lies on its probe path h..j
        if ((j - h) & mask) >= ((j - i) & mask):
            kv[2 * i] = fk
            kv[2 * i + 1] = kv[2 * j + 1]
            i = j
    kv[2 * i] = EMPTY
    kv[2 * i + 1] = 0.0
    used[0] -= 1


@njit(cache=True, inline="always")
def table_sub(kv, used, key, delta, eps):
    """Subtract `delta` from the (present) cell `key`; delete the cell when |value| <= eps."""
    h = _slot(kv, key)
    if kv[2 * h] == EMPTY:  # absent: only possible if the caller's bookkeeping is wrong
        kv[2 * h] = np.float64(key)
        used[0] += 1
    v = kv[2 * h + 1] - delta
    if abs(v) <= eps:
        _delete_slot(kv, used, h)
    else:
        kv[2 * h + 1] = v


def capacity(kv):
    return kv.shape[0] // 2


@njit(cache=True)
def rehash(kv, new_kv, eps):
    """Copy live cells (|value| > eps) into a fresh table; returns the new occupancy."""
    used = np.zeros(1, dtype=np.int64)
    for i in range(kv.shape[0] // 2):
        if kv[2 * i] != EMPTY and abs(kv[2 * i + 1]) > eps:
            table_add(new_kv, used, np.int64(kv[2 * i]), kv[2 * i + 1])
    return used[0]
