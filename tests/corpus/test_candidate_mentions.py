"""The mention classifier's candidates: the rules' mentions plus the nested spans they leave out."""

from corpus_builders import SENTENCE, conll_doc

from coreflab.corpus.mentions import (
    analyse_document,
    candidate_mentions,
    nested_mentions,
    predicted_mentions,
    proper_noun_runs,
)

# The New York office hired two L2 learners .
NESTED = [
    ("The", "DT", "(TOP(S(NP*", "*", "-"),
    ("New", "NNP", "*", "*", "-"),
    ("York", "NNP", "*", "*", "-"),
    ("office", "NN", "*)", "*", "-"),
    ("hired", "VBD", "(VP*", "*", "-"),
    ("two", "CD", "(NP*", "*", "-"),
    ("L2", "NN", "*", "*", "-"),
    ("learners", "NNS", "*))", "*", "-"),
    (".", ".", "*))", "*", "-"),
]


def spans(pair):
    return set(zip(pair[0].tolist(), pair[1].tolist()))


def test_nested_nouns_and_name_runs_before_the_head():
    doc = conll_doc(NESTED)
    a = analyse_document(doc)
    # "New", "York" and "New York" modify "office"; "two" and "L2" modify "learners"; heads are not nested
    assert spans(nested_mentions(a)) == {(1, 1), (2, 2), (1, 2), (5, 5), (6, 6)}
    # with an NE column that marks other spans, the rules leave the nested name to it
    with_ne = [row[:3] + (("(CARDINAL)",) if row[0] == "two" else ("*",)) + row[4:] for row in NESTED]
    assert (1, 2) not in spans(predicted_mentions(conll_doc(with_ne)))


def test_a_document_without_named_entities_takes_its_proper_noun_runs_as_names():
    # no NE marked: "New York" (a run of NNPs under one NP) is a mention, as an NE span would be; the
    # NPs and the same-head rule are unchanged ("The New York office" keeps its head "office")
    doc = conll_doc(NESTED)
    a = analyse_document(doc)
    assert spans(proper_noun_runs(a)) == {(1, 2)}
    assert spans(predicted_mentions(doc, a)) == {(0, 3), (1, 2), (5, 7)}
    # "John Smith" and "Mary" are named entities of SENTENCE's NE column: no run is added to them
    doc = conll_doc(SENTENCE)
    a = analyse_document(doc)
    assert spans(proper_noun_runs(a)) == {(0, 1), (12, 12)}
    without_ne = [row[:3] + ("*",) + row[4:] for row in SENTENCE]
    assert spans(predicted_mentions(doc, a)) == spans(predicted_mentions(conll_doc(without_ne)))


def test_proper_noun_runs_break_at_a_parse_node_and_need_a_parse():
    # "Paris Hilton" under one NP is one run; "Paris" "Texas" under two NPs are two
    rows = [
        ("Paris", "NNP", "(TOP(S(NP(NP*)", "*", "-"),
        ("Texas", "NNP", "(NP*))", "*", "-"),
        ("met", "VBD", "(VP*", "*", "-"),
        ("Paris", "NNP", "(NP*", "*", "-"),
        ("Hilton", "NNP", "*))))", "*", "-"),
    ]
    assert spans(proper_noun_runs(analyse_document(conll_doc(rows)))) == {(0, 0), (1, 1), (3, 4)}
    no_parse = [(w, p, "-", n, c) for w, p, _, n, c in rows]
    assert spans(proper_noun_runs(analyse_document(conll_doc(no_parse)))) == set()


def test_candidates_contain_the_rules_and_the_nested_spans_sorted():
    for rows in (NESTED, SENTENCE):
        doc = conll_doc(rows)
        a = analyse_document(doc)
        s, e = candidate_mentions(doc, a)
        got = list(zip(s.tolist(), e.tolist()))
        assert got == sorted(set(got))
        assert spans(predicted_mentions(doc, a)) | spans(nested_mentions(a)) <= set(got)
        assert spans(predicted_mentions(doc, a, dedupe_heads=False)) <= set(got)


def test_the_same_head_rule_is_off_for_candidates():
    # "the dog of Mary" and "the dog" share the head "dog": the rules keep the larger, the candidates both
    doc = conll_doc(SENTENCE)
    rules = spans(predicted_mentions(doc))
    cands = spans(candidate_mentions(doc))
    assert (9, 12) in rules and (9, 10) not in rules
    assert {(9, 12), (9, 10)} <= cands


def test_no_parse_no_nested_spans():
    rows = [(w, p, "*", n, c) for w, p, _, n, c in NESTED]
    doc = conll_doc(rows)
    assert spans(nested_mentions(analyse_document(doc))) == set()
