"""Per-token flags of the sieve: word classes from the word lists, POS classes from the tags.

Why: the passes test "is this a comma / copula / modifier / proper noun" on integers. A token with a
POS tag takes its classes from the tag (NNP proper, N*/J* modifier, CD number, W* wh-word, RB adverb,
IN/TO preposition, CC, POS); a corpus without tags (LitBank) guesses them from the word: a content
word is a modifier, a capitalised content word a proper noun, who/which/... a wh-word.
"""

import numpy as np

from coreflab.corpus.lexicon import FUNCTION_WORDS, PRONOUNS
from coreflab.learn.rules import words as W
from coreflab.learn.rules.columns import (
    F_ADV,
    F_CC,
    F_COLON,
    F_COMMA,
    F_COPULA,
    F_END,
    F_MOD,
    F_NEG,
    F_NUM,
    F_POSS,
    F_PREP,
    F_PROPER,
    F_QCLOSE,
    F_QOPEN,
    F_QTOGGLE,
    F_REPORT,
    F_SPATIAL,
    F_STOP,
    F_WH,
)


def _word_flags(w):
    f = F_MOD if w in POSSESSIVE_PRONOUNS else 0
    if w in W.INCLUSION_STOP_WORDS:
        f |= F_STOP
    if w in W.SPATIAL_WORDS:
        f |= F_SPATIAL
    if w in W.COPULAS:
        f |= F_COPULA
    if w in W.NEGATIONS:
        f |= F_NEG
    if w in W.PREPOSITIONS:
        f |= F_PREP
    if w in W.COORDINATORS:
        f |= F_CC
    if w == "'s":
        f |= F_POSS
    if w in W.word_set("report_verbs.txt"):
        f |= F_REPORT
    if w in W.NUMBER_WORDS or any(c.isdigit() for c in w):
        f |= F_NUM
    if w == ",":
        f |= F_COMMA
    if w == ":":
        f |= F_COLON
    if w in W.SENTENCE_PUNCT:
        f |= F_END
    if w in W.QUOTE_OPEN:
        f |= F_QOPEN
    if w in W.QUOTE_CLOSE:
        f |= F_QCLOSE
    if w in W.QUOTE_TOGGLE:
        f |= F_QTOGGLE
    return f


def _no_pos_flags(w):
    """Flags that POS tags give, guessed from the word where a corpus has no POS."""
    f = 0
    if w in ("who", "whom", "whose", "which", "where", "when"):
        f |= F_WH
    if (
        w not in FUNCTION_WORDS
        and w not in PRONOUNS
        and w not in W.INCLUSION_STOP_WORDS
        and any(c.isalnum() for c in w)
    ):
        f |= F_MOD
    return f


def _pos_flags(tag):
    f = 0
    if tag.startswith("NNP"):
        f |= F_PROPER
    if tag.startswith(("N", "J")):
        f |= F_MOD
    if tag == "CD":
        f |= F_NUM
    if tag.startswith("W"):
        f |= F_WH
    if tag.startswith("RB"):
        f |= F_ADV
    if tag in ("IN", "TO"):
        f |= F_PREP
    if tag == "CC":
        f |= F_CC
    if tag == "POS":
        f |= F_POSS
    return f


POSSESSIVE_PRONOUNS = frozenset(w for w, info in PRONOUNS.items() if info[4])


def token_flags(corpus):
    """Per token the F_* flags: word lists by lower-cased id, POS classes where the token has a tag."""
    vocab = corpus.vocab
    lower = corpus.tok_lower
    pos = corpus.tok_pos
    ids = np.unique(lower)
    by_word = np.zeros(len(vocab), np.int64)
    guessed = np.zeros(len(vocab), np.int64)
    by_word[ids] = [_word_flags(vocab[i]) for i in ids.tolist()]
    guessed[ids] = [_no_pos_flags(vocab[i]) for i in ids.tolist()]
    by_pos = np.zeros(len(vocab) + 1, np.int64)  # -1 (no tag) indexes the spare last entry
    tags = np.unique(pos[pos >= 0])
    by_pos[tags] = [_pos_flags(vocab[i]) for i in tags.tolist()]
    word = corpus.tok_word
    cased = np.zeros(len(vocab), np.int64)
    wids = np.unique(word)
    cased[wids] = [F_PROPER if _capitalised_content(vocab[i]) else 0 for i in wids.tolist()]
    return by_word[lower] | np.where(pos >= 0, by_pos[pos], guessed[lower] | cased[word])


def _capitalised_content(w):
    low = w.lower()
    return w[:1].isupper() and low not in FUNCTION_WORDS and low not in PRONOUNS and w.isalpha()
