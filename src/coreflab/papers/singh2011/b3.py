"""B3 (Bagga & Baldwin 1998) over flat cluster-id arrays, vectorised.

Singh et al. (2011) report B3 P/R/F1 over all mentions (§5). With one predicted and one gold
label per mention, B3 precision = (1/N) Σ_cells n_pg² / n_p and recall = (1/N) Σ_cells n_pg² / n_g,
where n_pg counts mentions in predicted cluster p and gold cluster g. This is the fast path
for cross-document clustering (O(N log N), no Python loop per mention); it equals
`coreflab.metrics`' B3 on the same clusters when every mention is in both key and response.
"""

import numpy as np


def b3_scores(pred, gold):
    """(precision, recall, F1) of predicted labels `pred` against `gold` labels (same length)."""
    pred = np.asarray(pred)
    gold = np.asarray(gold)
    if pred.shape != gold.shape:
        raise ValueError("pred and gold must have one label per mention")
    n = len(pred)
    if n == 0:
        return 0.0, 0.0, 0.0
    _, p = np.unique(pred, return_inverse=True)
    _, g = np.unique(gold, return_inverse=True)
    n_p = np.bincount(p)
    n_g = np.bincount(g)
    cell = p.astype(np.int64) * (g.max() + 1) + g
    cells, counts = np.unique(cell, return_counts=True)
    cp, cg = cells // (g.max() + 1), cells % (g.max() + 1)
    sq = counts.astype(np.float64) ** 2
    precision = float(np.sum(sq / n_p[cp]) / n)
    recall = float(np.sum(sq / n_g[cg]) / n)
    f1 = 0.0 if precision + recall == 0 else 2 * precision * recall / (precision + recall)
    return precision, recall, f1


def b3_per_mention(pred, gold):
    """(precision, recall) of every mention: |C_m ∩ G_m| / |C_m| and / |G_m|, with C_m, G_m the
    predicted and gold clusters of m; B3 P and R are their means (`b3_scores`)."""
    pred, gold = np.asarray(pred), np.asarray(gold)
    _, p = np.unique(pred, return_inverse=True)
    _, g = np.unique(gold, return_inverse=True)
    cell = p.astype(np.int64) * (int(g.max(initial=0)) + 1) + g
    _, c, counts = np.unique(cell, return_inverse=True, return_counts=True)
    both = counts[c].astype(np.float64)
    return both / np.bincount(p)[p], both / np.bincount(g)[g]


def paired_bootstrap_b3(pred_a, pred_b, gold, doc, samples=10000, seed=0):
    """B3 F1 of A minus B with a paired bootstrap over documents (Berg-Kirkpatrick et al. 2012, as the
    leaderboard's test): each replicate draws the documents with replacement and re-averages the
    mentions' B3 precision and recall (the clusters stay those of the whole corpus: cross-document
    entities are not cut). Returns (difference, 95% low, 95% high, p), p two-sided with +1 smoothing."""
    _, d = np.unique(np.asarray(doc), return_inverse=True)
    n_docs = int(d.max(initial=-1)) + 1
    sums = []
    for pred in (pred_a, pred_b):
        prec, rec = b3_per_mention(pred, gold)
        sums.append((np.bincount(d, prec, n_docs), np.bincount(d, rec, n_docs)))
    count = np.bincount(d, minlength=n_docs).astype(np.float64)

    def f1(w):
        out = []
        for p_sum, r_sum in sums:
            n = w @ count
            p, r = (w @ p_sum) / n, (w @ r_sum) / n
            out.append(np.where(p + r > 0, 2 * p * r / np.where(p + r > 0, p + r, 1.0), 0.0))
        return 100.0 * (out[0] - out[1])

    delta = float(f1(np.ones((1, n_docs)))[0])
    rng = np.random.default_rng(seed)
    boot = []
    for start in range(0, samples, 1000):
        s = min(1000, samples - start)
        idx = rng.integers(0, n_docs, size=(s, n_docs))
        flat = (np.arange(s)[:, None] * n_docs + idx).ravel()
        boot.append(f1(np.bincount(flat, minlength=s * n_docs).reshape(s, n_docs).astype(np.float64)))
    boot = np.concatenate(boot)
    low, high = np.percentile(boot, [2.5, 97.5])
    p = (1.0 + float((np.abs(boot - delta) >= abs(delta) - 1e-12).sum())) / (1.0 + samples)
    return delta, float(low), float(high), min(p, 1.0)
