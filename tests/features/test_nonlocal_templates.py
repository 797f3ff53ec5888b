"""Non-local templates read from a decoder state, hand-computed (B&K 2014, Sec. 6.2)."""

import numpy as np
import pytest

from coreflab.corpus.compiled import CompiledCorpus
from coreflab.errors import UserError
from coreflab.features.hashing import py_hash_values, string_keys, template_key
from coreflab.features.nonlocal_templates import (
    F_CLUS,
    F_SIZE,
    NF,
    NONLOCAL_CODE,
    combine,
    emit_nonlocal,
    mention_attributes,
    resolve_nonlocal,
    state_push,
)

N_BITS = 20
# mention types R=0 P=1 N=2 C=3; heads are small ints
TYPES = [2, 3, 1, 2, 1]
VOCAB = [f"s{k}" for k in range(20)]
KEYS = string_keys(VOCAB)
HEAD_IDS = [10, 11, 12, 13, 14]
HEADS = [int(KEYS[h]) for h in HEAD_IDS]  # the attribute matrix holds string keys, not ids


def _corpus(path_s=True):
    arrays = {
        "doc_mention_offsets": np.array([0, 5]),
        "m_doc": np.zeros(5, dtype=np.int32),
        "m_type": np.array(TYPES, dtype=np.int8),
        "m_head_str": np.array(HEAD_IDS, dtype=np.int32),
        "m_ne": np.array([1, 0, 0, 2, 0], dtype=np.int32),
        "m_gender": np.zeros(5, dtype=np.int8),
        "m_number": np.ones(5, dtype=np.int8),
        "m_path_s": np.array([5, 6, 7, 8, 9] if path_s else [-1] * 5, dtype=np.int32),
    }
    return CompiledCorpus(
        name="t", split="s", doc_ids=["d"], vocab=VOCAB, arrays=arrays, missing=[] if path_s else ["m_path_s"]
    )


def _state(antes, attrs):
    n = len(antes) + 1
    st = np.zeros((NF, n), dtype=np.int32)
    shp = np.zeros(n, dtype=np.uint64)
    for j, a in enumerate(antes):
        state_push(st, shp, j, a, 0, attrs[j, 0])
    return st, shp


def _fid(name, value, t_j):
    return py_hash_values(template_key("nonlocal:" + name), [value, t_j], N_BITS)


def _emit(names, st, shp, attrs, j, a):
    codes = np.array([NONLOCAL_CODE[n] for n in names], dtype=np.int32)
    out = np.zeros(64, dtype=np.int64)
    k = emit_nonlocal(codes, attrs, 0, j, a, st, shp, N_BITS, out)
    return list(out[:k])


def test_cluster_bookkeeping_and_features_hand_computed():
    attrs = mention_attributes(_corpus())
    # tree so far: m0 root, m1 root, m2 -> m0, m3 -> m2 ; clusters {0, 2, 3}, {1}
    st, shp = _state([-1, -1, 0, 2], attrs)
    assert st[F_CLUS, :4].tolist() == [0, 1, 0, 0] and st[F_SIZE, 0] == 3
    t4 = TYPES[4]  # anaphor m4 (pronoun), candidate antecedent m3
    assert _emit(["cluster_size"], st, shp, attrs, 4, 3) == [_fid("cluster_size", 3, t4)]
    assert _emit(["cluster_start_distance"], st, shp, attrs, 4, 3) == [_fid("cluster_start_distance", 0, t4)]
    assert _emit(["ante_ante_type"], st, shp, attrs, 4, 3) == [_fid("ante_ante_type", TYPES[2], t4)]
    assert _emit(["ante_ante_head"], st, shp, attrs, 4, 3) == [_fid("ante_ante_head", HEADS[2], t4)]
    assert _emit(["ante_ante_head"], st, shp, attrs, 4, 0) == [_fid("ante_ante_head", -2, t4)]
    assert _emit(["cluster_first_head"], st, shp, attrs, 4, 2) == [_fid("cluster_first_head", HEADS[0], t4)]
    assert _emit(["cluster_first_name_head"], st, shp, attrs, 4, 3) == [_fid("cluster_first_name_head", HEADS[0], t4)]
    # predecessor of m4 in the cluster of m2 is its last mention m3
    ctx = int(combine(int(KEYS[9]), int(KEYS[8])))  # path_s of m4 = id 9, of m3 = id 8
    assert _emit(["syntactic_context"], st, shp, attrs, 4, 2) == [_fid("syntactic_context", ctx, t4)]
    # bag of heads over the cluster, most recent first
    assert _emit(["cluster_bag_head"], st, shp, attrs, 4, 0) == [
        _fid("cluster_bag_head", h, t4) for h in (HEADS[3], HEADS[2], HEADS[0])
    ]
    # root attachments get no non-local features
    assert _emit(["cluster_size", "cluster_bag_head"], st, shp, attrs, 4, -1) == []
    # cluster of m1 (one name): size 1, start distance 1
    assert _emit(["cluster_size", "cluster_start_distance"], st, shp, attrs, 4, 1) == [
        _fid("cluster_size", 1, t4),
        _fid("cluster_start_distance", 1, t4),
    ]


def test_shape_is_the_linear_type_string():
    attrs = np.zeros((40, 6), dtype=np.int64)
    attrs[:, 0] = [2, 1, 2, 3] * 10
    st, shp = _state([-1, 0, 1, 2], attrs)  # one cluster N P N C
    st2, shp2 = _state(
        [-1, -1, 0, 2, 1], np.array([[2], [3], [1], [2], [3]] * 1, dtype=np.int64).repeat(6, axis=1)
    )  # cluster {0,2,3}: N P N ; cluster {1,4}: C C
    st3, shp3 = _state([-1, 0, 1], attrs)  # N P N
    assert shp2[0] == shp3[0] and shp[0] != shp3[0] and shp2[1] != shp2[0]
    # capped at 15 mentions: clusters of 16 and 17 identical-type mentions share a shape
    a = np.zeros((20, 6), dtype=np.int64) + 3
    s16, h16 = _state([-1] + list(range(15)), a)
    s17, h17 = _state([-1] + list(range(16)), a)
    s14, h14 = _state([-1] + list(range(13)), a)
    assert h16[0] == h17[0] and h14[0] != h16[0]


def test_unavailable_and_unknown_templates():
    codes, unavailable = resolve_nonlocal(["cluster_size", "syntactic_context"], _corpus(path_s=False))
    assert codes.tolist() == [NONLOCAL_CODE["cluster_size"]]
    assert unavailable == {"syntactic_context": "corpus has no m_path_s"}
    with pytest.raises(UserError, match="unknown non-local template 'nope'"):
        resolve_nonlocal(["nope"])


def test_cluster_start_distance_log_buckets():
    """Issue 15 item 11: distances >= 20 no longer share one bucket."""
    from coreflab.features.nonlocal_templates import log_bucket

    got = [log_bucket(x) for x in (0, 1, 4, 5, 7, 8, 15, 16, 31, 32, 63, 64, 127, 128, 255, 256, 280, 2000)]
    assert got == [0, 1, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 13]
    # monotone and unbounded: every power of two up to a long document opens a new bucket
    values = [log_bucket(x) for x in range(5000)]
    assert values == sorted(values) and set(values) == set(range(16))  # 0-4, then 2**2 .. 2**12
    # the emitted feature: clusters starting at mentions 25, 40 and 200 differ (one bucket before)
    n = 210
    arrays = {
        "doc_mention_offsets": np.array([0, n]),
        "m_doc": np.zeros(n, dtype=np.int32),
        "m_type": np.full(n, 2, dtype=np.int8),
        "m_head_str": np.zeros(n, dtype=np.int32),
    }
    corpus = CompiledCorpus(name="t", split="s", doc_ids=["d"], vocab=["x"], arrays=arrays)
    attrs = mention_attributes(corpus)
    st, shp = _state([-1] * (n - 1), attrs)
    f30 = _emit(["cluster_start_distance"], st, shp, attrs, n - 1, 40)
    f200 = _emit(["cluster_start_distance"], st, shp, attrs, n - 1, 200)
    f25 = _emit(["cluster_start_distance"], st, shp, attrs, n - 1, 25)
    assert f30 == [_fid("cluster_start_distance", 8, 2)] and f200 == [_fid("cluster_start_distance", 10, 2)]
    assert f25 == [_fid("cluster_start_distance", 7, 2)]
    assert f25 != f30 and f30 != f200


def _entity_corpus(heads, genders, numbers, types):
    n = len(heads)
    arrays = {
        "doc_mention_offsets": np.array([0, n]),
        "m_doc": np.zeros(n, dtype=np.int32),
        "m_type": np.array(types, dtype=np.int8),
        "m_head_str": np.array(heads, dtype=np.int32),
        "m_gender": np.array(genders, dtype=np.int8),
        "m_number": np.array(numbers, dtype=np.int8),
    }
    return CompiledCorpus(name="t", split="s", doc_ids=["d"], vocab=VOCAB, arrays=arrays)


def test_entity_mention_templates_hand_computed():
    """The anaphor against the whole cluster, not only the candidate antecedent."""
    # m0 "s10" name male sg, m1 "s11" common unknown sg, m2 "s12" pronoun female pl,
    # m3 "s10" common male sg, m4 "s13" name neuter sg; anaphor m5 "s10" pronoun male sg,
    # m6 "s14" pronoun gender unknown, number unknown
    heads = [10, 11, 12, 10, 13, 10, 14]
    genders = [1, 0, 2, 1, 3, 1, 0]
    numbers = [1, 1, 2, 1, 1, 1, 0]
    types = [2, 3, 1, 3, 2, 1, 1]
    attrs = mention_attributes(_entity_corpus(heads, genders, numbers, types))
    # clusters {0, 1, 3} (start m0), {2} (start m2), {4} (start m4)
    st, shp = _state([-1, 0, -1, 1, -1], attrs)
    t5 = types[5]
    # two of {m0, m1, m3} have the head "s10"; the antecedent m1 itself does not
    assert _emit(["cluster_head_match"], st, shp, attrs, 5, 1) == [_fid("cluster_head_match", 2, t5)]
    assert _emit(["cluster_head_match"], st, shp, attrs, 5, 2) == [_fid("cluster_head_match", 0, t5)]
    # gender: {m0 male, m1 unknown, m3 male} all agree with male; {m2 female} none; {m4 neuter} none
    assert _emit(["cluster_gender_agree"], st, shp, attrs, 5, 1) == [_fid("cluster_gender_agree", 1, t5)]
    assert _emit(["cluster_gender_agree"], st, shp, attrs, 5, 2) == [_fid("cluster_gender_agree", 2, t5)]
    # number: {m0 sg, m1 sg, m3 sg} against sg: all agree; {m2 pl}: none
    assert _emit(["cluster_number_agree"], st, shp, attrs, 5, 3) == [_fid("cluster_number_agree", 1, t5)]
    assert _emit(["cluster_number_agree"], st, shp, attrs, 5, 2) == [_fid("cluster_number_agree", 2, t5)]
    # an anaphor of unknown gender and number: code 4 whatever the cluster holds
    t6 = types[6]
    st6, shp6 = _state([-1, 0, -1, 1, -1, 2], attrs)  # m5 -> m2: cluster {2, 5}, female pl + male sg
    assert _emit(["cluster_gender_agree", "cluster_number_agree"], st6, shp6, attrs, 6, 5) == [
        _fid("cluster_gender_agree", 4, t6),
        _fid("cluster_number_agree", 4, t6),
    ]
    # head of the cluster's first name mention (m0 "s10") x the anaphor's head; none in {m2}
    pair = int(combine(HEADS[0], HEADS[0]))
    assert _emit(["cluster_name_head_pair"], st, shp, attrs, 5, 3) == [_fid("cluster_name_head_pair", pair, t5)]
    assert _emit(["cluster_name_head_pair"], st, shp, attrs, 5, 2) == [_fid("cluster_name_head_pair", -2, t5)]


def test_agreement_codes_mixed_and_unknown_clusters():
    # cluster {m0 male, m1 female, m2 unknown}; anaphor m3 male: mixed; cluster {m2}... via a singleton of m2
    heads = [10, 11, 12, 13]
    attrs = mention_attributes(_entity_corpus(heads, [1, 2, 0, 1], [1, 1, 0, 1], [2, 2, 3, 1]))
    st, shp = _state([-1, 0, -1], attrs)
    assert _emit(["cluster_gender_agree"], st, shp, attrs, 3, 1) == [_fid("cluster_gender_agree", 3, 1)]
    # the cluster {m2} has no known gender or number
    assert _emit(["cluster_gender_agree", "cluster_number_agree"], st, shp, attrs, 3, 2) == [
        _fid("cluster_gender_agree", 0, 1),
        _fid("cluster_number_agree", 0, 1),
    ]
