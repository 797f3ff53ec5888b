"""Hand-computed template values on a small document (Drug Emporium / Gary Wilber)."""

import numpy as np
import pytest

from coreflab.errors import UserError
from coreflab.features import extract_arc_store
from coreflab.features.hashing import ROOT_MARK, py_hash_values, string_keys, template_key
from coreflab.features.mention_table import bucket
from coreflab.features.templates import REGISTRY, resolve

from .feature_builders import EXAMPLE, build_corpus, chain_doc

BITS = 20


def skey(s):
    """The split-independent key a string column holds for string s."""
    return int(string_keys([s])[0])


def fid(entry, *values):
    return py_hash_values(template_key(entry), values, BITS)


def arc_feats(store, j, ante):
    """Feature ids of the arc of global mention j whose antecedent is `ante` (-1 root)."""
    lo, hi = store.mention_arcs(j)
    for a in range(lo, hi):
        if store.arc_ante[a] == ante:
            return [int(x) for x in store.arc_features(a)]
    raise KeyError((j, ante))


def pair_values(corpus, entry):
    """{(j, i): hashed id} for a one-template store, non-root arcs only."""
    store = extract_arc_store(corpus, [entry], n_bits=BITS)
    out = {}
    for j in range(corpus.n_mentions):
        for i in range(j):
            f = arc_feats(store, j, i)
            out[(j, i)] = f[0] if f else None
    return out


@pytest.fixture(scope="module")
def example():
    return build_corpus([EXAMPLE])


def test_bucket_boundaries():
    d = [0, 1, 2, 3, 4, 5, 7, 8, 11, 12, 19, 20, 500]
    assert [bucket(x) for x in d] == [0, 1, 2, 3, 4, 5, 5, 6, 6, 7, 7, 8, 8]


@pytest.mark.parametrize(
    "entry,expected",
    [
        # (anaphor j, antecedent i) -> value, hand-computed from EXAMPLE
        ("sent_dist", {(4, 0): 1, (3, 1): 1, (2, 1): 0, (1, 0): 0}),
        ("ment_dist", {(4, 0): 4, (3, 1): 2, (2, 1): 1}),
        ("alias", {(4, 0): 1, (4, 1): 0, (1, 0): 0, (3, 1): 0}),
        ("gender_agree", {(3, 1): 1, (3, 0): 0, (3, 2): 2, (4, 0): 1}),
        ("number_agree", {(3, 1): 1, (2, 0): 1}),
        ("exact_match", {(4, 0): 0, (3, 1): 0}),
        ("head_match", {(4, 0): 0}),
        ("same_speaker", {(4, 3): 1, (3, 1): 0, (1, 0): 1}),
        ("nested", {(1, 0): 0}),
    ],
)
def test_pair_values(example, entry, expected):
    got = pair_values(example, entry)
    for (j, i), v in expected.items():
        assert got[(j, i)] == fid(entry, v), (entry, j, i, v)


def test_string_matches_and_ment_dist_buckets():
    # "the big dog . the dog . dog . the big dog ." + 22 filler mentions
    sents = [["the", "big", "dog", "."], ["the", "dog", "."], ["dog", "."], ["the", "big", "dog", "."]]
    ments = [
        dict(start=0, end=2, head=2, type=3),
        dict(start=4, end=5, head=5, type=3),
        dict(start=7, end=7, head=7, type=3),
        dict(start=9, end=11, head=11, type=3),
    ]
    doc = {"sentences": sents, "mentions": ments}
    c = build_corpus([doc])
    exact = pair_values(c, "exact_match")
    assert exact[(3, 0)] == fid("exact_match", 1) and exact[(1, 0)] == fid("exact_match", 0)
    sub = pair_values(c, "substring_match")
    # "dog" in "the dog"; "the dog" is not a contiguous run of "the big dog"
    assert sub[(2, 1)] == fid("substring_match", 1)
    assert sub[(1, 0)] == fid("substring_match", 0)
    assert sub[(2, 0)] == fid("substring_match", 1)
    head = pair_values(c, "head_match")
    assert all(v == fid("head_match", 1) for v in head.values())
    # mention distance across bucket boundaries in a 25-mention chain
    c = build_corpus([chain_doc(25)])
    md = pair_values(c, "ment_dist")
    for dist, b in [(1, 1), (4, 4), (5, 5), (7, 5), (8, 6), (11, 6), (12, 7), (19, 7), (20, 8), (24, 8)]:
        assert md[(24, 24 - dist)] == fid("ment_dist", b)
    sd = pair_values(c, "sent_dist")
    assert sd[(24, 4)] == fid("sent_dist", 8) and sd[(24, 5)] == fid("sent_dist", 7)


def test_nested_and_embedding():
    sents = [["the", "president", "of", "France"]]
    ments = [dict(start=0, end=3, head=1, type=3), dict(start=3, end=3, head=3, type=2, embedded=0)]
    c = build_corpus([{"sentences": sents, "mentions": ments}])
    assert pair_values(c, "nested")[(1, 0)] == fid("nested", 1)
    store = extract_arc_store(c, ["ana_embedded", "ana_next", "ana_prev", "ana_length"], n_bits=BITS)
    # "France" is inside the first mention; both end the sentence (EOS = -3, BOS = -2)
    assert arc_feats(store, 1, -1) == [
        fid("ana_embedded", 1, ROOT_MARK),
        fid("ana_next", -3, ROOT_MARK),
        fid("ana_prev", skey("of"), ROOT_MARK),
        fid("ana_length", 1, ROOT_MARK),
    ]
    assert arc_feats(store, 0, -1) == [
        fid("ana_embedded", 0, ROOT_MARK),
        fid("ana_next", -3, ROOT_MARK),
        fid("ana_prev", -2, ROOT_MARK),
        fid("ana_length", 4, ROOT_MARK),
    ]
    assert arc_feats(store, 1, 0) == []  # anaphor-only: root arc only


def test_alias_last_word_of_name():
    sents = [["Gary", "Wilber", "met", "Wilber", "."]]
    ments = [dict(start=0, end=1, head=1, type=2), dict(start=3, end=3, head=3, type=2)]
    c = build_corpus([{"sentences": sents, "mentions": ments}])
    assert pair_values(c, "alias")[(1, 0)] == fid("alias", 2)


def test_mention_attributes_and_conjunction_is_pair(example):
    c = example
    v = skey
    store = extract_arc_store(
        c,
        [
            "ana_head+ante_head",
            "ante_type+ana_type",
            "ana_prev",
            "ana_next",
            "ana_pronoun",
            "genre",
            "ana_head_pos",
            "ante_ne",
        ],
        n_bits=BITS,
    )
    # conjunction = the pair of values (anaphor side first), on a non-root arc
    f = arc_feats(store, 3, 1)
    assert fid("ana_head+ante_head", v("he"), v("wilber")) in f
    assert fid("ante_type+ana_type", 1, 2) in f
    assert fid("ante_ne", v("PERSON")) in f
    assert len(f) == 3
    # root arc: anaphor-side templates with the root marker; ante_type is R = 0 there
    r = arc_feats(store, 3, -1)
    assert r == [
        fid("ante_type+ana_type", 1, 0, ROOT_MARK),
        fid("ana_prev", -2, ROOT_MARK),
        fid("ana_next", v("said"), ROOT_MARK),
        fid("ana_pronoun", v("he"), ROOT_MARK),
        fid("genre", v("nw"), ROOT_MARK),
        fid("ana_head_pos", v("NN"), ROOT_MARK),
    ]
    # pronoun form has no value for a name; the last token of a sentence has EOS as next
    r0 = arc_feats(store, 2, -1)
    assert fid("ana_next", v("."), ROOT_MARK) in r0
    assert not any(x == fid("ana_pronoun", -1, ROOT_MARK) for x in r0)
    assert len(r0) == 5


def test_unavailable_templates_are_listed_not_fatal():
    c = build_corpus([EXAMPLE], missing=("speaker", "parse", "genre"))
    entries = ["same_speaker", "ana_type+same_speaker", "ana_path_s", "genre+ana_type", "head_match"]
    store = extract_arc_store(c, entries, n_bits=BITS)
    assert store.templates == ["head_match"]
    assert set(store.unavailable) == set(entries) - {"head_match"}
    assert "speaker" in store.unavailable["ana_type+same_speaker"]
    assert "parse" in store.unavailable["ana_path_s"]
    assert store.n_entries == 10  # one head_match feature per non-root arc
    with pytest.raises(UserError, match="nosuch"):
        resolve(["ana_type+nosuch"])
    with pytest.raises(UserError, match="at most three"):
        resolve(["ana_type+ante_type+bias+head_match"])


def test_registry_covers_issue_templates():
    needed = [
        "ana_type",
        "ante_type",
        "sent_dist",
        "ment_dist",
        "exact_match",
        "head_match",
        "substring_match",
        "alias",
        "ana_gender",
        "ante_number",
        "gender_agree",
        "number_agree",
        "ana_ne",
        "ana_head",
        "ana_head_pos",
        "ana_first",
        "ana_last",
        "ana_prev",
        "ana_next",
        "ana_length",
        "nested",
        "ana_embedded",
        "same_speaker",
        "ana_pronoun",
        "ana_category",
        "ana_subcategory",
        "ana_path_root",
        "ana_path_s",
        "genre",
    ]
    assert not [n for n in needed if n not in REGISTRY]
    assert len(set(np.array([template_key(n) for n in REGISTRY]))) == len(REGISTRY)
