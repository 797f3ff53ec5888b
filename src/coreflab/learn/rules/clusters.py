"""Entities of the sieve: union-find over mentions, member lists and attribute sets, in numba.

Why entity-level: a later pass compares clusters, not single mentions (Lee et al. 2013, Sec. 3.2):
the union of their heads and words, and the set of their number, gender, animacy and NE values.
State lives in one int64 array `cs` (mentions x CS_COLS); a root row holds its cluster's member
list (head, tail; `CS_NEXT` chains the members), first row in text order, size and attribute sets
as bit masks of the known values (unknown values are left out of the sets).
Word sets are compared by stamping vocabulary ids into `stamp` with a fresh counter `ctr[0]`.
"""

import numpy as np
from numba import njit

from coreflab.corpus.compiled import TYPE_PRONOUN
from coreflab.learn.rules.columns import (
    C_ANIMACY,
    C_END,
    C_GENDER,
    C_HEAD,
    C_HEADW,
    C_NE,
    C_NUMBER,
    C_START,
    C_TYPE,
    F_MOD,
    F_NUM,
    F_STOP,
)

CS_PARENT, CS_HEAD, CS_TAIL, CS_NEXT, CS_FIRST, CS_SIZE, CS_GENDER, CS_NUMBER, CS_ANIMACY, CS_NE = range(10)
CS_COLS = 10


@njit(cache=True)
def new_state(mi):
    """Every mention its own cluster, attribute sets from its own values."""
    n = mi.shape[0]
    cs = np.zeros((n, CS_COLS), np.int64)
    for m in range(n):
        cs[m, CS_PARENT] = m
        cs[m, CS_HEAD] = m
        cs[m, CS_TAIL] = m
        cs[m, CS_NEXT] = -1
        cs[m, CS_FIRST] = m
        cs[m, CS_SIZE] = 1
        for col, src in ((CS_GENDER, C_GENDER), (CS_NUMBER, C_NUMBER), (CS_ANIMACY, C_ANIMACY), (CS_NE, C_NE)):
            if mi[m, src] > 0:
                cs[m, col] = np.int64(1) << mi[m, src]
    return cs


@njit(cache=True)
def find(cs, x):
    """Root of x's cluster (path halving)."""
    while cs[x, CS_PARENT] != x:
        p = cs[x, CS_PARENT]
        cs[x, CS_PARENT] = cs[p, CS_PARENT]
        x = cs[x, CS_PARENT]
    return x


@njit(cache=True)
def union(cs, a, b):
    """Merge the clusters of a and b; returns the new root."""
    a, b = find(cs, a), find(cs, b)
    if a == b:
        return a
    if cs[a, CS_SIZE] < cs[b, CS_SIZE] or (cs[a, CS_SIZE] == cs[b, CS_SIZE] and b < a):
        a, b = b, a
    cs[b, CS_PARENT] = a
    cs[cs[a, CS_TAIL], CS_NEXT] = cs[b, CS_HEAD]
    cs[a, CS_TAIL] = cs[b, CS_TAIL]
    cs[a, CS_FIRST] = min(cs[a, CS_FIRST], cs[b, CS_FIRST])
    cs[a, CS_SIZE] += cs[b, CS_SIZE]
    for col in (CS_GENDER, CS_NUMBER, CS_ANIMACY, CS_NE):
        cs[a, col] |= cs[b, col]
    return a


@njit(cache=True)
def sets_agree(a, b):
    """CoreNLP's entityAttributesAgree for one attribute, unknown values left out: two sets disagree
    only when each holds a value the other lacks (an empty set agrees with anything)."""
    if a == 0 or b == 0:
        return True
    return not ((a & ~b) != 0 and (b & ~a) != 0)


@njit(cache=True)
def entities_agree(cs, ra, rb):
    """Number, gender, animacy and NE sets of the clusters rooted at ra and rb all agree."""
    for col in (CS_GENDER, CS_NUMBER, CS_ANIMACY, CS_NE):
        if not sets_agree(cs[ra, col], cs[rb, col]):
            return False
    return True


@njit(cache=True)
def cluster_has_head(cs, mi, root, word):
    """Some non-pronoun mention of the cluster has head word `word` (cluster head match)."""
    m = cs[root, CS_HEAD]
    while m >= 0:
        if mi[m, C_TYPE] != TYPE_PRONOUN and mi[m, C_HEADW] == word:
            return True
        m = cs[m, CS_NEXT]
    return False


@njit(cache=True)
def _stamp_cluster_words(cs, mi, tok_lower, root, stamp, ctr):
    ctr[0] += 1
    s = ctr[0]
    m = cs[root, CS_HEAD]
    while m >= 0:
        if mi[m, C_TYPE] != TYPE_PRONOUN:
            for t in range(mi[m, C_START], mi[m, C_END] + 1):
                stamp[tok_lower[t]] = s
        m = cs[m, CS_NEXT]
    return s


@njit(cache=True)
def cluster_has_word(cs, mi, tok_lower, root, word, stamp, ctr):
    """Some non-pronoun mention of the cluster contains `word` (relaxed head match)."""
    s = _stamp_cluster_words(cs, mi, tok_lower, root, stamp, ctr)
    return stamp[word] == s


@njit(cache=True)
def words_included(cs, mi, tok_lower, tok_flags, r_ana, r_ante, anaphor, stamp, ctr):
    """Word inclusion: the words of the anaphor's cluster (non-pronoun mentions; stop words and the
    anaphor's head left out) all occur in the antecedent cluster's non-pronoun mentions."""
    s = _stamp_cluster_words(cs, mi, tok_lower, r_ante, stamp, ctr)
    head = mi[anaphor, C_HEADW]
    m = cs[r_ana, CS_HEAD]
    while m >= 0:
        if mi[m, C_TYPE] != TYPE_PRONOUN:
            for t in range(mi[m, C_START], mi[m, C_END] + 1):
                w = tok_lower[t]
                if w != head and not (tok_flags[t] & F_STOP) and stamp[w] != s:
                    return False
        m = cs[m, CS_NEXT]
    return True


@njit(cache=True)
def flagged_words_included(mi, tok_lower, tok_flags, a, b, flag, skip_heads, stamp, ctr):
    """Every word of mention a carrying `flag` also occurs, with the flag, in mention b (heads left
    out when skip_heads)."""
    ctr[0] += 1
    s = ctr[0]
    for t in range(mi[b, C_START], mi[b, C_END] + 1):
        if tok_flags[t] & flag and not (skip_heads and t == mi[b, C_HEAD]):
            stamp[tok_lower[t]] = s
    for t in range(mi[a, C_START], mi[a, C_END] + 1):
        if tok_flags[t] & flag and not (skip_heads and t == mi[a, C_HEAD]) and stamp[tok_lower[t]] != s:
            return False
    return True


@njit(cache=True)
def modifiers_compatible(mi, tok_lower, tok_flags, anaphor, ante, stamp, ctr):
    """Compatible modifiers only: the anaphor's noun, adjective, number and possessive-pronoun modifiers
    (its words but the head) all occur among the candidate mention's. Numbers and possessives are
    added to Lee et al.'s nouns and adjectives: "2 years" and "3 years", "my head" and "his head"
    differ as much as "Lebanon" and "southern Lebanon"."""
    return flagged_words_included(mi, tok_lower, tok_flags, anaphor, ante, F_MOD | F_NUM, True, stamp, ctr)


@njit(cache=True)
def log_merge(log, n_log, p, j, i):
    """Append the merge (pass p, anaphor j, antecedent i) to the log; returns the new length."""
    log[n_log, 0] = p
    log[n_log, 1] = j
    log[n_log, 2] = i
    return n_log + 1
