"""Candidate antecedents of every mention: a window, plus string-matched mentions beyond it.

Why: a window (`features.window: 50` on LitBank and GUM) bounds the quadratic number of
arcs in long documents, but it also hides gold links: a mention whose cluster mates all
lie further back gets the root as its only gold-consistent arc (8.2% of GUM dev non-first
mentions), while the `string_match` baseline has no such limit. With `reach` on, a name
or nominal anaphor also gets, at any distance, every earlier mention whose lower-cased
head or whole lower-cased string equals its own — so the window never hides a link string
match can see, at the cost of few extra arcs (only matching mentions are added).

Layout (the arc store's contract): per mention the root arc first (antecedent -1), then
the candidates as within-document indices in ascending order — string-matched ones
beyond the window, then the window. Two numba passes (count, fill) over flat arrays.

`reachability` is the oracle ceiling of a candidate layout: the share of non-first
mentions (those with an earlier mention of their gold cluster) that have at least one
gold cluster mate among their candidates.
"""

import numpy as np
from numba import njit

from coreflab.corpus.compiled import TYPE_COMMON, TYPE_NAME


@njit(cache=True, inline="always")
def _reaches(j, i, m_type, m_head, m_full):
    """Does anaphor j (name or nominal) reach the earlier mention i by string?"""
    if m_type[j] != TYPE_NAME and m_type[j] != TYPE_COMMON:
        return False
    return (m_head[j] >= 0 and m_head[j] == m_head[i]) or (m_full[j] >= 0 and m_full[j] == m_full[i])


@njit(cache=True)
def _count(doc_off, window, reach, m_type, m_head, m_full, n_arcs):
    for d in range(doc_off.shape[0] - 1):
        lo, hi = doc_off[d], doc_off[d + 1]
        for j in range(lo, hi):
            first = lo if window < 0 else max(lo, j - window)
            n = 1 + j - first
            if reach:
                for i in range(lo, first):
                    if _reaches(j, i, m_type, m_head, m_full):
                        n += 1
            n_arcs[j] = n


@njit(cache=True)
def _fill(doc_off, window, reach, m_type, m_head, m_full, m_arc_off, arc_ante):
    for d in range(doc_off.shape[0] - 1):
        lo, hi = doc_off[d], doc_off[d + 1]
        for j in range(lo, hi):
            a = m_arc_off[j]
            arc_ante[a] = -1
            first = lo if window < 0 else max(lo, j - window)
            if reach:
                for i in range(lo, first):
                    if _reaches(j, i, m_type, m_head, m_full):
                        a += 1
                        arc_ante[a] = i - lo
            for i in range(first, j):
                a += 1
                arc_ante[a] = i - lo


def _mention_arrays(corpus):
    a = corpus.arrays
    n = corpus.n_mentions

    def col(key):
        return np.ascontiguousarray(a[key], dtype=np.int32) if key in a else np.full(n, -1, np.int32)

    return col("m_type"), col("m_head_str"), col("m_full_str")


def candidate_arcs(corpus, window=None, reach=True):
    """(m_arc_offsets int64[n+1], arc_ante int32[n_arcs]) of `corpus`.

    window None: every earlier mention (reach adds nothing then)."""
    doc_off = np.ascontiguousarray(corpus.doc_mention_offsets, dtype=np.int64)
    w = -1 if window is None else int(window)
    reach = bool(reach) and w >= 0
    m_type, m_head, m_full = _mention_arrays(corpus)
    n = int(doc_off[-1])
    n_arcs = np.zeros(n, dtype=np.int64)
    _count(doc_off, w, reach, m_type, m_head, m_full, n_arcs)
    m_arc_off = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(n_arcs, out=m_arc_off[1:])
    arc_ante = np.empty(int(m_arc_off[-1]), dtype=np.int32)
    _fill(doc_off, w, reach, m_type, m_head, m_full, m_arc_off, arc_ante)
    return m_arc_off, arc_ante


@njit(cache=True)
def _reachable(doc_off, m_arc_off, arc_ante, m_cluster):
    """(non-first mentions, those with a gold cluster mate among their candidates)."""
    n_nonfirst = 0
    n_reach = 0
    for d in range(doc_off.shape[0] - 1):
        lo, hi = doc_off[d], doc_off[d + 1]
        for j in range(lo, hi):
            c = m_cluster[j]
            if c < 0:
                continue
            has_mate = False
            for i in range(lo, j):
                if m_cluster[i] == c:
                    has_mate = True
                    break
            if not has_mate:
                continue
            n_nonfirst += 1
            for a in range(m_arc_off[j] + 1, m_arc_off[j + 1]):
                if m_cluster[lo + arc_ante[a]] == c:
                    n_reach += 1
                    break
    return n_nonfirst, n_reach


def reachability(corpus, window=None, reach=True):
    """Oracle ceiling of a candidate layout: dict with the number of non-first mentions,
    how many have a gold antecedent among their candidates, the share, and the arcs."""
    m_arc_off, arc_ante = candidate_arcs(corpus, window, reach)
    cluster = np.ascontiguousarray(corpus.arrays["m_cluster"], dtype=np.int32)
    n_nonfirst, n_reach = _reachable(
        np.ascontiguousarray(corpus.doc_mention_offsets, dtype=np.int64), m_arc_off, arc_ante, cluster
    )
    return {
        "nonfirst": int(n_nonfirst),
        "reachable": int(n_reach),
        "share": float(n_reach / n_nonfirst) if n_nonfirst else 1.0,
        "arcs": int(arc_ante.shape[0]),
    }


__all__ = ["candidate_arcs", "reachability"]
