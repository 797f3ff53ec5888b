"""coreflab.prefetch: a hint that compiles into numba kernels for every array kind they gather from
(1-D weights, the 2-D interleaved buffer, an int32 column map) and changes no result."""

import numpy as np
from numba import njit

from coreflab.prefetch import prefetch, prefetch_write


@njit
def _gather_sum(values, index, ahead):
    last = index.shape[0] - 1
    s = 0.0
    for k in range(index.shape[0]):
        prefetch(values, index[min(k + ahead, last)])
        s += values[index[k]]
    return s


@njit
def _scatter_rows(buf, index, ahead, g):
    last = index.shape[0] - 1
    for k in range(index.shape[0]):
        prefetch_write(buf, index[min(k + ahead, last)])
        buf[index[k], 1] += g
    return buf


def test_prefetching_changes_no_result():
    rng = np.random.default_rng(3)
    values = rng.normal(size=5000)
    index = rng.integers(0, 5000, size=20000).astype(np.int32)
    expected = 0.0
    for i in index:  # the same order of additions
        expected += values[i]
    for ahead in (0, 1, 64, 10**6):
        assert _gather_sum(values, index, ahead) == expected
    ids = rng.integers(0, 300, size=1000).astype(np.int64)
    buf = _scatter_rows(np.zeros((300, 2)), ids, 16, 0.5)
    np.testing.assert_array_equal(buf[:, 1], 0.5 * np.bincount(ids, minlength=300))
    assert not buf[:, 0].any()
    col_map = np.arange(300, dtype=np.int32)[::-1].copy()  # an int32 map, as the pair kernels read
    assert _gather_sum(col_map, ids, 8) == float(col_map[ids].sum())  # integers: exact in any order
