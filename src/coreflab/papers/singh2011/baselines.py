"""Baselines of Singh et al. (2011) Table 2: exact string match, and a scalable graph clustering.

Subsquare (Bshouty & Long 2010) is not available as a library; it "stochastically assigns a
vertex to the cluster of one of its neighbours" on the weighted mention-similarity graph, which
is what label propagation does, so the stand-in is networkx's `fast_label_propagation_communities`
(weighted, seeded) on the same similarity graph the model uses: edges m–n with potential
φ(m,n) = cos(m,n) + w·STREQ(m,n) − b > 0, among each mention's `k` most similar mentions
(found with chunked sparse products, so the graph is never quadratic).

Both have a within-topic variant for ECB+ (`blocks` = topic per mention): string clusters are
split by topic, and the graph has no edge between topics.
"""

import numpy as np
import scipy.sparse as sp


def string_match_labels(corpus, blocks=None):
    """One entity per exact mention string (per string and topic with `blocks`)."""
    if blocks is None:
        return corpus.strings.copy()
    key = np.stack([np.asarray(blocks, dtype=np.int64), corpus.strings], axis=1)
    return np.unique(key, axis=0, return_inverse=True)[1].reshape(-1).astype(np.int64)


def similarity_graph(corpus, bias, string_weight, k=10, chunk=2000, blocks=None):
    """The k-nearest-neighbour graph with positive model potentials (symmetric CSR, weights φ);
    with `blocks`, neighbours are searched only within a mention's own block (topic)."""
    X = corpus.X.tocsr()
    n = X.shape[0]
    rows, cols, vals = [], [], []
    XT = X.T.tocsc()
    for start in range(0, n, chunk):
        stop = min(n, start + chunk)
        sim = (X[start:stop] @ XT).toarray()
        same = corpus.strings[start:stop, None] == corpus.strings[None, :]
        sim += string_weight * same
        if blocks is not None:
            sim[np.asarray(blocks)[start:stop, None] != np.asarray(blocks)[None, :]] = -np.inf
        sim[np.arange(stop - start), np.arange(start, stop)] = -np.inf
        kk = min(k, n - 1)
        if kk <= 0:
            continue
        top = np.argpartition(-sim, kk - 1, axis=1)[:, :kk]
        w = np.take_along_axis(sim, top, axis=1) - bias
        keep = w > 0
        r = np.repeat(np.arange(start, stop), kk).reshape(-1, kk)
        rows.append(r[keep])
        cols.append(top[keep])
        vals.append(w[keep])
    if not rows:
        return sp.csr_matrix((n, n))
    G = sp.csr_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))), shape=(n, n))
    return G.maximum(G.T).tocsr()


def label_propagation_labels(corpus, bias, string_weight, k=10, seed=1, blocks=None):
    """Communities of networkx's fast label propagation on `similarity_graph` (Subsquare stand-in)."""
    import networkx as nx

    G = similarity_graph(corpus, bias, string_weight, k=k, blocks=blocks)
    graph = nx.from_scipy_sparse_array(G)
    labels = len(corpus) + np.arange(len(corpus), dtype=np.int64)
    communities = nx.community.fast_label_propagation_communities(graph, weight="weight", seed=seed)
    for cid, members in enumerate(sorted((sorted(c) for c in communities), key=lambda c: c[0])):
        labels[members] = cid
    # isolated vertices keep their own label (ids above every community id)
    return np.unique(labels, return_inverse=True)[1]
