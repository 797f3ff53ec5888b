"""One training epoch of each Björkelund & Kuhn (2014) learner, as numba kernels.

docs/methods.md, "Björkelund & Kuhn 2014" / the paper's Alg. 1-3: `baseline_epoch` (best-first over A vs. over Ã,
exact with local features) and `beam_epoch` with mode EARLY (Collins & Roark 2004),
MAXVIOLATION (Huang et al. 2012), LASO (Daumé & Marcu 2005) or DELAYED (delayed
LaSO, the paper's Alg. 3). One kernel call processes every document of the epoch in
the given (shuffled) order; no Python runs per document or per arc.

Violation: no item of the predicted agenda is correct (all arcs gold-consistent). At
the end of a document the best predicted item is checked. Max-violation runs both
agendas to the end without re-seeding and updates at the violating prefix (or the
end) with the largest score(best pred) − score(best gold); ties → earliest.

`trace[d]` receives the prefix length (mentions) of document d's first update, or -1;
`stats` = [updates, violations] summed over the epoch.
"""

import numpy as np
from numba import njit

from coreflab.decode.arcs import score_arcs as _doc_scores  # one arc-score kernel
from coreflab.decode.beam import agenda_copy, agenda_new, agenda_reset, any_correct, beam_step, work_new
from coreflab.decode.best_first import best_first_doc
from coreflab.decode.featvec import acc_clear, add_arc_features, add_tree_delta, tree_loss
from coreflab.features.nonlocal_templates import F_POS
from coreflab.learn.pa import pa_update

EARLY, MAXVIOLATION, LASO, DELAYED = 1, 2, 3, 4


@njit(cache=True)
def baseline_epoch(
    order,
    w,
    u,
    n_seen,
    arc_feat_offsets,
    arc_feats,
    doc_mention_offsets,
    m_arc_offsets,
    arc_gold,
    arc_loss,
    perceptron,
    tau_cap,
    acc,
    mark,
    touched,
    trace,
    stats,
):
    """Alg. 1: update against the latent tree whenever the best-first tree is wrong."""
    max_arcs = 1
    max_n = 1
    for d in range(doc_mention_offsets.shape[0] - 1):
        lo, hi = doc_mention_offsets[d], doc_mention_offsets[d + 1]
        max_arcs = max(max_arcs, m_arc_offsets[hi] - m_arc_offsets[lo])
        max_n = max(max_n, hi - lo)
    scores = np.empty(max_arcs, dtype=np.float64)
    pred = np.empty(max_n, dtype=np.int64)
    gold = np.empty(max_n, dtype=np.int64)
    dummy = np.zeros(1, dtype=np.float64)
    for d in order:
        lo, hi = doc_mention_offsets[d], doc_mention_offsets[d + 1]
        trace[d] = -1
        n = hi - lo
        s_off = m_arc_offsets[lo]
        _doc_scores(w, arc_feat_offsets, arc_feats, s_off, m_arc_offsets[hi], scores)
        best_first_doc(scores, s_off, m_arc_offsets, lo, hi, arc_gold, False, dummy, 0.0, False, pred)
        correct = True
        for i in range(n):
            if arc_gold[pred[i]] == 0:
                correct = False
                break
        if not correct:
            stats[1] += 1
            best_first_doc(scores, s_off, m_arc_offsets, lo, hi, arc_gold, True, dummy, 0.0, False, gold)
            loss = 0.0
            nt = 0
            for i in range(n):
                loss += arc_loss[pred[i]]
                if pred[i] != gold[i]:
                    nt = add_arc_features(gold[i], 1.0, arc_feat_offsets, arc_feats, acc, mark, touched, nt)
                    nt = add_arc_features(pred[i], -1.0, arc_feat_offsets, arc_feats, acc, mark, touched, nt)
            pa_update(w, u, n_seen, acc, touched, nt, loss, perceptron, tau_cap)
            acc_clear(acc, mark, touched, nt)
            stats[0] += 1
            trace[d] = n
        n_seen += 1
    return n_seen


@njit(cache=True)
def _update(
    w,
    u,
    n_seen,
    gpos,
    ppos,
    upto,
    lo,
    m_arc_offsets,
    arc_ante,
    arc_feat_offsets,
    arc_feats,
    arc_loss,
    codes,
    attrs,
    n_bits,
    buf,
    acc,
    mark,
    touched,
    perceptron,
    tau_cap,
    stats,
):
    nt = add_tree_delta(
        gpos,
        ppos,
        upto,
        lo,
        m_arc_offsets,
        arc_ante,
        arc_feat_offsets,
        arc_feats,
        codes,
        attrs,
        n_bits,
        buf,
        acc,
        mark,
        touched,
        0,
    )
    loss = tree_loss(ppos, upto, lo, m_arc_offsets, arc_loss)
    pa_update(w, u, n_seen, acc, touched, nt, loss, perceptron, tau_cap)
    acc_clear(acc, mark, touched, nt)
    stats[0] += 1


@njit(cache=True)
def _gold_scores(w, arc_feat_offsets, arc_feats, arc_gold, a_lo, a_hi, out):
    """`score_arcs` for the gold arcs (Ã) in [a_lo, a_hi) only, into out[a - a_lo]; the other
    arcs' entries are left as they are."""
    for a in range(a_lo, a_hi):
        if arc_gold[a] != 0:
            _doc_scores(w, arc_feat_offsets, arc_feats, a, a + 1, out[a - a_lo :])


@njit(cache=True)
def beam_epoch(
    mode,
    order,
    k,
    w,
    u,
    n_seen,
    arc_feat_offsets,
    arc_feats,
    doc_mention_offsets,
    m_arc_offsets,
    arc_ante,
    arc_gold,
    arc_loss,
    codes,
    attrs,
    n_bits,
    perceptron,
    tau_cap,
    acc,
    mark,
    touched,
    trace,
    stats,
):
    """Alg. 2 (EARLY), max-violation, LaSO (Sec. 5.2) and delayed LaSO (Alg. 3)."""
    buf = np.empty(max(1, codes.shape[0]) * 16, dtype=np.int64)
    for d in order:
        lo, hi = doc_mention_offsets[d], doc_mention_offsets[d + 1]
        n = hi - lo
        trace[d] = -1
        s_off = m_arc_offsets[lo]
        s_end = m_arc_offsets[hi]
        scores = np.empty(max(1, s_end - s_off), dtype=np.float64)
        _doc_scores(w, arc_feat_offsets, arc_feats, s_off, s_end, scores)
        G, G2, P, P2 = agenda_new(k, n), agenda_new(k, n), agenda_new(k, n), agenda_new(k, n)
        work = work_new(k, n, codes.shape[0])
        cg = agenda_reset(G)
        cp = agenda_reset(P)
        dloss = 0.0
        nt = 0  # delayed LaSO: running sum of Δ lives in acc over touched[:nt]
        mv_best = -np.inf
        mv_j = -1
        mv_g = np.zeros(max(n, 1), dtype=np.int32)
        mv_p = np.zeros(max(n, 1), dtype=np.int32)
        stopped = False
        fresh = n  # mentions [0, fresh) have their arcs scored under the current weights
        for j in range(n):
            if j >= fresh:  # LaSO rescored only up to its last update: score this mention's arcs now
                a0 = m_arc_offsets[lo + j]
                _doc_scores(w, arc_feat_offsets, arc_feats, a0, m_arc_offsets[lo + j + 1], scores[a0 - s_off :])
                fresh = j + 1
            cg = beam_step(
                j,
                lo,
                G,
                cg,
                G2,
                k,
                True,
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
            G, G2 = G2, G
            cp = beam_step(
                j,
                lo,
                P,
                cp,
                P2,
                k,
                False,
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
            P, P2 = P2, P
            if any_correct(P, cp):
                continue
            stats[1] += 1
            if trace[d] < 0:
                trace[d] = j + 1
            if mode == MAXVIOLATION:
                v = P[2][0] - G[2][0]
                if v > mv_best:
                    mv_best = v
                    mv_j = j + 1
                    mv_g[: j + 1] = G[0][0, F_POS, : j + 1]
                    mv_p[: j + 1] = P[0][0, F_POS, : j + 1]
                continue
            gpos = G[0][0, F_POS]
            ppos = P[0][0, F_POS]
            if mode == DELAYED:
                nt = add_tree_delta(
                    gpos,
                    ppos,
                    j + 1,
                    lo,
                    m_arc_offsets,
                    arc_ante,
                    arc_feat_offsets,
                    arc_feats,
                    codes,
                    attrs,
                    n_bits,
                    buf,
                    acc,
                    mark,
                    touched,
                    nt,
                )
                dloss += tree_loss(ppos, j + 1, lo, m_arc_offsets, arc_loss)
                cp = agenda_copy(G, cg, P, j + 1)
                continue
            _update(
                w,
                u,
                n_seen,
                gpos,
                ppos,
                j + 1,
                lo,
                m_arc_offsets,
                arc_ante,
                arc_feat_offsets,
                arc_feats,
                arc_loss,
                codes,
                attrs,
                n_bits,
                buf,
                acc,
                mark,
                touched,
                perceptron,
                tau_cap,
                stats,
            )
            if mode == EARLY:
                stopped = True
                break
            # LaSO: rebuild the gold agenda m_1..m_j with the new weights, re-seed predictions; the
            # arcs of later mentions are rescored when the search reaches them (a later update
            # would make rescoring them now wasted work; each arc's score is the same sum either way).
            # The rebuild reads only gold arcs (Ã), and the search never returns to m_1..m_j, so
            # their other arcs keep stale scores that nothing reads
            fresh = j + 1
            _gold_scores(w, arc_feat_offsets, arc_feats, arc_gold, s_off, m_arc_offsets[lo + fresh], scores)
            cg = agenda_reset(G)
            for i in range(j + 1):
                cg = beam_step(
                    i,
                    lo,
                    G,
                    cg,
                    G2,
                    k,
                    True,
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
                G, G2 = G2, G
            cp = agenda_copy(G, cg, P, j + 1)
        if not stopped and n > 0:
            end_wrong = P[3][0] == 0
            if end_wrong and trace[d] < 0:
                trace[d] = n
            if mode == MAXVIOLATION:
                if end_wrong and P[2][0] - G[2][0] > mv_best:
                    mv_j = n
                    mv_g[:n] = G[0][0, F_POS, :n]
                    mv_p[:n] = P[0][0, F_POS, :n]
                if mv_j >= 0:
                    _update(
                        w,
                        u,
                        n_seen,
                        mv_g,
                        mv_p,
                        mv_j,
                        lo,
                        m_arc_offsets,
                        arc_ante,
                        arc_feat_offsets,
                        arc_feats,
                        arc_loss,
                        codes,
                        attrs,
                        n_bits,
                        buf,
                        acc,
                        mark,
                        touched,
                        perceptron,
                        tau_cap,
                        stats,
                    )
            elif mode == DELAYED:
                if end_wrong:
                    gpos = G[0][0, F_POS]
                    ppos = P[0][0, F_POS]
                    nt = add_tree_delta(
                        gpos,
                        ppos,
                        n,
                        lo,
                        m_arc_offsets,
                        arc_ante,
                        arc_feat_offsets,
                        arc_feats,
                        codes,
                        attrs,
                        n_bits,
                        buf,
                        acc,
                        mark,
                        touched,
                        nt,
                    )
                    dloss += tree_loss(ppos, n, lo, m_arc_offsets, arc_loss)
                if nt > 0:
                    pa_update(w, u, n_seen, acc, touched, nt, dloss, perceptron, tau_cap)
                    acc_clear(acc, mark, touched, nt)
                    stats[0] += 1
            elif end_wrong:
                _update(
                    w,
                    u,
                    n_seen,
                    G[0][0, F_POS],
                    P[0][0, F_POS],
                    n,
                    lo,
                    m_arc_offsets,
                    arc_ante,
                    arc_feat_offsets,
                    arc_feats,
                    arc_loss,
                    codes,
                    attrs,
                    n_bits,
                    buf,
                    acc,
                    mark,
                    touched,
                    perceptron,
                    tau_cap,
                    stats,
                )
        n_seen += 1
    return n_seen
