"""Left-link decoding (Samdani, Chang & Roth 2014, Sec. 3-4, and its baselines): items come in
order and each links to one earlier item or to the dummy (a new cluster). numba kernels over the
`ArcStore`-shaped CSR of candidate links (per item `item_arc_offsets`, per arc `arc_ante`, -1 =
dummy, and its features `arc_feats` with values `arc_vals`; an empty `arc_vals` means a binary
store). The dummy link scores 0 (w·φ(i, 0) = 0), as in the paper.
"""

from collections import namedtuple

import numpy as np
from numba import njit

from coreflab.features.shared_rows import arc_dot

Links = namedtuple(
    "Links", ["doc_item_offsets", "item_arc_offsets", "arc_ante", "arc_feat_offsets", "arc_feats", "arc_vals"]
)
Links.__doc__ = """The candidate links as the left-link kernels read them (`kernel_arrays`): items per document,
arcs per item, each arc's antecedent (-1 = dummy) and its features (an empty `arc_vals`: binary)."""

# Below this exponent a softmax term counts as exactly 0. The largest term is e^0 = 1, so
# Z ≥ 1 and a dropped term is < e^-50 ≈ 2e-22 of Z: n of them (n ≤ a few thousand
# candidates) change Z, the probabilities and the gradient step by less than 1e-18
# relative, below double rounding (1.1e-16). It keeps exp() from producing subnormal
# probabilities (exponent < −708), whose products would seed subnormal weights that make
# all later arithmetic on those slots slow, and the zero terms skip their
# feature loops in the update.
EXP_CUTOFF = -50.0


@njit(cache=True)
def arc_score(v, scale, arc_feat_offsets, arc_feats, arc_vals, a, arc_ante):
    """scale·(v·φ_a); the dummy scores 0. An empty `arc_vals` means every value is 1 (binary store)."""
    if arc_ante[a] < 0:
        return 0.0
    s = 0.0
    if arc_vals.shape[0] == 0:
        s = arc_dot(v, arc_feat_offsets, arc_feats, a)
    else:  # valued stores list their ids flat
        for e in range(arc_feat_offsets[a], arc_feat_offsets[a + 1]):
            s += v[arc_feats[e]] * arc_vals[e]
    return s * scale


@njit(cache=True, inline="always")
def link_score(v, scale, links, a):
    """`arc_score` of arc a of a `Links` bundle."""
    return arc_score(v, scale, links.arc_feat_offsets, links.arc_feats, links.arc_vals, a, links.arc_ante)


@njit(cache=True)
def max_candidates(item_arc_offsets):
    """The largest number of candidate links of one item (size of the per-item buffers)."""
    m = 1
    for i in range(item_arc_offsets.shape[0] - 1):
        m = max(m, item_arc_offsets[i + 1] - item_arc_offsets[i])
    return m


@njit(cache=True)
def softmax(x, n, gamma, out):
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
                scores[k] = arc_score(w, 1.0, arc_feat_offsets, arc_feats, arc_vals, a0 + k, arc_ante)
            softmax(scores, n, gamma, p)
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


@njit(cache=True)
def sumlink_cluster(w, doc_item_offsets, item_arc_offsets, arc_ante, arc_feat_offsets, arc_feats, arc_vals):
    """Online Sum-Link clustering (document-local cluster ids = first item of the cluster)."""
    n = item_arc_offsets.shape[0] - 1
    labels = np.empty(n, dtype=np.int64)
    for d in range(doc_item_offsets.shape[0] - 1):
        lo, hi = doc_item_offsets[d], doc_item_offsets[d + 1]
        total = np.zeros(hi - lo)
        for i in range(lo, hi):
            a0, a1 = item_arc_offsets[i], item_arc_offsets[i + 1]
            for a in range(a0, a1):
                j = arc_ante[a]
                if j >= 0:
                    total[labels[lo + j]] += arc_score(w, 1.0, arc_feat_offsets, arc_feats, arc_vals, a, arc_ante)
            best, best_s = i - lo, 0.0
            for a in range(a0, a1):
                j = arc_ante[a]
                if j >= 0:
                    c = labels[lo + j]
                    if total[c] > best_s:
                        best, best_s = c, total[c]
            for a in range(a0, a1):
                j = arc_ante[a]
                if j >= 0:
                    total[labels[lo + j]] = 0.0
            labels[i] = best
    return labels


@njit(cache=True)
def best_left_link_cluster(w, doc_item_offsets, item_arc_offsets, arc_ante, arc_feat_offsets, arc_feats, arc_vals):
    """Link each item to its best-scoring earlier item if that score is > 0, else start a cluster."""
    n = item_arc_offsets.shape[0] - 1
    labels = np.empty(n, dtype=np.int64)
    for d in range(doc_item_offsets.shape[0] - 1):
        lo = doc_item_offsets[d]
        for i in range(lo, doc_item_offsets[d + 1]):
            best, best_s = i - lo, 0.0
            for a in range(item_arc_offsets[i], item_arc_offsets[i + 1]):
                j = arc_ante[a]
                if j >= 0:
                    s = arc_score(w, 1.0, arc_feat_offsets, arc_feats, arc_vals, a, arc_ante)
                    if s > best_s:
                        best, best_s = labels[lo + j], s
            labels[i] = best
    return labels
