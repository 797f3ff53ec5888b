"""Beam search over partial antecedent trees with non-local features.

Björkelund & Kuhn (2014, Sec. 5; docs/methods.md, "Björkelund & Kuhn 2014"): an agenda of states (partial trees
over m_1..m_{j-1}); at m_j every state is expanded with every candidate antecedent
(every arc of A_j, or only the gold-consistent arcs Ã_j for the gold agenda), each
expansion scored by state score + local arc score + non-local features read from the
state, and the k best expansions are kept.

Agenda = flat arrays (no Python objects): `ist` int32[k, NF, n] (per item: antecedent,
arc position, cluster id per mention and per-cluster bookkeeping, see
`coreflab.features.nonlocal_templates`), `shp` uint64[k, n] (cluster shapes), `sc`
float64[k] (scores) and `ok` int8[k] (1 if every arc of the item is gold-consistent).

Deterministic tie-breaking: expansions are generated item by item (agenda order), arc
by arc (store order: root first); order = (higher total, earlier item, higher arc score
within the item, earlier arc). The arc-score key matters: item score + arc score can
round two arc scores that differ in the last bit to one total, and best-first would
still tell them apart. With local features only, item 0 of the agenda is therefore
always exactly the best-first prefix (what makes delayed LaSO equal the baseline).
"""

import numpy as np
from numba import njit

from coreflab.decode.arcs import score_arcs
from coreflab.features.nonlocal_templates import (
    A_TYPE,
    F_CLUS,
    NF,
    emit_antecedent,
    emit_cluster,
    has_antecedent_templates,
    state_push,
)


@njit(cache=True)
def agenda_new(k, n):
    n = max(n, 1)
    return (
        np.zeros((k, NF, n), dtype=np.int32),
        np.zeros((k, n), dtype=np.uint64),
        np.zeros(k, dtype=np.float64),
        np.zeros(k, dtype=np.int8),
    )


@njit(cache=True)
def work_new(k, n, n_codes):
    """Scratch arrays of beam_step for a document of n mentions: feature buffer, top-k
    lists, and the per-cluster memo of non-local scores (value, stamp, stamp counter)."""
    n = max(n, 1)
    return (
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
    ag[2][0] = 0.0
    ag[3][0] = 1
    return 1


@njit(cache=True)
def agenda_copy(src, cnt, dst, upto):
    """Copy the first cnt items (prefix [0, upto) of each) from src to dst (re-seeding)."""
    for b in range(cnt):
        dst[0][b, :, :upto] = src[0][b, :, :upto]
        dst[1][b, :upto] = src[1][b, :upto]
        dst[2][b] = src[2][b]
        dst[3][b] = src[3][b]
    return cnt


@njit(cache=True)
def beam_step(
    j,
    lo,
    src,
    cnt,
    dst,
    k,
    constrained,
    arc_gold,
    scores,
    s_off,
    m_arc_offsets,
    arc_ante,
    codes,
    attrs,
    w,
    n_bits,
    work,
):
    """Expand the cnt items of src with mention j (document row lo + j) into dst.

    scores[a - s_off] = local score of arc a; constrained → only arcs with arc_gold[a]
    (Ã_j). Returns the number of items written to dst (≤ k).
    """
    row = lo + j
    a0, a1 = m_arc_offsets[row], m_arc_offsets[row + 1]
    buf, top_s, top_b, top_a, memo_s, memo_t, ctr, top_x = work
    ist, shp, sc = src[0], src[1], src[2]
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
                if memo_t[c] != stamp:  # cluster-level features: once per (item, cluster)
                    nf = emit_cluster(codes, attrs, lo, j, c, ist[b], shp[b], n_bits, buf, 0)
                    cs = 0.0
                    for e in range(nf):
                        cs += w[buf[e]]
                    memo_s[c] = cs
                    memo_t[c] = stamp
                x += memo_s[c]
                if ante_level:
                    nf = emit_antecedent(codes, attrs, lo, j, ante, ist[b], n_bits, buf, 0)
                    for e in range(nf):
                        x += w[buf[e]]
            s = sc[b] + x
            if n_top == k and not _beats(s, b, x, top_s[k - 1], top_b[k - 1], top_x[k - 1]):
                continue
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
            if n_top < k:
                n_top += 1
    t_j = attrs[row, A_TYPE]
    for t in range(n_top):
        b = top_b[t]
        a = top_a[t]
        dst[0][t, :, :j] = ist[b, :, :j]
        dst[1][t, :j] = shp[b, :j]
        state_push(dst[0][t], dst[1][t], j, arc_ante[a], a - a0, t_j)
        dst[2][t] = top_s[t]
        dst[3][t] = 1 if (src[3][b] == 1 and arc_gold[a] == 1) else 0
    return n_top


@njit(cache=True)
def any_correct(ag, cnt):
    for b in range(cnt):
        if ag[3][b] == 1:
            return True
    return False


@njit(cache=True)
def beam_decode_doc(
    lo, hi, k, scores, s_off, m_arc_offsets, arc_ante, arc_gold, constrained, codes, attrs, w, n_bits, out_ante
):
    """Best complete tree of one document by beam search; antecedents to out_ante[0:n]."""
    n = hi - lo
    A = agenda_new(k, n)
    B = agenda_new(k, n)
    work = work_new(k, n, codes.shape[0])
    cnt = agenda_reset(A)
    for j in range(n):
        cnt = beam_step(
            j,
            lo,
            A,
            cnt,
            B,
            k,
            constrained,
            arc_gold,
            scores,
            s_off,
            m_arc_offsets,
            arc_ante,
            codes,
            attrs,
            w,
            n_bits,
            work,
        )
        A, B = B, A
    for j in range(n):
        out_ante[j] = A[0][0, 0, j]
    return A[2][0]


@njit(cache=True)
def _beam_decode_corpus(
    k,
    w,
    arc_feat_offsets,
    arc_feats,
    doc_mention_offsets,
    m_arc_offsets,
    arc_ante,
    arc_gold,
    constrained,
    codes,
    attrs,
    n_bits,
    out_ante,
):
    for d in range(doc_mention_offsets.shape[0] - 1):
        lo, hi = doc_mention_offsets[d], doc_mention_offsets[d + 1]
        if hi == lo:
            continue
        s_off = m_arc_offsets[lo]
        e_arc = m_arc_offsets[hi]
        scores = np.empty(e_arc - s_off, dtype=np.float64)
        score_arcs(w, arc_feat_offsets, arc_feats, s_off, e_arc, scores)
        beam_decode_doc(
            lo,
            hi,
            k,
            scores,
            s_off,
            m_arc_offsets,
            arc_ante,
            arc_gold,
            constrained,
            codes,
            attrs,
            w,
            n_bits,
            out_ante[lo:hi],
        )


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
        store.arc_feat_offsets,
        store.arc_feats,
        np.asarray(store.doc_mention_offsets, dtype=np.int64),
        np.asarray(store.m_arc_offsets, dtype=np.int64),
        np.asarray(store.arc_ante, dtype=np.int32),
        np.asarray(gold, dtype=np.int8),
        arc_gold is not None,
        np.asarray(codes, dtype=np.int32),
        attrs,
        int(store.n_bits),
        out,
    )
    return out
