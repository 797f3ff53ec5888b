"""Experiment pieces of Haponchyk & Moschitti (2017), Sec. 6: feature-space reduction, runs, tuning.

- `rank_features`: a binary mention-pair classifier (scikit-learn logistic regression by SGD, 10 epochs;
  positive = gold-coreferent pairs, negative = the other non-root candidate arcs) on the
  same hashed sparse features; features ranked by |weight| (ties by id). Features that
  occur only on root arcs are not pair features: they are always kept (reconstructed:
  without them every root arc would score 0 at small N).
- `reduce_store`: the arc store restricted to the top-N ranked features (`features/entry_filters.py`).
- `learning_run`: one learner in one feature space, scored on dev and test after every
  epoch (Fig. 3 curves and the best-dev-epoch test scores of Tables 2–4 from one job).
- `tune`: the paper's grid over C and r on a training sample, best dev MELA after T epochs.
- `singletons_params`: the response-singletons mode of a run (`coreflab.mela.mode`), one
  choice for both the scored responses and lsp_rho's learned loss, so Δ_ρ approximates
  the MELA that is reported.
"""

import json
import time

import numpy as np
import pandas as pd

from coreflab.decode.arcs import gold_arc_mask
from coreflab.errors import UserError
from coreflab.features.document_subsets import subsample_docs
from coreflab.features.entry_filters import (
    features_with_ids,
    features_with_ids_or_refs,
    relabel_in_place,
)
from coreflab.features.shared_rows import expand
from coreflab.features.store import ArcStore
from coreflab.learn.evaluation import score_model
from coreflab.learn.registry import make_learner

RUN_COLUMNS = ("learner", "n_features", "epoch", "split", "muc", "bcub", "ceafe", "mela", "seconds")


# Pair features the ranking classifier's design matrix may hold: 12 bytes each (an int32 column and a
# float64 one), so at most about 4.8 GB; above it the classifier sees whole training documents drawn
# in a seeded order until they fill it (at CoNLL-2012 size with predicted mentions its 1.05 billion
# entries would take 12.6 GB, the gold-mention run's 363 million fit whole)
MAX_DESIGN_ENTRIES = 400_000_000


def pair_columns(corpus, store, max_entries=MAX_DESIGN_ENTRIES, seed=0):
    """(indptr, indices, y, ids, root_only, used): the CSR rows and int32 column indices of
    `rank_features`' classifier, one row per non-root arc over the columns `ids` (the ids its features
    take, ascending), y = gold; root_only = the ids that occur on root arcs only; used = (documents,
    pairs) the rows cover. Nothing returned refers to the store, so a caller can drop it before
    `design_matrix` adds the data. A shared-row store is read through its rows, never expanded whole.

    Above `max_entries` pair features the rows are those of whole documents, taken in a random order
    fixed by `seed` while they fit; `ids` and `root_only` still cover every pair, so a feature of the
    left-out documents only is ranked last (weight 0) and never taken for a root-only one."""
    from coreflab.features.shared_rows import arc_lengths_of, ids_of_arcs, mark_ids

    ante = np.asarray(store.arc_ante)
    gold = gold_arc_mask(corpus, store)
    pair = np.flatnonzero(ante >= 0)
    if pair.size == 0:
        raise UserError("feature ranking needs candidate pairs (every document has one mention)")
    if gold[pair].min() == gold[pair].max():
        raise UserError("feature ranking needs both coreferent and non-coreferent pairs")
    offs, feats = np.asarray(store.arc_feat_offsets), np.asarray(store.arc_feats)
    occurs = np.zeros(1 << int(store.n_bits), dtype=bool)
    occurs[feats[feats >= 0]] = True  # every id is an arc's own entry or in a row some arc refers to
    present = mark_ids(offs, feats, pair, np.zeros_like(occurs))
    lengths = arc_lengths_of(offs, feats, pair)
    used = (int(store.n_docs), int(pair.size))
    if max_entries is not None and int(lengths.sum()) > max_entries:
        pair, lengths, used = _whole_documents_within(store, pair, lengths, max_entries, seed)
        if gold[pair].min() == gold[pair].max():
            raise UserError("feature ranking: the documents within its memory budget hold one kind of pair only")
    y = gold[pair].astype(np.int64)
    indptr, indices = ids_of_arcs(offs, feats, pair, lengths)
    ids = np.flatnonzero(present)
    relabel_in_place(indices, (np.cumsum(present) - 1).astype(np.int32))  # id -> column
    return indptr, indices, y, ids, np.flatnonzero(occurs & ~present), used


def _whole_documents_within(store, pair, lengths, max_entries, seed):
    """The pairs (in store order) and lengths of whole documents, drawn in a seeded order, whose pair
    features fit in max_entries; (documents, pairs) taken."""
    arc_of_mention = np.asarray(store.m_arc_offsets)
    mention = np.searchsorted(arc_of_mention, pair, side="right") - 1
    doc = np.searchsorted(np.asarray(store.doc_mention_offsets), mention, side="right") - 1
    per_doc = np.bincount(doc, weights=lengths, minlength=store.n_docs)
    taken = np.zeros(store.n_docs, dtype=bool)
    total = 0
    for d in np.random.default_rng(np.random.SeedSequence([seed, 0x4D])).permutation(store.n_docs):
        if total + per_doc[d] <= max_entries:
            taken[d] = True
            total += per_doc[d]
    keep = taken[doc]
    return pair[keep], lengths[keep], (int(taken.sum()), int(keep.sum()))


def design_matrix(indptr, indices, n_cols):
    """The classifier's CSR matrix (float64 ones, repeated columns of a row summed) over `pair_columns`' rows."""
    from scipy.sparse import csr_matrix

    X = csr_matrix((np.ones(indices.size), indices, indptr), shape=(indptr.size - 1, n_cols))
    X.sum_duplicates()
    return X


def pair_design(corpus, store, max_entries=MAX_DESIGN_ENTRIES, seed=0):
    """(X, y, ids, root_only): `pair_columns` with its design matrix."""
    indptr, indices, y, ids, root_only, _ = pair_columns(corpus, store, max_entries, seed)
    return design_matrix(indptr, indices, ids.size), y, ids, root_only


def rank_by_weight(X, y, ids, seed=0, alpha=1e-5):
    """(ids ranked by |weight| of a logistic-regression SGD classifier, ties by id; |weights| in that order)."""
    from sklearn.linear_model import SGDClassifier

    clf = SGDClassifier(loss="log_loss", alpha=alpha, max_iter=10, tol=None, random_state=seed).fit(X, y)
    mag = np.abs(clf.coef_.ravel())
    order = np.lexsort((ids, -mag))
    return ids[order].astype(np.int64), mag[order]


def rank_features(corpus, store, seed=0, alpha=1e-5, max_entries=MAX_DESIGN_ENTRIES):
    """(ranked pair feature ids, root-only feature ids, |weights| in ranked order)."""
    X, y, ids, root_only = pair_design(corpus, store, max_entries, seed)
    ranked, weight = rank_by_weight(X, y, ids, seed=seed, alpha=alpha)
    return ranked, root_only, weight  # flatnonzero's ids are int64 already


def n_features_grid(n_ranked, fractions):
    """N per fraction of the ranked pair features (1.0 or more = all), at least 1, sorted unique."""
    out = sorted({max(1, min(n_ranked, int(round(f * n_ranked)))) for f in fractions})
    return out


# A shared-row store whose flat form would pass this many bytes is reduced row by row instead of
# expanded first (which held it three times over: 11.3 GB at CoNLL-2012 size with predicted mentions);
# below it the reduced store is flat, the form every committed H&M run trained on
EXPAND_BUDGET_BYTES = 2 << 30


def reduce_store(store, keep_ids):
    """ArcStore with only the features in keep_ids (same arcs): a flat store, or above
    `EXPAND_BUDGET_BYTES` a shared-row store whose rows are cut like its arcs (the same ids in the
    same reading order per arc)."""
    keep = np.zeros(1 << int(store.n_bits), dtype=np.uint8)
    keep[np.asarray(keep_ids, dtype=np.int64)] = 1
    if getattr(store, "n_rows", 0) and _flat_bytes(store) > EXPAND_BUDGET_BYTES:
        offsets, feats = features_with_ids_or_refs(
            np.asarray(store.arc_feat_offsets), np.asarray(store.arc_feats), keep
        )
    else:
        store = expand(store)
        offsets, feats = features_with_ids(np.asarray(store.arc_feat_offsets), np.asarray(store.arc_feats), keep)
    return ArcStore(
        n_bits=store.n_bits,
        doc_mention_offsets=store.doc_mention_offsets,
        m_arc_offsets=store.m_arc_offsets,
        arc_ante=store.arc_ante,
        arc_feat_offsets=offsets,
        arc_feats=feats,
        templates=store.templates,
        unavailable=store.unavailable,
        window=store.window,
        meta=dict(store.meta, reduced=int(len(keep_ids))),
    )


def _flat_bytes(store):
    """Bytes of the flat form of a shared-row store's entries (4 per id, rows expanded)."""
    from coreflab.features.shared_rows import arc_lengths_of

    return 4 * int(arc_lengths_of(store.arc_feat_offsets, store.arc_feats, np.arange(store.n_arcs)).sum())


def keep_ids_for(ranking, n):
    """Top-n ranked pair features plus the root-only features; n <= 0 or None = all."""
    ranked, root_only = ranking
    top = ranked if not n or n <= 0 or n >= len(ranked) else ranked[:n]
    return np.union1d(top, root_only)


def singletons_params(name, params, choice, key_docs, corpus=None):
    """(params, keep): keep = response singletons kept (choice auto|keep|drop, auto = as the corpus
    recorded in its compiled split, else as key_docs);
    for lsp_rho, params gain keep_singletons = keep unless they set it explicitly."""
    from coreflab.mela.mode import parse_mode, resolve_keep_singletons

    keep = resolve_keep_singletons(choice, corpus=corpus, key_docs=key_docs)
    params = dict(params)
    if name == "lsp_rho" and parse_mode(params.get("keep_singletons", "auto")) is None:
        params["keep_singletons"] = keep
    return params, keep


def learning_run(name, params, train, evals, n_features, curve_rows=None, keep_singletons=None):
    """Fit `name`; after every epoch score each (split, corpus, store, key_docs) in evals.

    keep_singletons: singletons in the scored responses (None: as the compiled split records, else as the key).
    Returns a DataFrame with RUN_COLUMNS (percent scores).
    """
    rows = [] if curve_rows is None else curve_rows
    t0 = time.perf_counter()

    def callback(epoch, model):
        for split, corpus, store, key in evals:
            s = score_model(model, corpus, store, key, keep_singletons=keep_singletons)
            rows.append(
                (
                    name,
                    n_features,
                    epoch,
                    split,
                    100 * s.f1("muc"),
                    100 * s.f1("bcub"),
                    100 * s.f1("ceafe"),
                    s.mela,
                    round(time.perf_counter() - t0, 3),
                )
            )

    make_learner(name, params).fit(train, callback=callback)
    return pd.DataFrame(rows, columns=list(RUN_COLUMNS))


def tune(name, base_params, grid, train, dev, n_iter, keep_singletons=None):
    """Best parameters (dev MELA at the best epoch ≤ n_iter) over the grid of dicts; and all rows."""
    rows = []
    best = None
    for point in grid:
        params = dict(base_params, **point, n_iter=n_iter)
        df = learning_run(name, params, train, [dev], 0, keep_singletons=keep_singletons)
        i = int(df["mela"].to_numpy().argmax())
        row = dict(point, learner=name, mela=float(df["mela"].iloc[i]), epoch=int(df["epoch"].iloc[i]))
        rows.append(row)
        if best is None or row["mela"] > best["mela"] + 1e-12:
            best = row
    return best, rows


def dump_json(obj):
    return json.dumps(obj, indent=2, sort_keys=True) + "\n"


__all__ = [
    "RUN_COLUMNS",
    "rank_features",
    "n_features_grid",
    "reduce_store",
    "keep_ids_for",
    "learning_run",
    "tune",
    "subsample_docs",
    "singletons_params",
]


def load_ranking(path):
    from coreflab.errors import UserError

    try:
        with np.load(path, allow_pickle=False) as z:
            return z["ranked"], z["root_only"]
    except (OSError, KeyError, ValueError) as err:
        raise UserError(f"{path}: not a feature ranking from `coreflab hm2017 select` ({err})") from None
