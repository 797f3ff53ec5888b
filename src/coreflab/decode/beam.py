"""Beam search over partial antecedent trees with non-local features.

Björkelund & Kuhn (2014, Sec. 5; docs/methods.md, "Björkelund & Kuhn 2014"): an agenda of states (partial trees
over m_1..m_{j-1}); at m_j every state is expanded with every candidate antecedent
(every arc of A_j, or only the gold-consistent arcs Ã_j for the gold agenda), each
expansion scored by state score + local arc score + non-local features read from the
state, and the k best expansions are kept.

`Agenda` = flat arrays (no Python objects): `states` int32[k, NF, n] (per item: antecedent,
arc position, cluster id per mention and per-cluster bookkeeping, see
`coreflab.features.nonlocal_templates`), `shapes` uint64[k, n] (cluster shapes), `scores`
float64[k] and `ok` int8[k] (1 if every arc of the item is gold-consistent).

Deterministic tie-breaking: expansions are generated item by item (agenda order), arc
by arc (store order: root first); order = (higher total, earlier item, higher arc score
within the item, earlier arc). The arc-score key matters: item score + arc score can
round two arc scores that differ in the last bit to one total, and best-first would
still tell them apart. With local features only, item 0 of the agenda is therefore
always exactly the best-first prefix (what makes delayed LaSO equal the baseline).
"""

from collections import namedtuple

import numpy as np
from numba import njit

from coreflab.decode.arcs import arc_arrays, doc_rows, score_arcs
from coreflab.features.nonlocal_templates import (
    A_TYPE,
    F_ANTE,
    F_CLUS,
    NF,
    NonLocal,
    emit_antecedent,
    emit_cluster,
    has_antecedent_templates,
    state_push,
)

Agenda = namedtuple("Agenda", ["states", "shapes", "scores", "ok"])
Agenda.__doc__ = "k beam items: state matrices, cluster shapes, scores, and 1 where every arc is gold-consistent."
Doc = namedtuple("Doc", ["lo", "n", "s_off", "scores"])
Doc.__doc__ = """One document in the search: its first mention row, its mention count, and the local
scores of its arcs (scores[a - s_off] for arc a)."""
Work = namedtuple("Work", ["buf", "top_s", "top_b", "top_a", "memo_s", "memo_t", "ctr", "top_x"])
Work.__doc__ = """Scratch of `beam_step`: feature buffer, the top-k expansions (total, item, arc, arc score) and
the per-cluster memo of non-local scores (value, stamp, stamp counter)."""


@njit(cache=True, inline="always")
def doc_scored(d, w, arcs):
    """`Doc` of document d with every arc scored under w."""
    lo, hi = doc_rows(arcs, d)
    s_off = arcs.m_arc_offsets[lo]
    s_end = arcs.m_arc_offsets[hi]
    scores = np.empty(max(1, s_end - s_off), dtype=np.float64)
    score_arcs(w, arcs.arc_feat_offsets, arcs.arc_feats, s_off, s_end, scores)
    return Doc(lo, hi - lo, s_off, scores)


@njit(cache=True)
def agenda_new(k, n):
    n = max(n, 1)
    return Agenda(
        np.zeros((k, NF, n), dtype=np.int32),
        np.zeros((k, n), dtype=np.uint64),
        np.zeros(k, dtype=np.float64),
        np.zeros(k, dtype=np.int8),
    )


@njit(cache=True)
def work_new(k, n, n_codes):
    """Scratch arrays of beam_step for a document of n mentions."""
    n = max(n, 1)
    return Work(
        np.empty(max(1, n_codes) * 16, dtype=np.int64),
        np.empty(k, dtype=np.float64),
        np.empty(k, dtype=np.int64),
        np.empty(k, dtype=np.int64),
        np.zeros(n, dtype=np.float64),
        np.zeros(n, dtype=np.int64),
        np.zeros(1, dtype=np.int64),
        np.empty(k, dtype=np.float64),
    )


@njit(cache=True, inline="always")
def _beats(s, b, x, ts, tb, tx):
    """Expansion order: higher total first; on equal totals the earlier item, and within
    one item the higher arc score x (a total s + x can absorb a tiny difference in x, which
    must not flip the choice best-first would make)."""
    return s > ts or (s == ts and b == tb and x > tx)


@njit(cache=True)
def agenda_reset(ag):
    """One empty item with score 0 (the start of a document); returns the item count."""
    ag.scores[0] = 0.0
    ag.ok[0] = 1
    return 1


@njit(cache=True)
def agenda_copy(src, cnt, dst, upto):
    """Copy the first cnt items (prefix [0, upto) of each) from src to dst (re-seeding)."""
    for b in range(cnt):
        dst.states[b, :, :upto] = src.states[b, :, :upto]
        dst.shapes[b, :upto] = src.shapes[b, :upto]
        dst.scores[b] = src.scores[b]
        dst.ok[b] = src.ok[b]
    return cnt


@njit(cache=True, inline="always")
def _cluster_score(w, buf, nf):
    """Σ w over the nf feature ids in buf."""
    cs = 0.0
    for e in range(nf):
        cs += w[buf[e]]
    return cs


@njit(cache=True, inline="always")
def _push_top(s, b, a, x, n_top, top_s, top_b, top_a, top_x):
    """Insert expansion (total s, item b, arc a, arc score x) into the sorted top-k; returns its size."""
    k = top_s.shape[0]
    if n_top == k and not _beats(s, b, x, top_s[k - 1], top_b[k - 1], top_x[k - 1]):
        return n_top
    p = n_top if n_top < k else k - 1
    while p > 0 and _beats(s, b, x, top_s[p - 1], top_b[p - 1], top_x[p - 1]):
        top_s[p] = top_s[p - 1]
        top_b[p] = top_b[p - 1]
        top_a[p] = top_a[p - 1]
        top_x[p] = top_x[p - 1]
        p -= 1
    top_s[p] = s
    top_b[p] = b
    top_a[p] = a
    top_x[p] = x
    return n_top + 1 if n_top < k else n_top


@njit(cache=True)
def _write_top(j, a0, n_top, src, dst, arcs, t_j, work):
    """dst's items: the kept expansions, each its source item's prefix plus the chosen arc for m_j."""
    ist, shp = src.states, src.shapes
    arc_gold, arc_ante = arcs.arc_gold, arcs.arc_ante
    for t in range(n_top):
        b = work.top_b[t]
        a = work.top_a[t]
        dst.states[t, :, :j] = ist[b, :, :j]
        dst.shapes[t, :j] = shp[b, :j]
        state_push(dst.states[t], dst.shapes[t], j, arc_ante[a], a - a0, t_j)
        dst.scores[t] = work.top_s[t]
        dst.ok[t] = 1 if (src.ok[b] == 1 and arc_gold[a] == 1) else 0


@njit(cache=True)
def beam_step(j, doc, src, cnt, dst, constrained, arcs, nl, w, work):
    """Expand the cnt items of src with mention j of doc into dst.

    constrained → only arcs with arc_gold[a] (Ã_j). Returns the number of items written to dst
    (≤ k, the agendas' size). Every bundle is unpacked before the loops: the loops run per arc.
    Non-local scores: cluster-level features once per (item, cluster), memoised by stamp;
    antecedent-level features per arc.
    """
    lo, s_off, scores = doc.lo, doc.s_off, doc.scores
    row = lo + j
    a0, a1 = arcs.m_arc_offsets[row], arcs.m_arc_offsets[row + 1]
    arc_gold, arc_ante = arcs.arc_gold, arcs.arc_ante
    codes, attrs, n_bits = nl
    buf, top_s, top_b, top_a, memo_s, memo_t, ctr, top_x = work
    ist, shp, sc = src.states, src.shapes, src.scores
    nonlocal_on = codes.shape[0] > 0
    ante_level = has_antecedent_templates(codes)
    n_top = 0
    for b in range(cnt):
        ctr[0] += 1
        stamp = ctr[0]
        for a in range(a0, a1):
            if constrained and arc_gold[a] == 0:
                continue
            x = scores[a - s_off]
            ante = arc_ante[a]
            if ante >= 0 and nonlocal_on:
                c = ist[b, F_CLUS, ante]
                if memo_t[c] != stamp:
                    nf = emit_cluster(codes, attrs, lo, j, c, ist[b], shp[b], n_bits, buf, 0)
                    memo_s[c] = _cluster_score(w, buf, nf)
                    memo_t[c] = stamp
                x += memo_s[c]
                if ante_level:
                    nf = emit_antecedent(codes, attrs, lo, j, ante, ist[b], n_bits, buf, 0)
                    for e in range(nf):
                        x += w[buf[e]]
            n_top = _push_top(sc[b] + x, b, a, x, n_top, top_s, top_b, top_a, top_x)
    _write_top(j, a0, n_top, src, dst, arcs, attrs[row, A_TYPE], work)
    return n_top


@njit(cache=True)
def any_correct(ag, cnt):
    for b in range(cnt):
        if ag.ok[b] == 1:
            return True
    return False


@njit(cache=True)
def beam_decode_doc(doc, k, arcs, constrained, nl, w, out_ante):
    """Best complete tree of one document by beam search; antecedents to out_ante[0:n]."""
    n = doc.n
    A = agenda_new(k, n)
    B = agenda_new(k, n)
    work = work_new(k, n, nl.codes.shape[0])
    cnt = agenda_reset(A)
    for j in range(n):
        cnt = beam_step(j, doc, A, cnt, B, constrained, arcs, nl, w, work)
        A, B = B, A
    for j in range(n):
        out_ante[j] = A.states[0, F_ANTE, j]
    return A.scores[0]


@njit(cache=True)
def _beam_decode_corpus(k, w, arcs, constrained, nl, out_ante):
    for d in range(arcs.doc_mention_offsets.shape[0] - 1):
        lo, hi = doc_rows(arcs, d)
        if hi > lo:
            doc = doc_scored(d, w, arcs)
            beam_decode_doc(doc, k, arcs, constrained, nl, w, out_ante[lo:hi])


def beam_antecedents(w, store, attrs, codes, beam=20, arc_gold=None):
    """Antecedent (within-document index, -1 root) per mention row by beam search.

    attrs: `mention_attributes(corpus)`; codes: non-local template codes
    (`resolve_nonlocal`); arc_gold: optional mask → constrained (latent gold) search.
    """
    n_m = int(store.m_arc_offsets.shape[0] - 1)
    out = np.empty(n_m, dtype=np.int32)
    gold = np.ones(store.arc_ante.shape[0], dtype=np.int8) if arc_gold is None else arc_gold
    _beam_decode_corpus(
        int(beam),
        np.asarray(w, dtype=np.float64),
        arc_arrays(store, gold),
        arc_gold is not None,
        NonLocal(np.asarray(codes, dtype=np.int32), attrs, int(store.n_bits)),
        out,
    )
    return out
