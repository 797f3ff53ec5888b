"""Precise constructs (sieve pass 4, Lee et al. 2013 Sec. 3.3.4), read off tokens instead of trees.

Why approximations: the compiled corpus keeps no parse tree, only per-mention constituent paths,
POS tags and tokens. Each construct is a test on a candidate i (earlier row) and an anaphor j:
  appositive       i , j  with a single comma between, i the longest mention ending there and j the
                   longest starting there, j followed by a comma or sentence punctuation but not by a
                   coordinator or another ", X ," / ", X and", i not preceded by "X ," (so lists
                   "A, B, C and D" are not appositions), neither a pronoun, lone demonstrative or number, not both names,
                   agreeing number/gender/animacy, and (with a parse) the same path to the root
                   (sibling constituents, the NP -> NP , NP pattern);
  predicate nominative  i (copula) j  with only copulas and non-negating adverbs between, i not
                   after a preposition (a subject), i not "it"/"there" (pleonastic) or a lone
                   demonstrative, j no pronoun or number, number/gender/animacy agree;
  role appositive  [i j...]: i a one-word-or-more common-noun prefix of the name j ("[actress]
                   Rebecca Schaeffer"), i animate and singular, j without 's or a coordinator;
  relative pronoun i (,) j  with j a one-token who/whom/whose/which/that right after i;
  acronym          both names, one a single all-capitals token spelled by the other's capitals
                   (CoreNLP's isAcronym);
  demonym          one is a place and the other its demonym (data/demonyms.tsv).
"""

from numba import njit

from coreflab.corpus.compiled import TYPE_COMMON, TYPE_NAME, TYPE_PRONOUN
from coreflab.learn.rules.clusters import sets_agree
from coreflab.learn.rules.columns import (
    ANIMATE,
    C_ACR,
    C_ANIMACY,
    C_CAPS,
    C_CAPS_SELF,
    C_DEMONYM,
    C_END,
    C_EXPL,
    C_FUNC,
    C_GENDER,
    C_HEAD,
    C_NE,
    C_NUMBER,
    C_OUTER_END,
    C_OUTER_START,
    C_PATH,
    C_PERSON_NE,
    C_PLACE,
    C_REL,
    C_SENT,
    C_START,
    C_TYPE,
    F_ADV,
    F_CC,
    F_COMMA,
    F_COPULA,
    F_END,
    F_NEG,
    F_NUM,
    F_POSS,
    F_PREP,
)


@njit(cache=True)
def _bit(v):
    return (1 << v) if v > 0 else 0


@njit(cache=True)
def _agree(mi, i, j, col):
    return sets_agree(_bit(mi[i, col]), _bit(mi[j, col]))


@njit(cache=True)
def _plain(mi, tok_flags, m):
    """A mention an apposition or copula can join: no pronoun, lone demonstrative or number."""
    return mi[m, C_TYPE] != TYPE_PRONOUN and mi[m, C_FUNC] == 0 and not (tok_flags[mi[m, C_HEAD]] & F_NUM)


@njit(cache=True)
def _listed(mi, tok_flags, tok_mstart, tok_mend, i, j, t0, t1):
    """The pair i , j is part of a list: ", X ," or ", X and" follows j, or "X ," precedes i, for a
    mention X."""
    t = mi[j, C_END] + 2
    if t < t1 and tok_flags[t - 1] & F_COMMA and tok_mstart[t] >= 0:
        after = mi[tok_mstart[t], C_END] + 1
        if after < t1 and tok_flags[after] & (F_COMMA | F_CC):
            return True
    t = mi[i, C_START] - 2
    return t >= t0 and (tok_flags[t + 1] & F_COMMA) != 0 and tok_mend[t] >= 0


@njit(cache=True)
def appositive(mi, tok_flags, tok_mstart, tok_mend, i, j, t0, t1):
    if mi[i, C_SENT] != mi[j, C_SENT] or not _plain(mi, tok_flags, i) or not _plain(mi, tok_flags, j):
        return False
    if mi[i, C_TYPE] == TYPE_NAME and mi[j, C_TYPE] == TYPE_NAME:
        return False
    if mi[j, C_START] != mi[i, C_END] + 2 or not (tok_flags[mi[i, C_END] + 1] & F_COMMA):
        return False
    if mi[i, C_OUTER_END] == 0 or mi[j, C_OUTER_START] == 0:
        return False
    after = mi[j, C_END] + 1
    if after < t1:
        f = tok_flags[after]
        if f & F_COMMA:
            if after + 1 < t1 and tok_flags[after + 1] & F_CC:
                return False
        elif not (f & F_END):
            return False
    if mi[i, C_PATH] >= 0 and mi[j, C_PATH] >= 0 and mi[i, C_PATH] != mi[j, C_PATH]:
        return False
    if _listed(mi, tok_flags, tok_mstart, tok_mend, i, j, t0, t1):
        return False
    return _agree(mi, i, j, C_NUMBER) and _agree(mi, i, j, C_GENDER) and _agree(mi, i, j, C_ANIMACY)


@njit(cache=True)
def predicate_nominative(mi, tok_flags, i, j, doc_tok_start):
    if mi[i, C_SENT] != mi[j, C_SENT] or mi[i, C_END] >= mi[j, C_START] or mi[i, C_EXPL] == 1:
        return False
    if mi[i, C_FUNC] == 1 or not _plain(mi, tok_flags, j):
        return False
    if mi[i, C_OUTER_END] == 0 or mi[j, C_OUTER_START] == 0:
        return False
    gap = mi[j, C_START] - mi[i, C_END] - 1
    if gap < 1 or gap > 3:
        return False
    copula = False
    for t in range(mi[i, C_END] + 1, mi[j, C_START]):
        f = tok_flags[t]
        if f & F_COPULA:
            copula = True
        elif not (f & F_ADV) or f & F_NEG:
            return False
    if not copula:
        return False
    before = mi[i, C_START] - 1
    if before >= doc_tok_start and tok_flags[before] & F_PREP:
        return False
    return _agree(mi, i, j, C_NUMBER) and _agree(mi, i, j, C_GENDER) and _agree(mi, i, j, C_ANIMACY)


@njit(cache=True)
def role_appositive(mi, tok_flags, i, j):
    if mi[i, C_START] != mi[j, C_START] or mi[i, C_END] >= mi[j, C_END]:
        return False
    if mi[i, C_TYPE] != TYPE_COMMON or mi[j, C_TYPE] != TYPE_NAME or mi[j, C_HEAD] <= mi[i, C_END]:
        return False
    animate = mi[i, C_ANIMACY] == ANIMATE or mi[i, C_GENDER] == 1 or mi[i, C_GENDER] == 2
    if not animate or mi[i, C_NUMBER] == 2 or mi[i, C_NE] > 0:
        return False
    if mi[j, C_NE] > 0 and mi[j, C_PERSON_NE] == 0:
        return False
    for t in range(mi[j, C_START], mi[j, C_END] + 1):
        if tok_flags[t] & (F_POSS | F_CC):
            return False
    return _agree(mi, i, j, C_GENDER)


@njit(cache=True)
def relative_pronoun(mi, tok_flags, i, j):
    if mi[j, C_REL] == 0 or mi[i, C_TYPE] == TYPE_PRONOUN or mi[i, C_REL] == 1 or mi[i, C_OUTER_END] == 0:
        return False
    if mi[i, C_SENT] != mi[j, C_SENT]:
        return False
    gap = mi[j, C_START] - mi[i, C_END] - 1
    return gap == 0 or (gap == 1 and (tok_flags[mi[i, C_END] + 1] & F_COMMA) != 0)


@njit(cache=True)
def acronym(mi, i, j):
    if mi[i, C_TYPE] != TYPE_NAME or mi[j, C_TYPE] != TYPE_NAME:
        return False
    if mi[j, C_ACR] >= 0 and mi[j, C_ACR] == mi[i, C_CAPS] and mi[i, C_CAPS_SELF] == 0:
        return True
    return mi[i, C_ACR] >= 0 and mi[i, C_ACR] == mi[j, C_CAPS] and mi[j, C_CAPS_SELF] == 0


@njit(cache=True)
def demonym(mi, i, j):
    if mi[i, C_PLACE] >= 0 and mi[i, C_PLACE] == mi[j, C_DEMONYM]:
        return True
    return mi[j, C_PLACE] >= 0 and mi[j, C_PLACE] == mi[i, C_DEMONYM]


APPOSITIVE, PREDICATE_NOMINATIVE, ROLE_APPOSITIVE, RELATIVE_PRONOUN, ACRONYM, DEMONYM = (1 << k for k in range(6))
KINDS = {
    "appositive": APPOSITIVE,
    "predicate_nominative": PREDICATE_NOMINATIVE,
    "role_appositive": ROLE_APPOSITIVE,
    "relative_pronoun": RELATIVE_PRONOUN,
    "acronym": ACRONYM,
    "demonym": DEMONYM,
}


@njit(cache=True)
def precise_construct(mi, tok_flags, tok_mstart, tok_mend, i, j, t0, t1, kinds):
    """Any of the constructs in the bit mask `kinds` links candidate i and anaphor j (t0, t1: the
    document's token range)."""
    return (
        (kinds & APPOSITIVE != 0 and appositive(mi, tok_flags, tok_mstart, tok_mend, i, j, t0, t1))
        or (kinds & PREDICATE_NOMINATIVE != 0 and predicate_nominative(mi, tok_flags, i, j, t0))
        or (kinds & ROLE_APPOSITIVE != 0 and role_appositive(mi, tok_flags, i, j))
        or (kinds & RELATIVE_PRONOUN != 0 and relative_pronoun(mi, tok_flags, i, j))
        or (kinds & ACRONYM != 0 and acronym(mi, i, j))
        or (kinds & DEMONYM != 0 and demonym(mi, i, j))
    )
