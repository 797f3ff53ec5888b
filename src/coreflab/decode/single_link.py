"""Single-link clustering and Kruskal's algorithm over mention pairs (numba union-find), shared by
the C&C 2007 E-steps (coreflab.learn.pairwise.slt_estep) and spanning-forest decoding."""

import numpy as np
from numba import njit
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components


@njit(cache=True)
def find(parent, x):
    root = x
    while parent[root] != root:
        root = parent[root]
    while parent[x] != root:
        nxt = parent[x]
        parent[x] = root
        x = nxt
    return root


@njit(cache=True)
def kruskal(n_nodes, ante, ana, seeded, order):
    """Union the seeded pairs, then add pairs in `order` that join two components."""
    parent = np.arange(n_nodes)
    chosen = seeded.copy()
    for p in range(ante.shape[0]):
        if seeded[p]:
            a, b = find(parent, ante[p]), find(parent, ana[p])
            if a != b:
                parent[a] = b
    for k in range(order.shape[0]):
        p = order[k]
        a, b = find(parent, ante[p]), find(parent, ana[p])
        if a != b:
            parent[a] = b
            chosen[p] = True
    return chosen


def single_link(n_mentions, ante, ana, positive):
    """Cluster id per mention row: connected components of the positive pairs."""
    pos = np.flatnonzero(positive)
    graph = coo_matrix((np.ones(pos.size, dtype=np.int8), (ante[pos], ana[pos])), shape=(n_mentions, n_mentions))
    _, labels = connected_components(graph, directed=False)
    return labels
