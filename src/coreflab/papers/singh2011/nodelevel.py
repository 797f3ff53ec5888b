"""Node-level factors of the hierarchy: a node's context is the union of its children's bags.

Why: Singh et al. (2011) §4.3 say the levels of the hierarchy "are modeled using similar
factors", that "to represent the context of a sub-entity we take the union of the bags-of-words
of the constituent mention contexts" (likewise for entities), and that "the factors are
instantiated in the same manner as Section 2.1": affinity between nodes that share a parent,
repulsion between nodes that do not. The `pairwise` form of `kernel` scores every level over
mention pairs; this module supplies the `union` form:

  * level 0 (entities) with sub-entities on: the nodes are sub-entities, each with context
    C_u = Σ_{m∈u} x_m (union of bags: the per-group sums `hashsum` already keeps);
  * level 2 (super-entities): the nodes are entities, C_e = Σ_{m∈e} x_m;
  * a factor between two nodes c, c' of the level is
        φ(c, c') = cos(C_c, C_c') + w·cos(σ_c, σ_c') − b_L
    (σ: counts of mention strings), affinity (+φ) when they share a parent, repulsion (−φ)
    otherwise. Between single mentions this is cos + w·STREQ − b, so with every node one mention
    the level is exactly the mention-pair model.

The level's log-score is Σ_{c<c'} ±φ = 2·Σ_within φ − Σ_all φ over all pairs of live nodes.
With Ĉ = C/‖C‖ per part (words, strings weighted by w), Z_P = Σ_{c∈P} Ĉ_c (kept in the hash
table at levels 3 and 4), Z_all = Σ_c Ĉ_c over every node (a dense vector, `kernel` ZA), κ_c =
‖Ĉ_c‖² (1 per non-empty part), k_P children of P and N nodes in all:
    2·Σ_within φ = Σ_P [‖Z_P‖² − Σ_{c∈P} κ_c − b·k_P(k_P − 1)],
    Σ_all φ = ½(‖Z_all‖² − Σ_c κ_c) − b·N(N − 1)/2,
so a move that changes a node's context costs O(nnz of that node's mentions): `child_change`
gives a node's 2⟨Z, d⟩ + ‖d‖² (d = Ĉ' − Ĉ) for Z = Z_P or Z_all, `cross_term` the 2⟨d1, d2⟩ of
two nodes changing together, `all_pairs_change` the change of Σ_all φ. A move that only changes
a node's parent (the node moves whole) leaves Σ_all as it is.

Distributed (§3): a shard holds whole parents, so the affinity part involves its own nodes only,
but Σ_all pairs every node with the other shards' nodes as well. A shard starts each round with
Z_all and N as of the start of the round (the other shards' nodes are sent in, `distributed`) and
adds its own changes; the other shards' changes during the round are not seen. So a union-form
round with K > 1 shards is not exactly the single chain with a restricted proposer, as the
pairwise form is: each shard's Δ is exact against a state in which the other shards still hold
their start-of-round configuration. With K = 1 (and within one topic chain of the within-topic
setting, whose repulsion is among its own topic's nodes) the chain is exact.
"""

import numpy as np
from numba import njit

from coreflab.papers.singh2011.hashsum import table_get

TINY = 1e-300


@njit(cache=True)
def mention_dots(kv, level, g, m, X, out):
    """out += (x_m · T_g over words, T_g[string of m]) for the sums T_g of group g at `level`
    (X: the shard's `kernel.Mentions`)."""
    if g < 0:
        return
    indptr, indices, data = X.indptr, X.indices, X.data
    base = (level * X.n + g) * X.nfeat
    s = 0.0
    for j in range(indptr[m], indptr[m + 1]):
        s += data[j] * table_get(kv, base + indices[j])
    out[0] += s
    out[1] += table_get(kv, base + X.strf[m])


@njit(cache=True)
def block_dots(kv, level, g, buf, lo, hi, X, out):
    """out += Σ_{i∈[lo,hi)} mention_dots(buf[i]): the dot of a block's summed vector with T_g."""
    for i in range(lo, hi):
        mention_dots(kv, level, g, buf[i], X, out)


@njit(cache=True)
def dense_dots(Z, row, buf, lo, hi, X, out):
    """out += Σ_{i∈[lo,hi)} (x_m · Z[row] over words, Z[row, string of m]), m = buf[i]: the dot of a
    block's summed vector with a dense sum vector."""
    indptr, indices, data, strf = X.indptr, X.indices, X.data, X.strf
    z = Z[row]
    for i in range(lo, hi):
        m = buf[i]
        s = 0.0
        for j in range(indptr[m], indptr[m + 1]):
            s += data[j] * z[indices[j]]
        out[0] += s
        out[1] += z[strf[m]]


@njit(cache=True)
def _inv(x):
    return 1.0 / np.sqrt(x) if x > TINY else 0.0


@njit(cache=True)
def child_change(zc, zb, cb, nrm, bb, s, emptied, w, new_nrm):
    """ΔNZ and Δκ of one child whose context C becomes C + s·B (s = ±1).

    zc = ⟨Z_P, C⟩, zb = ⟨Z_P, B⟩, cb = ⟨C, B⟩, nrm = ‖C‖², bb = ‖B‖² (two parts each: words,
    strings); `emptied`: the child has no mention left (C + s·B = 0 exactly). Writes ‖C + s·B‖²
    into new_nrm. Returns (2⟨Z_P, d⟩ + ‖d‖², Δ‖Ĉ‖²) weighted over the parts, d = Ĉ' − Ĉ.
    """
    dnz = 0.0
    dkappa = 0.0
    for p in range(2):
        weight = 1.0 if p == 0 else w
        n0 = nrm[p]
        n1 = 0.0 if emptied else max(n0 + 2.0 * s * cb[p] + bb[p], 0.0)
        new_nrm[p] = n1
        r0, r1 = _inv(n0), _inv(n1)
        on0 = 1.0 if r0 > 0.0 else 0.0
        on1 = 1.0 if r1 > 0.0 else 0.0
        zd = (zc[p] + s * zb[p]) * r1 - zc[p] * r0
        dd = on0 + on1 - 2.0 * (n0 + s * cb[p]) * r0 * r1
        dnz += weight * (2.0 * zd + dd)
        dkappa += weight * (on1 - on0)
    return dnz, dkappa


@njit(cache=True)
def cross_term(c12, c1b, cb2, bb, s1, s2, n1, n1new, n2, n2new, w):
    """2⟨d1, d2⟩ (weighted) for two children of one parent changing together (a block B leaves
    child 1 with sign s1 and joins child 2 with sign s2); c12 = ⟨C1, C2⟩, c1b = ⟨C1, B⟩,
    cb2 = ⟨B, C2⟩, norms² before (n1, n2) and after (n1new, n2new), per part."""
    total = 0.0
    for p in range(2):
        weight = 1.0 if p == 0 else w
        a0, a1 = _inv(n1[p]), _inv(n1new[p])
        b0, b1 = _inv(n2[p]), _inv(n2new[p])
        new_new = (c12[p] + s2 * c1b[p] + s1 * cb2[p] + s1 * s2 * bb[p]) * a1 * b1
        new_old = (c12[p] + s1 * cb2[p]) * a1 * b0
        old_new = (c12[p] + s2 * c1b[p]) * a0 * b1
        old_old = c12[p] * a0 * b0
        total += weight * 2.0 * (new_new - new_old - old_new + old_old)
    return total


@njit(cache=True)
def pair_bias(k_before, k_after, b):
    """−b·Δ[k(k − 1)]: the bias of the child pairs of one parent (factor 2 of the ordered sum)."""
    return -b * (k_after * (k_after - 1) - k_before * (k_before - 1))


@njit(cache=True)
def all_pairs_change(dnz, dkappa, n_before, n_after, b):
    """Δ Σ_all φ = ½(Δ‖Z_all‖² − Δκ) − b·Δ[N(N − 1)]/2 (weighted parts summed in dnz, dkappa)."""
    return 0.5 * (dnz - dkappa) - 0.5 * b * (n_after * (n_after - 1) - n_before * (n_before - 1))
