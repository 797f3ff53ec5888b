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

from collections import namedtuple

import numpy as np
import pandas as pd
from numba import njit

from coreflab.decode.arcs import arc_arrays, doc_rows, gold_arc_mask, max_doc_sizes
from coreflab.decode.featvec import acc_clear, add_arc_delta
from coreflab.errors import UserError
from coreflab.features.shared_rows import row_span
from coreflab.learn.pa import Accumulator
from coreflab.learn.trees.lsp_kernels import arc_loss_spec, arc_losses, max_violating_doc
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


Examples = namedtuple("Examples", ["doc", "epoch", "off", "label", "feat"])
Examples.__doc__ = """Per example: its document and epoch, the offset of its labels (one per mention), and its
nine features."""


@njit(cache=True)
def _count_capacity(docs, doc_mention_offsets, n_iter):
    total = 0
    for d in docs:
        total += (doc_mention_offsets[d + 1] - doc_mention_offsets[d]) * n_iter
    return total


@njit(cache=True)
def _perceptron_step(w, acc, nt):
    """w += Δ (unaveraged: the model only produces the next ĥ), then the accumulator cleared."""
    sums, _, touched = acc
    for t in range(nt):
        w[touched[t]] += sums[touched[t]]
    acc_clear(acc, nt)


@njit(cache=True)
def _zero_doc_weights(w, arcs, lo, hi):
    """A fresh model for the next document: zero every weight rows lo..hi's arcs could touch."""
    offs, feats = arcs.arc_feat_offsets, arcs.arc_feats
    for e in range(offs[arcs.m_arc_offsets[lo]], offs[arcs.m_arc_offsets[hi]]):
        f = feats[e]
        if f < 0:  # a shared row (`shared_rows.py`)
            e0, e1 = row_span(offs, f)
            for e2 in range(e0, e1):
                w[feats[e2]] = 0.0
        else:
            w[f] = 0.0


@njit(cache=True)
def generate_examples(docs, n_iter, w, arcs, m_cluster, loss, acc, ex):
    """Run per-document LSP_F; returns the number of examples written (features in loss.min_size's mode).

    Each epoch's ĥ is LSP_F's (`lsp_kernels.max_violating_doc` with the factorised loss)."""
    max_arcs, max_n = max_doc_sizes(arcs)
    scores = np.empty(max_arcs)
    pred = np.empty(max_n, dtype=np.int64)
    gold = np.empty(max_n, dtype=np.int64)
    lab = np.empty(max_n, dtype=np.int64)
    stats = np.zeros(4)
    ne = 0
    pos = 0
    ex.off[0] = 0
    for d in docs:
        lo, hi = doc_rows(arcs, d)
        n = hi - lo
        g, gsize, K = compact_gold(m_cluster[lo:hi])
        G, K = gold_constants(g, gsize, K)
        for epoch in range(1, n_iter + 1):
            if not max_violating_doc(d, w, arcs, m_cluster, loss, scores, pred, gold, stats):
                break
            for i in range(n):
                x = arcs.arc_ante[pred[i]]
                lab[i] = i if x < 0 else lab[x]
                ex.label[pos + i] = lab[i]
            T = clustering_totals(g, gsize, K, lab[:n], loss.min_size)
            features_from_totals(T, float(G), float(K), ex.feat[ne])
            ex.doc[ne] = d
            ex.epoch[ne] = epoch
            pos += n
            ne += 1
            ex.off[ne] = pos
            _perceptron_step(w, acc, add_arc_delta(gold, pred, n, arcs, acc, 0))
        _zero_doc_weights(w, arcs, lo, hi)
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
    acc = Accumulator(store.n_bits).arrays()
    w = np.zeros(1 << int(store.n_bits))
    ex = Examples(ex_doc, ex_epoch, ex_off, ex_label, ex_feat)
    arcs = arc_arrays(store, arc_gold, loss)
    spec = arc_loss_spec(C, min_cluster_size(keep))
    ne = generate_examples(docs, int(n_iter), w, arcs, m_cluster, spec, acc, ex)
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
