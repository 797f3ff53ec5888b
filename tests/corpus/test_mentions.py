from corpus_builders import SENTENCE, conll_doc

from coreflab.corpus.document import Document
from coreflab.corpus.mentions import analyse_document, gold_mentions, mention_detection_scores, predicted_mentions


def test_predicted_mentions_of_a_parsed_sentence():
    doc = conll_doc(SENTENCE)
    s, e = predicted_mentions(doc)
    # NPs (0,1) (3,3) (7,7) (9,12) (9,10) (12,12); 'it' is pleonastic; (9,10) shares the head 'dog'
    assert list(zip(s.tolist(), e.tolist())) == [(0, 1), (7, 7), (9, 12), (12, 12)]


def test_referential_it_is_kept():
    rows = [("it", "PRP", "(TOP(S(NP*)", "*", "-"), ("barked", "VBD", "(VP*)", "*", "-"), (".", ".", "*))", "*", "-")]
    s, e = predicted_mentions(conll_doc(rows))
    assert list(zip(s.tolist(), e.tolist())) == [(0, 0)]
    rows = [("It", "PRP", "(TOP(S(NP*)", "*", "-"), ("seems", "VBZ", "(VP*)", "*", "-"), (".", ".", "*))", "*", "-")]
    assert len(predicted_mentions(conll_doc(rows))[0]) == 0


def test_numeric_entities_are_dropped():
    rows = [
        ("He", "PRP", "(TOP(S(NP*)", "*", "-"),
        ("paid", "VBD", "(VP*", "*", "-"),
        ("ten", "CD", "(NP*", "(MONEY*", "-"),
        ("dollars", "NNS", "*)", "*)", "-"),
        ("on", "IN", "(PP*", "*", "-"),
        ("Monday", "NNP", "(NP*)))", "(DATE)", "-"),
        (".", ".", "*))", "*", "-"),
    ]
    s, e = predicted_mentions(conll_doc(rows))
    assert list(zip(s.tolist(), e.tolist())) == [(0, 0)]


def test_coordinated_np_keeps_its_conjuncts():
    rows = [
        ("the", "DT", "(TOP(NP(NP*", "*", "-"),
        ("king", "NN", "*)", "*", "-"),
        ("and", "CC", "*", "*", "-"),
        ("the", "DT", "(NP*", "*", "-"),
        ("queen", "NN", "*)))", "*", "-"),
    ]
    s, e = predicted_mentions(conll_doc(rows))
    assert list(zip(s.tolist(), e.tolist())) == [(0, 1), (0, 4), (3, 4)]


def test_fallback_without_parse():
    words = "The old Count Dracula said that he met Mr. Harker in London . Suddenly Harker left suddenly .".split()
    doc = Document("x", 0, words, [13, 18], columns={k: None for k in ("pos", "parse", "ne")})
    s, e = predicted_mentions(doc)
    # 'Suddenly' opens a sentence and 'suddenly' occurs lower-cased: not a mention
    assert [" ".join(words[a : b + 1]) for a, b in zip(s.tolist(), e.tolist())] == [
        "Count Dracula",
        "he",
        "Mr. Harker",
        "London",
        "Harker",
    ]


def test_gold_mentions_dedupe_and_scores():
    doc = conll_doc(SENTENCE)
    doc.clusters.append([(9, 12)])  # the same span in two clusters is one mention
    s, e = gold_mentions(doc)
    assert list(zip(s.tolist(), e.tolist())) == [(0, 1), (7, 7), (9, 12), (12, 12)]
    sc = mention_detection_scores([doc], "predicted")
    assert (sc["gold"], sc["predicted"], sc["matched"]) == (4, 4, 4) and sc["f1"] == 1.0
    assert mention_detection_scores([doc], "gold")["recall"] == 1.0


def test_analysis_flags_use_pos():
    a = analyse_document(conll_doc(SENTENCE))
    assert a.has_pos and a.tree is not None
    assert a.is_noun.tolist()[:3] == [True, True, False]
    assert a.is_stop[11] and a.is_stop[6]
