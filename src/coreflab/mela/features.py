"""The nine regressor features of a predicted clustering (Haponchyk & Moschitti 2017, Sec. 4.2).

docs/methods.md, "Haponchyk & Moschitti 2017": exact MUC P/R/F, exact B3 P/R/F and an alignment-free CEAFe P/R/F, all
from the four counts the paper names (correct automatic mentions, their gold links,
gold mentions, gold links). Every value is in percent, in the order `FEATURE_NAMES`.

Semantics follow what the project's scorer sees for a learner's response
(`coreflab.learn.output`, CoNLL v8.01 with predicted mentions): a mention with gold id -1
is not in the key. The response keeps its singleton clusters iff the corpus's training key annotates them
(`coreflab.corpus.singletons`, recorded by `coreflab prepare`), so there are two modes, chosen by `min_size` (see
`coreflab.mela.mode`): 2 = response singletons dropped (a cluster of size 1 is absent
from the response; OntoNotes-style keys), 1 = kept (LitBank, GUM). MUC is the same in
both (a singleton is one partition either way and has no links); B3 and CEAFe count only
kept clusters (size >= min_size). CEAFe uses Ψ̃ = Σ_{m∈K∩R} 2/(|K_m|+|R_m|) over the
mentions of kept clusters, denominators the number of kept predicted clusters / gold
clusters (the paper's alignment-free approximation).

Everything reduces to sums over response clusters of one 8-vector `contrib(c)`:
  0 keys(c)             gold clusters c intersects (MUC recall partitions)
  1 |c| − keys − nonkey MUC precision numerator
  2 |c| − 1             MUC precision denominator
  (kept = [|c| >= min_size])
  3 kept·Σ_k n_ck²/|K_k| B3 recall numerator
  4 kept·Σ_k n_ck²/|c|   B3 precision numerator
  5 kept·|c|            B3 precision denominator
  6 kept·Ψ̃(c)           CEAFe similarity
  7 kept                number of kept predicted clusters
so the incremental inference of `coreflab.mela.partial` updates the totals in O(cluster)
when two clusters merge or one splits. The constants are G (gold mentions) and K (gold
clusters): MUC recall = (G − Σ keys)/(G − K), B3 recall denominator G, CEAFe recall
denominator K.
"""

import numpy as np
from numba import njit

from coreflab.corpus.singletons import key_labels  # the key the features count against (in __all__)

FEATURE_NAMES = ("muc_r", "muc_p", "muc_f", "b3_r", "b3_p", "b3_f", "ceafe_r", "ceafe_p", "ceafe_f")
N_TOTALS = 8
DROPPED, KEPT = 2, 1  # min_size of a cluster counted by B3 and CEAFe: singletons dropped / kept


def min_cluster_size(keep_singletons):
    """`min_size` of the kernels: 1 when response singletons are kept, else 2."""
    return KEPT if keep_singletons else DROPPED


@njit(cache=True)
def compact_gold(mc):
    """(g, gsize, K): gold ids renumbered 0..K-1 in first-occurrence order (-1 kept)."""
    n = mc.shape[0]
    g = np.full(n, -1, dtype=np.int64)
    order = np.argsort(mc, kind="mergesort")
    K = 0
    prev = -1
    tmp = np.full(n, -1, dtype=np.int64)
    for t in range(n):
        m = order[t]
        if mc[m] < 0:
            continue
        if K == 0 or mc[m] != prev:
            K += 1
            prev = mc[m]
        tmp[m] = K - 1
    # renumber by first occurrence so ids do not depend on the raw cluster ids
    remap = np.full(max(K, 1), -1, dtype=np.int64)
    gsize = np.zeros(max(K, 1), dtype=np.int64)
    k2 = 0
    for m in range(n):
        t = tmp[m]
        if t < 0:
            continue
        if remap[t] < 0:
            remap[t] = k2
            k2 += 1
        g[m] = remap[t]
        gsize[g[m]] += 1
    return g, gsize[:K], K


@njit(cache=True, inline="always")
def contrib_into(out, sign, size, keys, nonkey, sq, rec, psi, min_size):
    """out += sign·contrib of a cluster with these aggregates (see the module docstring).

    B3 and CEAFe count the cluster only when size >= min_size (2: singletons dropped,
    1: kept); an empty cluster (size 0) never counts.
    """
    out[0] += sign * keys
    out[1] += sign * (size - keys - nonkey)
    out[2] += sign * (size - 1)
    if size >= min_size and size >= 1:
        out[3] += sign * rec
        out[4] += sign * sq / size
        out[5] += sign * size
        out[6] += sign * psi
        out[7] += sign


@njit(cache=True)
def features_from_totals(T, G, K, out):
    """The nine features (percent) from the totals T and the constants G, K."""
    muc_rd = G - K
    r = (G - T[0]) / muc_rd if muc_rd > 0 else 0.0
    p = T[1] / T[2] if T[2] > 0 else 0.0
    out[0], out[1] = 100.0 * r, 100.0 * p
    out[2] = 200.0 * p * r / (p + r) if p + r > 0 else 0.0
    r = T[3] / G if G > 0 else 0.0
    p = T[4] / T[5] if T[5] > 0 else 0.0
    out[3], out[4] = 100.0 * r, 100.0 * p
    out[5] = 200.0 * p * r / (p + r) if p + r > 0 else 0.0
    r = T[6] / K if K > 0 else 0.0
    p = T[6] / T[7] if T[7] > 0 else 0.0
    out[6], out[7] = 100.0 * r, 100.0 * p
    out[8] = 200.0 * p * r / (p + r) if p + r > 0 else 0.0


@njit(cache=True)
def clustering_totals(g, gsize, K, resp, min_size):
    """Totals (8) of a response from scratch; resp[m] = any cluster label ≥ 0 per mention."""
    n = g.shape[0]
    T = np.zeros(N_TOTALS)
    if n == 0:
        return T
    order = np.argsort(resp, kind="mergesort")
    cnt = np.zeros(max(K, 1), dtype=np.int64)
    start = 0
    while start < n:
        stop = start
        while stop < n and resp[order[stop]] == resp[order[start]]:
            stop += 1
        size = stop - start
        nonkey = 0
        for t in range(start, stop):
            k = g[order[t]]
            if k < 0:
                nonkey += 1
            else:
                cnt[k] += 1
        keys = 0
        sq = 0.0
        rec = 0.0
        psi = 0.0
        for t in range(start, stop):
            k = g[order[t]]
            if k >= 0 and cnt[k] > 0:
                c = cnt[k]
                keys += 1
                sq += c * c
                rec += c * c / gsize[k]
                psi += 2.0 * c / (gsize[k] + size)
                cnt[k] = 0
        contrib_into(T, 1.0, size, keys, nonkey, sq, rec, psi, min_size)
        start = stop
    return T


@njit(cache=True)
def gold_constants(g, gsize, K):
    """(G, K): gold mentions and gold clusters of the document."""
    G = 0
    for m in range(g.shape[0]):
        if g[m] >= 0:
            G += 1
    return G, K


def clustering_features(gold, response, keep_singletons=False):
    """float64[9] features (percent) of one document.

    gold[m]: gold cluster id of mention m (-1: not a gold mention); response[m]: predicted
    cluster label of mention m (every mention has one); keep_singletons: whether the
    scored response keeps its singleton clusters (False: dropped, as for keys without
    singletons).
    """
    gold = np.asarray(gold, dtype=np.int64)
    response = np.asarray(response, dtype=np.int64)
    g, gsize, K = compact_gold(gold)
    G, K = gold_constants(g, gsize, K)
    T = clustering_totals(g, gsize, K, response, min_cluster_size(keep_singletons))
    out = np.zeros(9)
    features_from_totals(T, float(G), float(K), out)
    return out


def response_labels_for_scorer(response, keep_singletons=False):
    """Response labels as `score_labels` wants: singleton clusters set to -1 (absent) unless kept."""
    response = np.asarray(response, dtype=np.int64)
    if keep_singletons:
        return response.copy()
    _, inv, counts = np.unique(response, return_inverse=True, return_counts=True)
    out = response.copy()
    out[counts[inv.ravel()] < 2] = -1
    return out


__all__ = [
    "FEATURE_NAMES",
    "N_TOTALS",
    "DROPPED",
    "KEPT",
    "min_cluster_size",
    "compact_gold",
    "contrib_into",
    "features_from_totals",
    "clustering_totals",
    "gold_constants",
    "clustering_features",
    "response_labels_for_scorer",
    "key_labels",
]
