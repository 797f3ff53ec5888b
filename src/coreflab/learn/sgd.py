"""Helpers shared by the SGD learners (L3M, Sum-Link, Bin-Left-Link, Spanning Forest,
Corr-Clustering): weights kept as scale·v so the L2 shrinkage of every SGD step costs O(1), not
O(dimension) (Bottou's trick), and updates that add arc feature vectors to v."""

from numba import njit

from coreflab.features.shared_rows import arc_add


@njit(cache=True)
def shrink(v, scale, eta, lam):
    """The L2 step w ← (1 − ηλ)·w on w = scale·v in O(1); v absorbs the scale before it underflows."""
    scale *= 1.0 - eta * lam
    if scale < 1e-9:
        for f in range(v.shape[0]):
            v[f] *= scale
        scale = 1.0
    return scale


@njit(cache=True)
def add_arc(v, scale, arc_feat_offsets, arc_feats, arc_vals, a, coef):
    """v += coef·φ_a/scale; an empty `arc_vals` means every value is 1 (binary store)."""
    if arc_vals.shape[0] == 0:
        arc_add(v, arc_feat_offsets, arc_feats, a, coef / scale)
    else:  # valued stores list their ids flat
        for e in range(arc_feat_offsets[a], arc_feat_offsets[a + 1]):
            v[arc_feats[e]] += coef * arc_vals[e] / scale


@njit(cache=True)
def add_link(v, scale, links, a, coef):
    """`add_arc` of arc a of a left-link `Links` bundle."""
    add_arc(v, scale, links.arc_feat_offsets, links.arc_feats, links.arc_vals, a, coef)


@njit(cache=True)
def add_arcs(target, coef, divisor, g, a0, n, arc_ante, arc_feat_offsets, arc_feats, arc_vals):
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
            arc_add(target, arc_feat_offsets, arc_feats, a, c / divisor)
        else:  # valued stores list their ids flat
            for e in range(arc_feat_offsets[a], arc_feat_offsets[a + 1]):
                target[arc_feats[e]] += c * arc_vals[e] / divisor
