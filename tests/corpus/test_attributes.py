import numpy as np

from coreflab.corpus.attributes import embedding
from coreflab.corpus.compile import compile_documents
from coreflab.corpus.compiled import (
    GENDER_FEMALE,
    GENDER_MALE,
    GENDER_NEUTER,
    GENDER_UNKNOWN,
    NUMBER_PLURAL,
    NUMBER_SINGULAR,
    TYPE_COMMON,
    TYPE_NAME,
    TYPE_PRONOUN,
)
from coreflab.corpus.document import Document
from coreflab.corpus.readers.conll import parse_conll


def conll_doc(rows, doc_id="t"):
    lines = [f"#begin document ({doc_id}); part 000"]
    for i, (w, p, b, n, c) in enumerate(rows):
        lines.append(f"{doc_id}\t0\t{i}\t{w}\t{p}\t{b}\t-\t-\t-\tA\t{n}\t-\t{c}")
    lines += ["", "#end document", ""]
    return parse_conll("\n".join(lines))[0]


# Mrs. Smith told the boys about IBM and her dogs .
ROWS = [
    ("Mrs.", "NNP", "(TOP(S(NP*", "(PERSON*", "(1"),
    ("Smith", "NNP", "*)", "*)", "1)"),
    ("told", "VBD", "(VP*", "*", "-"),
    ("the", "DT", "(NP*", "*", "(2"),
    ("boys", "NNS", "*)", "*", "2)"),
    ("about", "IN", "(PP*", "*", "-"),
    ("IBM", "NNP", "(NP(NP*)", "(ORG)", "(3|(4)"),
    ("and", "CC", "*", "*", "-"),
    ("her", "PRP$", "(NP*", "*", "(1)|(5"),
    ("dogs", "NNS", "*))))", "*", "5)|3)"),
    (".", ".", "*))", "*", "-"),
]


def attrs(corpus, field):
    return getattr(corpus, field).tolist()


def test_types_genders_numbers_with_pos_and_ne():
    c = compile_documents([conll_doc(ROWS)], "t", "x")
    spans = list(zip(attrs(c, "m_start"), attrs(c, "m_end")))
    assert spans == [(0, 1), (3, 4), (6, 6), (6, 9), (8, 8), (8, 9)]
    # the coordination's head is its first conjunct (IBM, NNP): a name, but plural
    assert attrs(c, "m_type") == [TYPE_NAME, TYPE_COMMON, TYPE_NAME, TYPE_NAME, TYPE_PRONOUN, TYPE_COMMON]
    assert attrs(c, "m_gender") == [
        GENDER_FEMALE,
        GENDER_MALE,
        GENDER_NEUTER,
        GENDER_NEUTER,
        GENDER_FEMALE,
        GENDER_UNKNOWN,
    ]
    assert attrs(c, "m_number") == [
        NUMBER_SINGULAR,
        NUMBER_PLURAL,
        NUMBER_SINGULAR,
        NUMBER_PLURAL,
        NUMBER_SINGULAR,
        NUMBER_PLURAL,
    ]
    assert attrs(c, "m_head") == [1, 4, 6, 6, 8, 9]
    assert [c.string(i) for i in attrs(c, "m_ne")] == ["PERSON", "", "ORG", "ORG", "", ""]
    assert attrs(c, "m_ne")[1] == 0
    assert [c.string(i) for i in attrs(c, "m_pronoun")] == [None, None, None, None, "her", None]
    assert [c.string(i) for i in attrs(c, "m_full_str")] == [
        "mrs. smith",
        "the boys",
        "ibm",
        "ibm and her dogs",
        "her",
        "her dogs",
    ]
    assert [c.string(i) for i in attrs(c, "m_head_str")] == ["smith", "boys", "ibm", "ibm", "her", "dogs"]
    assert [c.string(i) for i in attrs(c, "m_first_str")][3] == "ibm"
    assert [c.string(i) for i in attrs(c, "m_last_str")][3] == "dogs"
    assert attrs(c, "m_embedded") == [-1, -1, 3, -1, 5, 3]


def test_syntax_strings():
    c = compile_documents([conll_doc(ROWS)], "t", "x")
    assert [c.string(i) for i in attrs(c, "m_category")] == ["NP"] * 6
    assert c.string(c.m_subcategory[3]) == "NP CC NP"
    assert c.string(c.m_path_root[0]) == "NP>S>TOP"
    assert c.string(c.m_path_root[2]) == "NP>NP>PP>VP>S>TOP"
    assert c.string(c.m_path_s[2]) == "NP>NP>PP>VP>S"
    assert c.string(c.m_path_s[0]) == "NP>S"


def test_without_pos_capitalised_heads_are_names():
    words = "The doctor met Dracula . Mother said she knew the Count . mother".split()
    doc = Document(
        "x",
        0,
        words,
        [5, 12, 13],
        columns={k: None for k in ("pos", "parse", "ne", "speaker")},
        clusters=[[(0, 1)], [(3, 3), (9, 10)], [(5, 5), (7, 7)], [(12, 12)]],
    )
    c = compile_documents([doc], "t", "x")
    spans = list(zip(attrs(c, "m_start"), attrs(c, "m_end")))
    assert spans == [(0, 1), (3, 3), (5, 5), (7, 7), (9, 10), (12, 12)]
    # 'Mother' opens a sentence and 'mother' occurs lower-cased: a common noun
    assert attrs(c, "m_type") == [TYPE_COMMON, TYPE_NAME, TYPE_COMMON, TYPE_PRONOUN, TYPE_NAME, TYPE_COMMON]
    assert attrs(c, "m_head") == [1, 3, 5, 7, 10, 12]
    assert attrs(c, "m_category") == [-1] * 6
    assert set(c.missing) == {"pos", "parse", "speaker", "ne", "genre"}


def test_name_gender_from_first_name():
    words = "John Smith and Lady Jane Grey and Acme Holdings .".split()
    doc = Document(
        "x", 0, words, [10], columns={k: None for k in ("pos", "parse", "ne")}, clusters=[[(0, 1)], [(3, 5)], [(7, 8)]]
    )
    c = compile_documents([doc], "t", "x")
    assert attrs(c, "m_type") == [TYPE_NAME] * 3
    assert attrs(c, "m_gender") == [GENDER_MALE, GENDER_FEMALE, GENDER_UNKNOWN]
    assert attrs(c, "m_number") == [NUMBER_SINGULAR, NUMBER_SINGULAR, NUMBER_PLURAL]  # 'holdings' looks plural


def test_embedding_smallest_enclosing():
    s = np.array([0, 0, 1, 2, 5], np.int32)
    e = np.array([4, 2, 1, 2, 5], np.int32)
    assert embedding(s, e).tolist() == [-1, 0, 1, 1, -1]


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=80, deadline=None)
@given(st.sets(st.tuples(st.integers(0, 15), st.integers(0, 6)), max_size=12))
def test_embedding_matches_brute_force(spans):
    spans = sorted((s, s + w) for s, w in spans)
    s = np.array([a for a, _ in spans], np.int32)
    e = np.array([b for _, b in spans], np.int32)
    got = embedding(s, e).tolist()
    for i, (a, b) in enumerate(spans):
        enclosing = [(y - x, j) for j, (x, y) in enumerate(spans) if j != i and x <= a and b <= y]
        assert got[i] == (min(enclosing)[1] if enclosing else -1)
