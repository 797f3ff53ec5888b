"""Order control (Samdani et al. 2014, Sec. 5): process items in a shuffled order, features unchanged.

The left-link models see items left to right; the paper asks how much of their accuracy
comes from the natural order. `shuffled_data` permutes the mentions of every document and
rebuilds the arc store so that each pair {a, b} keeps exactly the features it had in text
order (those of the arc from the later mention to the earlier one), and each mention keeps
its root-arc features. With a window (and string-matched candidates beyond it), the
candidate pairs are those of the text order. A shared-row store stays one: the arcs are
reordered and the rows kept, so a CoNLL-size training store is copied once, never expanded.
"""

from types import SimpleNamespace

import numpy as np

from coreflab.errors import UserError
from coreflab.features.shared_rows import arcs_in_order
from coreflab.learn.base import TrainingData, as_training_data


def _arc_keys(store):
    """Sorted lookup keys of the store's arcs: row * stride + (antecedent + 1).

    The stores coreflab builds list, per mention, the dummy and then its candidates in
    ascending order (every earlier mention, the last `window` ones, or those plus the
    string-matched mentions beyond the window), so the keys are strictly increasing and
    a pair's arc is found by binary search. Any other layout is refused.
    """
    doc_off = np.asarray(store.doc_mention_offsets, dtype=np.int64)
    m_arc = np.asarray(store.m_arc_offsets, dtype=np.int64)
    ante = np.asarray(store.arc_ante, dtype=np.int64)
    k = np.diff(m_arc) - 1
    stride = int(np.diff(doc_off).max(initial=0)) + 1
    rows = np.repeat(np.arange(m_arc.size - 1, dtype=np.int64), k + 1)
    local = rows - np.repeat(doc_off[:-1], np.diff(doc_off))[rows] if rows.size else rows
    keys = rows * stride + ante + 1
    first = m_arc[:-1][k >= 0]
    if (
        (k < 0).any()
        or (ante[first] != -1).any()
        or (ante >= local).any()
        or (ante < -1).any()
        or (keys.size and (np.diff(keys) <= 0).any())
    ):
        raise UserError(
            "order control needs an arc store whose candidates are earlier mentions of the "
            "same document, the dummy first and then in ascending order"
        )
    return keys, stride


def shuffled_data(data, seed):
    """TrainingData with mentions permuted within documents; returns (data, new_to_old row map).

    With a window, pair {a, b} is a candidate in the shuffled order iff it was one in text
    order (|a − b| ≤ window): the candidate pairs and their features stay the same, only
    the order in which items arrive changes.
    """
    data = as_training_data(data)
    store = data.store
    keys, stride = _arc_keys(store)
    rng = np.random.default_rng(seed)
    doc_off = np.asarray(store.doc_mention_offsets, dtype=np.int64)
    m_arc = np.asarray(store.m_arc_offsets, dtype=np.int64)
    new_to_old = np.concatenate([lo + rng.permutation(hi - lo) for lo, hi in zip(doc_off[:-1], doc_off[1:])]).astype(
        np.int64
    )
    src_arcs, antes, counts = [], [], []
    for d in range(len(doc_off) - 1):
        lo, hi = doc_off[d], doc_off[d + 1]
        perm = new_to_old[lo:hi] - lo  # original local index at each new position
        n = hi - lo
        for p in range(n):  # one vectorised row per item: O(items) Python steps, not O(arcs)
            a = perm[p]
            b = perm[:p]
            later = np.maximum(a, b)
            earlier = np.minimum(a, b)
            query = (lo + later) * stride + earlier + 1
            pos = np.minimum(np.searchsorted(keys, query), keys.size - 1)
            keep = keys[pos] == query  # the pair was a candidate in text order
            pair_arcs = pos[keep]
            src_arcs.append(np.concatenate([[m_arc[lo + a]], pair_arcs]))
            antes.append(np.concatenate([[-1], np.flatnonzero(keep)]))
            counts.append(1 + pair_arcs.size)
    m_arc_new = np.zeros(new_to_old.size + 1, dtype=np.int64)
    np.cumsum(np.asarray(counts, dtype=np.int64), out=m_arc_new[1:])
    src = np.concatenate(src_arcs).astype(np.int64)  # every arc once: the candidate pairs are unchanged
    foff = np.asarray(store.arc_feat_offsets, dtype=np.int64)
    new_foff, feats = arcs_in_order(foff, store.arc_feats, src)
    vals = getattr(store, "arc_vals", None)
    new_store = SimpleNamespace(
        n_bits=store.n_bits,
        doc_mention_offsets=doc_off,
        m_arc_offsets=m_arc_new,
        arc_ante=np.concatenate(antes).astype(np.int32),
        arc_feat_offsets=new_foff,
        arc_feats=feats,
        n_rows=int(new_foff.shape[0] - 1 - src.size),
        arc_vals=None if vals is None else arcs_in_order(foff, vals, src)[1],
    )
    corpus = SimpleNamespace(
        m_cluster=np.asarray(data.corpus.m_cluster)[new_to_old],
        arrays={"doc_mention_offsets": doc_off},
        n_mentions=int(new_to_old.size),
    )
    return TrainingData(corpus, new_store), new_to_old
