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
    if arc_ante[a] < 0:
        return 0.0
    s = 0.0
    for e in range(arc_feat_offsets[a], arc_feat_offsets[a + 1]):
        s += v[arc_feats[e]] * arc_vals[e]
    return s * scale


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


@njit(cache=True)
def _distribution(scores, gamma, out):
    """Softmax of scores/γ into out; γ = 0 is the one-hot argmax (first maximum)."""
    n = scores.shape[0]
    best = 0
    for k in range(1, n):
        if scores[k] > scores[best]:
            best = k
    if gamma <= 0.0:
        for k in range(n):
            out[k] = 0.0
        out[best] = 1.0
        return
    total = 0.0
    for k in range(n):
        out[k] = np.exp((scores[k] - scores[best]) / gamma)
        total += out[k]
    for k in range(n):
        out[k] /= total


@njit(cache=True)
def l3m_sgd_epoch(v, scale, doc_order, doc_item_offsets, item_arc_offsets, arc_ante, arc_feat_offsets,
                  arc_feats, arc_vals, item_cluster, gamma, lam, eta0, step0):
    """One pass of per-item SGD on the loss-augmented L3M objective; returns (scale, steps, objective).

    Per item i: p_j ∝ exp((w·φ_ij + δ_ij)/γ) over all candidates (δ_ij = 1 − C(i, j)),
    p'_j ∝ C(i, j)·exp(w·φ_ij/γ) over correct ones, gradient Σ_j (p_j − p'_j) φ_ij + λw.
    C(i, j) = 1 iff j is in i's gold cluster, or j is the dummy and no earlier item is.
    """
    step = step0
    objective = 0.0
    max_arcs = max_candidates(item_arc_offsets)
    raw = np.empty(max_arcs)
    aug = np.empty(max_arcs)
    p = np.empty(max_arcs)
    q = np.empty(max_arcs)
    masked = np.empty(max_arcs)
    correct = np.zeros(max_arcs, dtype=np.bool_)
    for d in doc_order:
        lo = doc_item_offsets[d]
        for i in range(lo, doc_item_offsets[d + 1]):
            a0, a1 = item_arc_offsets[i], item_arc_offsets[i + 1]
            n = a1 - a0
            correct_links(lo, i, a0, n, arc_ante, item_cluster, correct)
            for k in range(n):
                raw[k] = _arc_score(v, scale, arc_feat_offsets, arc_feats, arc_vals, a0 + k, arc_ante)
                aug[k] = raw[k] + (0.0 if correct[k] else 1.0)
            _distribution(aug[:n], gamma, p[:n])
            # p' over the correct candidates only
            for k in range(n):
                masked[k] = raw[k] if correct[k] else -1e300
            _distribution(masked[:n], gamma, q[:n])
            objective += _item_objective(aug[:n], raw[:n], correct[:n], gamma)
            eta = eta0 / (1.0 + eta0 * lam * step)
            scale *= 1.0 - eta * lam
            if scale < 1e-9:
                for f in range(v.shape[0]):
                    v[f] *= scale
                scale = 1.0
            for k in range(n):
                g = p[k] - q[k]
                a = a0 + k
                if g != 0.0 and arc_ante[a] >= 0:
                    for e in range(arc_feat_offsets[a], arc_feat_offsets[a + 1]):
                        v[arc_feats[e]] -= eta * g * arc_vals[e] / scale
            step += 1
    return scale, step, objective


@njit(cache=True)
def _logsumexp_scaled(x, mask, gamma):
    """γ·log Σ exp(x/γ) over masked entries (max over them when γ = 0)."""
    m = -1e300
    for k in range(x.shape[0]):
        if mask[k] and x[k] > m:
            m = x[k]
    if gamma <= 0.0:
        return m
    s = 0.0
    for k in range(x.shape[0]):
        if mask[k]:
            s += np.exp((x[k] - m) / gamma)
    return m + gamma * np.log(s)


@njit(cache=True)
def _item_objective(aug, raw, correct, gamma):
    all_mask = np.ones(aug.shape[0], dtype=np.bool_)
    return _logsumexp_scaled(aug, all_mask, gamma) - _logsumexp_scaled(raw, correct, gamma)


@njit(cache=True)
def l3m_objective(w, doc_item_offsets, item_arc_offsets, arc_ante, arc_feat_offsets, arc_feats, arc_vals,
                  item_cluster, gamma, lam):
    """The loss-augmented latent objective Σ_i [γ log Σ_j e^{(wφ+δ)/γ} − γ log Σ_{j∈C} e^{wφ/γ}] + λ/2‖w‖²."""
    total = 0.0
    max_arcs = max_candidates(item_arc_offsets)
    raw = np.empty(max_arcs)
    aug = np.empty(max_arcs)
    correct = np.zeros(max_arcs, dtype=np.bool_)
    for d in range(doc_item_offsets.shape[0] - 1):
        lo = doc_item_offsets[d]
        for i in range(lo, doc_item_offsets[d + 1]):
            a0, a1 = item_arc_offsets[i], item_arc_offsets[i + 1]
            n = a1 - a0
            correct_links(lo, i, a0, n, arc_ante, item_cluster, correct)
            for k in range(n):
                raw[k] = _arc_score(w, 1.0, arc_feat_offsets, arc_feats, arc_vals, a0 + k, arc_ante)
                aug[k] = raw[k] + (0.0 if correct[k] else 1.0)
            total += _item_objective(aug[:n], raw[:n], correct[:n], gamma)
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
    max_arcs = 1
    for i in range(n_items):
        max_arcs = max(max_arcs, item_arc_offsets[i + 1] - item_arc_offsets[i])
    scores = np.empty(max_arcs)
    p = np.empty(max_arcs)
    for d in range(doc_item_offsets.shape[0] - 1):
        lo, hi = doc_item_offsets[d], doc_item_offsets[d + 1]
        mass = np.zeros(hi - lo + 1)  # per cluster (by first item), last slot = dummy
        for i in range(lo, hi):
            a0, a1 = item_arc_offsets[i], item_arc_offsets[i + 1]
            n = a1 - a0
            for k in range(n):
                scores[k] = _arc_score(w, 1.0, arc_feat_offsets, arc_feats, arc_vals, a0 + k, arc_ante)
            _distribution(scores[:n], gamma, p[:n])
            touched = np.empty(n, dtype=np.int64)
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
