"""Feature hashing: fixed values across runs, processes and platforms; numba == Python."""

import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from coreflab.features.hashing import hash_feature, hash_index, hash_start, hash_step, py_hash_values, template_key

# Golden values: if these change, every saved model's weights are silently scrambled.
GOLDEN = {("ana_type", 0): 1845276, ("ana_type", 5): 142749, ("ana_type", -1): 2862553}


def test_golden_values():
    assert int(template_key("ana_type")) == int.from_bytes(
        __import__("hashlib").blake2b(b"ana_type", digest_size=8).digest(), "little"
    )
    for (name, v), expected in GOLDEN.items():
        assert hash_feature(template_key(name), v, 22) == expected
        assert py_hash_values(template_key(name), [v], 22) == expected


@pytest.mark.slow
def test_same_ids_in_a_fresh_process_with_another_hash_seed():
    code = (
        "from coreflab.features.hashing import hash_feature, template_key;"
        "print(hash_feature(template_key('ana_type'), 5, 22))"
    )
    env = dict(os.environ, PYTHONHASHSEED="12345")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert int(out.stdout) == GOLDEN[("ana_type", 5)]


@njit
def _chain(key, values, n_bits):
    h = hash_start(key)
    for v in values:
        h = hash_step(h, v)
    return hash_index(h, n_bits)


@settings(max_examples=200, deadline=None)
@given(
    values=st.lists(st.integers(-(2**31), 2**31 - 1), min_size=1, max_size=3),
    n_bits=st.integers(1, 31),
    name=st.text(min_size=1, max_size=10),
)
def test_numba_chain_equals_python(values, n_bits, name):
    key = template_key(name)
    got = _chain(key, np.array(values, dtype=np.int64), n_bits)
    assert got == py_hash_values(key, values, n_bits)
    assert 0 <= got < 2**n_bits


def test_ids_spread_over_the_space():
    key = template_key("ana_head")
    ids = np.array([py_hash_values(key, [v], 12) for v in range(20000)])
    counts = np.bincount(ids, minlength=4096)
    # Poisson(4.88) per bucket: about 31 empty buckets, sd about 2.2
    assert 10 <= (counts == 0).sum() <= 60 and counts.max() <= 16
    assert abs(counts.std() - counts.mean() ** 0.5) < 0.15
    # a conjunction is the ordered pair: (a, b) and (b, a) differ
    assert py_hash_values(key, [1, 2], 22) != py_hash_values(key, [2, 1], 22)
