"""Cross-validated supervised clustering of posts with every left-link technique (L3M Table 2).

Item sets are split into folds (seeded); each technique is trained on the other folds and
scored on the held-out sets by Variation of Information (×100, lower is better) against
the author or the thread clustering, after 1 pass and after `passes` passes (one training
run: the per-epoch callback clusters the test sets). L3M's γ is tuned per fold on an
inner 80/20 split of that fold's own training sets (`tune_gamma`): a γ tuned once on
fold 0's training sets would have seen the test sets of every other fold.
"""

import numpy as np
import pandas as pd

from coreflab.learn.base import TrainingData
from coreflab.learn.clustering.corr_clustering import CorrClustering
from coreflab.learn.clustering.spanning_forest import SpanningForest
from coreflab.learn.leftlink.baselines import BinLeftLink, SumLink
from coreflab.learn.leftlink.l3m import L3M
from coreflab.metrics import variation_of_information
from coreflab.papers.l3m2014.newsgroups import cluster_ids
from coreflab.papers.l3m2014.pair_features import build_store, item_set_arcs

TECHNIQUES = ("corr_clustering", "spanning_forest", "sumlink", "binleftlink", "l3m_gamma0", "l3m")


def make_model(technique, gamma, epochs, seed, eta0, lam):
    common = {"epochs": epochs, "seed": seed, "eta0": eta0, "lam": lam}
    if technique == "corr_clustering":
        return CorrClustering(max_items=40, **common)
    if technique == "spanning_forest":
        return SpanningForest(**common)
    if technique == "sumlink":
        return SumLink(**common)
    if technique == "binleftlink":
        return BinLeftLink(**common)
    if technique == "l3m_gamma0":
        return L3M(gamma=0.0, **common)
    if technique == "l3m":
        return L3M(gamma=gamma, **common)
    raise ValueError(technique)


def mean_vi(model, data, sizes):
    """Mean VI ×100 over the item sets of data (labels are set-local in both clusterings)."""
    pred = model.predict_labels(data)
    gold = np.asarray(data.corpus.m_cluster)
    out, lo = [], 0
    for n in sizes:
        out.append(100.0 * variation_of_information(gold[lo : lo + n], pred[lo : lo + n]))
        lo += n
    return float(np.mean(out))


def _data(parts, labels, idx):
    corpus, store = build_store([parts[k] for k in idx], [labels[k] for k in idx])
    return TrainingData(corpus, store), [parts[k][0] for k in idx]


def tune_gamma(parts, labels, train_idx, gammas, seed, eta0, lam):
    """(γ, {γ: VI}): L3M's γ with the lowest VI on an inner 80/20 split of `train_idx` only.

    Called once per fold with that fold's training sets, so no fold's test sets inform
    the γ it is tested with. Ties go to the smaller γ.
    """
    train_idx = np.asarray(train_idx)
    cut = max(1, int(0.8 * len(train_idx)))
    if cut >= len(train_idx):
        raise ValueError("tuning γ needs at least two training item sets")
    inner_train, _ = _data(parts, labels, train_idx[:cut])
    inner_dev, inner_sizes = _data(parts, labels, train_idx[cut:])
    tuned = {
        g: mean_vi(L3M(gamma=g, epochs=1, seed=seed, eta0=eta0, lam=lam).fit(inner_train), inner_dev, inner_sizes)
        for g in gammas
    }
    return min(tuned, key=lambda g: (tuned[g], g)), tuned


def cross_validate(
    sets,
    vectorizer,
    key,
    folds=10,
    passes=5,
    gammas=(0.0, 0.2, 0.4, 0.6, 0.8, 1.0),
    seed=1,
    eta0=0.1,
    lam=1e-4,
    techniques=TECHNIQUES,
    shuffle_items=False,
    progress=None,
):
    """Tidy rows (technique, gamma, passes, fold, vi) of the CV experiment."""
    rng = np.random.default_rng(seed)
    orders = [rng.permutation(len(s)) if shuffle_items else None for s in sets]
    parts = [item_set_arcs(s, vectorizer, o) for s, o in zip(sets, orders)]
    labels = [cluster_ids(s if o is None else [s[k] for k in o], key) for s, o in zip(sets, orders)]
    fold_of = np.random.default_rng(seed).permutation(len(sets)) % folds
    rows, tuning = [], {}
    for fold in range(folds):
        gamma, tuning[fold] = tune_gamma(parts, labels, np.flatnonzero(fold_of != fold), gammas, seed, eta0, lam)
        train, _ = _data(parts, labels, np.flatnonzero(fold_of != fold))
        test, sizes = _data(parts, labels, np.flatnonzero(fold_of == fold))
        for technique in techniques:
            g = gamma if technique == "l3m" else (0.0 if technique == "l3m_gamma0" else float("nan"))

            def record(epoch, model, technique=technique, g=g):
                if epoch in (1, passes):
                    rows.append((technique, g, epoch, fold, mean_vi(model, test, sizes)))

            make_model(technique, gamma, passes, seed, eta0, lam).fit(train, callback=record)
            if progress is not None:
                progress.update(1)
    df = pd.DataFrame(rows, columns=["technique", "gamma", "passes", "fold", "vi"])
    df.attrs["gamma_tuning"] = tuning
    return df
