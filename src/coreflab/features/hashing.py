"""Deterministic feature hashing shared by local and non-local templates.

Why: weights live in one vector of size 2**n_bits (the "hashing trick", Weinberger et al.
2009), so a feature id must be the same on every run, machine and process — Python's
`hash()` is salted per process and cannot be used. A feature is a template key and a
short sequence of integer values, hashed as

    h = mix(key(template_name))                  # hash_start (precomputable per template)
    for v in values: h = (h ^ (v + GOLDEN)) * M1  # hash_step: one xor and one multiply
    id = mix(h) >> (64 - n_bits)                 # hash_index: full avalanche, top bits

where `mix` is the SplitMix64 finaliser (Steele, Lea & Flood 2014). The cheap step is a
bijection of h for a fixed value (xor, then multiplication by an odd constant modulo
2**64), and the final mix spreads every bit over the top bits we keep; this makes a
feature cost about one multiply per value plus one mix, which keeps local extraction
well under the 0.5 µs-per-arc budget with ~40 templates.

`key(name)` is the first 8 bytes of BLAKE2b of the template name, so a template's ids do
not depend on its position in a registry or feature-set file (adding a template never
moves the others). Root arcs add `ROOT_MARK` as a last value (see `kernels.py`).
Both a numba version (used in kernels) and a pure-Python version (for tests and
reference implementations) are provided; they agree bit for bit.
"""

import hashlib

import numpy as np
from numba import njit

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
_M1 = 0xBF58476D1CE4E5B9
_M2 = 0x94D049BB133111EB
ROOT_MARK = 0x526F6F74  # "Root": last value of every feature of a root arc
MAX_BITS = 31  # ids are stored as int32


def string_keys(strings):
    """int32 key of each string, the same in every split and corpus: the top 31 bits of
    its BLAKE2b digest (0 for the empty string, "no value" of some layers).

    Why: a compiled split numbers its strings in order of appearance, so a vocabulary id
    means different words in train and test; templates that hash ids would learn weights
    the test split never looks up. Hashing the string itself makes `ana_head=dog` the same
    feature everywhere. About 10 of 200,000 distinct strings share a key (31 bits)."""
    out = np.empty(len(strings), dtype=np.int32)
    for k, s in enumerate(strings):
        if not s:
            out[k] = 0
        else:
            d = hashlib.blake2b(s.encode("utf-8"), digest_size=8).digest()
            out[k] = int.from_bytes(d, "little") >> 33
    return out


def template_key(name):
    """Stable 64-bit key of a template name (unsigned, as np.uint64)."""
    digest = hashlib.blake2b(name.encode("utf-8"), digest_size=8).digest()
    return np.uint64(int.from_bytes(digest, "little"))


@njit(cache=True, inline="always")
def mix64(x):
    """SplitMix64 finaliser: a bijective avalanche mix of a uint64."""
    x = x ^ (x >> np.uint64(30))
    x = x * np.uint64(_M1)
    x = x ^ (x >> np.uint64(27))
    x = x * np.uint64(_M2)
    x = x ^ (x >> np.uint64(31))
    return x


@njit(cache=True, inline="always")
def hash_start(key):
    """Hash state for a template key (np.uint64)."""
    return mix64(np.uint64(key))


@njit(cache=True, inline="always")
def hash_step(h, value):
    """Fold one integer value (any int; negatives wrap two's-complement) into state h."""
    return (h ^ (np.uint64(np.int64(value)) + np.uint64(GOLDEN))) * np.uint64(_M1)


@njit(cache=True, inline="always")
def hash_index(h, n_bits):
    """Feature id in [0, 2**n_bits) from a hash state: final mix, then the top bits."""
    return np.int32(mix64(h) >> np.uint64(64 - n_bits))


@njit(cache=True)
def hash_feature(key, value, n_bits):
    """Feature id of (template key, one value): the single-value case of the chain."""
    return hash_index(hash_step(hash_start(key), value), n_bits)


# ---- pure-Python reference (tests, slow paths) ----------------------------------------


def py_mix64(x):
    x &= MASK64
    x ^= x >> 30
    x = (x * _M1) & MASK64
    x ^= x >> 27
    x = (x * _M2) & MASK64
    x ^= x >> 31
    return x


def py_hash_values(key, values, n_bits):
    """Feature id of a template key and a sequence of integer values (pure Python)."""
    h = py_mix64(int(key))
    for v in values:
        h = ((h ^ (((int(v) & MASK64) + GOLDEN) & MASK64)) * _M1) & MASK64
    return py_mix64(h) >> (64 - n_bits)


__all__ = [
    "string_keys",
    "template_key",
    "mix64",
    "hash_start",
    "hash_step",
    "hash_index",
    "hash_feature",
    "py_hash_values",
    "ROOT_MARK",
    "MAX_BITS",
]
