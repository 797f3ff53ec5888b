"""numba kernels: template values of an arc and the two-pass (count, fill) arc store build.

Arcs of global mention row j (document rows [lo, hi)): first the root arc (i = -1), then
the candidates `candidates.py` chose (the last `window` mentions, plus string-matched
earlier ones), in ascending order, read from `arc_ante`. One kernel walks every document;
nothing Python-side runs per arc.

A feature id is the hash chain (`hashing.py`) started from mix(key(entry)) (`start[t]`,
precomputed), folding first the anaphor-side values of the entry (ana_* columns, bias),
then its antecedent/pair values in the order written, then ROOT_MARK on root arcs. The
anaphor-side prefix is computed once per mention; the count pass uses bit masks of which
entries have values on each side, so it never computes a value per arc.
"""

from collections import namedtuple

import numpy as np
from numba import njit

from coreflab.corpus.compiled import TYPE_NAME
from coreflab.features.hashing import ROOT_MARK, hash_index, hash_step
from coreflab.features.mention_table import (
    C_ACRO,
    C_END,
    C_FULL,
    C_GENDER,
    C_HEAD,
    C_HEAD_LOWER,
    C_LAST,
    C_NUMBER,
    C_PATH_ROOT,
    C_SELF_ACRO,
    C_SENT,
    C_SPEAKER,
    C_START,
    C_STRIPPED,
    C_TOK_BASE,
    C_TYPE,
    bucket,
)
from coreflab.features.templates import (
    N_PAIR_OPS,
    P_ALIAS,
    P_EXACT,
    P_GENDER_AGREE,
    P_HEAD_CONTAINED,
    P_HEAD_MATCH,
    P_MATCH_KIND,
    P_MENT_DIST,
    P_NESTED,
    P_NUMBER_AGREE,
    P_SAME_SPEAKER,
    P_SENT_DIST,
    P_SENT_PATHS,
    P_SUBSTRING,
)

NO_VALUE = -1
OTHER_SENTENCE = -2  # sent_paths value of mentions in different sentences
_PATH_MASK = np.uint64(0x3FFFFFFFFFFFFFFF)  # keeps a hashed value non-negative

Templates = namedtuple("Templates", ["start", "n_ana", "ana_col", "n_oth", "oth_slot", "n_cols"])
Templates.__doc__ = """The compiled feature templates both kernel passes read: per entry its hash start, its
anaphor-side columns and its other-side slots (a slot >= n_cols names a pair value)."""


@njit(cache=True, inline="always")
def _agree(a, b):
    if a <= 0 or b <= 0:
        return 2
    return 1 if a == b else 0


@njit(cache=True, inline="always")
def _contains(tok, long_s, long_e, short_s, short_e):
    """Is tokens[short_s..short_e] a contiguous run inside tokens[long_s..long_e]?"""
    n = short_e - short_s + 1
    for s in range(long_s, long_e - n + 2):
        ok = True
        for k in range(n):
            if tok[s + k] != tok[short_s + k]:
                ok = False
                break
        if ok:
            return True
    return False


@njit(cache=True, inline="always")
def _word_in(tok, w, s, e):
    for t in range(s, e + 1):
        if tok[t] == w:
            return True
    return False


@njit(cache=True, inline="always")
def pair_values(j, i, T, tok_lower, need, pv):
    """Values of the pair templates flagged in `need` for anaphor row j and antecedent
    row i (rows of the mention table T), written into pv[op]. One inlined function with
    the rows read once: calling a function per operation costs more than the operations."""
    if need[P_SENT_DIST]:
        pv[P_SENT_DIST] = bucket(abs(T[j, C_SENT] - T[i, C_SENT]))
    if need[P_MENT_DIST]:
        pv[P_MENT_DIST] = bucket(j - i)
    if need[P_EXACT]:
        pv[P_EXACT] = 1 if T[j, C_FULL] == T[i, C_FULL] and T[j, C_FULL] >= 0 else 0
    if need[P_HEAD_MATCH]:
        pv[P_HEAD_MATCH] = 1 if T[j, C_HEAD] == T[i, C_HEAD] and T[j, C_HEAD] >= 0 else 0
    sj = T[j, C_TOK_BASE] + T[j, C_START]
    ej = T[j, C_TOK_BASE] + T[j, C_END]
    si = T[i, C_TOK_BASE] + T[i, C_START]
    ei = T[i, C_TOK_BASE] + T[i, C_END]
    if need[P_SUBSTRING]:
        if ej - sj <= ei - si:
            pv[P_SUBSTRING] = 1 if _contains(tok_lower, si, ei, sj, ej) else 0
        else:
            pv[P_SUBSTRING] = 1 if _contains(tok_lower, sj, ej, si, ei) else 0
    if need[P_HEAD_CONTAINED] or need[P_MATCH_KIND]:
        if _word_in(tok_lower, T[j, C_HEAD_LOWER], si, ei):
            pv[P_HEAD_CONTAINED] = 1
        elif _word_in(tok_lower, T[i, C_HEAD_LOWER], sj, ej):
            pv[P_HEAD_CONTAINED] = 2
        else:
            pv[P_HEAD_CONTAINED] = 0
    if need[P_ALIAS]:
        if (T[j, C_ACRO] >= 0 and T[j, C_ACRO] == T[i, C_SELF_ACRO]) or (
            T[i, C_ACRO] >= 0 and T[i, C_ACRO] == T[j, C_SELF_ACRO]
        ):
            pv[P_ALIAS] = 1
        elif (
            T[j, C_TYPE] == TYPE_NAME
            and T[i, C_TYPE] == TYPE_NAME
            and T[j, C_LAST] >= 0
            and T[j, C_LAST] == T[i, C_LAST]
            and T[j, C_FULL] != T[i, C_FULL]
        ):
            pv[P_ALIAS] = 2
        else:
            pv[P_ALIAS] = 0
    if need[P_GENDER_AGREE]:
        pv[P_GENDER_AGREE] = _agree(T[j, C_GENDER], T[i, C_GENDER])
    if need[P_NUMBER_AGREE]:
        pv[P_NUMBER_AGREE] = _agree(T[j, C_NUMBER], T[i, C_NUMBER])
    if need[P_NESTED]:
        # token positions within one document (arcs never cross documents)
        if ei < sj or ej < si:
            pv[P_NESTED] = 0
        elif si <= sj and ej <= ei:
            pv[P_NESTED] = 1
        elif sj <= si and ei <= ej:
            pv[P_NESTED] = 2
        else:
            pv[P_NESTED] = 3
    if need[P_SAME_SPEAKER]:
        a, b = T[j, C_SPEAKER], T[i, C_SPEAKER]
        pv[P_SAME_SPEAKER] = NO_VALUE if a < 0 or b < 0 else (1 if a == b else 0)
    if need[P_MATCH_KIND]:
        if T[j, C_FULL] >= 0 and T[j, C_FULL] == T[i, C_FULL]:
            pv[P_MATCH_KIND] = 1
        elif T[j, C_STRIPPED] >= 0 and T[j, C_STRIPPED] == T[i, C_STRIPPED]:
            pv[P_MATCH_KIND] = 2
        elif T[j, C_HEAD] >= 0 and T[j, C_HEAD] == T[i, C_HEAD]:
            pv[P_MATCH_KIND] = 3
        elif pv[P_HEAD_CONTAINED] > 0:
            pv[P_MATCH_KIND] = 4
        else:
            pv[P_MATCH_KIND] = 0
    if need[P_SENT_PATHS]:
        if T[j, C_SENT] == T[i, C_SENT]:
            h = hash_step(hash_step(np.uint64(0), T[j, C_PATH_ROOT]), T[i, C_PATH_ROOT])
            pv[P_SENT_PATHS] = np.int64(h & _PATH_MASK)
        else:
            pv[P_SENT_PATHS] = OTHER_SENTENCE


@njit(cache=True, inline="always")
def _popcount(x):
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True)
def definedness_masks(T, n_ana, ana_col, n_oth, oth_slot, n_cols):
    """Per mention, bit t of jmask: entry t's anaphor side has a value when this mention
    is the anaphor; of imask: its antecedent side has one when it is the antecedent.
    Only `ana_*`/`ante_*` cells equal to -1 and `same_speaker` (speaker -1) lack values,
    so an arc (i -> j) has exactly popcount(jmask[j] & imask[i] & nonroot) features."""
    n = T.shape[0]
    n_t = n_ana.shape[0]
    n_w = (n_t + 63) // 64
    jmask = np.zeros((n, n_w), dtype=np.uint64)
    imask = np.zeros((n, n_w), dtype=np.uint64)
    for r in range(n):
        for t in range(n_t):
            ok_j = True
            ok_i = True
            for c in range(n_ana[t]):
                col = ana_col[t, c]
                if col >= 0 and T[r, col] == NO_VALUE:
                    ok_j = False
            for c in range(n_oth[t]):
                slot = oth_slot[t, c]
                if slot < n_cols:
                    if T[r, slot] == NO_VALUE:
                        ok_i = False
                elif slot - n_cols == P_SAME_SPEAKER and T[r, C_SPEAKER] == NO_VALUE:
                    ok_i = False  # same_speaker needs the speakers of both mentions
                    ok_j = False
            bit = np.uint64(1) << np.uint64(t % 64)
            if ok_j:
                jmask[r, t // 64] |= bit
            if ok_i:
                imask[r, t // 64] |= bit
    nonroot = np.zeros(n_w, dtype=np.uint64)
    for t in range(n_t):
        if n_oth[t] > 0:
            nonroot[t // 64] |= np.uint64(1) << np.uint64(t % 64)
    return jmask, imask, nonroot


@njit(cache=True)
def _anaphor_prefix(tpl, T, j, t):
    """(hash of entry t's anaphor side for mention j, whether every cell has a value); the
    root arc and every arc of j start from it (the hash is unused when a value is missing)."""
    h = tpl.start[t]
    for c in range(tpl.n_ana[t]):
        col = tpl.ana_col[t, c]
        v = 0 if col < 0 else T[j, col]
        if v == NO_VALUE:
            return h, False
        h = hash_step(h, v)
    return h, True


@njit(cache=True)
def _root_features(j, T, tpl, n_bits, out, pos, tags):
    """Features of the root arc of j (anaphor side + ante_type = R; no pair values).
    Writes them at out[pos:] unless n_bits == 0 (and their template indices at tags[pos:] if tags
    is not empty); returns their number."""
    n_oth, oth_slot = tpl.n_oth, tpl.oth_slot
    n = 0
    for t in range(tpl.start.shape[0]):
        h, ok = _anaphor_prefix(tpl, T, j, t)
        if not ok:
            continue
        for c in range(n_oth[t]):
            if oth_slot[t, c] != C_TYPE:  # only the antecedent's type exists at the root
                ok = False
                break
            h = hash_step(h, 0)
        if not ok:
            continue
        if n_bits > 0:
            out[pos + n] = hash_index(hash_step(h, ROOT_MARK), n_bits)
            if tags.shape[0] > 0:
                tags[pos + n] = t
        n += 1
    return n


@njit(cache=True)
def count_features(doc_off, arc_ante, T, tpl, m_arc_off, counts):
    """Pass 1: number of features of every arc into counts[n_arcs] (from bit masks)."""
    jmask, imask, nonroot = definedness_masks(T, tpl.n_ana, tpl.ana_col, tpl.n_oth, tpl.oth_slot, tpl.n_cols)
    dummy = np.zeros(1, dtype=np.int32)
    no_tags = np.zeros(0, dtype=np.uint16)
    n_w = nonroot.shape[0]
    for d in range(doc_off.shape[0] - 1):
        lo, hi = doc_off[d], doc_off[d + 1]
        for j in range(lo, hi):
            a = m_arc_off[j]
            counts[a] = _root_features(j, T, tpl, 0, dummy, 0, no_tags)
            for a in range(m_arc_off[j] + 1, m_arc_off[j + 1]):
                i = lo + arc_ante[a]
                c = 0
                for w in range(n_w):
                    c += _popcount(jmask[j, w] & imask[i, w] & nonroot[w])
                counts[a] = c


@njit(cache=True)
def fill_features(doc_off, arc_ante, T, tok_lower, tpl, used_ops, n_bits, m_arc_off, arc_feat_off, arc_feats, arc_tags):
    """Pass 2: hashed feature ids of every arc (antecedents given in arc_ante); with a non-empty
    arc_tags (uint16, as long as arc_feats) also the template index of every feature.

    Returns the number of arcs whose feature count disagrees with pass 1 (always 0)."""
    start, n_oth, oth_slot, n_cols = tpl.start, tpl.n_oth, tpl.oth_slot, tpl.n_cols
    n_t = start.shape[0]
    prefix = np.empty(n_t, dtype=np.uint64)
    ok_j = np.empty(n_t, dtype=np.bool_)
    nr = np.empty(n_t, dtype=np.int64)  # entries with an antecedent side
    n_nr = 0
    for t in range(n_t):
        if n_oth[t] > 0:
            nr[n_nr] = t
            n_nr += 1
    pv = np.full(N_PAIR_OPS, NO_VALUE, dtype=np.int64)
    need = np.zeros(N_PAIR_OPS, dtype=np.bool_)
    for q in range(used_ops.shape[0]):
        need[used_ops[q]] = True
    bad = 0
    for d in range(doc_off.shape[0] - 1):
        lo, hi = doc_off[d], doc_off[d + 1]
        for j in range(lo, hi):
            a = m_arc_off[j]
            k = _root_features(j, T, tpl, n_bits, arc_feats, arc_feat_off[a], arc_tags)
            bad += k != arc_feat_off[a + 1] - arc_feat_off[a]
            # anaphor-side prefix of every entry, once per mention
            for q in range(n_nr):
                t = nr[q]
                prefix[t], ok_j[t] = _anaphor_prefix(tpl, T, j, t)
            for a in range(m_arc_off[j] + 1, m_arc_off[j + 1]):
                i = lo + arc_ante[a]
                pair_values(j, i, T, tok_lower, need, pv)
                pos = arc_feat_off[a]
                n = 0
                for q in range(n_nr):
                    t = nr[q]
                    if not ok_j[t]:
                        continue
                    h = prefix[t]
                    ok = True
                    for c in range(n_oth[t]):
                        slot = oth_slot[t, c]
                        v = T[i, slot] if slot < n_cols else pv[slot - n_cols]
                        if v == NO_VALUE:
                            ok = False
                            break
                        h = hash_step(h, v)
                    if ok:
                        arc_feats[pos + n] = hash_index(h, n_bits)
                        if arc_tags.shape[0] > 0:
                            arc_tags[pos + n] = t
                        n += 1
                bad += n != arc_feat_off[a + 1] - pos
    return bad
