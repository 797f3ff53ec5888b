"""Cutting-plane LP for correlation clustering on a sparse graph (the multicut LP).

Items are the nodes, the pairs with a score the edges (a pair without one weighs 0 and needs
no variable: partitions are the multicuts of the graph, and a pair that is not an edge adds
nothing whichever side it falls). With y_e = 1 when edge e is cut (its two items in different
clusters), maximising Σ_e W_e (1 − y_e) over partitions is minimising Σ_e W_e y_e subject to
the cycle inequalities y_e ≤ Σ_{f ∈ P} y_f for every edge e and path P joining its ends
(Chopra & Rao 1993): an integral y satisfies them iff its cut edges are exactly the edges
between the connected components of its uncut edges. The LP relaxation (0 ≤ y ≤ 1) is solved
with them added lazily:

- triangles of the graph first (y_uv ≤ y_ut + y_tv), the most violated first. Candidate
  arcs join each mention to its nearest earlier ones, so the graph is nearly an interval
  graph, which is chordal: every chordless cycle is a triangle and the triangles imply every
  other cycle inequality. Long cycles found by shortest paths are weak (a chord splits them
  into two stronger ones): on LitBank's test documents separating them took 30–90 rounds
  and up to minutes a document where triangles take 2–5 rounds and 0.1–0.4 s;
- once no triangle is violated, shortest paths (Dijkstra, lengths y) find the violated
  cycles the string-matched arcs beyond the window leave (and prove there are none);
- rows that are slack at the LP optimum are dropped before the next round, which keeps the
  LP small (the rows a vertex needs are few).

An integral LP optimum is an optimal partition (the LP is a relaxation of the problem over
partitions, and that solution is one). The budget is a number of simplex iterations over all
rounds (deterministic, unlike a time limit).
"""

import numpy as np
from numba import njit
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components, dijkstra

# Triangle rows added per round at most (the most violated): on LitBank's test documents
# (components of 100–250 mentions, 2,000–10,000 arcs) 5,000 took 2–5 rounds, 4 per item 5–9.
TRIANGLES_PER_ROUND = 5000

# Shortest-path cycle rows per round at most.
PATHS_PER_ROUND = 500

_TOL = 1e-7  # a row counts as violated above this; an LP value within 1e-6 of 0 or 1 as integral


@njit(cache=True)
def _triangles(indptr, indices, eids):
    """(uv, ut, vt) edge ids of every triangle u < v < t of the upper-triangular adjacency (sorted rows)."""
    n = indptr.size - 1
    count = 0
    for sweep in range(2):
        if sweep == 1:
            out = np.empty((count, 3), dtype=np.int64)
        k = 0
        for u in range(n):
            for p in range(indptr[u], indptr[u + 1]):
                v = indices[p]
                i, j = p + 1, indptr[v]
                while i < indptr[u + 1] and j < indptr[v + 1]:
                    if indices[i] == indices[j]:
                        if sweep == 1:
                            out[k, 0], out[k, 1], out[k, 2] = eids[p], eids[i], eids[j]
                        k += 1
                        i += 1
                        j += 1
                    elif indices[i] < indices[j]:
                        i += 1
                    else:
                        j += 1
        count = k
    return out


def graph_triangles(n, a, b):
    """Edge ids (uv, ut, vt) of every triangle of the graph with edges (a_e, b_e)."""
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    up = csr_matrix((np.arange(a.size, dtype=np.int64) + 1, (lo, hi)), shape=(n, n))
    up.sort_indices()
    return _triangles(up.indptr.astype(np.int64), up.indices.astype(np.int64), up.data.astype(np.int64) - 1)


def violated_triangles(y, tri, tol, cap):
    """Rows (e, f, g) of y_e − y_f − y_g ≤ 0 over the triangles' three orientations violated by
    more than tol, the `cap` most violated (ties: first found)."""
    if tri.shape[0] == 0:
        return np.empty((0, 3), dtype=np.int64)
    yt = y[tri]
    found = []
    for e, f, g in ((0, 1, 2), (1, 0, 2), (2, 0, 1)):
        excess = yt[:, e] - yt[:, f] - yt[:, g]
        bad = np.flatnonzero(excess > tol)
        found.append((excess[bad], tri[bad][:, [e, f, g]]))
    excess = np.concatenate([f[0] for f in found])
    rows = np.concatenate([f[1] for f in found])
    if excess.size > cap:
        keep = np.argsort(-excess, kind="stable")[:cap]
        rows = rows[np.sort(keep)]
    return rows


def violated_cycles(n, a, b, y, eid, tol, cap):
    """Cycle rows (e, path edge ids) with y_e > length of the shortest other path, the `cap` most
    violated. Dijkstra from one end of each edge with y_e > tol, no farther than the largest such y_e."""
    cand = np.flatnonzero(y > tol)
    if cand.size == 0:
        return []
    graph = csr_matrix((np.maximum(y, 0.0), (a, b)), shape=(n, n))  # stored zeros are edges of length 0
    src = np.unique(a[cand])
    dist, pred = dijkstra(graph, directed=False, indices=src, return_predecessors=True, limit=float(y[cand].max()))
    row = np.full(n, -1, dtype=np.int64)
    row[src] = np.arange(src.size)
    excess = y[cand] - dist[row[a[cand]], b[cand]]
    bad = np.flatnonzero(excess > tol)
    if bad.size == 0:
        return []
    bad = bad[np.argsort(-excess[bad], kind="stable")[:cap]]
    cycles = []
    for o in bad:
        e = int(cand[o])
        u, r, t = a[e], row[a[e]], b[e]
        path = []
        while t != u:
            p = pred[r, t]
            path.append(int(eid[p, t]))
            t = p
        cycles.append((e, path))
    return cycles


def constraint_rows(tri_rows, cycles, m):
    """Sparse matrix of the rows: triangles (+1, −1, −1) then cycles (+1 on e, −1 on its path)."""
    k = tri_rows.shape[0]
    r = [np.repeat(np.arange(k), 3)]
    c = [tri_rows.ravel()]
    v = [np.tile([1.0, -1.0, -1.0], k)]
    for i, (e, path) in enumerate(cycles):
        r.append(np.full(1 + len(path), k + i))
        c.append(np.array([e, *path], dtype=np.int64))
        v.append(np.r_[1.0, -np.ones(len(path))])
    return csr_matrix((np.concatenate(v), (np.concatenate(r), np.concatenate(c))), shape=(k + len(cycles), m))


def labels_of_uncut(n, a, b, uncut):
    """Cluster labels: connected components of the uncut edges."""
    graph = csr_matrix((np.ones(int(uncut.sum())), (a[uncut], b[uncut])), shape=(n, n))
    return connected_components(graph, directed=False)[1]


class LPOutcome:
    """The cutting-plane LP's end: status 'integral' (labels optimal), 'fractional' (y, bound =
    the LP optimum, an upper bound on every partition's objective) or 'budget' (no bound)."""

    def __init__(self, status, y=None, bound=None, labels=None, rows=None, iterations=0, rounds=0):
        self.status, self.y, self.bound, self.labels = status, y, bound, labels
        self.rows, self.iterations, self.rounds = rows, iterations, rounds


def cutting_plane_lp(n, a, b, w, max_iterations, time_left=None):
    """Solve the multicut LP of the graph (n items, edges (a_e, b_e) of weight w_e, a_e ≠ b_e, each
    pair once) by cutting planes within `max_iterations` simplex iterations (all rounds together).

    `time_left()`: seconds left for the solve, or None for no wall-clock limit. `rows` of the
    outcome are the triangle rows and cycles of the last LP (for a branch and bound to start from).
    """
    # here, not at the top: every command imports this module, scipy.optimize takes 0.2 s
    from scipy.optimize import linprog

    m = a.size
    if m == 0:
        return LPOutcome(
            "integral", y=np.zeros(0), bound=0.0, labels=np.arange(n), rows=(np.empty((0, 3), np.int64), [])
        )
    tri = graph_triangles(n, a, b)
    eid = np.full((n, n), -1, dtype=np.int64)
    eid[a, b] = np.arange(m)
    eid[b, a] = np.arange(m)
    tri_rows = np.empty((0, 3), dtype=np.int64)
    cycles = []
    used = rounds = 0
    total = float(w.sum())
    while True:
        left = max_iterations - used
        if left <= 0:
            return LPOutcome("budget", iterations=used, rounds=rounds)
        options = {"maxiter": int(left), "presolve": True}
        if time_left is not None:
            secs = time_left()
            if secs <= 0:
                return LPOutcome("budget", iterations=used, rounds=rounds)
            options["time_limit"] = secs
        nr = tri_rows.shape[0] + len(cycles)
        A = constraint_rows(tri_rows, cycles, m) if nr else None
        res = linprog(w, A_ub=A, b_ub=np.zeros(nr) if nr else None, bounds=(0, 1), method="highs", options=options)
        used += max(int(getattr(res, "nit", 0) or 0), 1)  # a round costs at least 1: the loop ends
        rounds += 1
        if res.status != 0 or res.x is None:  # 1: iteration or time limit
            return LPOutcome("budget", iterations=used, rounds=rounds)
        y = np.clip(res.x, 0.0, 1.0)
        if nr:  # drop the rows slack at this optimum
            keep = A @ y > -1e-6
            k = tri_rows.shape[0]
            tri_rows = tri_rows[keep[:k]]
            cycles = [c for c, kept in zip(cycles, keep[k:]) if kept]
        new = violated_triangles(y, tri, _TOL, TRIANGLES_PER_ROUND)
        if new.shape[0]:
            tri_rows = np.concatenate([tri_rows, new])
            continue
        new_cycles = violated_cycles(n, a, b, y, eid, _TOL, PATHS_PER_ROUND)
        if new_cycles:
            cycles = cycles + new_cycles
            continue
        rows = (tri_rows, cycles)
        if np.all(np.minimum(y, 1.0 - y) < 1e-6):
            labels = labels_of_uncut(n, a, b, y < 0.5)
            return LPOutcome(
                "integral", y=y, bound=total - float(res.fun), labels=labels, rows=rows, iterations=used, rounds=rounds
            )
        return LPOutcome("fractional", y=y, bound=total - float(res.fun), rows=rows, iterations=used, rounds=rounds)
