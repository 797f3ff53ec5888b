"""Quotations and their speakers, for the speaker sieve (Lee et al. 2013, Sec. 3.3.1).

Why: "I" inside a quotation is its speaker, named by the subject of a reporting verb beside it.
Lee et al. read that subject off the parse; here it is read off the tokens: a mention right after
the closing mark (an optional comma between) followed by a reporting verb ("...," he said), a
reporting verb followed by a mention ("...," said John), or before the opening mark a mention and
a reporting verb (John said, "..."). Directed marks (`` '' “ ”) open and close; an undirected
mark (") toggles; a quotation left open at the end of a document is dropped (its end is unknown).
Quotations do not nest.
"""

import numpy as np
from numba import njit

from coreflab.corpus.compiled import TYPE_PRONOUN
from coreflab.learn.rules.columns import (
    C_ANIMACY,
    C_END,
    C_NUMBER,
    C_PERSON,
    C_QUOTE,
    C_QUOTE_SPK,
    C_START,
    C_TYPE,
    F_COLON,
    F_COMMA,
    F_QCLOSE,
    F_QOPEN,
    F_QTOGGLE,
    F_REPORT,
    INANIMATE,
)


@njit(cache=True)
def _speakerlike(mi, r):
    """Could mention r speak? Not inanimate, not plural, not a second-person pronoun."""
    if r < 0 or mi[r, C_ANIMACY] == INANIMATE or mi[r, C_NUMBER] == 2:
        return False
    return not (mi[r, C_TYPE] == TYPE_PRONOUN and mi[r, C_PERSON] == 2)


@njit(cache=True)
def _attribute(qo, qc, t0, t1, tok_flags, start_row, end_row, mi):
    """Row of the mention speaking the quotation between marks qo and qc, -1 unknown."""
    t = qc + 1
    if t < t1 and tok_flags[t] & F_COMMA:
        t += 1
    if t < t1:
        if tok_flags[t] & F_REPORT and t + 1 < t1 and _speakerlike(mi, start_row[t + 1 - t0]):
            return start_row[t + 1 - t0]
        r = start_row[t - t0]
        if _speakerlike(mi, r) and mi[r, C_END] + 1 < t1 and tok_flags[mi[r, C_END] + 1] & F_REPORT:
            return r
    t = qo - 1
    if t >= t0 and tok_flags[t] & (F_COMMA | F_COLON):
        t -= 1
    if t > t0 and tok_flags[t] & F_REPORT and _speakerlike(mi, end_row[t - 1 - t0]):
        return end_row[t - 1 - t0]
    return -1


@njit(cache=True)
def mark_quotes(doc_tok_off, doc_m_off, tok_flags, mi):
    """Fill mi's C_QUOTE (a corpus-wide quotation number, -1 outside quotes) and C_QUOTE_SPK (the
    row of the quotation's speaker mention, -1 unknown) in place."""
    mi[:, C_QUOTE] = -1
    mi[:, C_QUOTE_SPK] = -1
    q_id = 0
    for d in range(doc_tok_off.shape[0] - 1):
        t0, t1 = doc_tok_off[d], doc_tok_off[d + 1]
        lo, hi = doc_m_off[d], doc_m_off[d + 1]
        start_row = np.full(t1 - t0, -1, np.int64)  # the longest mention starting / ending at a token
        end_row = np.full(t1 - t0, -1, np.int64)
        for r in range(lo, hi):
            s, e = mi[r, C_START] - t0, mi[r, C_END] - t0
            if start_row[s] < 0 or mi[start_row[s], C_END] < mi[r, C_END]:
                start_row[s] = r
            if end_row[e] < 0 or mi[end_row[e], C_START] > mi[r, C_START]:
                end_row[e] = r
        opens = np.empty(t1 - t0, np.int64)
        closes = np.empty(t1 - t0, np.int64)
        nq = 0
        open_at = -1
        for t in range(t0, t1):
            f = tok_flags[t]
            if open_at < 0 and f & (F_QOPEN | F_QTOGGLE):
                open_at = t
            elif open_at >= 0 and f & (F_QCLOSE | F_QTOGGLE):
                opens[nq] = open_at
                closes[nq] = t
                nq += 1
                open_at = -1
        q = 0
        for r in range(lo, hi):  # rows by start; quotations in order and disjoint
            while q < nq and closes[q] < mi[r, C_START]:
                q += 1
            if q == nq:
                break
            if opens[q] < mi[r, C_START] and mi[r, C_END] < closes[q]:
                mi[r, C_QUOTE] = q_id + q
        spk = np.empty(nq, np.int64)
        for k in range(nq):
            spk[k] = _attribute(opens[k], closes[k], t0, t1, tok_flags, start_row, end_row, mi)
        for r in range(lo, hi):
            if mi[r, C_QUOTE] >= 0:
                mi[r, C_QUOTE_SPK] = spk[mi[r, C_QUOTE] - q_id]
        q_id += nq
