"""CEAF's alignment by components of the overlap graph: single edges, stars, and the rest.

Hand-computed optima where taking each cluster's best partner would be wrong, in one
document together with a star and a single edge, and agreement with the literal v8.01
transcription (`reference`), whose Hungarian search sees the whole table.
"""

import pytest

from coreflab.metrics import reference, score_clusters

A, B, C, D, E, F, G, H, I, J = [(t, t) for t in range(10)]


def test_cycle_star_and_edge_in_one_document():
    key = [[A, B, C], [D, E], [F, G, H], [I]]
    # cycle: K1-R1 (2: A, B), K1-R2 (1: C), K2-R1 (1: D), K2-R2 (1: E)
    # star: K3 meets R3 (2: F, G) and R4 (1: H); edge: K4-R5 (1: I), J twinless
    response = [[A, B, D], [C, E], [F, G], [H], [I, J]]
    s = score_clusters(key, response, metrics=["ceafm", "ceafe"])
    # φ3: cycle 2 + 1 (K1-R1, K2-R2), star 2, edge 1
    assert s.per_doc["ceafm"][0].tolist() == [6, 9, 6, 10]
    # φ4 = 2n / (|K| + |R|): cycle max(2*2/6 + 2*1/4, 2*1/5 + 2*1/5) = 7/6, star 2*2/5, edge 2*1/3
    phi4 = 7 / 6 + 4 / 5 + 2 / 3
    assert s.per_doc["ceafe"][0].tolist() == pytest.approx([phi4, 4, phi4, 5])
    ref = reference.score_document(key, response)
    for m in ("ceafm", "ceafe"):
        assert s.per_doc[m][0].tolist() == pytest.approx(list(ref[m]))


def test_response_star_takes_its_heaviest_edge():
    key = [[A, B], [C], [D, E, F]]
    response = [[A, C, D, E]]  # one response cluster meeting three key clusters
    s = score_clusters(key, response, metrics=["ceafm", "ceafe"])
    assert s.per_doc["ceafm"][0].tolist() == [2, 6, 2, 4]  # D, E with the 3-mention key cluster
    assert s.per_doc["ceafe"][0].tolist() == pytest.approx([max(2 / 6, 2 / 5, 4 / 7), 3, max(2 / 6, 2 / 5, 4 / 7), 1])
