"""The small built-in lexicon: pronouns, first names, honorifics, gendered nouns, plural rules.

Gender and number of a mention come from here (Bengtson & Roth 2008 and the Stanford
sieve use the same kinds of lists; Bergsma & Lin's gender counts are not redistributable,
so coreflab keeps to hand-written tables and public-domain name lists).

Sources and license:
  * pronouns, honorifics, gendered common nouns, function words, the plural heuristic:
    hand-written for coreflab (English grammar facts), MIT like the package;
  * first names: `coreflab.corpus.names` (1990 U.S. Census frequent first names, public
    domain; names listed for both genders are dropped here, so a listed name is unambiguous).

Every table is keyed by the lower-cased word form.
"""

from coreflab.corpus.compiled import (
    GENDER_FEMALE,
    GENDER_MALE,
    GENDER_NEUTER,
    GENDER_UNKNOWN,
    NUMBER_PLURAL,
    NUMBER_SINGULAR,
    NUMBER_UNKNOWN,
)
from coreflab.corpus.names import FEMALE_FIRST_NAMES, MALE_FIRST_NAMES

U, M, F, N = GENDER_UNKNOWN, GENDER_MALE, GENDER_FEMALE, GENDER_NEUTER
SG, PL, UN = NUMBER_SINGULAR, NUMBER_PLURAL, NUMBER_UNKNOWN

# form -> (person, gender, number, reflexive, possessive)
PRONOUNS = {
    "i": (1, U, SG, 0, 0),
    "me": (1, U, SG, 0, 0),
    "my": (1, U, SG, 0, 1),
    "mine": (1, U, SG, 0, 1),
    "myself": (1, U, SG, 1, 0),
    "we": (1, U, PL, 0, 0),
    "us": (1, U, PL, 0, 0),
    "our": (1, U, PL, 0, 1),
    "ours": (1, U, PL, 0, 1),
    "ourselves": (1, U, PL, 1, 0),
    "you": (2, U, UN, 0, 0),
    "your": (2, U, UN, 0, 1),
    "yours": (2, U, UN, 0, 1),
    "yourself": (2, U, SG, 1, 0),
    "yourselves": (2, U, PL, 1, 0),
    "thou": (2, U, SG, 0, 0),
    "thee": (2, U, SG, 0, 0),
    "thy": (2, U, SG, 0, 1),
    "thine": (2, U, SG, 0, 1),
    "thyself": (2, U, SG, 1, 0),
    "ye": (2, U, PL, 0, 0),
    "he": (3, M, SG, 0, 0),
    "him": (3, M, SG, 0, 0),
    "his": (3, M, SG, 0, 1),
    "himself": (3, M, SG, 1, 0),
    "she": (3, F, SG, 0, 0),
    "her": (3, F, SG, 0, 1),
    "hers": (3, F, SG, 0, 1),
    "herself": (3, F, SG, 1, 0),
    "it": (3, N, SG, 0, 0),
    "its": (3, N, SG, 0, 1),
    "itself": (3, N, SG, 1, 0),
    "they": (3, U, PL, 0, 0),
    "them": (3, U, PL, 0, 0),
    "their": (3, U, PL, 0, 1),
    "theirs": (3, U, PL, 0, 1),
    "themselves": (3, U, PL, 1, 0),
    "themself": (3, U, SG, 1, 0),
    "one": (3, U, SG, 0, 0),
    "oneself": (3, U, SG, 1, 0),
}

HONORIFICS = {
    "mr": M,
    "mr.": M,
    "sir": M,
    "lord": M,
    "king": M,
    "prince": M,
    "duke": M,
    "count": M,
    "father": M,
    "brother": M,
    "uncle": M,
    "master": M,
    "monsieur": M,
    "herr": M,
    "signor": M,
    "don": M,
    "mrs": F,
    "mrs.": F,
    "ms": F,
    "ms.": F,
    "miss": F,
    "madam": F,
    "madame": F,
    "mme": F,
    "mme.": F,
    "lady": F,
    "queen": F,
    "princess": F,
    "duchess": F,
    "countess": F,
    "mother": F,
    "sister": F,
    "aunt": F,
    "mademoiselle": F,
    "frau": F,
    "dame": F,
    "dr": U,
    "dr.": U,
    "prof": U,
    "prof.": U,
    "professor": U,
    "captain": U,
    "capt.": U,
    "col.": U,
    "colonel": U,
    "general": U,
    "gen.": U,
    "rev.": U,
    "reverend": U,
    "judge": U,
    "president": U,
    "senator": U,
    "gov.": U,
    "governor": U,
    "st.": U,
    "saint": U,
}

# common nouns whose referent has a lexical gender (heads of common-noun mentions)
GENDERED_NOUNS = {
    **{
        w: M
        for w in """man men boy boys gentleman gentlemen husband father son brother uncle nephew
       king prince duke lord sir monk priest grandfather grandson widower bridegroom groom
       businessman chairman sportsman fellow lad waiter actor hero host steward""".split()
    },
    **{
        w: F
        for w in """woman women girl girls lady ladies wife mother daughter sister aunt niece
       queen princess duchess nun grandmother granddaughter widow bride businesswoman chairwoman
       maid maiden lass waitress actress heroine hostess stewardess mistress""".split()
    },
}

_AMBIGUOUS_NAMES = MALE_FIRST_NAMES & FEMALE_FIRST_NAMES
FIRST_NAMES = {
    **{n: M for n in MALE_FIRST_NAMES - _AMBIGUOUS_NAMES},
    **{n: F for n in FEMALE_FIRST_NAMES - _AMBIGUOUS_NAMES},
}

# words that end a mention's head search (Stanford-style "head before the first
# preposition / relative / comma" fallback when there is no parse)
HEAD_STOP_WORDS = frozenset(
    """of in on at with from to by for about into onto over under after before between among
    through during without within against upon near like than as who whom whose which that where
    when , ( -lrb- ; : -- """.split()
)

# words that are never a head when a content word is available (no-parse fallback)
FUNCTION_WORDS = frozenset(
    """a an the this that these those some any no every each all both either neither my your his
    her its our their whose 's ' '' `` " . ? ! , ; : - -- ( ) -lrb- -rrb- and or but nor so
    very more most much many few several such own other another""".split()
)

# CONLL / OntoNotes NE types that are never coreferent entities in CoNLL-2012 mention detection
NUMERIC_NE_TYPES = frozenset(("CARDINAL", "PERCENT", "MONEY", "QUANTITY", "DATE", "TIME", "ORDINAL"))

NEUTER_NE_TYPES = frozenset(("ORG", "GPE", "LOC", "FAC", "PRODUCT", "WORK_OF_ART", "LAW", "EVENT", "LANGUAGE", "NORP"))

_SINGULAR_S = frozenset(
    """news series species physics mathematics politics economics means headquarters
    is was has his this thus us bus gas glass class grass mass pass boss loss dress business
    process witness success address kindness illness happiness darkness mistress""".split()
)

_IRREGULAR_PLURALS = frozenset(
    """men women children people feet teeth mice geese police cattle
    data media criteria phenomena""".split()
)


def pronoun_info(form):
    """(person, gender, number, reflexive, possessive) of a lower-cased pronoun, or None."""
    return PRONOUNS.get(form)


def is_pronoun(form):
    return form in PRONOUNS


def name_gender(first_word):
    """Gender of a first name (lower-cased), GENDER_UNKNOWN when not listed."""
    return FIRST_NAMES.get(first_word, U)


def honorific_gender(word):
    """Gender an honorific fixes (Mr. -> male); None when `word` is not an honorific."""
    return HONORIFICS.get(word)


def noun_gender(word):
    return GENDERED_NOUNS.get(word, U)


def looks_plural(word):
    """Plural heuristic for a lower-cased common noun without POS: irregular plurals, or an
    -s ending that is not -ss/-us/-is and not a listed singular in -s."""
    if word in _IRREGULAR_PLURALS:
        return True
    if len(word) < 4 or word in _SINGULAR_S or not word.isalpha():
        return False
    return word.endswith("s") and not word.endswith(("ss", "us", "is", "'s"))
