"""Non-local feature templates: features read from a partial tree (decoder state).

Björkelund & Kuhn (2014, Sec. 6.2; docs/methods.md, "Features and template selection") extend the pairwise
score w·Φ(m_i, m_j) with features Φ(m_i, m_j, s) that look at the state s of beam
search: the cluster the candidate antecedent m_i currently belongs to. They are
computed per expansion inside the beam kernel (`coreflab.decode.beam`), from a
small integer attribute matrix of the compiled corpus and the state arrays, and are
hashed into the same weight space as the local features. Every template is
conjoined with the anaphor's mention type, as in the paper.

The set is chosen by name (`NONLOCAL_TEMPLATES`); root attachments get no non-local
features (the root starts a new cluster: only its local root features score it).

State layout (one beam item; shared with `coreflab.decode.beam`): an int32 matrix
`st[NF, n]` indexed by mention (fields F_ANTE, F_POS, F_CLUS, F_PREV) or by cluster
id = index of the cluster's first mention (F_LAST, F_SIZE, F_FNAME), and a uint64
vector `shape[n]` indexed by cluster id.

Hashing: the local templates' scheme (`coreflab.features.hashing`): a feature id is
the SplitMix64 chain over (key of "nonlocal:<name>", value, anaphor type), so non-local
ids never depend on a template's position and share the weight space with local ids.
"""

from collections import namedtuple

import numpy as np
from numba import njit

from coreflab.errors import UserError
from coreflab.features.hashing import hash_index, hash_start, hash_step, string_keys, template_key

# ---------------------------------------------------------------- hashing
# Same hashing as the local templates (`coreflab.features.hashing`): a feature id is the
# SplitMix64 chain over (template key, value, anaphor type) cut to n_bits.


@njit(cache=True)
def combine(a, b):
    """Order-sensitive 64-bit combination of two integer values (pairs, shape strings)."""
    return hash_step(hash_step(np.uint64(0), a), b)


@njit(cache=True, inline="always")
def _feat(key, value, t_j, n_bits):
    return np.int64(hash_index(hash_step(hash_step(hash_start(key), value), t_j), n_bits))


# ---------------------------------------------------------------- templates
NONLOCAL_TEMPLATES = (
    "cluster_size",  # bucketed size of the antecedent's cluster (Culotta et al. 2007)
    "cluster_shape",  # mention-type string of the cluster, e.g. RNPN (first 15 mentions)
    "syntactic_context",  # path to nearest S of m_j and of its predecessor in the cluster
    "cluster_start_distance",  # log-bucketed mentions from document start to the cluster start
    "ante_ante_type",  # mention type of the antecedent's antecedent (R for the root)
    "ante_ante_head",  # head word of the antecedent's antecedent
    "cluster_first_head",  # head word of the cluster's first mention
    "cluster_first_name_head",  # head word of the cluster's first name mention
    "cluster_bag_head",  # bag of head words over the cluster (last 15 mentions)
    "cluster_bag_ne",  # bag of NE labels over the cluster
    "cluster_bag_gender",  # bag of genders over the cluster
    "cluster_bag_number",  # bag of numbers over the cluster
    # entity-mention comparisons (Luo et al. 2004; Rahman & Ng 2009): the anaphor against the
    # whole cluster, where the local features see only the candidate antecedent
    "cluster_head_match",  # how many of the cluster's mentions (last 15) share the anaphor's head: 0-3+
    "cluster_gender_agree",  # the anaphor's gender against the cluster's known genders (last 15)
    "cluster_number_agree",  # the anaphor's number against the cluster's known numbers (last 15)
    "cluster_name_head_pair",  # head of the cluster's first name mention x the anaphor's head
)
NONLOCAL_CODE = {name: i for i, name in enumerate(NONLOCAL_TEMPLATES)}
# template keys (BLAKE2b of "nonlocal:<name>", as for local templates); a global array is
# a compile-time constant for numba
NONLOCAL_KEYS = np.array([template_key("nonlocal:" + n) for n in NONLOCAL_TEMPLATES], dtype=np.uint64)
MAX_SHAPE = 15  # the paper's cap on the shape string
MAX_BAG = 15  # most recent cluster members a bag looks at
MAX_FEATS_PER_TEMPLATE = MAX_BAG

# attribute matrix columns
A_TYPE, A_HEAD, A_PATH_S, A_NE, A_GENDER, A_NUMBER = 0, 1, 2, 3, 4, 5
N_ATTRS = 6
# which compiled field each template needs (for availability)
_NEEDS = {"syntactic_context": "m_path_s", "cluster_bag_ne": "m_ne"}
# agreement codes of cluster_gender_agree / cluster_number_agree
AGREE_NONE_KNOWN, AGREE_ALL, AGREE_NONE, AGREE_MIXED, AGREE_ANAPHOR_UNKNOWN = 0, 1, 2, 3, 4

# state fields
F_ANTE, F_POS, F_CLUS, F_PREV, F_LAST, F_SIZE, F_FNAME = 0, 1, 2, 3, 4, 5, 6
NF = 7
SHAPE_SEED = np.uint64(0x5348415045)  # "SHAPE"


NonLocal = namedtuple("NonLocal", ["codes", "attrs", "n_bits"])
NonLocal.__doc__ = """What the non-local features are read from: the int32 template codes (`resolve_nonlocal`),
the attribute matrix (`mention_attributes`) and the width of the hashed weight space."""


def mention_attributes(corpus):
    """int64[n_mentions, N_ATTRS] attribute matrix the non-local kernel reads.

    Strings (head, path, NE label) are `string_keys` of the strings, not the split's
    vocabulary ids, which number strings per split (a head weight learned on train must
    fire on the same word in test)."""
    out = np.full((corpus.n_mentions, N_ATTRS), -1, dtype=np.int64)
    keys = string_keys(corpus.vocab).astype(np.int64)
    for col, name in (
        (A_TYPE, "m_type"),
        (A_HEAD, "m_head_str"),
        (A_PATH_S, "m_path_s"),
        (A_NE, "m_ne"),
        (A_GENDER, "m_gender"),
        (A_NUMBER, "m_number"),
    ):
        if name in corpus.arrays:
            v = np.asarray(corpus.arrays[name], dtype=np.int64)
            if col in (A_HEAD, A_PATH_S, A_NE):
                v = np.where(v >= 0, keys[np.maximum(v, 0)], v) if keys.size else v
            out[:, col] = v
    return out


def resolve_nonlocal(names, corpus=None):
    """Template names -> (int32 codes of the usable ones, {name: reason} of the others).

    An unknown name is a user error; a template the corpus cannot support (no parse for
    `syntactic_context`, no NE layer for `cluster_bag_ne`) is reported unavailable and
    skipped, never a crash.
    """
    codes, unavailable = [], {}
    for name in names:
        if name not in NONLOCAL_CODE:
            raise UserError(f"unknown non-local template {name!r}; known: {', '.join(NONLOCAL_TEMPLATES)}")
        need = _NEEDS.get(name)
        if corpus is not None and need is not None:
            arr = corpus.arrays.get(need)
            empty = arr is None or need in corpus.missing or not np.any(arr > 0 if need == "m_ne" else arr >= 0)
            if empty:
                unavailable[name] = f"corpus has no {need}"
                continue
        codes.append(NONLOCAL_CODE[name])
    return np.array(codes, dtype=np.int32), unavailable


@njit(cache=True, inline="always")
def bucket(x):
    """Distance/size buckets of the paper's local features: 0-4, <8, <12, <20, rest."""
    if x <= 4:
        return x
    if x < 8:
        return 5
    if x < 12:
        return 6
    if x < 20:
        return 7
    return 8


@njit(cache=True, inline="always")
def log_bucket(x):
    """0-4 exact, then one bucket per power of two (5-7, 8-15, 16-31, ...): unbounded, so
    distances in documents of hundreds or thousands of mentions stay apart (a cap at 20,
    as `bucket` has, makes the cluster start distance nearly constant in long documents)."""
    if x <= 4:
        return x
    b = 0
    while x > 1:
        x >>= 1
        b += 1
    return b + 3


@njit(cache=True)
def _head_matches(attrs, lo, j, c, st):
    """Mentions among the cluster's last MAX_BAG sharing the anaphor's head, capped at 3
    (-2 when the anaphor has no head string)."""
    h = attrs[lo + j, A_HEAD]
    if h < 0:
        return -2
    m = st[F_LAST, c]
    n = 0
    steps = 0
    while m >= 0 and steps < MAX_BAG:
        if attrs[lo + m, A_HEAD] == h:
            n += 1
        m = st[F_PREV, m]
        steps += 1
    return min(n, 3)


@njit(cache=True)
def _agreement(attrs, lo, j, c, st, col):
    """The anaphor's gender or number (col) against the known values of the cluster's last
    MAX_BAG mentions: all agree, none agree, mixed, no known value, or anaphor unknown."""
    v = attrs[lo + j, col]
    if v <= 0:
        return AGREE_ANAPHOR_UNKNOWN
    agree = 0
    disagree = 0
    m = st[F_LAST, c]
    steps = 0
    while m >= 0 and steps < MAX_BAG:
        u = attrs[lo + m, col]
        if u > 0:
            if u == v:
                agree = 1
            else:
                disagree = 1
        m = st[F_PREV, m]
        steps += 1
    if agree and disagree:
        return AGREE_MIXED
    if agree:
        return AGREE_ALL
    if disagree:
        return AGREE_NONE
    return AGREE_NONE_KNOWN


@njit(cache=True)
def emit_cluster(codes, attrs, lo, j, c, st, shape, n_bits, out, k):
    """Features of the templates that depend only on the antecedent's cluster c (all but
    ante_ante_*); written to out[k:], returns the new count. The beam memoises their
    summed weight per (item, cluster)."""
    t_j = attrs[lo + j, A_TYPE]
    for code in codes:
        if code == 4 or code == 5:
            continue
        key = NONLOCAL_KEYS[code]
        if code == 0:
            v = np.int64(bucket(st[F_SIZE, c]))
        elif code == 1:
            v = np.int64(shape[c])
        elif code == 2:
            pred = st[F_LAST, c]
            v = np.int64(combine(attrs[lo + j, A_PATH_S], attrs[lo + pred, A_PATH_S]))
        elif code == 3:
            v = np.int64(log_bucket(c))
        elif code == 6:
            v = attrs[lo + c, A_HEAD]
        elif code == 7:
            fn = st[F_FNAME, c]
            v = attrs[lo + fn, A_HEAD] if fn >= 0 else np.int64(-2)
        elif code == 12:
            v = np.int64(_head_matches(attrs, lo, j, c, st))
        elif code == 13 or code == 14:
            v = np.int64(_agreement(attrs, lo, j, c, st, A_GENDER if code == 13 else A_NUMBER))
        elif code == 15:
            fn = st[F_FNAME, c]
            v = np.int64(combine(attrs[lo + fn, A_HEAD], attrs[lo + j, A_HEAD])) if fn >= 0 else np.int64(-2)
        else:
            col = A_HEAD if code == 8 else (A_NE if code == 9 else (A_GENDER if code == 10 else A_NUMBER))
            m = st[F_LAST, c]
            steps = 0
            while m >= 0 and steps < MAX_BAG:
                out[k] = _feat(key, attrs[lo + m, col], t_j, n_bits)
                k += 1
                m = st[F_PREV, m]
                steps += 1
            continue
        out[k] = _feat(key, v, t_j, n_bits)
        k += 1
    return k


@njit(cache=True)
def emit_antecedent(codes, attrs, lo, j, a, st, n_bits, out, k):
    """Features of the templates that depend on the antecedent itself (ante_ante_*)."""
    t_j = attrs[lo + j, A_TYPE]
    for code in codes:
        if code != 4 and code != 5:
            continue
        aa = st[F_ANTE, a]
        if aa < 0:
            v = np.int64(0) if code == 4 else np.int64(-2)
        else:
            v = attrs[lo + aa, A_TYPE if code == 4 else A_HEAD]
        out[k] = _feat(NONLOCAL_KEYS[code], v, t_j, n_bits)
        k += 1
    return k


@njit(cache=True)
def has_antecedent_templates(codes):
    for code in codes:
        if code == 4 or code == 5:
            return True
    return False


@njit(cache=True)
def emit_nonlocal(codes, attrs, lo, j, a, st, shape, n_bits, out):
    """Write the hashed non-local feature ids of arc (m_a -> m_j) in state `st` to `out`.

    `lo` is the document's first global mention row, `j`/`a` are mention indices within
    the document (a >= 0; the root gets no non-local features). Cluster-level templates
    come first, then antecedent-level ones. Returns the count.
    """
    if a < 0:
        return 0
    k = emit_cluster(codes, attrs, lo, j, st[F_CLUS, a], st, shape, n_bits, out, 0)
    return emit_antecedent(codes, attrs, lo, j, a, st, n_bits, out, k)


@njit(cache=True)
def state_push(st, shape, j, a, pos, t_j):
    """Attach mention j to antecedent a (-1 root) in state (st, shape); pos = arc position."""
    st[F_ANTE, j] = a
    st[F_POS, j] = pos
    if a < 0:
        st[F_CLUS, j] = j
        st[F_PREV, j] = -1
        st[F_LAST, j] = j
        st[F_SIZE, j] = 1
        st[F_FNAME, j] = j if t_j == 2 else -1
        shape[j] = combine(np.int64(combine(np.int64(SHAPE_SEED), 0)), t_j)
    else:
        c = st[F_CLUS, a]
        st[F_CLUS, j] = c
        st[F_PREV, j] = st[F_LAST, c]
        st[F_LAST, c] = j
        if st[F_SIZE, c] < MAX_SHAPE:
            shape[c] = combine(np.int64(shape[c]), t_j)
        st[F_SIZE, c] += 1
        if st[F_FNAME, c] < 0 and t_j == 2:
            st[F_FNAME, c] = j
        # fields indexed by cluster id at j are unused when j is not a cluster start
        st[F_LAST, j] = -1
        st[F_SIZE, j] = 0
        st[F_FNAME, j] = -1


__all__ = [
    "NONLOCAL_TEMPLATES",
    "NONLOCAL_CODE",
    "combine",
    "mention_attributes",
    "resolve_nonlocal",
    "emit_nonlocal",
    "state_push",
    "bucket",
    "log_bucket",
]
