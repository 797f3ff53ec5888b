import numpy as np

from coreflab.corpus.parse_tree import LABELS, label_id, ne_spans, parse_document

BITS = ["(TOP(S(NP*", "*)", "(VP*", "(NP*", "*))", "*))"]  # John Smith saw the dog .


def test_constituents_of_a_sentence():
    t = parse_document(BITS)
    assert t.spans() == [("TOP", 0, 5), ("S", 0, 5), ("NP", 0, 1), ("VP", 2, 4), ("NP", 3, 4)]
    assert t.parent.tolist() == [-1, 0, 1, 1, 3]
    assert t.tok_parent.tolist() == [2, 2, 3, 4, 4, 1]
    # children in textual order: S -> NP, VP, token 5 ('.')
    kids = t.child_item[t.child_off[1] : t.child_off[2]].tolist()
    assert kids == [2, 3, -6]
    assert t.post_order.tolist() == [2, 4, 3, 1, 0]


def test_two_sentences_have_two_roots():
    t = parse_document(["(TOP(NP*))", "(TOP(S(NP*)", "(VP*)))"])
    assert [(l, s, e) for l, s, e in t.spans() if l == "TOP"] == [("TOP", 0, 0), ("TOP", 1, 2)]
    assert t.parent.tolist() == [-1, 0, -1, 2, 3, 3]


def test_no_parse_gives_none():
    assert parse_document(None) is None
    assert parse_document(["-", "-", "-"]) is None
    assert parse_document(["_"] * 4) is None


def test_function_tags_are_stripped():
    assert LABELS[label_id("NP-SBJ")] == "NP"
    assert LABELS[label_id("-NONE-")] == "-NONE-"


def test_ne_spans_one_and_many_tokens():
    labels, s, e = ne_spans(["(PERSON*", "*)", "*", "(GPE)", "*", "(DATE*"])
    assert labels == ["PERSON", "GPE"]  # the unclosed DATE is dropped
    assert s.tolist() == [0, 3] and e.tolist() == [1, 3]
    assert ne_spans(None)[0] == []
    assert np.asarray(ne_spans(["*", "*"])[1]).size == 0


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


def _random_tree(draw_int, start, n_tokens, depth, out):
    """Pre-order list of (label, start, end) covering tokens [start, start + n_tokens)."""
    me = len(out)
    out.append(["NP" if depth % 2 else "S", start, start + n_tokens - 1])
    if depth < 4 and n_tokens > 1:
        cut = sorted(set(draw_int(1, n_tokens - 1) for _ in range(draw_int(1, 3))))
        bounds = [0] + cut + [n_tokens]
        for a, b in zip(bounds, bounds[1:]):
            if draw_int(0, 2):
                _random_tree(draw_int, start + a, b - a, depth + 1, out)
    return me


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 12), st.randoms(use_true_random=False))
def test_scan_recovers_random_trees(n_tokens, rnd):
    nodes = []
    _random_tree(rnd.randint, 0, n_tokens, 0, nodes)
    bits = []
    for t in range(n_tokens):
        opens = "".join(f"({lab}" for lab, s, e in nodes if s == t)
        closes = ")" * sum(1 for lab, s, e in nodes if e == t)
        bits.append(opens + "*" + closes)
    tree = parse_document(bits)
    assert tree.spans() == [tuple(x) for x in nodes]
    # every token's innermost node covers it and no child of that node does
    for t in range(n_tokens):
        k = tree.tok_parent[t]
        assert tree.start[k] <= t <= tree.end[k]
