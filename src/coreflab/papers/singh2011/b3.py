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
