"""Column and flag constants shared by the sieve's table builder and its numba passes.

Why a module of its own: numba freezes module globals as compile-time constants, and the table,
the quotation marker and the passes must agree on one numbering.
"""

# mention columns of `SieveTable.mi`
(
    C_DOC,
    C_START,
    C_END,
    C_HEAD,
    C_SENT,
    C_TYPE,
    C_GENDER,
    C_NUMBER,
    C_ANIMACY,
    C_NE,
    C_PERSON,
    C_SG1,
    C_YOU,
    C_HEADW,
    C_NOS,
    C_RELAXED,
    C_ACR,
    C_CAPS,
    C_CAPS_SELF,
    C_PLACE,
    C_DEMONYM,
    C_INDEF,
    C_OUTER_START,
    C_OUTER_END,
    C_SPK,
    C_QUOTE,
    C_QUOTE_SPK,
    C_REL,
    C_PATH,
    C_EXPL,
    C_PERSON_NE,
    C_FUNC,
    C_CUT,
) = range(33)
N_COLS = 33
ANIMATE, INANIMATE = 1, 2
INDEF_ARTICLE, INDEF_PRONOUN = 1, 2  # bits of C_INDEF: starts with a/an; is or starts with an indefinite pronoun

# token flags of `SieveTable.tok_flags`
F_MOD = 1 << 0  # a modifier word: a noun, adjective or possessive pronoun (without POS: a content word)
F_NUM = 1 << 1
F_COMMA = 1 << 2
F_WH = 1 << 3
F_STOP = 1 << 4  # left out of word inclusion
F_SPATIAL = 1 << 5
F_COPULA = 1 << 6
F_NEG = 1 << 7
F_ADV = 1 << 8
F_PREP = 1 << 9
F_CC = 1 << 10
F_POSS = 1 << 11
F_REPORT = 1 << 12
F_QOPEN = 1 << 13
F_QCLOSE = 1 << 14
F_QTOGGLE = 1 << 15
F_COLON = 1 << 16
F_END = 1 << 17  # sentence-final punctuation
F_PROPER = 1 << 18  # a proper noun (without POS: a capitalised content word)
