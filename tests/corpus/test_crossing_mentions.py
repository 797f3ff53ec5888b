"""Crossing mentions of one cluster: CoNLL-2012 brackets pair last-opened-first (scorer.pl v8.01 and our
reader alike), so (0, 2) and (1, 3) with one id come back as (1, 2) and (0, 3). A response is cut where
that would happen, so that what is scored in memory is what its file says."""

import warnings

from hypothesis import given, settings
from hypothesis import strategies as st

from coreflab.corpus.document import Document, writable_clusters
from coreflab.corpus.readers.conll import format_conll, parse_conll

WORDS = [f"w{k}" for k in range(12)] + ["."]


def _doc(clusters=()):
    return Document("d", 0, WORDS, [len(WORDS)], columns={}, clusters=[list(c) for c in clusters])


def _as_sets(clusters):
    return {frozenset(c) for c in clusters}


def test_two_crossing_mentions_of_one_cluster_are_cut_apart_and_written_exactly():
    response = _doc().with_clusters(writable_clusters([[(0, 2), (1, 3), (5, 5)]]))
    assert response.clusters == [[(0, 2), (5, 5)], [(1, 3)]]
    back = parse_conll(format_conll([response]), "r.conll")[0]
    assert _as_sets(back.clusters) == _as_sets(response.clusters)


def test_without_the_cut_the_brackets_would_read_back_as_other_spans():
    """Why the cut: the cell sequence of one id for (0, 2) and (1, 3) is '(0', '(0', '0)', '0)'."""
    text = "#begin document (d); part 000\n" + "".join(
        f"d\t0\t{k}\t{w}\t-\t-\t-\t-\t-\t-\t-\t{c}\n"
        for k, (w, c) in enumerate(zip(WORDS, ["(0", "(0", "0)", "0)"] + ["-"] * 9))
    )
    text += "\n#end document\n"
    assert parse_conll(text, "k.conll")[0].clusters == [[(1, 2), (0, 3)]]


def test_writing_a_document_that_holds_a_crossing_pair_warns_and_cuts():
    doc = _doc([[(0, 2), (1, 3)]])  # e.g. from a source that is not bracketed
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        back = parse_conll(format_conll([doc]), "k.conll")[0]
    assert _as_sets(back.clusters) == {frozenset({(0, 2)}), frozenset({(1, 3)})}
    assert any("cut apart where two of their mentions cross" in str(w.message) for w in caught)


spans = st.tuples(st.integers(0, 11), st.integers(0, 4)).map(lambda p: (p[0], min(11, p[0] + p[1])))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(spans, st.integers(0, 3)), min_size=1, max_size=10, unique_by=lambda x: x[0]))
def test_a_response_reads_back_as_written(assigned):
    clusters = {}
    for span, c in assigned:
        clusters.setdefault(c, []).append(span)
    cut = writable_clusters(list(clusters.values()))
    # the cut is a partition of each cluster, and leaves a cluster without a crossing pair whole
    assert sorted(s for c in cut for s in c) == sorted(s for c in clusters.values() for s in c)
    assert len(cut) >= len(clusters)
    response = _doc().with_clusters(cut)
    back = parse_conll(format_conll([response]), "r.conll")[0]
    assert _as_sets(back.clusters) == _as_sets(response.clusters) == _as_sets(cut)
    with warnings.catch_warnings():  # the writer given the clusters uncut cuts them the same way
        warnings.simplefilter("ignore")
        uncut = parse_conll(format_conll([_doc().with_clusters(list(clusters.values()))]), "r.conll")[0]
    assert _as_sets(uncut.clusters) == _as_sets(cut)


def test_clusters_without_a_crossing_pair_are_left_alone():
    nested = [[(0, 5), (1, 2), (1, 1), (4, 5)], [(6, 9), (7, 7)]]
    assert writable_clusters(nested) == nested


def test_a_cut_never_leaves_a_singleton_in_a_response_without_them():
    """Cut first, drop one-mention clusters after: on a key without singletons, the piece a cut leaves
    alone is dropped like any other one-mention cluster. The warning counts clusters, not pieces."""
    import numpy as np

    from coreflab.corpus.compile import compile_documents
    from coreflab.learn.output import response_documents

    # key: (0, 2) with (5, 5); (1, 3) with (8, 8); (2, 4) with (10, 10): no singletons; each two of the
    # first three spans cross (they share token 2), so a cluster of them is cut into three pieces
    key = _doc([[(0, 2), (5, 5)], [(1, 3), (8, 8)], [(2, 4), (10, 10)]])
    corpus = compile_documents([key], "toy", "test")
    spans = list(zip(corpus.m_start.tolist(), corpus.m_end.tolist()))
    assert spans == [(0, 2), (1, 3), (2, 4), (5, 5), (8, 8), (10, 10)]
    ante = np.array([-1, 0, 1, 2, -1, -1])  # one predicted cluster of the three crossing spans and (5, 5)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        (response,) = response_documents([key], corpus, ante, keep_singletons=False, source="k.conll", who="m")
    assert _as_sets(response.clusters) == {frozenset({(0, 2), (5, 5)})}
    (w,) = [str(c.message) for c in caught]
    assert w.startswith("m on k.conll: 1 predicted cluster(s) in 1 document(s) (first: 'd' part 0) cut apart")
    (kept,) = response_documents([key], corpus, ante, keep_singletons=True, source="k.conll", who="m")
    pieces = [[(0, 2), (5, 5)], [(1, 3)], [(2, 4)], [(8, 8)], [(10, 10)]]
    assert _as_sets(kept.clusters) == _as_sets(pieces)
