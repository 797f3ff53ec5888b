"""Speakers (sieve pass 1, Lee et al. 2013 Sec. 3.3.1) and the person constraints of pass 10.

Why apart: who utters a mention decides both the speaker pass's merges and whether two pronouns of
different person may corefer. A mention's speaker key is its quotation's speaker cluster (`quotes`),
else its quotation (speaker unknown), else the corpus's speaker column, else the narrator.
"""

from numba import njit

from coreflab.corpus.compiled import TYPE_NAME, TYPE_PRONOUN
from coreflab.learn.rules.clusters import find, log_merge, union
from coreflab.learn.rules.columns import (
    C_END,
    C_PERSON,
    C_QUOTE,
    C_QUOTE_SPK,
    C_SG1,
    C_SPK,
    C_START,
    C_TYPE,
    C_YOU,
    F_STOP,
)

NARRATOR = -1  # speaker key of mentions outside quotations without a speaker column
SPEAKER_PASS = 1  # its number in the merge log


@njit(cache=True)
def speaker_key(cs, mi, m, n_spk):
    """Who utters mention m: a quotation's speaker cluster, else the quotation itself (unknown
    speaker), else the speaker column, else the narrator. Keys of different kinds never collide."""
    q = mi[m, C_QUOTE]
    if q >= 0:
        if mi[m, C_QUOTE_SPK] >= 0:
            return n_spk + 2 * find(cs, mi[m, C_QUOTE_SPK])
        return n_spk + 2 * q + 1
    if mi[m, C_SPK] >= 0:
        return mi[m, C_SPK]
    return NARRATOR


@njit(cache=True)
def person_ok(cs, mi, i, j, n_spk):
    """Lee et al.'s person and discourse constraints for pronoun j and candidate i: a first/second-
    person pronoun takes only a pronoun of its person uttered by the same speaker (the speaker pass
    links speakers to their I); I/you of different speakers differ; a third-person pronoun does not
    take I/you of its own speaker. Pronouns of different speakers (one in a quotation) may differ in
    person ("[I] voted," [she] said)."""
    pj, pi = mi[j, C_PERSON], mi[i, C_PERSON]
    same = speaker_key(cs, mi, i, n_spk) == speaker_key(cs, mi, j, n_spk)
    if pj == 1 or pj == 2:
        return mi[i, C_TYPE] == TYPE_PRONOUN and pi == pj and same
    if mi[i, C_TYPE] == TYPE_PRONOUN and (pi == 1 or pi == 2):
        return not same
    return True


@njit(cache=True)
def _names_speaker(mi, tok_lower, tok_flags, i, spk, spk_off, spk_words):
    """Mention i is a name whose words (stop words aside) are all parts of the speaker's name."""
    if mi[i, C_TYPE] != TYPE_NAME:
        return False
    for t in range(mi[i, C_START], mi[i, C_END] + 1):
        if tok_flags[t] & F_STOP:
            continue
        found = False
        for w in range(spk_off[spk], spk_off[spk + 1]):
            found = found or spk_words[w] == tok_lower[t]
        if not found:
            return False
    return True


@njit(cache=True)
def speaker_pass(cs, mi, tok_lower, tok_flags, lo, hi, spk_off, spk_words, n_spk, log, n_log):
    """Pass 1 (Lee et al. 3.3.1), as direct merges: an I in a quotation and the quotation's speaker;
    an I outside quotations and the closest name whose words are all parts of its speaker-column name
    (earlier mentions first, then later ones); I's of one speaker; you's of one speaker."""
    for j in range(lo, hi):
        if mi[j, C_SG1] == 1 and mi[j, C_QUOTE_SPK] >= 0 and find(cs, j) != find(cs, mi[j, C_QUOTE_SPK]):
            union(cs, j, mi[j, C_QUOTE_SPK])
            n_log = log_merge(log, n_log, SPEAKER_PASS, j, mi[j, C_QUOTE_SPK])
    for j in range(lo, hi):
        spk = mi[j, C_SPK]
        if mi[j, C_SG1] == 0 or mi[j, C_QUOTE] >= 0 or spk < 0:
            continue
        best = -1
        for step in range(1, hi - lo):
            for i in (j - step, j + step):
                if best < 0 and lo <= i < hi and _names_speaker(mi, tok_lower, tok_flags, i, spk, spk_off, spk_words):
                    best = i
            if best >= 0:
                break
        if best >= 0 and find(cs, best) != find(cs, j):
            union(cs, j, best)
            n_log = log_merge(log, n_log, SPEAKER_PASS, j, best)
    for j in range(lo, hi):
        if mi[j, C_SG1] == 0 and mi[j, C_YOU] == 0:
            continue
        kj = speaker_key(cs, mi, j, n_spk)
        for i in range(j - 1, lo - 1, -1):
            same_kind = (mi[i, C_SG1] == 1 and mi[j, C_SG1] == 1) or (mi[i, C_YOU] == 1 and mi[j, C_YOU] == 1)
            if same_kind and speaker_key(cs, mi, i, n_spk) == kj:
                if find(cs, i) != find(cs, j):
                    union(cs, j, i)
                    n_log = log_merge(log, n_log, SPEAKER_PASS, j, i)
                break
    return n_log
