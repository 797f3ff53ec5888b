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


def _spans_text(doc):
    s, e = predicted_mentions(doc)
    return [" ".join(doc.words[a : b + 1]) for a, b in zip(s.tolist(), e.tolist())]


def test_both_nps_of_an_apposition_are_mentions_beside_the_whole():
    rows = [
        ("Thyrza", "NNP", "(TOP(S(NP(NP*)", "*", "-"),
        (",", ",", "*", "*", "-"),
        ("a", "DT", "(NP*", "*", "-"),
        ("poem", "NN", "*)", "*", "-"),
        (",", ",", "*)", "*", "-"),
        ("sold", "VBD", "(VP*)", "*", "-"),
        (".", ".", "*))", "*", "-"),
    ]
    # the whole NP keeps its own head (Thyrza) and the first NP is no longer dropped for sharing it;
    # the whole's trailing comma is trimmed
    assert _spans_text(conll_doc(rows)) == ["Thyrza", "Thyrza , a poem", "a poem"]


def test_a_flat_coordinated_np_gives_its_conjuncts():
    rows = [
        ("defaults", "NNS", "(TOP(NP*", "*", "-"),
        (",", ",", "*", "*", "-"),
        ("fees", "NNS", "*", "*", "-"),
        ("and", "CC", "*", "*", "-"),
        ("late", "JJ", "*", "*", "-"),
        ("payments", "NNS", "*))", "*", "-"),
    ]
    assert _spans_text(conll_doc(rows)) == ["defaults", "defaults , fees and late payments", "fees", "late payments"]


def test_spans_lose_edge_punctuation_and_a_trailing_bracketed_group():
    rows = [
        ("limited", "JJ", "(TOP(FRAG(NP(NP*", "*", "-"),
        ("exposure", "NN", "*", "*", "-"),
        ("[", "-LRB-", "*", "*", "-"),
        ("22", "CD", "*", "*", "-"),
        ("]", "-RRB-", "*)", "*", "-"),
        (".", ".", "*)))", "*", "-"),
    ]
    # NP(limited exposure [ 22 ]) and its parent NP(... .) both become "limited exposure": one mention
    assert _spans_text(conll_doc(rows)) == ["limited exposure"]
    rows = [("Bonus", "NN", "(TOP(NP*", "*", "-"), ("?", ".", "*))", "*", "-")]
    assert _spans_text(conll_doc(rows)) == ["Bonus"]
