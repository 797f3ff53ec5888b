from coreflab.corpus import lexicon
from coreflab.corpus.compiled import (
    GENDER_FEMALE,
    GENDER_MALE,
    GENDER_NEUTER,
    GENDER_UNKNOWN,
    NUMBER_PLURAL,
    NUMBER_SINGULAR,
)


def test_pronoun_table():
    assert lexicon.pronoun_info("he") == (3, GENDER_MALE, NUMBER_SINGULAR, 0, 0)
    assert lexicon.pronoun_info("herself") == (3, GENDER_FEMALE, NUMBER_SINGULAR, 1, 0)
    assert lexicon.pronoun_info("their")[2:] == (NUMBER_PLURAL, 0, 1)
    assert lexicon.pronoun_info("its")[1] == GENDER_NEUTER
    assert lexicon.pronoun_info("we")[0] == 1
    assert lexicon.pronoun_info("dog") is None


def test_names_and_honorifics():
    assert lexicon.name_gender("john") == GENDER_MALE
    assert lexicon.name_gender("mary") == GENDER_FEMALE
    assert lexicon.name_gender("zzyzx") == GENDER_UNKNOWN
    assert not (set(lexicon.FIRST_NAMES) & lexicon._AMBIGUOUS_NAMES)
    assert lexicon.honorific_gender("mrs.") == GENDER_FEMALE
    assert lexicon.honorific_gender("dr.") == GENDER_UNKNOWN
    assert lexicon.honorific_gender("table") is None
    assert lexicon.noun_gender("queen") == GENDER_FEMALE


def test_plural_heuristic():
    assert [
        lexicon.looks_plural(w) for w in ["dogs", "glass", "bus", "news", "children", "cats", "analysis", "is"]
    ] == [True, False, False, False, True, True, False, False]
