"""Paired document-level significance tests on any corpus-level metric.

Both tests resample *documents*: each replicate sums per-document numerators and
denominators (CEAF alignments stay per document), then computes the micro-averaged metric,
so a replicate is exactly what the scorer would print for that multiset of documents. All
replicates are one matrix product (replicates x documents) @ (documents x counts).

- Paired bootstrap (Berg-Kirkpatrick, Burkett & Klein 2012, Sec. 2): draw the documents with
  replacement; the 95% interval is the percentile interval of the replicate differences and
  the p-value the share of replicates with |δ* - δ| >= |δ| (the two-sided version of their
  δ(x*) > 2δ(x) test), with the usual +1 smoothing.
- Approximate randomization (Noreen 1989): swap the two systems' outputs on each document
  with probability 1/2; p = (1 + #{|δ'| >= |δ|}) / (1 + samples).
"""

from dataclasses import dataclass

import numpy as np

from coreflab.metrics.scorer import MELA_METRICS, prf_from_sums

TESTS = ("bootstrap", "randomization")


def metric_value(per_doc, metric, weights):
    """Metric (percent) for each row of `weights` (replicates x documents)."""
    if metric == "mela":
        return sum(metric_value(per_doc, m, weights) for m in MELA_METRICS) / 3.0
    if metric == "mentions" or metric in per_doc:
        sums = weights @ per_doc[metric]
        return 100.0 * prf_from_sums(metric, sums)[2]
    raise ValueError(f"metric {metric!r} was not computed")


@dataclass
class PairedResult:
    metric: str
    test: str
    samples: int
    seed: int
    score_a: float
    score_b: float
    difference: float
    low: float
    high: float
    p_value: float


def paired_test(scores_a, scores_b, metric="mela", test="bootstrap", samples=10000, seed=0, chunk=1000):
    """Significance of score(A) - score(B) over the same key documents (same order)."""
    if test not in TESTS:
        raise ValueError(f"unknown test {test!r}; expected one of {TESTS}")
    if list(scores_a.doc_keys) != list(scores_b.doc_keys):
        raise ValueError("both systems must be scored against the same key documents")
    n_docs = len(scores_a.doc_keys)
    a, b = scores_a.per_doc, scores_b.per_doc
    ones = np.ones((1, n_docs))
    score_a = float(metric_value(a, metric, ones)[0])
    score_b = float(metric_value(b, metric, ones)[0])
    delta = score_a - score_b
    rng = np.random.default_rng(seed)  # bootstrap draws: same interval whichever test
    swap_rng = np.random.default_rng([seed, 1])
    boot, perm = [], []
    for start in range(0, samples, chunk):
        s = min(chunk, samples - start)
        idx = rng.integers(0, n_docs, size=(s, n_docs))
        flat = (np.arange(s)[:, None] * n_docs + idx).ravel()
        w = np.bincount(flat, minlength=s * n_docs).reshape(s, n_docs).astype(np.float64)
        boot.append(metric_value(a, metric, w) - metric_value(b, metric, w))
        if test == "randomization":
            swap = swap_rng.random((s, n_docs)) < 0.5
            keep = (~swap).astype(float)
            swp = swap.astype(float)
            va = _mixed(a, b, keep, swp, metric)
            vb = _mixed(b, a, keep, swp, metric)
            perm.append(va - vb)
    boot = np.concatenate(boot) if boot else np.zeros(0)
    low, high = np.percentile(boot, [2.5, 97.5]) if len(boot) else (delta, delta)
    if test == "bootstrap":
        extreme = np.abs(boot - delta) >= abs(delta) - 1e-12
    else:
        perm = np.concatenate(perm)
        extreme = np.abs(perm) >= abs(delta) - 1e-12
    p = (1.0 + float(extreme.sum())) / (1.0 + samples)
    return PairedResult(metric, test, samples, seed, score_a, score_b, delta, float(low), float(high), min(p, 1.0))


def _mixed(first, second, keep, swap, metric):
    """Metric of the system that takes `first`'s documents where keep=1, `second`'s where swap=1."""
    if metric == "mela":
        return sum(_mixed(first, second, keep, swap, m) for m in MELA_METRICS) / 3.0
    sums = keep @ first[metric] + swap @ second[metric]
    return 100.0 * prf_from_sums(metric, sums)[2]
