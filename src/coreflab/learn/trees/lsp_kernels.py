"""Numba kernels of the latent structured perceptron (Haponchyk & Moschitti 2017, Alg. 1).

Per document: h* = best-first over the gold-consistent arcs Ã (the latent gold tree);
ĥ = argmax_h w·Φ(h) + C·Δ(y, h*, h) — exact best-first with the per-arc loss for the
factorised Δ_F and Δ_YJ (`loss_kind` ARC), Alg. 3 (`coreflab.mela.partial`) for Δ_ρ
(`loss_kind` RHO); if Δ > 0, w ← w + Φ(h*) − Φ(ĥ) (perceptron step, averaged).

"Δ > 0" is tested structurally: ĥ has an arc outside Ã. For Δ_F and Δ_YJ this is
exactly Δ > 0 (both vanish only on gold-consistent trees); for Δ_ρ the regressor's value
at a perfect tree is only ≈ 0, so the exact test is used instead (reconstructed).
`min_size` (2: response singletons dropped, 1: kept; `coreflab.mela.mode`) is the mode of
the nine features inside Alg. 3; the factorised losses ignore it.
"""

from collections import namedtuple

import numpy as np
from numba import njit

from coreflab.decode.arcs import any_outside_gold, doc_rows, max_doc_sizes
from coreflab.decode.arcs import score_arcs as doc_scores  # noqa: F401 (one arc-score kernel)
from coreflab.decode.best_first import best_first_doc
from coreflab.decode.featvec import add_arc_delta
from coreflab.learn.pa import pa_step
from coreflab.mela.features import compact_gold, gold_constants
from coreflab.mela.partial import Gold, Rho, alg3_doc

ARC, RHO = 0, 1

Loss = namedtuple("Loss", ["kind", "C", "coef", "intercept", "use_c", "use_order", "max_passes", "min_size"])
Loss.__doc__ = """The loss ĥ is augmented with: ARC (per-arc loss in `ArcArrays.arc_loss`) or RHO (the MELA
regressor coef, intercept, its options and Alg. 3's pass limit and mode), weighted by C."""


def arc_loss_spec(C, min_size=2):
    """`Loss` of a factorised loss (the regressor fields unused; min_size: the mode a caller
    computes MELA's features in)."""
    return Loss(ARC, float(C), np.zeros(9), 0.0, False, False, 1, int(min_size))


@njit(cache=True)
def _rho_argmax(d, scores, arcs, m_cluster, loss, pred, stats):
    """ĥ under Δ_ρ: Alg. 3 over document d's arc scores, with the gold constants of its key."""
    lo, hi = doc_rows(arcs, d)
    g, gsize, K = compact_gold(m_cluster[lo:hi])
    G, K = gold_constants(g, gsize, K)
    c = 0
    for i in range(hi - lo):
        if g[i] >= 0:
            c += 1
    calib = c / 100.0 if loss.use_c else 1.0
    rho = Rho(loss.coef, loss.intercept, calib, loss.C, loss.use_order, loss.max_passes, loss.min_size)
    alg3_doc(scores, arcs, lo, hi, Gold(g, gsize, K, G), rho, False, pred, stats[2:4], np.zeros(0))


@njit(cache=True)
def max_violating_doc(d, w, arcs, m_cluster, loss, scores, pred, gold, stats):
    """Fill pred (ĥ) and gold (h*) with global arc ids of document d; True when ĥ ∉ Ã."""
    lo, hi = doc_rows(arcs, d)
    m_arc_offsets, arc_gold = arcs.m_arc_offsets, arcs.arc_gold
    s_off = m_arc_offsets[lo]
    doc_scores(w, arcs.arc_feat_offsets, arcs.arc_feats, s_off, m_arc_offsets[hi], scores)
    dummy = np.zeros(1)
    best_first_doc(scores, s_off, m_arc_offsets, lo, hi, arc_gold, True, dummy, 0.0, False, gold)
    if loss.kind == ARC:
        best_first_doc(scores, s_off, m_arc_offsets, lo, hi, arc_gold, False, arcs.arc_loss, loss.C, True, pred)
    else:
        _rho_argmax(d, scores, arcs, m_cluster, loss, pred, stats)
    return any_outside_gold(arcs, pred, hi - lo)


@njit(cache=True)
def lsp_epoch(order, pa, n_seen, arcs, m_cluster, loss, acc, stats):
    """One epoch of Alg. 1 over the documents in `order`; returns the new document counter.

    pa: the perceptron step (`PA` with perceptron True). stats: [updates, violations (unused:
    = updates), Alg. 3 passes, max check difference].
    """
    max_arcs, max_n = max_doc_sizes(arcs)
    scores = np.empty(max_arcs)
    pred = np.empty(max_n, dtype=np.int64)
    gold = np.empty(max_n, dtype=np.int64)
    for d in order:
        if max_violating_doc(d, pa.w, arcs, m_cluster, loss, scores, pred, gold, stats):
            lo, hi = doc_rows(arcs, d)
            nt = add_arc_delta(gold, pred, hi - lo, arcs, acc, 0)
            pa_step(pa, n_seen, acc, nt, 1.0)
            stats[0] += 1
            stats[1] += 1
        n_seen += 1
    return n_seen


def arc_losses(kind, arc_gold, arc_ante, m_arc_offsets, r):
    """Per-arc loss of Δ_F ("f") or Δ_YJ ("yj") (docs/methods.md, "Haponchyk & Moschitti 2017").

    Δ_F: 0 on a gold-consistent arc, else 1 + r·[Ã_i = {m0}] (the mention starts its
    gold cluster or is not in one). Δ_YJ: root arcs 0, non-root arcs −1 when gold-
    consistent (both mentions in one gold cluster) else r; the constant n − k of Δ_YJ does
    not change the argmax and is left out.
    """
    arc_gold = np.asarray(arc_gold)
    arc_ante = np.asarray(arc_ante)
    if kind == "f":
        counts = np.diff(np.asarray(m_arc_offsets))
        root_only = np.repeat(arc_gold[np.asarray(m_arc_offsets)[:-1]] == 1, counts)
        loss = np.where(arc_gold == 1, 0.0, 1.0 + r * root_only)
    elif kind == "yj":
        loss = np.where(arc_ante < 0, 0.0, np.where(arc_gold == 1, -1.0, float(r)))
    else:
        raise ValueError(f"unknown factorised loss {kind!r}")
    return loss.astype(np.float64)


__all__ = ["ARC", "RHO", "Loss", "arc_loss_spec", "lsp_epoch", "max_violating_doc", "arc_losses", "doc_scores"]
