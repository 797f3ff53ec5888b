"""One worker's round: build a shard's sampler state, run the chain, hand back its groups.

Singh et al. (2011) §3: entities (with all their mentions) are partitioned over machines
and every machine proposes only moves among its own entities, so each acceptance is
computed exactly without communication. The function `run_shard` is what a Dask worker
executes; it is a plain function of (data, assignment, seed), so the serial executor and
the Dask executor give identical chains for identical shards (the equivalence the paper
relies on: distribution = one chain with a restricted proposer; exact for the pairwise form, for
the union form up to the other shards' changes within a round, `nodelevel` docstring).
"""

import os
import time
from dataclasses import dataclass

import numpy as np
from numba import njit

from coreflab.papers.singh2011 import kernel as K
from coreflab.papers.singh2011.hashsum import capacity, new_table, rehash

# Round-robin schedules of move types (kernel docstring). Entity moves between super-entities
# are block moves over whole entities (cost O(|entity|·nnz)), so they get one slot in 32.
MOVE_TYPES = {"flat": (1,), "sub": (0, 1), "super": (1,) * 31 + (2,), "hier": (0, 1) * 15 + (0, 2)}


@dataclass(frozen=True)
class ModelParams:
    """Biases per level, string weight, the new-group proposal rate (docs/methods.md, "Singh et al. 2011"), and how the
    hierarchy's levels are scored: `pairwise` (every level a mention-pair model) or `union`
    (a node's context is the union of its children's bags; `nodelevel` docstring)."""

    model: str = "flat"
    context: str = "pairwise"  # pairwise: every level over mention pairs; union: node-level factors
    bias: float = 0.05
    sub_bias: float = 0.2
    super_bias: float = 0.01
    string_weight: float = 0.0
    p_new: float = 0.1

    def vector(self):
        on_sub = self.model in ("sub", "hier")
        on_sup = self.model in ("super", "hier")
        w = self.string_weight
        return np.array(
            [self.bias, self.sub_bias, self.super_bias, w, w, w, 1.0, float(on_sub), float(on_sup), self.p_new]
        )

    def move_types(self):
        return np.array(MOVE_TYPES[self.model], dtype=np.int64)


@njit(cache=True)
def count_cells(group, order, indptr, indices, strf, nfeat):
    """Distinct (group, feature) pairs — the live cells of one level — with mentions visited
    in `order` (sorted by group), marking each feature with the last group that used it."""
    mark = np.full(nfeat, -1, dtype=np.int64)
    c = 0
    for i in range(order.shape[0]):
        m = order[i]
        g = group[m]
        for j in range(indptr[m], indptr[m + 1]):
            f = indices[j]
            if mark[f] != g:
                mark[f] = g
                c += 1
        f = strf[m]
        if mark[f] != g:
            mark[f] = g
            c += 1
    return c


def dead_cell_eps(data):
    """Deletion threshold for table cells: TF-IDF weights are positive, so a sum at or below
    1e-9 is an empty cell; with any non-positive weight cells are never deleted (-1)."""
    return 1e-9 if data.size == 0 or float(data.min()) > 1e-6 else -1.0


@njit(cache=True)
def init_state(m_sub, sub_ent, ent_sup, P, kv, used, X):
    """State matrix G, group counts and the level sums for compact local ids (X: `kernel.Mentions`)."""
    n = m_sub.shape[0]
    ns, ne, na = sub_ent.shape[0], ent_sup.shape[0], 0
    for e in range(ne):
        na = max(na, ent_sup[e] + 1)
    G = np.full((K.N_ROWS, n), -1, dtype=np.int64)
    for row in (K.SUB_SIZE, K.ENT_SIZE, K.SUP_SIZE, K.ENT_KIDS, K.SUP_KIDS, K.VER0, K.VER2, K.CELLS0, K.CELLS2):
        G[row, :] = 0
    for which in range(3):
        for i in range(n):
            G[K.SUB_PERM + 2 * which, i] = i
            G[K.SUB_POS + 2 * which, i] = i
    cnt = np.array([ns, ne, na], dtype=np.int64)
    S = K.State(G, cnt, P, kv, used)
    for u in range(ns):
        G[K.SUB_ENT, u] = sub_ent[u]
        G[K.ENT_KIDS, sub_ent[u]] += 1
    for e in range(ne):
        G[K.ENT_SUP, e] = ent_sup[e]
        G[K.SUP_KIDS, ent_sup[e]] += 1
    for u in range(ns - 1, -1, -1):
        K._link(G, K.ENT_HEAD, K.S_NEXT, K.S_PREV, sub_ent[u], u)
    for m in range(n - 1, -1, -1):
        u = m_sub[m]
        G[K.M_SUB, m] = u
        K._link(G, K.SUB_HEAD, K.M_NEXT, K.M_PREV, u, m)
    for m in range(n):
        u = m_sub[m]
        e = sub_ent[u]
        a = ent_sup[e]
        G[K.SUB_SIZE, u] += 1
        G[K.ENT_SIZE, e] += 1
        G[K.SUP_SIZE, a] += 1
        groups = (e, u, a)
        for level in range(3):
            if P[K.ON0 + level] != 0.0:
                K._move_sums(S, X, level, -1, groups[level], m)
    return G, cnt


@njit(cache=True)
def compact_groups(G, n):
    """Relabel live sub-entities, entities and super-entities as 0..k-1 (first-seen order)."""
    sub_map = np.full(n, -1, dtype=np.int64)
    ent_map = np.full(n, -1, dtype=np.int64)
    sup_map = np.full(n, -1, dtype=np.int64)
    m_sub = np.empty(n, dtype=np.int64)
    sub_ent = np.empty(n, dtype=np.int64)
    ent_sup = np.empty(n, dtype=np.int64)
    ns = ne = na = 0
    for m in range(n):
        u = G[K.M_SUB, m]
        if sub_map[u] < 0:
            e = G[K.SUB_ENT, u]
            if ent_map[e] < 0:
                a = G[K.ENT_SUP, e]
                if sup_map[a] < 0:
                    sup_map[a] = na
                    na += 1
                ent_map[e] = ne
                ent_sup[ne] = sup_map[a]
                ne += 1
            sub_map[u] = ns
            sub_ent[ns] = ent_map[e]
            ns += 1
        m_sub[m] = sub_map[u]
    return m_sub, sub_ent[:ns].copy(), ent_sup[:ne].copy()


class ShardChain:
    """A shard's sampler: local CSR rows, state matrix and hash table of group sums.

    The table is sized for the live cells of the starting configuration (`count_cells`, exact):
    after a few rounds the entities are large and share most features, so the live table is
    several times smaller than the worst case (every mention its own group), a proposal's
    ~2·nnz random probes stay in cache more often (hashsum docstring), and building it does not
    page in a worst-case table (1 GB per worker on the 1.5M-mention corpus, 3 s per round).
    The table grows by rehashing when a round's splits or a block move need room.

    Node-level (union) mode: `zall` = (Z_all, 2 × nfeat: sub-entities, entities; node counts, 2) of
    the whole corpus at the start of the round (`distributed.union_totals`), which the chain then
    updates with its own moves only; None: this shard's nodes are all the nodes (one shard, or a
    topic chain).
    """

    def __init__(self, X, strf, nfeat, m_sub, sub_ent, ent_sup, params, mnorm2=None, zall=None):
        self.indptr = X.indptr.astype(np.int64)
        self.indices = X.indices.astype(np.int64)
        self.data = X.data.astype(np.float64)
        self.strf = np.asarray(strf, dtype=np.int64)
        self.mnorm2 = (
            np.asarray(X.multiply(X).sum(axis=1)).ravel() if mnorm2 is None else np.asarray(mnorm2, dtype=np.float64)
        )
        self.nfeat = np.int64(nfeat)
        if params.context not in ("pairwise", "union"):
            raise ValueError(f"unknown context {params.context!r} (pairwise or union)")
        self.P = np.append(params.vector(), [dead_cell_eps(self.data), float(params.context == "union")])
        self.types = params.move_types()
        m_sub, sub_ent, ent_sup = (np.asarray(a, np.int64) for a in (m_sub, sub_ent, ent_sup))
        ent = sub_ent[m_sub]
        live = 0
        groups = (ent, m_sub, ent_sup[ent] if len(ent_sup) else ent)
        for level, group in enumerate(groups):
            if self.P[K.ON0 + level] != 0.0:
                cells = count_cells(
                    group, np.argsort(group, kind="stable"), self.indptr, self.indices, self.strf, self.nfeat
                )
                # node-level Z sums: Z_e has the cells of its entity, Z_a those of its super-entity
                union = self.P[K.P_NODE] != 0.0 and ((level == 0 and self.P[K.ON1] != 0.0) or level == 2)
                live += 2 * cells if union else cells
        # headroom above the 0.6 load at which a step triggers a rehash: one mention move may
        # insert its cells at all three levels before the next check
        max_row = int(np.diff(self.indptr).max()) if X.shape[0] else 0
        self.spare = 1024 + 6 * (max_row + 1)
        self.kv = new_table(live + self.spare)
        self.used = np.zeros(2, dtype=np.int64)  # [occupied cells, cells a pending block move needs]
        self.mentions = K.Mentions(
            self.indptr, self.indices, self.data, self.strf, self.mnorm2, np.int64(X.shape[0]), self.nfeat
        )
        self.G, self.cnt = init_state(m_sub, sub_ent, ent_sup, self.P, self.kv, self.used, self.mentions)
        self.buf = np.empty(3 * X.shape[0], dtype=np.int64)  # block, and two member lists (node level)
        self.F = np.zeros((K.N_FROWS, X.shape[0]), dtype=np.float64)
        node = self.P[K.P_NODE] != 0.0
        self.ZA = np.zeros((2, int(nfeat) if node else 1), dtype=np.float64)
        self.zmeta = np.zeros(4, dtype=np.int64)
        if node:
            K.init_nodes(*self.bundles(), self.buf)
            if zall is not None:  # the round's Z_all replaces the sum of this shard's own nodes
                self.ZA[:] = zall[0]
                self.zmeta[K.ZM_REST0] = zall[1][0] - self.cnt[0]
                self.zmeta[K.ZM_REST2] = zall[1][1] - self.cnt[1]
        self.rehashes = 0

    def bundles(self):
        """(State, Nodes, Mentions) of the kernels; built per call, since a rehash replaces the table."""
        return (
            K.State(self.G, self.cnt, self.P, self.kv, self.used),
            K.Nodes(self.F, self.ZA, self.zmeta),
            self.mentions,
        )

    def run(self, n_samples, t_start, t_stop, seed, out_delta=None):
        """Run n_samples proposals (rehashing the table when it fills); returns accepted moves."""
        out = np.empty(0) if out_delta is None else out_delta
        done, accepted = 0, 0
        while done < n_samples:
            rest = n_samples - done
            ratio = t_stop / t_start
            t0 = t_start * ratio ** (done / n_samples)
            steps, acc, status = K.run_moves(
                *self.bundles(),
                self.buf,
                self.types,
                rest,
                t0,
                t_stop,
                seed if done == 0 else -1,
                out[done:] if out_delta is not None else out,
            )
            done += steps
            accepted += acc
            if status == K.STATUS_FULL:
                used, need = int(self.used[0]), int(self.used[1])
                kv = new_table(max(2 * used, used + 2 * need) + self.spare)
                self.used[0] = rehash(self.kv, kv, 1e-12)
                self.used[1] = 0
                self.kv = kv
                self.rehashes += 1
        return accepted

    def groups(self):
        return compact_groups(self.G, self.G.shape[1])


def run_shard(data, mention_ids, m_sub, sub_ent, ent_sup, params, n_samples, t_start, t_stop, seed, zall=None):
    """What one worker runs for one round: returns compact local groups and counters.

    `data` is (X, strf, nfeat) or (X, strf, nfeat, mnorm2) — the corpus, sent to every worker
    once; per round only the shard's mention ids and its compact groups travel (numpy arrays), and
    in union mode the round's Z_all and node counts (`zall`, `ShardChain`).
    Timings: build (slice rows, fill the sums), sampling (wall and this thread's CPU time,
    which separates time-sharing with other processes from the sampler's own cost), compaction.
    """
    X, strf, nfeat = data[:3]
    mention_ids = np.asarray(mention_ids)
    start = time.perf_counter()
    mnorm2 = data[3][mention_ids] if len(data) > 3 else None
    chain = ShardChain(X[mention_ids], strf[mention_ids], nfeat, m_sub, sub_ent, ent_sup, params, mnorm2, zall)
    built = time.perf_counter()
    cpu0 = time.thread_time()
    accepted = chain.run(n_samples, t_start, t_stop, seed) if len(mention_ids) else 0
    cpu = time.thread_time() - cpu0
    sampled = time.perf_counter()
    m_sub, sub_ent, ent_sup = chain.groups()
    return {
        "m_sub": m_sub,
        "sub_ent": sub_ent,
        "ent_sup": ent_sup,
        "accepted": accepted,
        "proposals": n_samples if len(mention_ids) else 0,
        "build_seconds": built - start,
        "sample_seconds": sampled - built,
        "sample_cpu_seconds": cpu,
        "compact_seconds": time.perf_counter() - sampled,
        "rehashes": chain.rehashes,
        "table_slots": int(capacity(chain.kv)),
        "live_cells": int(chain.used[0]),
        "pid": os.getpid(),
    }


def run_batch(data, calls):
    """A worker's share of a round: its shard chains, one after another (one Dask task).

    Each result carries the batch's total worker time, so the client can tell the Dask
    round trip (scheduling, transfer, (de)serialisation) from the work itself."""
    start = time.perf_counter()
    out = [run_shard(data, *call) for call in calls]
    seconds = time.perf_counter() - start
    for res in out:
        res["batch_seconds"] = seconds
    return out


def warm_up(params):
    """Compile (or load from numba's cache) every kernel a round uses, in this process.

    Called on each worker before the clock starts, so the first round's time is not compile
    time: a tiny chain whose table is built oversized (so the shrink-rehash runs), sampled,
    and compacted.
    """
    import scipy.sparse as sp

    rng = np.random.default_rng(0)
    X = sp.random(60, 40, density=0.2, format="csr", random_state=0) + sp.eye(60, 40, format="csr")
    X = sp.csr_matrix(X.multiply(1.0 / np.sqrt(X.multiply(X).sum(axis=1))))
    ident = np.arange(60, dtype=np.int64)
    strf = 40 + rng.integers(0, 5, 60)
    chain = ShardChain(X, strf, 45, ident, ident.copy(), ident.copy(), params)
    chain.run(200, 1.0, 0.1, 1)
    kv = new_table(capacity(chain.kv))
    rehash(chain.kv, kv, -1.0)
    chain.groups()
    big = ShardChain(X, strf, 45, ident, np.zeros(60, dtype=np.int64), np.zeros(1, dtype=np.int64), params)
    big.run(50, 1.0, 0.1, 2)
    return True
