"""Hand-computed values: the reference scorer's test cases (TestCases.README), the LEA paper
example (Moosavi & Strube 2016, Sec. 4), and edge cases with values worked out by hand."""

import numpy as np
import pytest

from coreflab.metrics import score_clusters


# letters -> one-token spans
def spans(*clusters):
    return [[(ord(m) - ord("a"), ord(m) - ord("a")) for m in c] for c in clusters]


def prf(scores, metric):
    return scores.prf(metric)


KEY = spans("a", "bc", "def")


@pytest.mark.parametrize(
    "response, ceafm, ceafe",
    [
        (spans("a", "bc", "def"), (1, 1), (1, 1)),  # TC1 perfect
        (spans("a", "de"), (3 / 6, 3 / 3), (1.8 / 3, 1.8 / 2)),  # TC2 missing
        (spans("a", "bcx", "defy", "z"), (6 / 6, 6 / 9), ((1 + 4 / 5 + 6 / 7) / 3, (1 + 4 / 5 + 6 / 7) / 4)),  # TC3
        (spans("a", "bcx", "dy", "z"), (4 / 6, 4 / 7), (2.2 / 3, 2.2 / 4)),  # TC4
    ],
)
def test_reference_scorer_ceaf_cases(response, ceafm, ceafe):
    s = score_clusters(KEY, response)
    assert prf(s, "ceafm")[:2] == pytest.approx(ceafm)
    assert prf(s, "ceafe")[:2] == pytest.approx(ceafe)


def test_tc7_repeated_key_mention_in_response_is_removed():
    # TC7: {a} {b c x B} {d y} {z} with B a repeat of b -> de-duplicated {a} {b c x} {d y} {z}
    response = spans("a", "bcx", "dy", "z")
    response[1].append((1, 1))
    with pytest.warns(UserWarning, match="1 in the response"):
        s = score_clusters(KEY, response)
    assert prf(s, "ceafm")[:2] == pytest.approx((4 / 6, 4 / 7))
    assert prf(s, "ceafe")[:2] == pytest.approx((2.2 / 3, 2.2 / 4))
    assert s.totals("mentions").tolist() == [4, 6, 4, 7]


LEA_KEY = spans("abc", "defg")
LEA_RESPONSE = spans("ab", "cd", "fghi")


def test_lea_paper_example():
    s = score_clusters(LEA_KEY, LEA_RESPONSE)
    r, p, _ = prf(s, "lea")
    assert r == pytest.approx((3 * 1 / 3 + 4 * 1 / 6) / 7)
    assert p == pytest.approx((2 * 1 + 2 * 0 + 4 * 1 / 6) / 8)


def test_muc_bcub_blanc_on_lea_example():
    s = score_clusters(LEA_KEY, LEA_RESPONSE)
    assert s.totals("muc").tolist() == [2, 5, 2, 5]
    assert s.totals("bcub") == pytest.approx([4 / 3 + 1 / 3 + 1 / 4 + 1, 7, 2 + 1 / 2 + 1 / 2 + 1, 8])
    # coreference links: key 9, response 8, common 2 (ab, fg); non-coreference links:
    # key 21 - 9, response 28 - 8, common 8 (the 9 cross pairs of {abc}x{dfg} but c-d)
    assert s.totals("blanc").tolist() == [2, 9, 2, 8, 8, 12, 8, 20]
    r, p, f = prf(s, "blanc")
    fc = 2 * (2 / 8) * (2 / 9) / (2 / 8 + 2 / 9)
    fn = 2 * (8 / 20) * (8 / 12) / (8 / 20 + 8 / 12)
    assert (r, p, f) == pytest.approx(((2 / 9 + 8 / 12) / 2, (2 / 8 + 8 / 20) / 2, (fc + fn) / 2))
    assert s.totals("mentions").tolist() == [6, 7, 6, 8]


def test_perfect_response_is_100_everywhere():
    key = [[(0, 1), (4, 4), (7, 9)], [(2, 2), (5, 6)], [(3, 3)]]
    s = score_clusters(key, [list(c) for c in reversed(key)])
    for m in ("mentions", "muc", "bcub", "ceafm", "ceafe", "blanc", "lea"):
        assert prf(s, m) == pytest.approx((1, 1, 1))
    assert s.mela == pytest.approx(100)


def test_empty_response():
    s = score_clusters([[(0, 0), (2, 3)], [(5, 5)]], [])
    assert s.totals("muc").tolist() == [0, 1, 0, 0]
    assert s.totals("bcub").tolist() == [0, 3, 0, 0]
    assert s.totals("ceafe").tolist() == [0, 2, 0, 0]
    assert s.totals("blanc").tolist() == [0, 1, 0, 0, 0, 2, 0, 0]
    assert s.mela == 0


def test_key_without_links_muc_zero_over_zero_and_blanc_non_coref_only():
    key = [[(0, 0)], [(1, 1)], [(2, 2)]]
    s = score_clusters(key, [[(0, 0), (1, 1)], [(2, 2)]])
    assert s.totals("muc").tolist() == [0, 0, 0, 1]
    assert prf(s, "muc") == (0, 0, 0)
    # no key coreference link: BLANC is the non-coreference-link score alone (v8.01)
    assert s.totals("blanc").tolist() == [0, 0, 0, 1, 2, 3, 2, 2]
    assert prf(s, "blanc") == pytest.approx((2 / 3, 1, 0.8))
    # LEA: key singletons count one self-link each; (2,2) is resolved, 0 and 1 are not
    assert s.totals("lea") == pytest.approx([1, 3, 1, 3])


def test_all_singletons_response_and_twinless_mentions():
    key = [[(0, 0), (1, 1), (2, 2)]]
    response = [[(0, 0)], [(1, 1)], [(2, 2)], [(8, 8)]]  # (8, 8) twinless singleton
    s = score_clusters(key, response)
    assert s.totals("muc").tolist() == [0, 2, 0, 0]
    assert s.totals("bcub") == pytest.approx([1, 3, 3, 4])
    assert s.totals("ceafm").tolist() == [1, 3, 1, 4]
    assert s.totals("ceafe") == pytest.approx([0.5, 1, 0.5, 4])
    assert s.totals("mentions").tolist() == [3, 3, 3, 4]


def test_nested_mentions_are_distinct():
    key = [[(0, 4), (2, 2)], [(1, 3)]]
    response = [[(0, 4), (1, 3)], [(2, 2)]]
    s = score_clusters(key, response)
    assert s.totals("mentions").tolist() == [3, 3, 3, 3]
    assert s.totals("muc").tolist() == [0, 1, 0, 1]
    assert s.totals("bcub") == pytest.approx([2, 3, 2, 3])


def test_multiple_documents_are_micro_averaged():
    from coreflab.metrics import score_clusterings

    keys = [[[(0, 0), (1, 1)]], [[(0, 0), (1, 1), (2, 2), (3, 3)]]]
    responses = [[[(0, 0), (1, 1)]], [[(0, 0), (1, 1)], [(2, 2), (3, 3)]]]
    s = score_clusterings(keys, responses)
    assert s.per_doc["muc"].tolist() == [[1, 1, 1, 1], [2, 3, 2, 2]]
    assert prf(s, "muc")[:2] == pytest.approx((3 / 4, 3 / 3))
    assert s.mela == pytest.approx(100 * np.mean([s.f1("muc"), s.f1("bcub"), s.f1("ceafe")]))
