"""numba kernels of the left-linking models (Samdani, Chang & Roth 2014, Sec. 3–4).

Items (mentions, or posts in document clustering) come in order; item i links to one
earlier item j or to the dummy item 0 (a new cluster). The candidate links are the arcs
of an `ArcStore`-shaped CSR: per item `item_arc_offsets`, per arc `arc_ante` (index of the
earlier item within the document, -1 = dummy) and its features (`arc_feats` with values
`arc_vals`). The dummy link scores 0 (w·φ(i, 0) = 0), as in the paper.

Weights are kept as scale·v so the L2 shrinkage of every SGD step costs O(1), not
O(dimension) (Bottou's trick); `v` and the scale are returned together.
"""

import numpy as np
from numba import njit


@njit(cache=True)
def _arc_score(v, scale, arc_feat_offsets, arc_feats, arc_vals, a, arc_ante):
    """scale·(v·φ_a); the dummy scores 0. An empty `arc_vals` means every value is 1 (binary store)."""
    if arc_ante[a] < 0:
        return 0.0
    s = 0.0
    if arc_vals.shape[0] == 0:
        for e in range(arc_feat_offsets[a], arc_feat_offsets[a + 1]):
            s += v[arc_feats[e]]
    else:
        for e in range(arc_feat_offsets[a], arc_feat_offsets[a + 1]):
            s += v[arc_feats[e]] * arc_vals[e]
    return s * scale


@njit(cache=True)
def _add_arcs(target, coef, divisor, g, a0, n, arc_ante, arc_feat_offsets, arc_feats, arc_vals):
    """target += coef · Σ_k g_k φ_{a0+k} / divisor over the n candidates (dummy and g_k = 0 skipped).

    Evaluated as coef·g_k·value/divisor per entry, the order of the earlier per-kernel
    loops, so trained weights stay bit-identical to theirs (up to the EXP_CUTOFF terms).
    SGD amplifies rounding changes: on the conll2012-size bench, multiplying by
    1/divisor instead moved the γ = 0.2 weights by 2% (relative norm) in one pass.
    """
    binary = arc_vals.shape[0] == 0
    for k in range(n):
        a = a0 + k
        if g[k] == 0.0 or arc_ante[a] < 0:
            continue
        c = coef * g[k]
        if binary:
            c /= divisor
            for e in range(arc_feat_offsets[a], arc_feat_offsets[a + 1]):
                target[arc_feats[e]] += c
        else:
            for e in range(arc_feat_offsets[a], arc_feat_offsets[a + 1]):
                target[arc_feats[e]] += c * arc_vals[e] / divisor


@njit(cache=True)
def max_candidates(item_arc_offsets):
    """The largest number of candidate links of one item (size of the per-item buffers)."""
    m = 1
    for i in range(item_arc_offsets.shape[0] - 1):
        m = max(m, item_arc_offsets[i + 1] - item_arc_offsets[i])
    return m


@njit(cache=True)
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


# Below this exponent a softmax term counts as exactly 0. The largest term is e^0 = 1, so
# Z ≥ 1 and a dropped term is < e^-50 ≈ 2e-22 of Z: n of them (n ≤ a few thousand
# candidates) change Z, the probabilities and the gradient step by less than 1e-18
# relative, below double rounding (1.1e-16). It keeps exp() from producing subnormal
# probabilities (exponent < −708), whose products would seed subnormal weights that make
# all later arithmetic on those slots slow (issue #8), and the zero terms skip their
# feature loops in the update.
EXP_CUTOFF = -50.0


@njit(cache=True)
def _softmax(x, n, gamma, out):
    """out[:n] = softmax(x[:n]/γ); returns γ·log Σ_k e^{x_k/γ} (log-partition of the same sums).

    γ = 0 is the limit: out one-hot on the first maximum, the max returned. Entries −inf
    get probability 0 (used to restrict to a subset).
    """
    best = 0
    for k in range(1, n):
        if x[k] > x[best]:
            best = k
    m = x[best]
    for k in range(n):
        out[k] = 0.0
    if m == -np.inf:  # empty subset (cannot happen for C(i, ·), which always holds a link)
        return m
    if gamma <= 0.0:
        out[best] = 1.0
        return m
    z = 0.0
    for k in range(n):
        t = (x[k] - m) / gamma
        if t > EXP_CUTOFF:
            out[k] = np.exp(t)
            z += out[k]
    for k in range(n):
        out[k] /= z
    return m + gamma * np.log(z)


@njit(cache=True)
def _item_terms(v, scale, lo, i, a0, n, arc_ante, arc_feat_offsets, arc_feats, arc_vals, item_cluster, gamma,
                raw, aug, masked, p, q, correct):
    """The per-item work shared by SGD, the objective and CCCP; returns (log Z_aug, log Z_correct).

    Fills raw (w·φ_ij), correct (C(i, j)), p ∝ e^{(w·φ_ij + δ_ij)/γ} over all candidates
    (δ_ij = 1 − C(i, j)) and q ∝ e^{w·φ_ij/γ} over the correct ones; the returned
    γ log Σ e^{…/γ} of both come from the same exps, so the item's objective term
    is their difference at no extra cost.
    """
    correct_links(lo, i, a0, n, arc_ante, item_cluster, correct)
    for k in range(n):
        s = _arc_score(v, scale, arc_feat_offsets, arc_feats, arc_vals, a0 + k, arc_ante)
        raw[k] = s
        aug[k] = s if correct[k] else s + 1.0
        masked[k] = s if correct[k] else -np.inf
    return _softmax(aug, n, gamma, p), _softmax(masked, n, gamma, q)


@njit(cache=True)
def _buffers(item_arc_offsets):
    """Per-item work arrays (raw, aug, masked, p, q, correct) sized for the largest item."""
    m = max_candidates(item_arc_offsets)
    return np.empty(m), np.empty(m), np.empty(m), np.empty(m), np.empty(m), np.zeros(m, dtype=np.bool_)


@njit(cache=True)
def l3m_sgd_epoch(v, scale, doc_order, doc_item_offsets, item_arc_offsets, arc_ante, arc_feat_offsets,
                  arc_feats, arc_vals, item_cluster, item_weight, gamma, lam, eta0, step0):
    """One pass of per-item SGD on the loss-augmented L3M objective; returns (scale, steps, objective).

    Per item i: p_j ∝ exp((w·φ_ij + δ_ij)/γ) over all candidates (δ_ij = 1 − C(i, j)),
    p'_j ∝ C(i, j)·exp(w·φ_ij/γ) over correct ones, gradient u_i Σ_j (p_j − p'_j) φ_ij + λw.
    C(i, j) = 1 iff j is in i's gold cluster, or j is the dummy and no earlier item is.
    u_i is the item's weight (`item_weight`; empty = every weight 1). The objective
    Σ_i u_i f_i is summed at the weights each item saw (before its step).
    """
    step = step0
    objective = 0.0
    raw, aug, masked, p, q, correct = _buffers(item_arc_offsets)
    for d in doc_order:
        lo = doc_item_offsets[d]
        for i in range(lo, doc_item_offsets[d + 1]):
            a0 = item_arc_offsets[i]
            n = item_arc_offsets[i + 1] - a0
            z_aug, z_correct = _item_terms(v, scale, lo, i, a0, n, arc_ante, arc_feat_offsets, arc_feats, arc_vals,
                                           item_cluster, gamma, raw, aug, masked, p, q, correct)
            u = 1.0 if item_weight.shape[0] == 0 else item_weight[i]
            objective += u * (z_aug - z_correct)
            eta = eta0 / (1.0 + eta0 * lam * step)
            scale *= 1.0 - eta * lam
            if scale < 1e-9:
                for f in range(v.shape[0]):
                    v[f] *= scale
                scale = 1.0
            for k in range(n):
                p[k] -= q[k]
            _add_arcs(v, -eta * u, scale, p, a0, n, arc_ante, arc_feat_offsets, arc_feats, arc_vals)
            step += 1
    return scale, step, objective


@njit(cache=True)
def l3m_objective(w, doc_item_offsets, item_arc_offsets, arc_ante, arc_feat_offsets, arc_feats, arc_vals,
                  item_cluster, item_weight, gamma, lam):
    """The loss-augmented latent objective Σ_i u_i [γ log Σ_j e^{(wφ+δ)/γ} − γ log Σ_{j∈C} e^{wφ/γ}] + λ/2‖w‖².

    λ is the total coefficient here; `L3M.objective` passes N·λ for SGD's per-item λ.
    u_i = `item_weight[i]` (empty: every weight 1).
    """
    total = 0.0
    raw, aug, masked, p, q, correct = _buffers(item_arc_offsets)
    for d in range(doc_item_offsets.shape[0] - 1):
        lo = doc_item_offsets[d]
        for i in range(lo, doc_item_offsets[d + 1]):
            a0 = item_arc_offsets[i]
            n = item_arc_offsets[i + 1] - a0
            z_aug, z_correct = _item_terms(w, 1.0, lo, i, a0, n, arc_ante, arc_feat_offsets, arc_feats, arc_vals,
                                           item_cluster, gamma, raw, aug, masked, p, q, correct)
            total += (1.0 if item_weight.shape[0] == 0 else item_weight[i]) * (z_aug - z_correct)
    reg = 0.0
    for f in range(w.shape[0]):
        reg += w[f] * w[f]
    return total + 0.5 * lam * reg


@njit(cache=True)
def l3m_cluster(w, doc_item_offsets, item_arc_offsets, arc_ante, arc_feat_offsets, arc_feats, arc_vals, gamma):
    """Online greedy clustering: item i joins argmax_c Σ_{j∈c} P(j ← i); the dummy opens a cluster.

    Returns a cluster id per item (the index of the cluster's first item, document-local).
    """
    n_items = item_arc_offsets.shape[0] - 1
    labels = np.empty(n_items, dtype=np.int64)
    max_arcs = max_candidates(item_arc_offsets)
    scores = np.empty(max_arcs)
    p = np.empty(max_arcs)
    touched = np.empty(max_arcs, dtype=np.int64)
    for d in range(doc_item_offsets.shape[0] - 1):
        lo, hi = doc_item_offsets[d], doc_item_offsets[d + 1]
        mass = np.zeros(hi - lo + 1)  # per cluster (by first item), last slot = dummy
        for i in range(lo, hi):
            a0, a1 = item_arc_offsets[i], item_arc_offsets[i + 1]
            n = a1 - a0
            for k in range(n):
                scores[k] = _arc_score(w, 1.0, arc_feat_offsets, arc_feats, arc_vals, a0 + k, arc_ante)
            _softmax(scores, n, gamma, p)
            for k in range(n):
                j = arc_ante[a0 + k]
                c = hi - lo if j < 0 else labels[lo + j]
                touched[k] = c
                mass[c] += p[k]
            best, best_mass = hi - lo, -1.0
            for k in range(n):  # candidates in arc order: dummy first, then earlier items
                c = touched[k]
                if mass[c] > best_mass:
                    best, best_mass = c, mass[c]
            for k in range(n):
                mass[touched[k]] = 0.0
            labels[i] = (i - lo) if best == hi - lo else best
    return labels
