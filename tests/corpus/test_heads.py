import numpy as np

from coreflab.corpus.heads import fallback_head, node_heads
from coreflab.corpus.parse_tree import label_ids, parse_document


def heads_of(bits, pos):
    t = parse_document(bits)
    return {(l, s, e): int(h) for (l, s, e), h in zip(t.spans(), node_heads(t, label_ids(pos)))}


def test_sentence_heads_by_hand():
    # (TOP (S (NP John Smith) (VP saw (NP the dog)) .))
    h = heads_of(["(TOP(S(NP*", "*)", "(VP*", "(NP*", "*))", "*))"], ["NNP", "NNP", "VBD", "DT", "NN", "."])
    assert h == {("TOP", 0, 5): 2, ("S", 0, 5): 2, ("NP", 0, 1): 1, ("VP", 2, 4): 2, ("NP", 3, 4): 4}


def test_np_with_pp_and_possessive():
    # (NP (NP the dog) (PP of (NP Mary))) ; (NP (NP Mary 's) dog)
    h = heads_of(["(TOP(NP(NP*", "*)", "(PP*", "(NP*)))))"], ["DT", "NN", "IN", "NNP"])
    assert h[("NP", 0, 3)] == 1 and h[("PP", 2, 3)] == 2
    h = heads_of(["(TOP(NP(NP*", "*)", "*))"], ["NNP", "POS", "NN"])
    assert h[("NP", 0, 1)] == 1  # Collins: a final POS is the head of its NP
    assert h[("NP", 0, 2)] == 2


def test_apposition_and_coordination_take_the_first_np():
    # (NP (NP John) , (NP my friend) ,)
    h = heads_of(["(TOP(NP(NP*)", "*", "(NP*", "*)", "*))"], ["NNP", ",", "PRP$", "NN", ","])
    assert h[("NP", 0, 4)] == 0
    # (NP (NP the king) and (NP the queen))
    h = heads_of(["(TOP(NP(NP*", "*)", "*", "(NP*", "*)))"], ["DT", "NN", "CC", "DT", "NN"])
    assert h[("NP", 0, 4)] == 1


def test_sbar_and_pp_heads():
    # (SBAR that (S (NP he) (VP left)))
    h = heads_of(["(TOP(SBAR*", "(S(NP*)", "(VP*)))))"], ["IN", "PRP", "VBD"])
    assert h[("SBAR", 0, 2)] == 0 and h[("S", 1, 2)] == 2


def test_fallback_head_without_parse():
    # "the Duke of York" -> Duke ; "the man , who ..." -> man ; "his own" -> own (last token)
    words = ["the", "duke", "of", "york", ",", "who"]
    stop = np.array([w in ("of", ",", "who") for w in words])
    noun = np.array([w not in ("the", "of", ",", "who") for w in words])
    assert fallback_head(0, 3, stop, noun) == 1
    assert fallback_head(0, 5, stop, noun) == 1
    assert fallback_head(2, 3, stop, noun) == 3  # a leading stop word does not cut
    noun2 = np.zeros(6, bool)
    assert fallback_head(0, 1, stop, noun2) == 1  # no noun-like token: the prefix's last token
