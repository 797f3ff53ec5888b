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

The document's state (`Tree`), the subtree being moved (`Sub`) and the scratch (`Work`) are
bundles so that each step of a pass is a function of its own: subtree, split, candidate
losses, merge, pass objective.
"""

from collections import namedtuple

import numpy as np
from numba import njit

from coreflab.mela.features import N_TOTALS, clustering_totals, contrib_into, features_from_totals

Gold = namedtuple("Gold", ["g", "gsize", "K", "G"])
Gold.__doc__ = """The key of one document: compacted gold ids of its mentions (`compact_gold`), gold
cluster sizes, the number of gold clusters and of gold mentions (`gold_constants`)."""

Rho = namedtuple("Rho", ["coef", "intercept", "calib", "C", "use_order", "max_passes", "min_size"])
Rho.__doc__ = """Δ_ρ and Alg. 3's options: the regressor (coef, intercept), calibration, weight C, λ_v
(use_order), the pass limit and min_size (2: response singletons dropped, 1: kept)."""

Tree = namedtuple("Tree", ["ante", "arc", "lab", "size", "cnt", "keys", "nk", "sq", "rec", "psi", "T"])
Tree.__doc__ = """ĥ and its clusters: antecedent and arc of every mention, cluster label (first mention),
per cluster its size, gold-key counts and aggregates (`_row_aggs`), and the totals T of the response."""

Sub = namedtuple("Sub", ["insub", "sub", "skey", "scnt", "psiA"])
Sub.__doc__ = """The subtree S being moved: membership, its mentions, its distinct gold keys with counts, and
per cluster A the A-part of Ψ̃(A ∪ S)."""

Work = namedtuple("Work", ["stamp", "mloss", "feats", "Tc", "resp", "check", "stats"])
Work.__doc__ = """Scratch: per cluster the visit its loss is cached for and that loss, the nine features, a
candidate's totals and a response; with check the from-scratch comparison goes to stats[1]."""


@njit(cache=True)
def rho_loss(T, G, K, coef, intercept, calib, feats):
    """Δ'_ρ = calib·(100 − w_ρ·φ − b) with φ the nine features of the totals T."""
    features_from_totals(T, G, K, feats)
    s = intercept
    for i in range(9):
        s += coef[i] * feats[i]
    return calib * (100.0 - s)


@njit(cache=True)
def _loss(T, gold, rho, feats):
    """`rho_loss` of the totals T against this document's key."""
    return rho_loss(T, float(gold.G), float(gold.K), rho.coef, rho.intercept, rho.calib, feats)


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
def _set_aggs(st, c, gold):
    keys, nk, sq, rec, psi = _row_aggs(st.cnt, c, st.size[c], gold.gsize, gold.K)
    st.keys[c], st.nk[c], st.sq[c], st.rec[c], st.psi[c] = keys, nk, sq, rec, psi


@njit(cache=True)
def _contrib(T, sign, size, st, c, min_size):
    """T += sign·contrib of cluster c's aggregates at this size (`contrib_into`)."""
    contrib_into(T, sign, size, st.keys[c], st.nk[c], st.sq[c], st.rec[c], st.psi[c], min_size)


@njit(cache=True)
def _new_tree(n, gold, min_size):
    """The start state: every mention alone, no arc (see the module docstring)."""
    g = gold.g
    st = Tree(
        np.full(n, -1, dtype=np.int64),
        np.full(n, -1, dtype=np.int64),
        np.arange(n),
        np.ones(n, dtype=np.int64),
        np.zeros((n, max(gold.K, 1)), dtype=np.int64),
        np.zeros(n, dtype=np.int64),
        np.zeros(n, dtype=np.int64),
        np.zeros(n),
        np.zeros(n),
        np.zeros(n),
        np.zeros(N_TOTALS),
    )
    for m in range(n):
        if g[m] >= 0:
            st.cnt[m, g[m]] = 1
        _set_aggs(st, m, gold)
        _contrib(st.T, 1.0, st.size[m], st, m, min_size)
    return st


@njit(cache=True)
def _subtree(v, ante, sb):
    """Step 1: S, the later mentions whose antecedent chain reaches v (and v); returns |S|."""
    insub, sub = sb.insub, sb.sub
    ns = 0
    for u in range(ante.shape[0]):
        insub[u] = False
    insub[v] = True
    sub[ns] = v
    ns += 1
    for u in range(v + 1, ante.shape[0]):
        if ante[u] >= 0 and insub[ante[u]]:
            insub[u] = True
            sub[ns] = u
            ns += 1
    return ns


@njit(cache=True)
def _split(st, v, sb, ns, gold, min_size):
    """Step 2: remove v's arc, S leaves its cluster (label = the cluster's first mention)."""
    g, T, cnt, size = gold.g, st.T, st.cnt, st.size
    c = st.lab[v]
    _contrib(T, -1.0, size[c], st, c, min_size)
    for t in range(ns):
        u = sb.sub[t]
        st.lab[u] = v
        if g[u] >= 0:
            cnt[c, g[u]] -= 1
            cnt[v, g[u]] += 1
    size[c] -= ns
    size[v] = ns
    _set_aggs(st, c, gold)
    _set_aggs(st, v, gold)
    _contrib(T, 1.0, size[c], st, c, min_size)
    _contrib(T, 1.0, size[v], st, v, min_size)
    st.ante[v] = -1


@njit(cache=True)
def _subtree_keys(sb, ns, g):
    """Distinct gold keys of S (sb.skey) with their counts (sb.scnt); returns how many."""
    nsk = 0
    for t in range(ns):
        k = g[sb.sub[t]]
        if k >= 0:
            if sb.scnt[k] == 0:
                sb.skey[nsk] = k
                nsk += 1
            sb.scnt[k] += 1
    return nsk


@njit(cache=True)
def _psi_sweep(st, sb, sS, gold):
    """O(n) sweep: the A-part of Ψ̃(A ∪ S) for every cluster A."""
    g, psiA = gold.g, sb.psiA
    n = psiA.shape[0]
    for u in range(n):
        psiA[u] = 0.0
    for u in range(n):
        if not sb.insub[u] and g[u] >= 0:
            A = st.lab[u]
            psiA[A] += 2.0 / (gold.gsize[g[u]] + st.size[A] + sS)


@njit(cache=True)
def _check_totals(wk, gold, T, min_size):
    """stats[1] = max(stats[1], max |totals of wk.resp from scratch − T|)."""
    T0 = clustering_totals(gold.g, gold.gsize, gold.K, wk.resp, min_size)
    for i in range(N_TOTALS):
        d = abs(T0[i] - T[i])
        if d > wk.stats[1]:
            wk.stats[1] = d


@njit(cache=True)
def _merged_loss(st, sb, A, v, sS, nsk, gold, rho, wk):
    """Δ'_ρ after merging S into cluster A, from T in O(keys(S)) (see the module docstring)."""
    gsize, cnt, skey, scnt, Tc = gold.gsize, st.cnt, sb.skey, sb.scnt, wk.Tc
    min_size = rho.min_size
    common = 0
    csq = 0.0
    crec = 0.0
    psi = sb.psiA[A]
    sm = st.size[A] + sS
    for t in range(nsk):
        k = skey[t]
        y = cnt[A, k]
        if y > 0:
            common += 1
        csq += scnt[k] * y
        crec += scnt[k] * y / gsize[k]
        psi += 2.0 * scnt[k] / (gsize[k] + sm)
    for i in range(N_TOTALS):
        Tc[i] = st.T[i]
    _contrib(Tc, -1.0, st.size[A], st, A, min_size)
    _contrib(Tc, -1.0, sS, st, v, min_size)
    contrib_into(
        Tc,
        1.0,
        sm,
        st.keys[A] + st.keys[v] - common,
        st.nk[A] + st.nk[v],
        st.sq[A] + st.sq[v] + 2.0 * csq,
        st.rec[A] + st.rec[v] + 2.0 * crec,
        psi,
        min_size,
    )
    loss = _loss(Tc, gold, rho, wk.feats)
    if wk.check:
        for u in range(sb.insub.shape[0]):
            wk.resp[u] = A if sb.insub[u] else st.lab[u]
        _check_totals(wk, gold, Tc, min_size)
    return loss


@njit(cache=True)
def _best_arc(scores, arcs, lo, v, tag, sS, nsk, st, sb, gold, rho, wk):
    """The arc of v maximising w·e + C·λ_v·Δ'_ρ (ties keep the current arc); tag: this visit, for
    the per-cluster cache of merged losses."""
    n = st.ante.shape[0]
    lam = (v + 1.0) / n if rho.use_order else 1.0
    base = _loss(st.T, gold, rho, wk.feats)
    s_off = arcs.m_arc_offsets[lo]
    best = -np.inf
    best_a = -1
    for a in range(arcs.m_arc_offsets[lo + v], arcs.m_arc_offsets[lo + v + 1]):
        x = arcs.arc_ante[a]
        if x < 0:
            loss = base
        else:
            A = st.lab[x]
            if wk.stamp[A] != tag:
                wk.stamp[A] = tag
                wk.mloss[A] = _merged_loss(st, sb, A, v, sS, nsk, gold, rho, wk)
            loss = wk.mloss[A]
        s = scores[a - s_off] + rho.C * lam * loss
        if best_a < 0 or s > best or (s == best and a == st.arc[v]):
            best = s
            best_a = a
    return best_a


@njit(cache=True)
def _merge(st, v, x, sb, ns, gold, min_size):
    """Step 3: add the arc (x, v), S joins x's cluster."""
    g, T, cnt, size = gold.g, st.T, st.cnt, st.size
    A = st.lab[x]
    _contrib(T, -1.0, size[A], st, A, min_size)
    _contrib(T, -1.0, size[v], st, v, min_size)
    for t in range(ns):
        u = sb.sub[t]
        st.lab[u] = A
        if g[u] >= 0:
            cnt[A, g[u]] += 1
            cnt[v, g[u]] -= 1
    size[A] += ns
    size[v] = 0
    _set_aggs(st, A, gold)
    _contrib(T, 1.0, size[A], st, A, min_size)
    st.ante[v] = x


@njit(cache=True)
def _visit(scores, arcs, lo, v, tag, st, sb, gold, rho, wk):
    """One coordinate step: v's arc is replaced by the best one given the rest of ĥ."""
    ns = _subtree(v, st.ante, sb)
    if st.ante[v] >= 0:
        _split(st, v, sb, ns, gold, rho.min_size)
    nsk = _subtree_keys(sb, ns, gold.g)
    _psi_sweep(st, sb, ns, gold)
    best_a = _best_arc(scores, arcs, lo, v, tag, ns, nsk, st, sb, gold, rho, wk)
    if wk.check:
        for u in range(st.lab.shape[0]):
            wk.resp[u] = st.lab[u]
        _check_totals(wk, gold, st.T, rho.min_size)
    for t in range(nsk):
        sb.scnt[sb.skey[t]] = 0
    st.arc[v] = best_a
    x = arcs.arc_ante[best_a]
    if x >= 0:
        _merge(st, v, x, sb, ns, gold, rho.min_size)


@njit(cache=True)
def alg3_doc(scores, arcs, lo, hi, gold, rho, check, out_arc, stats, objs):
    """Inexact max-violating tree of one document (global arc ids into out_arc[0:n]).

    scores: w·e of the document's arcs from its first (`ArcArrays` arcs, mentions lo..hi-1);
    gold: its `Gold`; rho: the loss (`Rho`). Returns the number of passes run; objs[p] = F
    after pass p (when objs is long enough); stats[0] += passes, stats[1] = max
    |incremental − from-scratch| over candidates when check.
    """
    n = hi - lo
    if n == 0:
        return 0
    st = _new_tree(n, gold, rho.min_size)
    sb = Sub(
        np.zeros(n, dtype=np.bool_),
        np.empty(n, dtype=np.int64),
        np.empty(n, dtype=np.int64),
        np.zeros(max(gold.K, 1), dtype=np.int64),
        np.zeros(n),
    )
    wk = Work(
        np.full(n, -1, dtype=np.int64),
        np.zeros(n),
        np.zeros(9),
        np.zeros(N_TOTALS),
        np.empty(n, dtype=np.int64),
        check,
        stats,
    )
    s_off = arcs.m_arc_offsets[lo]
    arc = st.arc
    prev_arc = np.full(n, -1, dtype=np.int64)
    prev_obj = -np.inf
    passes = 0
    while passes < rho.max_passes:
        passes += 1
        for v in range(n):
            _visit(scores, arcs, lo, v, v + passes * n, st, sb, gold, rho, wk)
        obj = rho.C * _loss(st.T, gold, rho, wk.feats)
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


__all__ = ["Gold", "Rho", "alg3_doc", "rho_loss"]
