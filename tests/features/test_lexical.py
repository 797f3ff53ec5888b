"""Lexicalised pair templates, 3-part conjunctions and the context columns (issue 14)."""

import numpy as np
import pytest

from coreflab.errors import UserError
from coreflab.features import extract_arc_store, load_featureset
from coreflab.features.hashing import py_hash_values, string_keys, template_key
from coreflab.features.mention_table import (
    C_COORD,
    C_FINE_TYPE,
    C_QUOTE,
    C_SHORT_FULL,
    C_STRIPPED,
    C_VERB,
    FINE_TYPES,
    mention_table,
)
from coreflab.features.templates import REGISTRY, resolve

from .feature_builders import C, N, P, build_corpus
from .feature_reference import reference_store

BITS = 20


def skey(s):
    return int(string_keys([s])[0])


def fid(entry, *values):
    return py_hash_values(template_key(entry), values, BITS)


def _feats(store, j, ante):
    lo, hi = store.mention_arcs(j)
    for a in range(lo, hi):
        if store.arc_ante[a] == ante:
            return [int(x) for x in store.arc_features(a)]
    raise KeyError((j, ante))


def _two_mentions(first, second, filler=()):
    """A document whose sentences are `filler` words, then `first`, then `second` (nouns)."""
    sents = [[w, "."] for w in filler] + [[first, "."], [second, "."]]
    base = 2 * len(filler)
    ments = [dict(start=base, end=base, head=base, type=C), dict(start=base + 2, end=base + 2, head=base + 2, type=C)]
    return {"sentences": sents, "mentions": ments}


def test_conjunction_ids_depend_on_strings_not_on_vocabulary_ids():
    # the same words get other vocabulary ids in a second split (other words come first)
    train = build_corpus([_two_mentions("dog", "dog")])
    test = build_corpus([_two_mentions("dog", "dog", filler=["cat", "bird", "fish"])])
    assert train.vocab.index("dog") != test.vocab.index("dog")
    entries = [
        "ana_head+ante_head",
        "ana_short_full+ante_short_full",
        "ana_head+ante_type",
        "ana_type+ante_type+match_kind",
    ]
    a = extract_arc_store(train, entries, n_bits=BITS)
    b = extract_arc_store(test, entries, n_bits=BITS)
    assert _feats(a, 1, 0) == _feats(b, 1, 0)  # equal strings: equal ids
    assert _feats(a, 1, -1) == _feats(b, 1, -1)
    assert fid("ana_head+ante_head", skey("dog"), skey("dog")) in _feats(a, 1, 0)
    # different strings: different ids, template by template
    other = build_corpus([_two_mentions("dog", "cat")])
    c = extract_arc_store(other, entries, n_bits=BITS)
    diff = [x != y for x, y in zip(_feats(a, 1, 0), _feats(c, 1, 0))]
    assert len(diff) == 4 and all(diff)
    # order matters: antecedent cat, anaphor dog is not antecedent dog, anaphor cat
    swapped = extract_arc_store(build_corpus([_two_mentions("cat", "dog")]), entries[:1], n_bits=BITS)
    assert _feats(swapped, 1, 0) != _feats(c, 1, 0)[:1]


def test_nonlocal_head_attributes_do_not_depend_on_vocabulary_ids():
    from coreflab.features.nonlocal_templates import A_HEAD, mention_attributes

    train = build_corpus([_two_mentions("dog", "dog")])
    test = build_corpus([_two_mentions("dog", "dog", filler=["cat", "bird"])])
    a, b = mention_attributes(train), mention_attributes(test)
    assert a[0, A_HEAD] == b[0, A_HEAD] == skey("dog")


# "Acme Corp said `` we and our partners will grow '' . | The partners said it grew . |
#  Those partners left ."
QUOTED = {
    "sentences": [
        ["Acme", "Corp", "said", "``", "we", "and", "our", "partners", "will", "grow", "''", "."],
        ["The", "partners", "said", "it", "grew", "."],
        ["Those", "partners", "left", "."],
    ],
    "pos": [
        "NNP",
        "NNP",
        "VBD",
        "``",
        "PRP",
        "CC",
        "PRP$",
        "NNS",
        "MD",
        "VB",
        "''",
        ".",
        "DT",
        "NNS",
        "VBD",
        "PRP",
        "VBD",
        ".",
        "DT",
        "NNS",
        "VBD",
        ".",
    ],
    "speakers": ["A", "A", "B"],
    "mentions": [
        dict(start=0, end=1, head=1, type=N, cluster=0),  # 0 Acme Corp
        dict(start=4, end=4, head=4, type=P, cluster=1),  # 1 we
        dict(start=4, end=7, head=4, type=C, cluster=2),  # 2 we and our partners
        dict(start=6, end=6, head=6, type=P, cluster=1),  # 3 our
        dict(start=6, end=7, head=7, type=C, cluster=3),  # 4 our partners
        dict(start=12, end=13, head=13, type=C, cluster=3),  # 5 The partners
        dict(start=15, end=15, head=15, type=P, cluster=0),  # 6 it
        dict(start=18, end=19, head=19, type=C, cluster=3),  # 7 Those partners
    ],
}


def test_context_columns_hand_computed():
    c = build_corpus([QUOTED])
    T = mention_table(c)
    assert T[:, C_QUOTE].tolist() == [0, 1, 1, 1, 1, 0, 0, 0]
    # contains "and" -> 1; next to "and" (we | and, and | our) -> 2
    assert T[:, C_COORD].tolist() == [0, 2, 1, 2, 2, 0, 0, 0]
    said, grow, grew, left = skey("said"), skey("grow"), skey("grew"), skey("left")
    # nearest verb outside the mention, ties to the right; MD is not a verb tag
    # we: `` / and at 1, said / our at 2 -> said; we and our partners: `` / will (MD) at 1,
    # said / grow at 2 -> grow (tie, right); it: said / grew at 1 -> grew (tie, right)
    assert T[:, C_VERB].tolist() == [said, said, grow, grow, grow, said, grew, left]
    assert T[5, C_SHORT_FULL] == skey("the partners") and T[2, C_SHORT_FULL] == skey("we and our partners")
    # "the partners" ~ "those partners" (determiners dropped), not ~ "our partners"
    assert T[5, C_STRIPPED] == T[7, C_STRIPPED] != T[4, C_STRIPPED]
    # without POS there is no verb column value
    no_pos = build_corpus([QUOTED], missing=("pos",))
    assert (mention_table(no_pos)[:, C_VERB] == -1).all()
    store = extract_arc_store(no_pos, ["ana_verb", "ana_quote+ana_pronoun+ana_verb", "ana_quote"], n_bits=BITS)
    assert store.templates == ["ana_quote"] and "pos" in store.unavailable["ana_verb"]


def test_fine_types_hand_computed():
    """cort's fine type: names NAM, pronouns their citation form, common nouns by first word."""
    T = mention_table(build_corpus([QUOTED]))
    got = [FINE_TYPES[k] for k in T[:, C_FINE_TYPE]]
    # Acme Corp, we, we and our partners, our, our partners, The partners, it, Those partners
    assert got == ["NAM", "we", "INDEF", "we", "DEF", "DEF", "it", "DEM"]
    s = extract_arc_store(build_corpus([QUOTED]), ["ana_fine_type+ante_fine_type"], n_bits=BITS)
    assert _feats(s, 3, 1) == [fid("ana_fine_type+ante_fine_type", FINE_TYPES.index("we"), FINE_TYPES.index("we"))]


def test_match_kind_values():
    c = build_corpus([QUOTED])
    s = extract_arc_store(c, ["match_kind"], n_bits=BITS)
    assert _feats(s, 7, 5) == [fid("match_kind", 2)]  # those partners ~ the partners
    assert _feats(s, 5, 4) == [fid("match_kind", 3)]  # same head "partners"
    # "our partners" vs "we and our partners" (head "we"): head "partners" among its words
    assert _feats(s, 4, 2) == [fid("match_kind", 4)]
    assert _feats(s, 3, 2) == [fid("match_kind", 4)]  # "our" among the words of the coordination
    assert _feats(s, 6, 0) == [fid("match_kind", 0)]


def test_three_part_conjunctions_hand_computed():
    c = build_corpus([QUOTED])
    entries = [
        "ana_pronoun+ante_pronoun+same_speaker",
        "ana_type+ante_type+match_kind",
        "substring_match+ana_head+ante_head",
        "ana_quote+ana_pronoun+ana_verb",
    ]
    s = extract_arc_store(c, entries, n_bits=BITS)
    # it (speaker A) -> our (speaker A): both pronouns, same speaker
    f = _feats(s, 6, 3)
    assert fid("ana_pronoun+ante_pronoun+same_speaker", skey("it"), skey("our"), 1) in f
    assert fid("ana_type+ante_type+match_kind", P, P, 0) in f
    assert fid("substring_match+ana_head+ante_head", skey("it"), 0, skey("our")) in f
    assert len(f) == 3
    # the anaphor-only 3-part conjunction fires on the root arc, with the root marker
    from coreflab.features.hashing import ROOT_MARK

    assert _feats(s, 1, -1) == [fid("ana_quote+ana_pronoun+ana_verb", 1, skey("we"), skey("said"), ROOT_MARK)]
    assert _feats(s, 0, -1) == []  # not a pronoun: no value


@pytest.mark.parametrize("window", [None, 2])
def test_three_part_conjunctions_equal_the_reference(window):
    c = build_corpus([QUOTED, QUOTED])
    pool = load_featureset("local").local
    triples = [e for e in pool if e.count("+") == 2]
    assert len(triples) >= 6
    extra = ["ana_coord+ante_type+ana_quote", "ante_verb+sent_paths+ana_short_full", "ante_coord+ante_quote+ante_verb"]
    store = extract_arc_store(c, triples + extra, n_bits=BITS, window=window)
    m_off, ante, feats = reference_store(c, store.templates, BITS, window)
    assert store.m_arc_offsets.tolist() == m_off and store.arc_ante.tolist() == ante
    assert [store.arc_features(a).tolist() for a in range(store.n_arcs)] == feats


def test_registry_has_the_new_templates():
    for name in ["ana_quote", "ante_coord", "ana_verb", "ana_short_full", "match_kind", "sent_paths"]:
        assert name in REGISTRY
    assert REGISTRY["sent_paths"].requires == ("parse",)
    with pytest.raises(UserError, match="at most three"):
        resolve(["ana_type+ante_type+head_match+exact_match"])
    res = resolve(["ana_type+ante_type+head_match"])
    assert res.n_ana.tolist() == [1] and res.n_oth.tolist() == [2]
    assert np.array_equal(res.ana_col.shape, (1, 3))
