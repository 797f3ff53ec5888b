"""Pairwise link scores (Choi & Cardie 2007) and Variation of Information (Meila 2007).

Both compare two labelings of the *same* items and are computed from the contingency
table of the two labelings (cluster sizes and overlap sizes), never by enumerating pairs:
a pair is linked in A iff both items share an A label, so linked pairs = Σ C(|A_i|, 2) and
pairs linked in both = Σ C(n_ij, 2).

Choi & Cardie (2007, Sec. 5) report pairwise precision/recall/F over coreference links and
the pairwise error rate (the fraction of item pairs whose link decision is wrong). Samdani,
Chang & Roth (2014, Table 2) score document clustering with VI (lower is better).
"""

import numpy as np


def _labels(a):
    """Negative labels mean 'unclustered': each such item is its own singleton."""
    a = np.asarray(a, dtype=np.int64).copy()
    neg = a < 0
    if neg.any():
        a[neg] = a.max(initial=0) + 1 + np.arange(int(neg.sum()))
    return a


def _contingency(a, b):
    _, ia = np.unique(a, return_inverse=True)
    _, ib = np.unique(b, return_inverse=True)
    ia, ib = ia.ravel(), ib.ravel()
    code = ia * (ib.max(initial=0) + 1) + ib
    _, n = np.unique(code, return_counts=True)
    return np.bincount(ia).astype(float), np.bincount(ib).astype(float), n.astype(float)


def _pairs(x):
    return x * (x - 1) / 2.0


def pairwise_scores(key_labels, response_labels, doc_index=None):
    """Pairwise link precision, recall, F1 and error rate (fractions) over item pairs.

    key_labels, response_labels: one cluster label per item (same items, same order);
    doc_index: document of each item (pairs are only formed within a document).
    Returns a dict with the counts (key_links, response_links, correct_links, pairs) too.
    """
    a = _labels(key_labels)
    b = _labels(response_labels)
    if len(a) != len(b):
        raise ValueError("both labelings must label the same items")
    if doc_index is not None:
        d = np.asarray(doc_index, dtype=np.int64)
        width = int(max(a.max(initial=0), b.max(initial=0))) + 1
        a, b = d * width + a, d * width + b
        pairs = float(_pairs(np.bincount(d).astype(float)).sum())
    else:
        pairs = float(_pairs(float(len(a))))
    ka, kb, n = _contingency(a, b)
    key_links = float(_pairs(ka).sum())
    response_links = float(_pairs(kb).sum())
    correct = float(_pairs(n).sum())
    precision = correct / response_links if response_links else 0.0
    recall = correct / key_links if key_links else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    errors = key_links + response_links - 2 * correct
    return {
        "precision": precision,
        "recall": recall,
        "f1": f1,
        "error_rate": errors / pairs if pairs else 0.0,
        "key_links": key_links,
        "response_links": response_links,
        "correct_links": correct,
        "pairs": pairs,
    }


def variation_of_information(labels_a, labels_b, base=np.e):
    """VI(A, B) = H(A|B) + H(B|A) (Meila 2007), in units of log `base` (default nats)."""
    a = _labels(labels_a)
    b = _labels(labels_b)
    if len(a) != len(b):
        raise ValueError("both labelings must label the same items")
    if len(a) == 0:
        return 0.0
    ka, kb, n = _contingency(a, b)
    total = float(len(a))

    def entropy(counts):
        p = counts / total
        return float(-(p * np.log(p)).sum())

    pn = n / total
    h_joint = float(-(pn * np.log(pn)).sum())
    vi = 2 * h_joint - entropy(ka) - entropy(kb)
    return max(vi, 0.0) / np.log(base)
