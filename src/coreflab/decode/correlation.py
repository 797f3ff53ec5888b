"""Correlation clustering: an exact solver (cutting-plane LP, then branch and bound, HiGHS via
scipy's linprog/milp) and a greedy fallback.

Maximise Σ_{i<j} W_ij x_ij over partitions (x_ij = 1 iff i and j share a cluster). Pairs
without a score (outside the candidate window) weigh 0. The exact solver (a
single branch and bound over the whole document proves few documents optimal within the GUM and
LitBank runs' budgets) works in three steps:
- the document splits into the connected components of its positive pairs, solved
  separately (exact: see `positive_components`);
- per component, the LP relaxation of the multicut problem on the component's scored pairs,
  with triangle and cycle inequalities added lazily (`correlation_lp`), within
  `lp_iterations` simplex iterations. An integral LP optimum is an optimal partition; a
  fractional one is an upper bound that may prove the heuristic partition optimal;
- otherwise, components of at most `max_items` items go to branch and bound (HiGHS milp),
  started from the LP's rows and the heuristic's objective as a cutoff, within `node_limit`
  nodes, adding cycle inequalities violated by its solutions.
A component none of these proves is clustered by the fallback: the better of the greedy
partition (greedy online assignment, joining the cluster with the largest positive summed
weight as Sum-Link does, then single-item moves while the objective improves) and the LP
solution rounded (components of its pairs with y < 0.5) and improved by the same moves. A
document is exact when every component is; the caller counts and reports the others.
"""

import time

import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

from coreflab.decode.correlation_lp import (
    PATHS_PER_ROUND,
    constraint_rows,
    cutting_plane_lp,
    graph_triangles,
    labels_of_uncut,
    violated_cycles,
)


def partition_objective(W, labels):
    same = labels[:, None] == labels[None, :]
    return float(np.triu(W * same, 1).sum())


def greedy_partition(W, max_passes=20):
    """Greedy online assignment + improving single-item moves; deterministic (ties → lowest id)."""
    n = W.shape[0]
    W0 = np.array(W, dtype=np.float64)
    np.fill_diagonal(W0, 0.0)
    labels = np.empty(n, dtype=np.int64)
    for i in range(n):
        labels[i] = i
        if i:
            sums = np.bincount(labels[:i], weights=W0[i, :i], minlength=n)
            c = int(np.argmax(sums))
            if sums[c] > 0:
                labels[i] = c
    return _improve(W0, labels, max_passes)


def _improve(W0, labels, max_passes=20):
    """Single-item moves (to the cluster with the largest summed weight, or alone) while the objective rises."""
    n = W0.shape[0]
    labels = np.array(labels, dtype=np.int64)
    for _ in range(max_passes):
        moved = False
        for i in range(n):
            sums = np.bincount(labels, weights=W0[i], minlength=n)
            cur = labels[i]
            stay = sums[cur]
            sums[cur] = -np.inf
            target = int(np.argmax(sums))
            best = sums[target]
            if best < 0 and np.count_nonzero(labels == cur) > 1:
                target, best = int(np.setdiff1d(np.arange(n), labels)[0]), 0.0
            if best > stay + 1e-12:
                labels[i] = target
                moved = True
        if not moved:
            break
    return _canonical(labels)


def _canonical(labels):
    """Cluster id = index of its first item."""
    first = {}
    return np.array([first.setdefault(int(c), i) for i, c in enumerate(labels)], dtype=np.int64)


def positive_components(W):
    """Connected components (labels) of the graph whose edges are the pairs with W_ij > 0.

    Some optimal partition never joins two components: splitting a cluster along them only
    drops pairs of weight ≤ 0. So each component is solved on its own, and the exact solver
    sees the component's items, not the document's (most pairs score < 0 once trained).
    """
    n = W.shape[0]
    iu, ju = np.nonzero(np.triu(W > 0, 1))
    return _components(n, iu, ju)


def _components(n, a, b):
    graph = coo_matrix((np.ones(a.size), (a, b)), shape=(n, n))
    return connected_components(graph, directed=False)[1]


# Branch-and-bound nodes per ILP solve before the fallback is used instead.
NODE_LIMIT = 1000

# Simplex iterations of the cutting-plane LP per positive component (all rounds together)
# before it gives up: deterministic, so reruns reproduce. On LitBank's test documents (components
# of 100–250 mentions) 8 of 10 were exact with 20,000 and 7 with 5,000; GUM's needed a few hundred
# (bench/results/corr_clustering_lp.json).
LP_ITERATIONS = 20000

# Up to this many items the ILP gets every triangle row of the component at once (HiGHS then
# prunes better than with rows added lazily).
FULL_TRIANGLES = 20

# ILP solves per component (each adding the cycle inequalities its solution violates) before the
# fallback is used instead.
ILP_ROUNDS = 20

# How a component of 3 or more items was solved: every way but "heuristic" proves it optimal.
SOLVED_BY = ("enumeration", "lp", "bound", "ilp", "heuristic")

# Components of up to this many items are solved by enumerating their partitions (4,140 for 8
# items): no solver call, whose overhead (about 2 ms a linprog call) dominated documents made
# of many small components.
ENUMERATE_ITEMS = 8

_PARTITIONS = {}


def all_partitions(k):
    """Every partition of k items as restricted growth strings (rows of a Bell(k) × k array)."""
    if k not in _PARTITIONS:
        rows = [[0]]
        for _ in range(k - 1):
            rows = [r + [c] for r in rows for c in range(max(r) + 2)]
        _PARTITIONS[k] = np.array(rows, dtype=np.int64).reshape(-1, k)
    return _PARTITIONS[k]


def _edges(n, a, b, w):
    """Each scored pair once (a < b; a repeated pair keeps its last weight, as W[a, b] = w does), weight ≠ 0."""
    a, b, w = np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64), np.asarray(w, dtype=np.float64)
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    key = lo * n + hi
    last = key.size - 1 - np.unique(key[::-1], return_index=True)[1]
    keep = last[(lo[last] != hi[last]) & (w[last] != 0.0)]
    keep.sort()
    return lo[keep], hi[keep], w[keep]


def _dense(n, a, b, w):
    W = np.zeros((n, n))
    W[a, b] = w
    W[b, a] = w
    return W


def _branch_and_bound(n, a, b, w, rows, best, node_limit, time_left):
    """Optimal labels by HiGHS branch and bound on the component's edges, or None when the node or
    time budget runs out. Starts from `rows` (triangle rows, cycles) and the cutoff Σ W x ≥ best."""
    # here, not at the top: every command imports this module, scipy.optimize takes 0.2 s
    from scipy.optimize import Bounds, LinearConstraint, milp

    m = a.size
    tri_rows, cycles = rows if rows is not None else (np.empty((0, 3), dtype=np.int64), [])
    if n <= FULL_TRIANGLES:
        tri = graph_triangles(n, a, b)
        tri_rows = np.concatenate([tri, tri[:, [1, 0, 2]], tri[:, [2, 0, 1]]])
    total = float(w.sum())
    # Σ_e W_e (1 − y_e) ≥ best, with a hair of slack so that the incumbent itself stays feasible
    cutoff = LinearConstraint(w[None, :], -np.inf, total - best + 1e-9 * max(1.0, abs(best)))
    eid = np.full((n, n), -1, dtype=np.int64)
    eid[a, b] = np.arange(m)
    eid[b, a] = np.arange(m)
    for _ in range(ILP_ROUNDS):
        options = {"node_limit": node_limit, "disp": False, "mip_rel_gap": 0.0}
        if time_left is not None:
            secs = time_left()
            if secs <= 0:
                return None
            options["time_limit"] = secs
        cons = [cutoff]
        if tri_rows.shape[0] or cycles:
            cons.append(LinearConstraint(constraint_rows(tri_rows, cycles, m), -np.inf, 0.0))
        res = milp(w, integrality=np.ones(m), bounds=Bounds(0, 1), constraints=cons, options=options)
        if res.status != 0 or res.x is None:  # 1: node or time limit reached without a proof
            return None
        y = np.round(res.x)
        new = violated_cycles(n, a, b, y, eid, 0.5, PATHS_PER_ROUND)
        if not new:
            return labels_of_uncut(n, a, b, y < 0.5)
        cycles = cycles + new
    return None


def _solve_component(n, a, b, w, max_items, node_limit, lp_iterations, time_left):
    """(labels, how) for one positive component of n ≥ 3 items with edges (a, b, w): how is one of
    SOLVED_BY; every way but "heuristic" is a proof of optimality."""
    if not (w < 0).any():  # nothing repels: one cluster takes every weight, the largest objective there is
        return np.zeros(n, dtype=np.int64), "enumeration"
    if n <= ENUMERATE_ITEMS:
        parts = all_partitions(n)
        values = (parts[:, a] == parts[:, b]) @ w
        return _canonical(parts[int(np.argmax(values))]), "enumeration"
    outcome = cutting_plane_lp(n, a, b, w, lp_iterations, time_left) if lp_iterations > 0 else None
    if outcome is not None and outcome.status == "integral":
        return _canonical(outcome.labels), "lp"
    W = _dense(n, a, b, w)
    labels = greedy_partition(W)
    best = partition_objective(W, labels)
    if outcome is not None and outcome.y is not None:
        rounded = _improve(W, labels_of_uncut(n, a, b, outcome.y < 0.5))
        value = partition_objective(W, rounded)
        if value > best:
            labels, best = rounded, value
        if outcome.bound <= best + 1e-9 * max(1.0, abs(best)):
            return labels, "bound"  # the LP bound proves the heuristic partition optimal
    lp_gave_up = outcome is not None and outcome.status == "budget"
    if (max_items is None or n <= max_items) and not (lp_gave_up and n > FULL_TRIANGLES):
        # (an LP out of budget leaves no rows to start from: only small components get all triangles)
        rows = outcome.rows if outcome is not None else None
        exact = _branch_and_bound(n, a, b, w, rows, best, node_limit, time_left)
        if exact is not None:
            return _canonical(exact), "ilp"
    return labels, "heuristic"


def solve_edges(n, a, b, w, max_items=None, time_limit=None, node_limit=NODE_LIMIT, lp_iterations=LP_ITERATIONS):
    """(labels, exact, counts) for n items whose scored pairs are (a_k, b_k) with weight w_k, every
    other pair weighing 0. `labels`: cluster id = index of the cluster's first item; `exact`: every
    positive component proved optimal; `counts`: components of 3 or more items by how they were
    solved (SOLVED_BY). Budgets per component: `lp_iterations` simplex iterations of the LP, then
    branch and bound for components of at most `max_items` items (None: any size) within
    `node_limit` nodes per solve. `time_limit` seconds (over the document) is an optional safety
    net, off (None) by default: when it is what stops a solve the outcome depends on the machine's
    speed and load, so a rerun would not reproduce its tables. max_items ≤ 0 never calls the
    exact solver: the greedy partition of the whole document, not exact (the paper's inference
    for 20 Newsgroups).
    """
    counts = dict.fromkeys(SOLVED_BY, 0)
    labels = np.arange(n, dtype=np.int64)
    a, b, w = _edges(n, a, b, w)
    if max_items is not None and max_items <= 0:
        return greedy_partition(_dense(n, a, b, w)), False, counts
    if n <= 1:
        return np.zeros(n, dtype=np.int64), True, counts
    pos = w > 0
    comp = _components(n, a[pos], b[pos])
    sizes = np.bincount(comp, minlength=1)
    if time_limit is None:
        time_left = None
    else:
        deadline = time.monotonic() + time_limit
        time_left = lambda: deadline - time.monotonic()  # noqa: E731
    inner = comp[a] == comp[b]  # edges inside a component (the others are cut in some optimum)
    order = np.flatnonzero(inner)
    order = order[np.argsort(comp[a[order]], kind="stable")]
    edge_off = np.searchsorted(comp[a[order]], np.arange(sizes.size + 1))
    exact = True
    for k in np.flatnonzero(sizes > 1):
        items = np.flatnonzero(comp == k)
        if items.size == 2:
            labels[items[1]] = items[0]  # one positive pair: together
            continue
        e = order[edge_off[k] : edge_off[k + 1]]
        local = np.full(n, -1, dtype=np.int64)
        local[items] = np.arange(items.size)
        part, how = _solve_component(
            items.size, local[a[e]], local[b[e]], w[e], max_items, node_limit, lp_iterations, time_left
        )
        counts[how] += 1
        exact &= how != "heuristic"
        labels[items] = items[part]
    return _canonical(labels), bool(exact), counts


def exact_partition(W, time_limit=None, max_items=None, node_limit=NODE_LIMIT, lp_iterations=LP_ITERATIONS):
    """Optimal partition of the dense weights W, or None when some positive component is not
    proved optimal within the budgets (`solve_edges`)."""
    labels, exact, _ = _solve_dense(W, max_items, time_limit, node_limit, lp_iterations)
    return labels if exact else None


def _solve_dense(W, max_items, time_limit, node_limit, lp_iterations):
    W = np.array(W, dtype=np.float64)
    n = W.shape[0]
    iu, ju = np.nonzero(np.triu(W != 0, 1))
    return solve_edges(n, iu, ju, W[iu, ju], max_items, time_limit, node_limit, lp_iterations)


def correlation_partition(W, max_items=40, time_limit=None, node_limit=NODE_LIMIT, lp_iterations=LP_ITERATIONS):
    """(labels, exact?) — the optimum when every positive component is proved optimal within the
    budgets (`solve_edges`), else the fallback on the components that are not (the caller counts
    and reports these)."""
    labels, exact, _ = _solve_dense(W, max_items, time_limit, node_limit, lp_iterations)
    return labels, exact
