"""Hypothesis properties: the fast contingency path equals the literal v8.01 transcription,
and the scores are invariant to cluster order and document order, within [0, 100], etc."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coreflab.metrics import reference, score_clusterings, score_clusters, score_labels
from coreflab.metrics.scorer import prf_from_sums

METRICS = ("mentions", "muc", "bcub", "ceafm", "ceafe", "blanc", "lea")


@st.composite
def clustering(draw, max_tokens=12, max_mentions=9, repeats=False):
    n_tok = draw(st.integers(1, max_tokens))
    span = st.tuples(st.integers(0, n_tok - 1), st.integers(0, 3)).map(lambda t: (t[0], min(t[0] + t[1], n_tok - 1)))
    spans = draw(st.lists(span, max_size=max_mentions, unique=not repeats))
    labels = draw(st.lists(st.integers(0, 4), min_size=len(spans), max_size=len(spans)))
    clusters = {}
    for s, lab in zip(spans, labels):
        clusters.setdefault(lab, []).append(s)
    return list(clusters.values())


def same(a, b):
    return np.allclose(np.asarray(a, dtype=float), np.asarray(b, dtype=float), atol=1e-9)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(clustering(), clustering())
def test_fast_path_equals_v801_transcription(key, response):
    ref = reference.score_document(key, response)
    fast = score_clusters(key, response)
    for m in METRICS:
        assert same(fast.per_doc[m][0], ref[m]), m


@settings(max_examples=100, deadline=None)
@given(clustering(repeats=True), clustering(repeats=True))
def test_repeated_spans_are_scored_as_v801(key, response):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fast = score_clusters(key, response)
    ref = reference.score_document(key, response)
    for m in METRICS:
        assert same(fast.per_doc[m][0], ref[m]), m


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(clustering(), clustering()), min_size=1, max_size=4), st.randoms(use_true_random=False))
def test_invariant_to_cluster_and_document_order(pairs, rnd):
    keys = [k for k, _ in pairs]
    resps = [r for _, r in pairs]
    base = score_clusterings(keys, resps)
    order = list(range(len(pairs)))
    rnd.shuffle(order)
    shuffled_resps = []
    for i in order:
        r = [list(c) for c in resps[i]]
        rnd.shuffle(r)
        shuffled_resps.append(r)
    other = score_clusterings([keys[i] for i in order], shuffled_resps)
    for m in METRICS:
        assert same(base.totals(m), other.totals(m))
        r, p, f = base.prf(m)
        assert 0 <= r <= 1 and 0 <= p <= 1 and 0 <= f <= 1
    assert base.mela == pytest.approx(100 * sum(base.f1(m) for m in ("muc", "bcub", "ceafe")) / 3)


@settings(max_examples=100, deadline=None)
@given(clustering(max_mentions=12))
def test_perfect_response_scores_100(key):
    s = score_clusters(key, [list(c) for c in key])
    n = sum(len(c) for c in key)
    for m in ("mentions", "bcub", "ceafm", "ceafe", "lea"):
        assert s.prf(m) == pytest.approx((1, 1, 1)) if n else s.prf(m) == (0, 0, 0)
    if any(len(c) > 1 for c in key):
        assert s.prf("muc") == pytest.approx((1, 1, 1))
        assert s.prf("blanc") == pytest.approx((1, 1, 1))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 5), st.integers(-1, 5), st.integers(0, 2)), max_size=30))
def test_label_path_equals_span_path(rows):
    key_labels = np.array([k for k, _, _ in rows], dtype=np.int64)
    resp_labels = np.array([r for _, r, _ in rows], dtype=np.int64)
    docs = np.array([d for _, _, d in rows], dtype=np.int64)
    n_docs = int(docs.max(initial=-1)) + 1
    keys, resps = [], []
    for d in range(n_docs):
        idx = np.flatnonzero(docs == d)
        kc, rc = {}, {}
        for i in idx:
            kc.setdefault(key_labels[i], []).append((int(i), int(i)))
            if resp_labels[i] >= 0:
                rc.setdefault(resp_labels[i], []).append((int(i), int(i)))
        keys.append(list(kc.values()))
        resps.append(list(rc.values()))
    a = score_labels(key_labels, resp_labels, docs)
    b = score_clusterings(keys, resps)
    for m in METRICS:
        assert same(a.per_doc[m], b.per_doc[m]), m


def test_blanc_special_cases_follow_v801():
    # neither kind of key link: everything 0
    assert [float(x) for x in prf_from_sums("blanc", [0, 0, 0, 0, 0, 0, 0, 0])] == [0, 0, 0]
    # no key non-coreference links: coreference-link scores alone
    r, p, f = prf_from_sums("blanc", [1, 2, 1, 1, 0, 0, 0, 3])
    assert (float(r), float(p), float(f)) == pytest.approx((0.5, 1.0, 2 / 3))
