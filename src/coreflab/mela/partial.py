"""Alg. 3 of Haponchyk & Moschitti (2017): inexact loss-augmented inference with Δ_ρ.

docs/methods.md, "Haponchyk & Moschitti 2017". ĥ starts empty; a pass visits every mention v in order, removes v's arc
and adds the arc ê maximising w·e + C·λ_v·Δ'_ρ(y, ĥ ∪ e); passes repeat until the
objective F(ĥ) = Σ_e w·e + C·Δ'_ρ(ĥ) stops changing, with a cap on the passes.

Choices (reconstructed where the paper is silent, documented here and in the report):
- "Empty ĥ": mentions without an arc yet are absent from the response. When the
  response drops singletons (`min_size` 2, as the scorer's does for keys without
  singletons), an absent mention and a root-attached mention give the same nine
  features, so the state starts with every mention alone. When the response keeps them
  (`min_size` 1, keys that annotate singletons), every mention is in the scored response
  (alone when root-attached), so the same start state is the response of the empty ĥ
  completed with root arcs: the loss is the one the scorer reports for that response.
- λ_v = (i/|V|) with i = v+1, |V| = mentions (Δ''_ρ), when `use_order` is set; the
  pass objective F always uses Δ'_ρ (no λ). With λ_v ≠ 1 a coordinate step need not raise
  F, so a pass that would lower F is undone (the previous pass's ĥ is returned): F never
  decreases between passes. Ties keep the current arc, so passes terminate.
- Incremental loss: removing v's arc splits v's subtree S (v and the later mentions
  hanging from it) off its cluster; adding arc (a, v) merges S into a's cluster A. The
  totals of `coreflab.mela.features` change by contrib(A∪S) − contrib(A) − contrib(S),
  computed in O(keys(S)) per candidate cluster plus one O(n) sweep per node, never by
  rescoring the document. With `check` the from-scratch totals of every candidate are
  compared (the property test), max |difference| goes to stats[1].
"""

import numpy as np
from numba import njit

from coreflab.mela.features import N_TOTALS, clustering_totals, contrib_into, features_from_totals


@njit(cache=True)
def rho_loss(T, G, K, coef, intercept, calib, feats):
    """Δ'_ρ = calib·(100 − w_ρ·φ − b) with φ the nine features of the totals T."""
    features_from_totals(T, G, K, feats)
    s = intercept
    for i in range(9):
        s += coef[i] * feats[i]
    return calib * (100.0 - s)


@njit(cache=True)
def _row_aggs(cnt, c, size, gsize, K):
    keys = 0
    gold_in = 0
    sq = 0.0
    rec = 0.0
    psi = 0.0
    for k in range(K):
        x = cnt[c, k]
        if x > 0:
            keys += 1
            gold_in += x
            sq += x * x
            rec += x * x / gsize[k]
            psi += 2.0 * x / (gsize[k] + size)
    return keys, size - gold_in, sq, rec, psi


@njit(cache=True)
def _set_aggs(c, cnt, size, gsize, K, a_keys, a_nk, a_sq, a_rec, a_psi):
    keys, nk, sq, rec, psi = _row_aggs(cnt, c, size[c], gsize, K)
    a_keys[c], a_nk[c], a_sq[c], a_rec[c], a_psi[c] = keys, nk, sq, rec, psi


@njit(cache=True)
def alg3_doc(
    scores,
    s_off,
    m_arc_offsets,
    arc_ante,
    lo,
    hi,
    g,
    gsize,
    K,
    G,
    min_size,
    coef,
    intercept,
    calib,
    C,
    use_order,
    max_passes,
    check,
    out_arc,
    stats,
    objs,
):
    """Inexact max-violating tree of one document (global arc ids into out_arc[0:n]).

    g/gsize/K/G: compacted gold ids of the document's mentions (`compact_gold`), gold
    cluster sizes, number of gold clusters, gold mentions; min_size: 2 when response
    singletons are dropped, 1 when kept (`coreflab.mela.features`). Returns the number of passes
    run; objs[p] = F after pass p (when objs is long enough); stats[0] += passes,
    stats[1] = max |incremental − from-scratch| over candidates when check.
    """
    n = hi - lo
    if n == 0:
        return 0
    Gf = float(G)
    Kf = float(K)
    Kc = max(K, 1)
    ante = np.full(n, -1, dtype=np.int64)
    arc = np.full(n, -1, dtype=np.int64)
    lab = np.arange(n)
    size = np.ones(n, dtype=np.int64)
    cnt = np.zeros((n, Kc), dtype=np.int64)
    a_keys = np.zeros(n, dtype=np.int64)
    a_nk = np.zeros(n, dtype=np.int64)
    a_sq = np.zeros(n)
    a_rec = np.zeros(n)
    a_psi = np.zeros(n)
    T = np.zeros(N_TOTALS)
    for m in range(n):
        if g[m] >= 0:
            cnt[m, g[m]] = 1
        _set_aggs(m, cnt, size, gsize, K, a_keys, a_nk, a_sq, a_rec, a_psi)
        contrib_into(T, 1.0, size[m], a_keys[m], a_nk[m], a_sq[m], a_rec[m], a_psi[m], min_size)
    insub = np.zeros(n, dtype=np.bool_)
    sub = np.empty(n, dtype=np.int64)
    skey = np.empty(n, dtype=np.int64)
    scnt = np.zeros(Kc, dtype=np.int64)
    stamp = np.full(n, -1, dtype=np.int64)
    mloss = np.zeros(n)
    psiA = np.zeros(n)
    feats = np.zeros(9)
    Tc = np.zeros(N_TOTALS)
    resp = np.empty(n, dtype=np.int64)
    prev_arc = np.full(n, -1, dtype=np.int64)
    prev_obj = -np.inf
    passes = 0
    while passes < max_passes:
        passes += 1
        for v in range(n):
            # 1. the subtree S of v (later mentions whose antecedent chain reaches v)
            ns = 0
            for u in range(n):
                insub[u] = False
            insub[v] = True
            sub[ns] = v
            ns += 1
            for u in range(v + 1, n):
                if ante[u] >= 0 and insub[ante[u]]:
                    insub[u] = True
                    sub[ns] = u
                    ns += 1
            # 2. remove v's arc: split S off its cluster (label = the cluster's first mention)
            if ante[v] >= 0:
                c = lab[v]
                contrib_into(T, -1.0, size[c], a_keys[c], a_nk[c], a_sq[c], a_rec[c], a_psi[c], min_size)
                for t in range(ns):
                    u = sub[t]
                    lab[u] = v
                    if g[u] >= 0:
                        cnt[c, g[u]] -= 1
                        cnt[v, g[u]] += 1
                size[c] -= ns
                size[v] = ns
                _set_aggs(c, cnt, size, gsize, K, a_keys, a_nk, a_sq, a_rec, a_psi)
                _set_aggs(v, cnt, size, gsize, K, a_keys, a_nk, a_sq, a_rec, a_psi)
                contrib_into(T, 1.0, size[c], a_keys[c], a_nk[c], a_sq[c], a_rec[c], a_psi[c], min_size)
                contrib_into(T, 1.0, size[v], a_keys[v], a_nk[v], a_sq[v], a_rec[v], a_psi[v], min_size)
                ante[v] = -1
            # distinct gold keys of S with their counts
            nsk = 0
            for t in range(ns):
                k = g[sub[t]]
                if k >= 0:
                    if scnt[k] == 0:
                        skey[nsk] = k
                        nsk += 1
                    scnt[k] += 1
            sS = ns
            # O(n) sweep: the A-part of Ψ̃(A ∪ S) for every cluster A
            for u in range(n):
                psiA[u] = 0.0
            for u in range(n):
                if not insub[u] and g[u] >= 0:
                    A = lab[u]
                    psiA[A] += 2.0 / (gsize[g[u]] + size[A] + sS)
            lam = (v + 1.0) / n if use_order else 1.0
            base = rho_loss(T, Gf, Kf, coef, intercept, calib, feats)
            best = -np.inf
            best_a = -1
            a0, a1 = m_arc_offsets[lo + v], m_arc_offsets[lo + v + 1]
            for a in range(a0, a1):
                x = arc_ante[a]
                if x < 0:
                    loss = base
                else:
                    A = lab[x]
                    if stamp[A] != v + passes * n:
                        stamp[A] = v + passes * n
                        common = 0
                        csq = 0.0
                        crec = 0.0
                        psi = psiA[A]
                        sm = size[A] + sS
                        for t in range(nsk):
                            k = skey[t]
                            y = cnt[A, k]
                            if y > 0:
                                common += 1
                            csq += scnt[k] * y
                            crec += scnt[k] * y / gsize[k]
                            psi += 2.0 * scnt[k] / (gsize[k] + sm)
                        for i in range(N_TOTALS):
                            Tc[i] = T[i]
                        contrib_into(Tc, -1.0, size[A], a_keys[A], a_nk[A], a_sq[A], a_rec[A], a_psi[A], min_size)
                        contrib_into(Tc, -1.0, sS, a_keys[v], a_nk[v], a_sq[v], a_rec[v], a_psi[v], min_size)
                        contrib_into(
                            Tc,
                            1.0,
                            sm,
                            a_keys[A] + a_keys[v] - common,
                            a_nk[A] + a_nk[v],
                            a_sq[A] + a_sq[v] + 2.0 * csq,
                            a_rec[A] + a_rec[v] + 2.0 * crec,
                            psi,
                            min_size,
                        )
                        mloss[A] = rho_loss(Tc, Gf, Kf, coef, intercept, calib, feats)
                        if check:
                            for u in range(n):
                                resp[u] = A if insub[u] else lab[u]
                            T0 = clustering_totals(g, gsize, K, resp, min_size)
                            for i in range(N_TOTALS):
                                d = abs(T0[i] - Tc[i])
                                if d > stats[1]:
                                    stats[1] = d
                    loss = mloss[A]
                s = scores[a - s_off] + C * lam * loss
                if best_a < 0 or s > best or (s == best and a == arc[v]):
                    best = s
                    best_a = a
            if check:
                for u in range(n):
                    resp[u] = lab[u]
                T0 = clustering_totals(g, gsize, K, resp, min_size)
                for i in range(N_TOTALS):
                    d = abs(T0[i] - T[i])
                    if d > stats[1]:
                        stats[1] = d
            for t in range(nsk):
                scnt[skey[t]] = 0
            # 3. add the chosen arc: merge S into the antecedent's cluster
            arc[v] = best_a
            x = arc_ante[best_a]
            if x >= 0:
                A = lab[x]
                contrib_into(T, -1.0, size[A], a_keys[A], a_nk[A], a_sq[A], a_rec[A], a_psi[A], min_size)
                contrib_into(T, -1.0, size[v], a_keys[v], a_nk[v], a_sq[v], a_rec[v], a_psi[v], min_size)
                for t in range(ns):
                    u = sub[t]
                    lab[u] = A
                    if g[u] >= 0:
                        cnt[A, g[u]] += 1
                        cnt[v, g[u]] -= 1
                size[A] += ns
                size[v] = 0
                _set_aggs(A, cnt, size, gsize, K, a_keys, a_nk, a_sq, a_rec, a_psi)
                contrib_into(T, 1.0, size[A], a_keys[A], a_nk[A], a_sq[A], a_rec[A], a_psi[A], min_size)
                ante[v] = x
        obj = C * rho_loss(T, Gf, Kf, coef, intercept, calib, feats)
        for v in range(n):
            obj += scores[arc[v] - s_off]
        if obj < prev_obj - 1e-9 * max(1.0, abs(prev_obj)):
            for v in range(n):
                arc[v] = prev_arc[v]
            if passes - 1 < objs.shape[0]:
                objs[passes - 1] = prev_obj
            break
        if passes - 1 < objs.shape[0]:
            objs[passes - 1] = obj
        if abs(obj - prev_obj) <= 1e-9 * max(1.0, abs(obj)):
            break
        prev_obj = obj
        for v in range(n):
            prev_arc[v] = arc[v]
    for v in range(n):
        out_arc[v] = arc[v]
    stats[0] += passes
    return passes


__all__ = ["alg3_doc", "rho_loss"]
