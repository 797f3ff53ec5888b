"""Word lists of the sieve: closed classes written here, open classes read from `data/`.

Why here: the passes compare integer ids only, so every list is turned into per-vocabulary-id
flags once (`rules.table`). Closed classes are English grammar facts, hand-written for coreflab
like `coreflab.corpus.lexicon`; the open-class files and their origin are in data/README.md.
"""

from functools import lru_cache
from importlib import resources

# CoreNLP dcoref's word-inclusion stop list, plus articles, demonstratives and punctuation
INCLUSION_STOP_WORDS = frozenset(
    """the this that these those a an mr. miss mrs. dr. ms. mr mrs ms dr inc. ltd. corp. inc ltd corp co. co 's '
    , . ; : -- - ( ) `` '' " -lrb- -rrb-""".split()
)
# CoreNLP dcoref's indefinite pronouns: an anaphor that is or starts with one rarely has an antecedent
INDEFINITE_WORDS = frozenset(
    """another anybody anyone anything each either enough everybody everyone everything less little much
    neither nobody nothing one other plenty somebody someone something both few fewer many others several all
    any more most none some such""".split()
)
INDEFINITE_PHRASES = frozenset(("no one",))
INDEFINITE_ARTICLES = frozenset(("a", "an"))
COPULAS = frozenset("is are was were be been being am 're 'm".split())  # 's is left out: mostly possessive
NEGATIONS = frozenset("not n't never no".split())
RELATIVE_PRONOUNS = frozenset("who whom whose which that".split())
SPATIAL_WORDS = frozenset(
    "east west north south eastern western northern southern upper lower northeast northwest southeast "
    "southwest central".split()
)
NUMBER_WORDS = frozenset(
    "one two three four five six seven eight nine ten eleven twelve twenty thirty forty fifty hundred "
    "thousand million billion first second third fourth fifth".split()
)
PREPOSITIONS = frozenset(
    "of in on at with from to by for about into onto over under after before between among through during "
    "without within against upon near like than as".split()
)
COORDINATORS = frozenset("and or nor".split())
QUOTE_OPEN = frozenset(("``", "\u201c"))
QUOTE_CLOSE = frozenset(("''", "\u201d"))
QUOTE_TOGGLE = frozenset(('"',))
SENTENCE_PUNCT = frozenset(". ! ? ; :".split())
NO_SPEAKER = frozenset(("", "-", "_"))  # speaker-column values that name nobody
PERSON_NE = frozenset(("PERSON", "PER"))
# NE labels whose referent is never animate (NORP and MISC stay unknown)
INANIMATE_NE = frozenset(
    """ORG GPE LOC FAC PRODUCT EVENT WORK_OF_ART LAW LANGUAGE DATE TIME PERCENT MONEY QUANTITY ORDINAL CARDINAL
    VEH""".split()
)


def _lines(name):
    text = resources.files("coreflab.learn.rules").joinpath("data", name).read_text(encoding="utf-8")
    return [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]


@lru_cache(maxsize=None)
def word_set(name):
    """The lower-cased words of a one-word-a-line file under data/."""
    return frozenset(w.lower() for w in _lines(name))


@lru_cache(maxsize=None)
def demonyms():
    """(place -> group id, demonym -> group id), lower-cased; a group is one line of demonyms.tsv."""
    places, names = {}, {}
    for group, line in enumerate(_lines("demonyms.tsv")):
        left, right = line.split("\t")
        for p in left.split("|"):
            places.setdefault(p.strip().lower(), group)
        for d in right.split("|"):
            names.setdefault(d.strip().lower(), group)
    return places, names


def singular_forms(word):
    """The word and its likely singulars (cars -> car, cities -> city, boxes -> box, men -> man)."""
    out = [word]
    if word.endswith("men"):
        out.append(word[:-3] + "man")
    if word.endswith("ies") and len(word) > 4:
        out.append(word[:-3] + "y")
    if word.endswith("es") and len(word) > 3:
        out.append(word[:-2])
    if word.endswith("s") and not word.endswith("ss") and len(word) > 2:
        out.append(word[:-1])
    return out


def noun_animacy(word):
    """1 animate, 2 inanimate, 0 unknown for a lower-cased common-noun head: the lists (animate wins a
    tie), else a suffix typical of people (-ist, -ian, -eer, -ess) or of things (-tion, -ment, ...)."""
    animate, inanimate = word_set("animate.txt"), word_set("inanimate.txt")
    forms = singular_forms(word)
    if any(f in animate for f in forms):
        return 1
    if any(f in inanimate for f in forms):
        return 2
    if len(word) > 5 and word.endswith(ANIMATE_SUFFIXES):
        return 1
    if len(word) > 5 and word.endswith(INANIMATE_SUFFIXES):
        return 2
    return 0


# suffixes of common nouns naming people or things, for heads missing from both lists
ANIMATE_SUFFIXES = ("ist", "ian", "eer", "ess")
INANIMATE_SUFFIXES = ("tion", "sion", "ment", "ness", "ity", "ance", "ence", "ship", "ism", "ogy", "ics", "ure", "age")
# single words that head no entity a string or head match should use (demonstratives, quantifiers)
FUNCTION_HEADS = frozenset("this that these those there here what whatever which who whom whose".split())
