"""The sieve passes 2-10 and the loop that runs all ten, in numba (Lee et al. 2013, Sec. 3).

Why one loop: every pass but the speaker pass (`rules.speaker`) has the same shape. Mentions are
visited in text order; an anaphor is the first mention (in text order) of its current cluster,
except in exact string match and precise constructs, which take every mention. As in CoreNLP's
skipThisMention, an anaphor that is or starts with an indefinite pronoun ("some", "another ...")
is skipped in every pass, one starting with "a"/"an" in every pass but exact string match and the
appositive and predicate-nominative constructs. Its candidates are the earlier mentions (rows) of the document, in Raghunathan et
al.'s (2010) order (`order` PAPER) with token order standing in for the parse tree's breadth-first
traversal: the anaphor's own sentence left to right (mentions starting together: the longer
first), then earlier sentences nearest first, each left to right for a pronoun anaphor (favouring
subjects) and right to left for other anaphors (favouring nearness); with `order` CLOSEST every
candidate nearest first. The first candidate of another cluster that the pass accepts merges the
two clusters, and later passes see the merged cluster. Pronouns look back at most `window`
sentences (3 by default, string_match's bound; a limit this port sets). Each pass's test is split
into conditions on the anaphor, on the candidate, on the two clusters (computed once per candidate
cluster and anaphor) and on the pair, so that most pairs cost a comparison or two.
"""

from collections import namedtuple

import numpy as np
from numba import njit

from coreflab.corpus.compiled import TYPE_NAME, TYPE_PRONOUN
from coreflab.learn.rules.clusters import (
    CS_FIRST,
    cluster_has_head,
    cluster_has_word,
    entities_agree,
    find,
    flagged_words_included,
    log_merge,
    modifiers_compatible,
    new_state,
    union,
    words_included,
)
from coreflab.learn.rules.columns import (
    C_ACR,
    C_CAPS,
    C_CUT,
    C_DEMONYM,
    C_END,
    C_FUNC,
    C_HEAD,
    C_HEADW,
    C_INDEF,
    C_NE,
    C_NOS,
    C_PLACE,
    C_RELAXED,
    C_SENT,
    C_START,
    C_TYPE,
    F_NUM,
    F_PROPER,
    F_SPATIAL,
    INDEF_ARTICLE,
    INDEF_PRONOUN,
)
from coreflab.learn.rules.constructs import APPOSITIVE, PREDICATE_NOMINATIVE, precise_construct
from coreflab.learn.rules.speaker import person_ok, speaker_pass

SPEAKER, EXACT, RELAXED, PRECISE, STRICT_A, STRICT_B, STRICT_C, PROPER_HEAD, RELAXED_HEAD, PRONOUN = range(1, 11)
PAPER, CLOSEST = 0, 1

Text = namedtuple(
    "Text",
    ["mi", "tok_lower", "tok_flags", "tok_mstart", "tok_mend", "doc_m_off", "doc_t_off", "spk_off", "spk_words"],
)
Text.__doc__ = """The arrays of a `SieveTable` the passes read (mentions, tokens, document offsets, speakers)."""


@njit(cache=True)
def _nested(mi, i, j):
    """i-within-i: one mention's span contains the other's."""
    si, ei, sj, ej = mi[i, C_START], mi[i, C_END], mi[j, C_START], mi[j, C_END]
    return (si <= sj and ej <= ei) or (sj <= si and ei <= ej)


@njit(cache=True)
def _candidates(mi, lo, j, order, pronoun, max_back, buf):
    """Fill buf with the candidate rows of anaphor j in visiting order; returns their number."""
    k = 0
    a = j
    sj = mi[j, C_SENT]
    while a > lo:
        s = mi[a - 1, C_SENT]
        if max_back >= 0 and sj - s > max_back:
            break
        b = a
        while b > lo and mi[b - 1, C_SENT] == s:
            b -= 1
        if order == PAPER and (s == sj or pronoun):
            r = b
            while r < a:  # left to right; mentions starting together: the longest first
                r2 = r
                while r2 + 1 < a and mi[r2 + 1, C_START] == mi[r, C_START]:
                    r2 += 1
                for x in range(r2, r - 1, -1):
                    buf[k] = x
                    k += 1
                r = r2 + 1
        else:
            for x in range(a - 1, b - 1, -1):
                buf[k] = x
                k += 1
        a = b
    return k


@njit(cache=True)
def _extra_proper(mi, tok_lower, tok_flags, a, b, stamp, ctr):
    """Mention a has a proper noun before its head that b lacks there."""
    ctr[0] += 1
    s = ctr[0]
    for t in range(mi[b, C_START], mi[b, C_HEAD]):
        if tok_flags[t] & F_PROPER:
            stamp[tok_lower[t]] = s
    for t in range(mi[a, C_START], mi[a, C_HEAD]):
        if tok_flags[t] & F_PROPER and stamp[tok_lower[t]] != s:
            return True
    return False


@njit(cache=True)
def _proper_head_match(mi, tok_lower, tok_flags, i, j, stamp, ctr):
    """Pass 8: two names with the same head, the head the last word before any comma or relative
    clause (CoreNLP's entitySameProperHeadLastWord); not both with a proper noun the other lacks; no
    location mismatch (the same spatial modifiers); no number in j that i lacks."""
    if mi[i, C_TYPE] != TYPE_NAME or mi[j, C_TYPE] != TYPE_NAME or mi[i, C_HEADW] != mi[j, C_HEADW]:
        return False
    if mi[i, C_HEAD] != mi[i, C_CUT] or mi[j, C_HEAD] != mi[j, C_CUT]:
        return False
    if _extra_proper(mi, tok_lower, tok_flags, i, j, stamp, ctr) and _extra_proper(
        mi, tok_lower, tok_flags, j, i, stamp, ctr
    ):
        return False
    if not flagged_words_included(mi, tok_lower, tok_flags, j, i, F_NUM, False, stamp, ctr):
        return False
    return flagged_words_included(
        mi, tok_lower, tok_flags, j, i, F_SPATIAL, False, stamp, ctr
    ) and flagged_words_included(mi, tok_lower, tok_flags, i, j, F_SPATIAL, False, stamp, ctr)


@njit(cache=True)
def _anaphor_ok(p, mi, j, has_ne):
    """Conditions of pass p on the anaphor alone (most anaphors then skip the candidate scan)."""
    tj = mi[j, C_TYPE]
    if p == PRONOUN:
        return tj == TYPE_PRONOUN
    if p == PRECISE:
        return True
    if tj == TYPE_PRONOUN:
        return False
    if p == EXACT:  # a lone demonstrative or quantifier ("that", "some") names nothing to match
        return not (mi[j, C_FUNC] == 1 and mi[j, C_START] == mi[j, C_END])
    if mi[j, C_FUNC] == 1:
        return False
    if p == PROPER_HEAD:
        return tj == TYPE_NAME and mi[j, C_HEAD] == mi[j, C_CUT]
    if p == RELAXED_HEAD:
        return mi[j, C_NE] != 0 if has_ne else tj == TYPE_NAME
    return True


@njit(cache=True)
def _candidate_ok(p, mi, i, j, has_ne):
    """Conditions of pass p on candidate i that need no cluster (checked before any)."""
    ti = mi[i, C_TYPE]
    if p == PRONOUN:
        return not _nested(mi, i, j)
    if p == PRECISE:
        return True
    if ti == TYPE_PRONOUN:
        return False
    if p == EXACT:
        return mi[i, C_NOS] == mi[j, C_NOS]
    if mi[i, C_FUNC] == 1:
        return False
    if p == RELAXED:
        return mi[i, C_RELAXED] == mi[j, C_RELAXED]
    if _nested(mi, i, j):
        return False
    if p == PROPER_HEAD:
        return ti == TYPE_NAME and mi[i, C_HEADW] == mi[j, C_HEADW]
    if p == RELAXED_HEAD:
        return mi[i, C_NE] == mi[j, C_NE] if has_ne else ti == TYPE_NAME
    return True


@njit(cache=True)
def _clusters_ok(p, cs, mi, tok_lower, tok_flags, j, ri, rj, stamp, ctr):
    """Conditions of pass p on the two clusters only (cached per candidate cluster and anaphor)."""
    if p == STRICT_A or p == STRICT_B or p == STRICT_C:
        if not cluster_has_head(cs, mi, ri, mi[j, C_HEADW]):
            return False
        return p == STRICT_C or words_included(cs, mi, tok_lower, tok_flags, rj, ri, j, stamp, ctr)
    if p == RELAXED_HEAD:
        if not cluster_has_word(cs, mi, tok_lower, ri, mi[j, C_HEADW], stamp, ctr):
            return False
        return words_included(cs, mi, tok_lower, tok_flags, rj, ri, j, stamp, ctr)
    if p == PRONOUN:
        return entities_agree(cs, ri, rj)
    return True


@njit(cache=True)
def _pair_ok(p, cs, tx, i, j, n_spk, t0, t1, kinds, stamp, ctr):
    """The remaining conditions of pass p on the mention pair (after `_candidate_ok`, `_clusters_ok`)."""
    mi, tok_lower, tok_flags = tx.mi, tx.tok_lower, tx.tok_flags
    if p == PRECISE:
        return precise_construct(mi, tok_flags, tx.tok_mstart, tx.tok_mend, i, j, t0, t1, kinds)
    if p == PRONOUN:
        return person_ok(cs, mi, i, j, n_spk)
    if p == STRICT_A or p == STRICT_C:
        return modifiers_compatible(mi, tok_lower, tok_flags, j, i, stamp, ctr)
    if p == PROPER_HEAD:
        return _proper_head_match(mi, tok_lower, tok_flags, i, j, stamp, ctr)
    return True


@njit(cache=True)
def _cross_sentence(p, mi, j):
    """Can pass p link j to a mention of an earlier sentence? Precise constructs but acronyms and
    demonyms join mentions of one sentence."""
    if p != PRECISE:
        return True
    return mi[j, C_ACR] >= 0 or mi[j, C_CAPS] >= 0 or mi[j, C_PLACE] >= 0 or mi[j, C_DEMONYM] >= 0


@njit(cache=True)
def run_passes(tx, n_vocab, has_ne, passes, order, window, kinds):
    """Run `passes` (pass numbers, in the order given) over every document; `kinds` is the bit mask of
    the precise constructs pass 4 uses (`constructs.KINDS`). Returns (antecedent row
    per mention: the previous mention of its cluster, -1 for the first; the merge log, one row per
    merge: pass, anaphor row, antecedent row). tx: the table's arrays (`Text`)."""
    mi, tok_lower, tok_flags, doc_m_off, doc_t_off = tx.mi, tx.tok_lower, tx.tok_flags, tx.doc_m_off, tx.doc_t_off
    spk_off, spk_words = tx.spk_off, tx.spk_words
    n = mi.shape[0]
    cs = new_state(mi)
    stamp = np.zeros(n_vocab + 1, np.int64)
    ctr = np.zeros(1, np.int64)
    log = np.zeros((max(n, 1), 3), np.int64)
    n_log = 0
    n_spk = spk_off.shape[0] - 1
    n_spk = max(n_spk, 0) + 1
    memo_visit = np.zeros(n, np.int64)  # per cluster root: the anaphor visit its memo_ok is for
    memo_ok = np.zeros(n, np.bool_)
    visit = 0
    for d in range(doc_m_off.shape[0] - 1):
        lo, hi = doc_m_off[d], doc_m_off[d + 1]
        t0, t1 = doc_t_off[d], doc_t_off[d + 1]
        buf = np.empty(max(hi - lo, 1), np.int64)
        for p in passes:
            if p == SPEAKER:
                n_log = speaker_pass(cs, mi, tok_lower, tok_flags, lo, hi, spk_off, spk_words, n_spk, log, n_log)
                continue
            every = p == EXACT or p == PRECISE
            for j in range(lo, hi):
                rj = find(cs, j)
                indef = mi[j, C_INDEF]
                if not every and (cs[rj, CS_FIRST] != j or indef != 0):
                    continue
                if every and indef & INDEF_PRONOUN:
                    continue
                kinds_j = kinds & (APPOSITIVE | PREDICATE_NOMINATIVE) if indef & INDEF_ARTICLE else kinds
                if not _anaphor_ok(p, mi, j, has_ne):
                    continue
                back = window if p == PRONOUN else (-1 if _cross_sentence(p, mi, j) else 0)
                k = _candidates(mi, lo, j, order, mi[j, C_TYPE] == TYPE_PRONOUN, back, buf)
                visit += 1
                for c in range(k):
                    i = buf[c]
                    if not _candidate_ok(p, mi, i, j, has_ne):
                        continue
                    ri = find(cs, i)
                    if ri == rj:
                        continue
                    if memo_visit[ri] != visit:
                        memo_visit[ri] = visit
                        memo_ok[ri] = _clusters_ok(p, cs, mi, tok_lower, tok_flags, j, ri, rj, stamp, ctr)
                    if memo_ok[ri] and _pair_ok(p, cs, tx, i, j, n_spk, t0, t1, kinds_j, stamp, ctr):
                        union(cs, i, j)
                        n_log = log_merge(log, n_log, p, j, i)
                        break
    ante = np.full(n, -1, np.int64)
    last = np.full(n, -1, np.int64)
    for m in range(n):  # rows of a document are contiguous: the chain never leaves it
        r = find(cs, m)
        ante[m] = last[r]
        last[r] = m
    return ante, log[:n_log]
