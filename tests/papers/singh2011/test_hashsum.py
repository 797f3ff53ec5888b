"""The group-sum hash table with deletion behaves like a dict of non-zero sums."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from coreflab.papers.singh2011.hashsum import capacity, new_table, rehash, table_add, table_get, table_sub


@settings(max_examples=40, deadline=None)
@given(
    ops=st.lists(st.tuples(st.integers(0, 60), st.sampled_from([0.25, 0.5, 1.0, 3.0])), max_size=300),
    seed=st.integers(0, 1000),
)
def test_add_then_remove_keeps_exactly_the_live_cells(ops, seed):
    """Adding weights and later removing some of them: the table holds exactly the keys whose
    sum is non-zero (deletion is exact, no tombstones), every lookup is right, and `used` counts them."""
    kv = new_table(8)  # 1024 slots: many keys share probe runs after masking (collisions exercised)
    used = np.zeros(1, dtype=np.int64)
    ref = {}
    added = []
    for key, w in ops:
        big = key * 1_000_003  # spread keys like (group, feature) keys
        table_add(kv, used, big, w)
        ref[big] = ref.get(big, 0.0) + w
        added.append((big, w))
    rng = np.random.default_rng(seed)
    for i in rng.permutation(len(added))[: len(added) // 2 + 1] if added else []:
        big, w = added[i]
        table_sub(kv, used, big, w, 1e-9)
        ref[big] -= w
    live = {k: v for k, v in ref.items() if abs(v) > 1e-9}
    assert used[0] == len(live)
    assert int((kv[0::2] != -1.0).sum()) == len(live)
    for k in ref:
        assert abs(table_get(kv, k) - live.get(k, 0.0)) < 1e-12
    # a rehash into a smaller table keeps the same cells
    small = new_table(max(1, len(live)))
    assert capacity(small) <= capacity(kv)
    assert rehash(kv, small, -1.0) == len(live)
    for k in live:
        assert abs(table_get(small, k) - live[k]) < 1e-12


def test_deletion_closes_probe_runs():
    """Keys colliding into one probe run stay reachable after the first of them is deleted."""
    kv = new_table(8)
    used = np.zeros(1, dtype=np.int64)
    mask = capacity(kv) - 1
    keys = np.arange(1, 200_000, dtype=np.uint64)
    with np.errstate(over="ignore"):
        homes = ((keys * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(24)).astype(np.int64) & mask
    same = [int(k) for k in keys[homes == homes[0]][:4]]
    assert len(same) == 4
    for k in same:
        table_add(kv, used, k, 1.0)
    table_sub(kv, used, same[0], 1.0, 1e-9)
    assert used[0] == 3
    assert [table_get(kv, k) for k in same] == [0.0, 1.0, 1.0, 1.0]
    table_sub(kv, used, same[2], 1.0, 1e-9)
    assert [table_get(kv, k) for k in same] == [0.0, 1.0, 0.0, 1.0]
