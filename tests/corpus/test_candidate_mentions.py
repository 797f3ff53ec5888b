"""The mention classifier's candidates: the rules' mentions plus the nested spans they leave out."""

from corpus_builders import SENTENCE, conll_doc

from coreflab.corpus.mentions import analyse_document, candidate_mentions, nested_mentions, predicted_mentions

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
    assert (1, 2) not in spans(predicted_mentions(doc, a))


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
