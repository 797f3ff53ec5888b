import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coreflab.metrics import pairwise_scores, variation_of_information


def brute_pairwise(a, b):
    n = len(a)
    kl = rl = ok = err = 0
    for i in range(n):
        for j in range(i + 1, n):
            x, y = a[i] == a[j], b[i] == b[j]
            kl += x
            rl += y
            ok += x and y
            err += x != y
    return kl, rl, ok, err, n * (n - 1) // 2


def test_pairwise_hand_computed():
    # key {0,1,2} {3}; response {0,1} {2,3}: key links 3, response links 2, correct 1 (0-1)
    s = pairwise_scores([0, 0, 0, 1], [5, 5, 6, 6])
    assert (s["key_links"], s["response_links"], s["correct_links"], s["pairs"]) == (3, 2, 1, 6)
    assert s["precision"] == pytest.approx(1 / 2)
    assert s["recall"] == pytest.approx(1 / 3)
    assert s["f1"] == pytest.approx(0.4)
    assert s["error_rate"] == pytest.approx(3 / 6)  # 0-2, 1-2 missed; 2-3 spurious


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), max_size=25))
def test_pairwise_equals_enumeration(rows):
    a = [x for x, _ in rows]
    b = [y for _, y in rows]
    s = pairwise_scores(a, b)
    kl, rl, ok, err, pairs = brute_pairwise(a, b)
    assert (s["key_links"], s["response_links"], s["correct_links"], s["pairs"]) == (kl, rl, ok, pairs)
    assert s["error_rate"] == pytest.approx(err / pairs if pairs else 0)


def test_pairwise_only_within_documents():
    s = pairwise_scores([0, 0, 0, 0], [0, 0, 0, 0], doc_index=[0, 0, 1, 1])
    assert (s["key_links"], s["pairs"]) == (2, 2)


def test_variation_of_information_hand_computed():
    assert variation_of_information([0, 0, 1, 1], [5, 5, 7, 7]) == pytest.approx(0)
    # one cluster vs all singletons over n items: VI = log n
    assert variation_of_information([0, 0, 0, 0], [0, 1, 2, 3]) == pytest.approx(np.log(4))
    assert variation_of_information([0, 0, 0, 0], [0, 1, 2, 3], base=2) == pytest.approx(2)
    # {01}{23} vs {02}{13}: H(A|B) = H(B|A) = log 2
    assert variation_of_information([0, 0, 1, 1], [0, 1, 0, 1]) == pytest.approx(2 * np.log(2))


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), min_size=1, max_size=20))
def test_vi_is_symmetric_and_nonnegative(rows):
    a = [x for x, _ in rows]
    b = [y for _, y in rows]
    v = variation_of_information(a, b)
    assert v >= 0
    assert v == pytest.approx(variation_of_information(b, a))
