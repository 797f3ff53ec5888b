"""Training data of the MELA regressor (Haponchyk & Moschitti 2017, Sec. 4.3).

"We collected all the max-violating ŷ produced during LSP_F learning and associate them
with their correct MELA scores from the scorer ... we decided to run LSP_F on each
document separately to obtain more variability in ŷ's." (docs/methods.md, "Haponchyk & Moschitti 2017".)

Per document: a fresh zero model; up to `n_iter` epochs of LSP_F on that document alone;
every ĥ with Δ_F > 0 is one example (the run stops at the first epoch without a
violation: the next ĥ would be the same). The kernel records each example's clustering
and its nine features; the exact MELA comes from the project's scorer in one batched
`score_labels` call (one pseudo-document per example). Response singletons are kept or
dropped as in the scored responses of the corpus (`keep_singletons`, resolved from the
key by the caller, `coreflab.mela.mode`): the features and the labels use the same mode,
recorded in the column `keep_singletons` so that `hm2017 mela-fit` writes it into the
regressor. Two disjoint document samples S1, S2 are drawn with `seed`, so the table is
deterministic per seed.
"""

import numpy as np
import pandas as pd
from numba import njit

from coreflab.decode.arcs import gold_arc_mask
from coreflab.decode.best_first import best_first_doc
from coreflab.decode.featvec import acc_clear, add_arc_features
from coreflab.errors import UserError
from coreflab.learn.pa import Accumulator
from coreflab.learn.trees.lsp_kernels import arc_losses, doc_scores
from coreflab.mela.features import (
    FEATURE_NAMES,
    clustering_totals,
    compact_gold,
    features_from_totals,
    gold_constants,
    key_labels,
)

COLUMNS = (
    ("sample", "doc", "doc_id", "epoch", "n_mentions")
    + FEATURE_NAMES
    + ("muc", "bcub", "ceafe", "mela", "keep_singletons")
)


@njit(cache=True)
def _count_capacity(docs, doc_mention_offsets, n_iter):
    total = 0
    for d in docs:
        total += (doc_mention_offsets[d + 1] - doc_mention_offsets[d]) * n_iter
    return total


@njit(cache=True)
def generate_examples(
    docs,
    n_iter,
    C,
    w,
    acc,
    mark,
    touched,
    arc_feat_offsets,
    arc_feats,
    doc_mention_offsets,
    m_arc_offsets,
    arc_ante,
    arc_gold,
    arc_loss,
    m_cluster,
    min_size,
    ex_doc,
    ex_epoch,
    ex_off,
    ex_label,
    ex_feat,
):
    """Run per-document LSP_F; returns the number of examples written (features in min_size's mode)."""
    max_arcs = 1
    max_n = 1
    for d in docs:
        lo, hi = doc_mention_offsets[d], doc_mention_offsets[d + 1]
        max_arcs = max(max_arcs, m_arc_offsets[hi] - m_arc_offsets[lo])
        max_n = max(max_n, hi - lo)
    scores = np.empty(max_arcs)
    pred = np.empty(max_n, dtype=np.int64)
    gold = np.empty(max_n, dtype=np.int64)
    lab = np.empty(max_n, dtype=np.int64)
    dummy = np.zeros(1)
    ne = 0
    pos = 0
    ex_off[0] = 0
    for d in docs:
        lo, hi = doc_mention_offsets[d], doc_mention_offsets[d + 1]
        n = hi - lo
        s_off = m_arc_offsets[lo]
        g, gsize, K = compact_gold(m_cluster[lo:hi])
        G, K = gold_constants(g, gsize, K)
        for epoch in range(1, n_iter + 1):
            doc_scores(w, arc_feat_offsets, arc_feats, s_off, m_arc_offsets[hi], scores)
            best_first_doc(scores, s_off, m_arc_offsets, lo, hi, arc_gold, True, dummy, 0.0, False, gold)
            best_first_doc(scores, s_off, m_arc_offsets, lo, hi, arc_gold, False, arc_loss, C, True, pred)
            violated = False
            for i in range(n):
                if arc_gold[pred[i]] == 0:
                    violated = True
            if not violated:
                break
            for i in range(n):
                x = arc_ante[pred[i]]
                lab[i] = i if x < 0 else lab[x]
                ex_label[pos + i] = lab[i]
            T = clustering_totals(g, gsize, K, lab[:n], min_size)
            features_from_totals(T, float(G), float(K), ex_feat[ne])
            ex_doc[ne] = d
            ex_epoch[ne] = epoch
            pos += n
            ne += 1
            ex_off[ne] = pos
            nt = 0
            for i in range(n):
                if pred[i] != gold[i]:
                    nt = add_arc_features(gold[i], 1.0, arc_feat_offsets, arc_feats, acc, mark, touched, nt)
                    nt = add_arc_features(pred[i], -1.0, arc_feat_offsets, arc_feats, acc, mark, touched, nt)
            for t in range(nt):
                w[touched[t]] += acc[touched[t]]
            acc_clear(acc, mark, touched, nt)
        # fresh model for the next document: zero every weight this document could touch
        for e in range(arc_feat_offsets[m_arc_offsets[lo]], arc_feat_offsets[m_arc_offsets[hi]]):
            f = arc_feats[e]
            if f < 0:  # a shared row (`shared_rows.py`)
                for e2 in range(arc_feat_offsets[-1 - f], arc_feat_offsets[-f]):
                    w[arc_feats[e2]] = 0.0
            else:
                w[f] = 0.0
    return ne


def sample_documents(n_docs, per_sample, n_samples=2, seed=0):
    """Disjoint document samples (lists of indices), `per_sample` each, scaled down to fit."""
    if n_docs < n_samples:
        raise UserError(f"need at least {n_samples} documents for {n_samples} disjoint samples, have {n_docs}")
    k = min(int(per_sample), n_docs // n_samples)
    perm = np.random.default_rng(seed).permutation(n_docs)
    return [np.sort(perm[i * k : (i + 1) * k]) for i in range(n_samples)]


def regressor_examples(corpus, store, docs, n_iter=50, C=1.0, r=1.0, keep_singletons=False, with_labels=False):
    """DataFrame (without `sample`) of per-document LSP_F runs on docs.

    keep_singletons: whether scored responses keep singleton clusters (features and
    labels alike). with_labels: also return each example's clustering (a cluster label per
    mention of its document, the label being the index of the cluster's first mention).
    """
    from coreflab.mela.features import min_cluster_size, response_labels_for_scorer
    from coreflab.metrics.scorer import score_labels

    keep = bool(keep_singletons)

    docs = np.asarray(docs, dtype=np.int64)
    offs = np.asarray(store.doc_mention_offsets, dtype=np.int64)
    m_off = np.asarray(store.m_arc_offsets, dtype=np.int64)
    ante = np.asarray(store.arc_ante, dtype=np.int32)
    m_cluster = key_labels(corpus)  # twinless predicted mentions are off the key, as for the scorer
    arc_gold = gold_arc_mask(corpus, store)
    loss = arc_losses("f", arc_gold, ante, m_off, float(r))
    cap_ex = max(1, len(docs) * int(n_iter))
    cap = max(1, int(_count_capacity(docs, offs, int(n_iter))))
    ex_doc = np.zeros(cap_ex, dtype=np.int64)
    ex_epoch = np.zeros(cap_ex, dtype=np.int64)
    ex_off = np.zeros(cap_ex + 1, dtype=np.int64)
    ex_label = np.zeros(cap, dtype=np.int64)
    ex_feat = np.zeros((cap_ex, 9))
    acc = Accumulator(store.n_bits)
    w = np.zeros(1 << int(store.n_bits))
    ne = generate_examples(
        docs,
        int(n_iter),
        float(C),
        w,
        acc.acc,
        acc.mark,
        acc.touched,
        store.arc_feat_offsets,
        store.arc_feats,
        offs,
        m_off,
        ante,
        arc_gold,
        loss,
        m_cluster,
        min_cluster_size(keep),
        ex_doc,
        ex_epoch,
        ex_off,
        ex_label,
        ex_feat,
    )
    ex_doc, ex_epoch, ex_feat = ex_doc[:ne], ex_epoch[:ne], ex_feat[:ne]
    sizes = offs[ex_doc + 1] - offs[ex_doc]
    index = np.repeat(np.arange(ne), sizes)
    key = np.concatenate([m_cluster[offs[d] : offs[d + 1]] for d in ex_doc]) if ne else np.zeros(0, np.int64)
    resp = (
        np.concatenate([response_labels_for_scorer(ex_label[ex_off[e] : ex_off[e + 1]], keep) for e in range(ne)])
        if ne
        else np.zeros(0, np.int64)
    )
    table = {"doc": ex_doc, "doc_id": [corpus.doc_ids[d] for d in ex_doc], "epoch": ex_epoch, "n_mentions": sizes}
    for i, name in enumerate(FEATURE_NAMES):
        table[name] = ex_feat[:, i]
    if ne:
        scores = score_labels(key, resp, doc_index=index, metrics=("muc", "bcub", "ceafe"))
        f1 = {m: 100.0 * np.asarray(_per_doc_f1(scores, m)) for m in ("muc", "bcub", "ceafe")}
    else:
        f1 = {m: np.zeros(0) for m in ("muc", "bcub", "ceafe")}
    table.update(f1)
    table["mela"] = (f1["muc"] + f1["bcub"] + f1["ceafe"]) / 3.0
    table["keep_singletons"] = np.full(ne, int(keep), dtype=np.int64)
    if with_labels:
        return pd.DataFrame(table), [ex_label[ex_off[e] : ex_off[e + 1]].copy() for e in range(ne)]
    return pd.DataFrame(table)


def _per_doc_f1(scores, metric):
    from coreflab.metrics.scorer import prf_from_sums

    return prf_from_sums(metric, scores.per_doc[metric])[2]


def regressor_table(corpus, store, per_sample=100, n_iter=50, C=1.0, r=1.0, seed=0, keep_singletons=False):
    """The full table: two disjoint samples S1, S2 (column `sample` = 1 or 2), COLUMNS order."""
    samples = sample_documents(store.n_docs, per_sample, 2, seed)
    frames = []
    for i, docs in enumerate(samples, start=1):
        df = regressor_examples(corpus, store, docs, n_iter=n_iter, C=C, r=r, keep_singletons=keep_singletons)
        df.insert(0, "sample", i)
        frames.append(df)
    return pd.concat(frames, ignore_index=True)[list(COLUMNS)]


__all__ = ["COLUMNS", "generate_examples", "sample_documents", "regressor_examples", "regressor_table"]


def read_data(path):
    try:
        df = pd.read_csv(path)
    except (OSError, ValueError) as err:
        raise UserError(f"{path}: not a readable CSV ({err})") from None
    missing = [c for c in COLUMNS if c not in df.columns]
    if missing:
        raise UserError(
            f"{path}: line 1: missing column(s) {', '.join(missing)} (expected `coreflab hm2017 mela-data` output)"
        )
    return df


def data_mode(df, path):
    """The one response-singletons mode of a hm2017 mela-data table (True: kept)."""
    modes = sorted(set(int(x) for x in df["keep_singletons"]))
    if len(modes) > 1 or (modes and modes[0] not in (0, 1)):
        raise UserError(f"{path}: column keep_singletons must hold one value, 0 or 1 (found {modes})")
    return bool(modes and modes[0])
