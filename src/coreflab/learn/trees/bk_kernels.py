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

from collections import namedtuple

import numpy as np
from numba import njit

from coreflab.decode.arcs import any_outside_gold, doc_rows, max_doc_sizes
from coreflab.decode.arcs import score_arcs as _doc_scores  # one arc-score kernel
from coreflab.decode.beam import (
    agenda_copy,
    agenda_new,
    agenda_reset,
    any_correct,
    beam_step,
    doc_scored,
    work_new,
)
from coreflab.decode.best_first import best_first_doc
from coreflab.decode.featvec import add_arc_delta, add_tree_delta, tree_loss
from coreflab.features.nonlocal_templates import F_POS
from coreflab.learn.pa import pa_step

EARLY, MAXVIOLATION, LASO, DELAYED = 1, 2, 3, 4

Search = namedtuple("Search", ["gold", "gold_next", "n_gold", "pred", "pred_next", "n_pred"])
Search.__doc__ = """The two agendas of a training search, each with the spare it is expanded into and its
item count: gold (constrained to Ã) and predicted (over A). The helpers that return one are inlined:
returning this 16-array struct from a compiled call costs about as much as a beam step."""


@njit(cache=True)
def baseline_epoch(order, pa, n_seen, arcs, acc, trace, stats):
    """Alg. 1: update against the latent tree whenever the best-first tree is wrong."""
    max_arcs, max_n = max_doc_sizes(arcs)
    scores = np.empty(max_arcs, dtype=np.float64)
    pred = np.empty(max_n, dtype=np.int64)
    gold = np.empty(max_n, dtype=np.int64)
    dummy = np.zeros(1, dtype=np.float64)
    m_arc_offsets, arc_gold = arcs.m_arc_offsets, arcs.arc_gold
    for d in order:
        lo, hi = doc_rows(arcs, d)
        trace[d] = -1
        n = hi - lo
        s_off = m_arc_offsets[lo]
        _doc_scores(pa.w, arcs.arc_feat_offsets, arcs.arc_feats, s_off, m_arc_offsets[hi], scores)
        best_first_doc(scores, s_off, m_arc_offsets, lo, hi, arc_gold, False, dummy, 0.0, False, pred)
        if any_outside_gold(arcs, pred, n):
            stats[1] += 1
            best_first_doc(scores, s_off, m_arc_offsets, lo, hi, arc_gold, True, dummy, 0.0, False, gold)
            loss = 0.0
            for i in range(n):
                loss += arcs.arc_loss[pred[i]]
            nt = add_arc_delta(gold, pred, n, arcs, acc, 0)
            pa_step(pa, n_seen, acc, nt, loss)
            stats[0] += 1
            trace[d] = n
        n_seen += 1
    return n_seen


@njit(cache=True)
def _update(pa, n_seen, gpos, ppos, upto, lo, arcs, nl, buf, acc, stats):
    """One PA update with Δ = Φ(gold prefix) − Φ(pred prefix) over m_0..m_{upto-1}."""
    nt = add_tree_delta(gpos, ppos, upto, lo, arcs, nl, buf, acc, 0)
    loss = tree_loss(ppos, upto, lo, arcs)
    pa_step(pa, n_seen, acc, nt, loss)
    stats[0] += 1


@njit(cache=True, inline="always")
def _best_pos(ag):
    """Arc positions of an agenda's best item (F_POS row of item 0)."""
    return ag.states[0, F_POS]


@njit(cache=True, inline="always")
def _update_at(pa, n_seen, sr, upto, doc, arcs, nl, buf, acc, stats):
    """`_update` between the best gold and the best predicted item, over their first upto mentions."""
    _update(pa, n_seen, _best_pos(sr.gold), _best_pos(sr.pred), upto, doc.lo, arcs, nl, buf, acc, stats)


@njit(cache=True, inline="always")
def _search_new(k, doc, nl):
    """Empty gold and predicted agendas for doc, and the scratch of their beam steps."""
    G, G2, P, P2 = agenda_new(k, doc.n), agenda_new(k, doc.n), agenda_new(k, doc.n), agenda_new(k, doc.n)
    work = work_new(k, doc.n, nl.codes.shape[0])
    return Search(G, G2, agenda_reset(G), P, P2, agenda_reset(P)), work


@njit(cache=True, inline="always")
def _advance(j, doc, sr, arcs, nl, w, work):
    """Both agendas expanded with mention j: the gold one over Ã_j, the predicted one over A_j."""
    cg = beam_step(j, doc, sr.gold, sr.n_gold, sr.gold_next, True, arcs, nl, w, work)
    cp = beam_step(j, doc, sr.pred, sr.n_pred, sr.pred_next, False, arcs, nl, w, work)
    return Search(sr.gold_next, sr.gold, cg, sr.pred_next, sr.pred, cp)


@njit(cache=True, inline="always")
def _reseed(upto, sr):
    """Predictions continue from the gold agenda's items over m_0..m_{upto-1}."""
    cp = agenda_copy(sr.gold, sr.n_gold, sr.pred, upto)
    return Search(sr.gold, sr.gold_next, sr.n_gold, sr.pred, sr.pred_next, cp)


@njit(cache=True, inline="always")
def _violated(d, upto, trace, stats):
    """Count a violation at prefix length upto; the first one of document d goes to trace."""
    stats[1] += 1
    if trace[d] < 0:
        trace[d] = upto


@njit(cache=True, inline="always")
def _end_wrong(d, sr, n, trace):
    """True when the best complete predicted tree is not gold-consistent (traced as a violation)."""
    wrong = sr.pred.ok[0] == 0
    if wrong and trace[d] < 0:
        trace[d] = n
    return wrong


@njit(cache=True)
def _early_doc(d, k, pa, n_seen, arcs, nl, acc, buf, trace, stats):
    """Alg. 2: update at the first prefix with no correct predicted item, then leave the document."""
    doc = doc_scored(d, pa.w, arcs)
    sr, work = _search_new(k, doc, nl)
    for j in range(doc.n):
        sr = _advance(j, doc, sr, arcs, nl, pa.w, work)
        if not any_correct(sr.pred, sr.n_pred):
            _violated(d, j + 1, trace, stats)
            _update_at(pa, n_seen, sr, j + 1, doc, arcs, nl, buf, acc, stats)
            return
    if doc.n > 0 and _end_wrong(d, sr, doc.n, trace):
        _update_at(pa, n_seen, sr, doc.n, doc, arcs, nl, buf, acc, stats)


@njit(cache=True)
def _max_violation_doc(d, k, pa, n_seen, arcs, nl, acc, buf, trace, stats):
    """Huang et al. (2012): search to the end, update at the prefix with the largest
    score(best pred) − score(best gold) among the violating ones (ties: the earliest)."""
    doc = doc_scored(d, pa.w, arcs)
    n = doc.n
    sr, work = _search_new(k, doc, nl)
    best = -np.inf
    at = -1
    gpos = np.zeros(max(n, 1), dtype=np.int32)
    ppos = np.zeros(max(n, 1), dtype=np.int32)
    for j in range(n):
        sr = _advance(j, doc, sr, arcs, nl, pa.w, work)
        if any_correct(sr.pred, sr.n_pred):
            continue
        _violated(d, j + 1, trace, stats)
        v = sr.pred.scores[0] - sr.gold.scores[0]
        if v > best:
            best = v
            at = j + 1
            gpos[:at] = _best_pos(sr.gold)[:at]
            ppos[:at] = _best_pos(sr.pred)[:at]
    if n == 0:
        return
    if _end_wrong(d, sr, n, trace) and sr.pred.scores[0] - sr.gold.scores[0] > best:
        at = n
        gpos[:n] = _best_pos(sr.gold)[:n]
        ppos[:n] = _best_pos(sr.pred)[:n]
    if at >= 0:
        _update(pa, n_seen, gpos, ppos, at, doc.lo, arcs, nl, buf, acc, stats)


@njit(cache=True, inline="always")
def _rebuild_gold(upto, doc, sr, arcs, nl, w, work):
    """The gold agenda over m_0..m_{upto-1} searched again under the current weights."""
    G, G2 = sr.gold, sr.gold_next
    cg = agenda_reset(G)
    for i in range(upto):
        cg = beam_step(i, doc, G, cg, G2, True, arcs, nl, w, work)
        G, G2 = G2, G
    return Search(G, G2, cg, sr.pred, sr.pred_next, sr.n_pred)


@njit(cache=True)
def _gold_scores(w, arcs, a_lo, a_hi, out):
    """`score_arcs` for the gold arcs (Ã) in [a_lo, a_hi) only, into out[a - a_lo]; the other
    arcs' entries are left as they are."""
    for a in range(a_lo, a_hi):
        if arcs.arc_gold[a] != 0:
            _doc_scores(w, arcs.arc_feat_offsets, arcs.arc_feats, a, a + 1, out[a - a_lo :])


@njit(cache=True)
def _laso_doc(d, k, pa, n_seen, arcs, nl, acc, buf, trace, stats):
    """Sec. 5.2: update at every violating prefix, then go on from the re-seeded gold agenda.

    After an update at m_j the gold agenda m_1..m_j is rebuilt with the new weights; the arcs of
    later mentions are rescored when the search reaches them (a later update would make rescoring
    them now wasted work; each arc's score is the same sum either way). The rebuild reads only gold
    arcs (Ã), and the search never returns to m_1..m_j, so their other arcs keep stale scores that
    nothing reads."""
    doc = doc_scored(d, pa.w, arcs)
    m_arc_offsets = arcs.m_arc_offsets
    sr, work = _search_new(k, doc, nl)
    fresh = doc.n  # mentions [0, fresh) have their arcs scored under the current weights
    for j in range(doc.n):
        if j >= fresh:  # score this mention's arcs under the weights of the last update
            a0 = m_arc_offsets[doc.lo + j]
            a1 = m_arc_offsets[doc.lo + j + 1]
            _doc_scores(pa.w, arcs.arc_feat_offsets, arcs.arc_feats, a0, a1, doc.scores[a0 - doc.s_off :])
            fresh = j + 1
        sr = _advance(j, doc, sr, arcs, nl, pa.w, work)
        if any_correct(sr.pred, sr.n_pred):
            continue
        _violated(d, j + 1, trace, stats)
        _update_at(pa, n_seen, sr, j + 1, doc, arcs, nl, buf, acc, stats)
        fresh = j + 1
        _gold_scores(pa.w, arcs, doc.s_off, m_arc_offsets[doc.lo + fresh], doc.scores)
        sr = _reseed(j + 1, _rebuild_gold(j + 1, doc, sr, arcs, nl, pa.w, work))
    if doc.n > 0 and _end_wrong(d, sr, doc.n, trace):
        _update_at(pa, n_seen, sr, doc.n, doc, arcs, nl, buf, acc, stats)


@njit(cache=True)
def _delayed_doc(d, k, pa, n_seen, arcs, nl, acc, buf, trace, stats):
    """Alg. 3: LaSO's Δs and losses summed over the document, one update at its end."""
    doc = doc_scored(d, pa.w, arcs)
    sr, work = _search_new(k, doc, nl)
    loss = 0.0
    nt = 0  # the running sum of Δ lives in acc over touched[:nt]
    for j in range(doc.n):
        sr = _advance(j, doc, sr, arcs, nl, pa.w, work)
        if any_correct(sr.pred, sr.n_pred):
            continue
        _violated(d, j + 1, trace, stats)
        nt = add_tree_delta(_best_pos(sr.gold), _best_pos(sr.pred), j + 1, doc.lo, arcs, nl, buf, acc, nt)
        loss += tree_loss(_best_pos(sr.pred), j + 1, doc.lo, arcs)
        sr = _reseed(j + 1, sr)
    if doc.n == 0:
        return
    if _end_wrong(d, sr, doc.n, trace):
        nt = add_tree_delta(_best_pos(sr.gold), _best_pos(sr.pred), doc.n, doc.lo, arcs, nl, buf, acc, nt)
        loss += tree_loss(_best_pos(sr.pred), doc.n, doc.lo, arcs)
    if nt > 0:
        pa_step(pa, n_seen, acc, nt, loss)
        stats[0] += 1


@njit(cache=True)
def beam_epoch(mode, order, k, pa, n_seen, arcs, nl, acc, trace, stats):
    """Alg. 2 (EARLY), max-violation, LaSO (Sec. 5.2) and delayed LaSO (Alg. 3), beam size k."""
    buf = np.empty(max(1, nl.codes.shape[0]) * 16, dtype=np.int64)
    for d in order:
        trace[d] = -1
        if mode == EARLY:
            _early_doc(d, k, pa, n_seen, arcs, nl, acc, buf, trace, stats)
        elif mode == MAXVIOLATION:
            _max_violation_doc(d, k, pa, n_seen, arcs, nl, acc, buf, trace, stats)
        elif mode == LASO:
            _laso_doc(d, k, pa, n_seen, arcs, nl, acc, buf, trace, stats)
        elif mode == DELAYED:
            _delayed_doc(d, k, pa, n_seen, arcs, nl, acc, buf, trace, stats)
        n_seen += 1
    return n_seen
