"""numba kernels of the left-linking models (Samdani, Chang & Roth 2014, Sec. 3–4).

Items (mentions, or posts in document clustering) come in order; item i links to one
earlier item j or to the dummy item 0 (a new cluster). The candidate links are the arcs
of an `ArcStore`-shaped CSR: per item `item_arc_offsets`, per arc `arc_ante` (index of the
earlier item within the document, -1 = dummy) and its features (`arc_feats` with values
`arc_vals`). The dummy link scores 0 (w·φ(i, 0) = 0), as in the paper.

Weights are kept as scale·v so the L2 shrinkage of every SGD step costs O(1), not
O(dimension) (Bottou's trick); `v` and the scale are returned together.
"""

from collections import namedtuple

import numpy as np
from numba import njit

from coreflab.decode.left_link import arc_score, max_candidates, softmax
from coreflab.learn.sgd import add_arcs, shrink

Work = namedtuple("Work", ["raw", "aug", "masked", "p", "q", "correct"])
Work.__doc__ = """Per-item buffers `item_terms` fills, sized for the largest item (`item_buffers`)."""


@njit(cache=True, inline="always")
def correct_links(lo, i, a0, n, arc_ante, item_cluster, out):
    """C(i, j) for the n candidates of item i: j in i's gold cluster, or the dummy when none is."""
    any_ante = False
    for k in range(n):
        j = arc_ante[a0 + k]
        ok = j >= 0 and item_cluster[i] >= 0 and item_cluster[lo + j] == item_cluster[i]
        out[k] = ok
        any_ante = any_ante or ok
    if not any_ante:
        for k in range(n):
            out[k] = arc_ante[a0 + k] < 0


@njit(cache=True, inline="always")
def item_terms(v, scale, links, item_cluster, item_weight, gamma, lo, i, work):
    """The per-item work shared by SGD, the objective and CCCP; returns (a0, n, u_i, log Z_aug, log Z_correct).

    Fills work.raw (w·φ_ij), work.correct (C(i, j)), work.p ∝ e^{(w·φ_ij + δ_ij)/γ} over all
    candidates (δ_ij = 1 − C(i, j)) and work.q ∝ e^{w·φ_ij/γ} over the correct ones; the
    returned γ log Σ e^{…/γ} of both come from the same exps, so the item's objective term
    is their difference at no extra cost. a0, n: the item's first arc and candidate count;
    u_i its weight (`item_weight`; empty = every weight 1).
    """
    a0 = links.item_arc_offsets[i]
    n = links.item_arc_offsets[i + 1] - a0
    raw, aug, masked, correct = work.raw, work.aug, work.masked, work.correct
    arc_ante, feat_offsets, feats, vals = links.arc_ante, links.arc_feat_offsets, links.arc_feats, links.arc_vals
    correct_links(lo, i, a0, n, arc_ante, item_cluster, correct)
    for k in range(n):
        s = arc_score(v, scale, feat_offsets, feats, vals, a0 + k, arc_ante)
        raw[k] = s
        aug[k] = s if correct[k] else s + 1.0
        masked[k] = s if correct[k] else -np.inf
    u = 1.0 if item_weight.shape[0] == 0 else item_weight[i]
    return a0, n, u, softmax(aug, n, gamma, work.p), softmax(masked, n, gamma, work.q)


@njit(cache=True)
def item_buffers(item_arc_offsets):
    """`Work` sized for the largest item."""
    m = max_candidates(item_arc_offsets)
    return Work(np.empty(m), np.empty(m), np.empty(m), np.empty(m), np.empty(m), np.zeros(m, dtype=np.bool_))


@njit(cache=True, inline="always")
def add_links(target, coef, divisor, g, a0, n, links):
    """`add_arcs` over the n candidates from a0 of a `Links` bundle."""
    add_arcs(target, coef, divisor, g, a0, n, links.arc_ante, links.arc_feat_offsets, links.arc_feats, links.arc_vals)


@njit(cache=True)
def l3m_sgd_epoch(v, scale, doc_order, links, item_cluster, item_weight, gamma, lam, eta0, step0):
    """One pass of per-item SGD on the loss-augmented L3M objective; returns (scale, steps, objective).

    Per item i: p_j ∝ exp((w·φ_ij + δ_ij)/γ) over all candidates (δ_ij = 1 − C(i, j)),
    p'_j ∝ C(i, j)·exp(w·φ_ij/γ) over correct ones, gradient u_i Σ_j (p_j − p'_j) φ_ij + λw.
    C(i, j) = 1 iff j is in i's gold cluster, or j is the dummy and no earlier item is.
    u_i is the item's weight (`item_weight`; empty = every weight 1). The objective
    Σ_i u_i f_i is summed at the weights each item saw (before its step).
    """
    step = step0
    objective = 0.0
    work = item_buffers(links.item_arc_offsets)
    p, q = work.p, work.q
    for d in doc_order:
        lo = links.doc_item_offsets[d]
        for i in range(lo, links.doc_item_offsets[d + 1]):
            a0, n, u, z_aug, z_correct = item_terms(v, scale, links, item_cluster, item_weight, gamma, lo, i, work)
            objective += u * (z_aug - z_correct)
            eta = eta0 / (1.0 + eta0 * lam * step)
            scale = shrink(v, scale, eta, lam)
            for k in range(n):
                p[k] -= q[k]
            add_links(v, -eta * u, scale, p, a0, n, links)
            step += 1
    return scale, step, objective


@njit(cache=True)
def l3m_objective(w, links, item_cluster, item_weight, gamma, lam):
    """The loss-augmented latent objective Σ_i u_i [γ log Σ_j e^{(wφ+δ)/γ} − γ log Σ_{j∈C} e^{wφ/γ}] + λ/2‖w‖².

    λ is the total coefficient here; `L3M.objective` passes N·λ for SGD's per-item λ.
    u_i = `item_weight[i]` (empty: every weight 1).
    """
    total = 0.0
    work = item_buffers(links.item_arc_offsets)
    for d in range(links.doc_item_offsets.shape[0] - 1):
        lo = links.doc_item_offsets[d]
        for i in range(lo, links.doc_item_offsets[d + 1]):
            _, _, u, z_aug, z_correct = item_terms(w, 1.0, links, item_cluster, item_weight, gamma, lo, i, work)
            total += u * (z_aug - z_correct)
    reg = 0.0
    for f in range(w.shape[0]):
        reg += w[f] * w[f]
    return total + 0.5 * lam * reg
