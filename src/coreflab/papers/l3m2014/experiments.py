"""The studies of Samdani, Chang & Roth 2014 beside Table 1: learning curves over a (λ, η0) grid,
robustness to the initialisation, CCCP vs SGD on the training objective, and the mention-order
control. Each takes the settings of `coreflab l3m2014 <study>` (an argparse namespace: gamma, lam,
eta0, passes, runs, docs, techniques, seed, ...) and returns the study's rows as a DataFrame."""

import json
import time

import numpy as np
import pandas as pd

from coreflab.corpus.readers.conll import read_conll_path
from coreflab.errors import UserError
from coreflab.features.shared_rows import expand
from coreflab.learn.base import TrainingData, as_training_data
from coreflab.learn.evaluation import avg_row, score_model
from coreflab.learn.io import load_split
from coreflab.learn.leftlink.l3m import L3M
from coreflab.learn.leftlink.l3m_cccp import train_cccp
from coreflab.learn.registry import make_learner
from coreflab.papers.l3m2014.order_control import shuffled_data


def first_documents(data, n_docs):
    """The first n documents of a split (corpus arrays and store sliced consistently)."""
    from types import SimpleNamespace

    s = expand(data.store)
    doc_off = np.asarray(s.doc_mention_offsets)[: n_docs + 1]
    m_hi = int(doc_off[-1])
    arc_hi = int(s.m_arc_offsets[m_hi])
    f_hi = int(s.arc_feat_offsets[arc_hi])
    store = SimpleNamespace(
        n_bits=s.n_bits,
        doc_mention_offsets=doc_off,
        m_arc_offsets=np.asarray(s.m_arc_offsets)[: m_hi + 1],
        arc_ante=np.asarray(s.arc_ante)[:arc_hi],
        arc_feat_offsets=np.asarray(s.arc_feat_offsets)[: arc_hi + 1],
        arc_feats=np.asarray(s.arc_feats)[:f_hi],
    )
    corpus = SimpleNamespace(
        m_cluster=np.asarray(data.corpus.m_cluster)[:m_hi], arrays={"doc_mention_offsets": doc_off}
    )
    return TrainingData(corpus, store)


def robustness(args, train, test, key, train_key):
    """One row per run: training-split scores (the paper's measure) and test scores (`test …`).

    Every run sees the documents in the same order (`seed`); only the N(0, 1) initial
    weights differ (`init_seed`), so the spread is that of the initialisation alone.
    """
    rows = []

    def row(run, model):
        out = {"run": run, **avg_row(score_model(model, train.corpus, train.store, train_key))}
        out.update({f"test {m}": v for m, v in avg_row(score_model(model, test.corpus, test.store, key)).items()})
        return out

    common = dict(gamma=args.gamma, lam=args.lam, eta0=args.eta0, epochs=1, seed=args.seed)
    for run in range(args.runs):
        rows.append(row(run, L3M(init="normal", init_seed=args.seed + 1000 + run, **common).fit(train)))
    rows.append(row("zero-init", L3M(**common).fit(train)))
    return pd.DataFrame(rows)


def cccp_vs_sgd(args, train):
    small = first_documents(train, args.docs)
    rows = []
    w, history = train_cccp(small, gamma=args.gamma, lam=args.lam, outer=args.passes)  # document weighting, as L3M
    for k, (secs, obj) in enumerate(history):
        rows.append({"method": "CCCP", "step": k, "seconds": secs, "objective": obj})
    model = L3M(gamma=args.gamma, lam=args.lam, eta0=args.eta0, epochs=args.passes, seed=args.seed)
    start = time.perf_counter()
    rows.append(
        {
            "method": "SGD",
            "step": 0,
            "seconds": 0.0,
            "objective": model.objective(small, np.zeros(1 << int(small.store.n_bits))),
        }
    )

    def record(epoch, m):
        rows.append(
            {"method": "SGD", "step": epoch, "seconds": time.perf_counter() - start, "objective": m.objective(small)}
        )

    model.fit(small, callback=record)
    return pd.DataFrame(rows)


def order_control(args, train, test, key):
    rows = []
    techniques = json.loads(args.techniques)
    shuffled_train, _ = shuffled_data(train, args.seed)
    shuffled_test, new_to_old = shuffled_data(test, args.seed + 1)
    for name, params in techniques.items():
        params = {"epochs": 1, "seed": args.seed, **params}
        natural = make_learner(name, params).fit(train)
        rows.append(
            {"technique": name, "order": "natural", **avg_row(score_model(natural, test.corpus, test.store, key))}
        )
        shuffled = make_learner(name, params).fit(shuffled_train)
        labels = shuffled.predict_labels(shuffled_test)
        # back to text order: the clustering is what is scored
        from coreflab.learn.labels import labels_to_antecedents
        from coreflab.learn.output import response_documents
        from coreflab.metrics.scorer import score_documents

        back = np.empty_like(labels)
        back[new_to_old] = labels + 10**9 * np.repeat(
            np.arange(len(test.store.doc_mention_offsets) - 1), np.diff(test.store.doc_mention_offsets)
        )
        ante = labels_to_antecedents(back, test.store.doc_mention_offsets)
        scores = score_documents(
            key, response_documents(key, test.corpus, ante, source="test", who=name), metrics=("muc", "bcub", "ceafe")
        )
        rows.append({"technique": name, "order": "shuffled", **avg_row(scores)})
    return pd.DataFrame(rows)


def grid_points(grid, params):
    """The (λ, η0) settings of a --grid: its product; a missing axis keeps `params`' value (if any)."""
    unknown = set(grid) - {"lam", "eta0"}
    if unknown:
        raise UserError(f"--grid tunes lam and eta0 only, not {sorted(unknown)}")
    lams = grid.get("lam") or [params.get("lam")]
    etas = grid.get("eta0") or [params.get("eta0")]
    return [(lam, eta0) for lam in lams for eta0 in etas]


def curves(args, train, test, key):
    if not (args.dev_compiled and args.dev_arcs and args.dev_conll):
        raise UserError("curves needs --dev-compiled, --dev-arcs and --dev-conll")
    dev = as_training_data(load_split(args.dev_compiled, args.dev_arcs))
    dev_key = read_conll_path(args.dev_conll)
    base = json.loads(args.params)
    frames = []
    for lam, eta0 in grid_points(json.loads(args.grid), base):
        params = {**base, "seed": args.seed}
        params.setdefault("epochs", args.passes)
        if lam is not None:
            params["lam"] = lam
        if eta0 is not None:
            params["eta0"] = eta0
        model = make_learner(args.learner, params)
        rows = []
        start = time.perf_counter()

        def record(epoch, m, rows=rows, start=start):
            secs = time.perf_counter() - start
            for split, data, k in (("dev", dev, dev_key), ("test", test, key)):
                row = {"epoch": epoch, "split": split, "seconds": secs}
                before = (getattr(m, "exact_", None), getattr(m, "fallback_", None))
                row.update(avg_row(score_model(m, data.corpus, data.store, k)))
                if before[0] is not None:  # how this split's inferences were solved (Corr-Clustering)
                    row["exact"], row["fallback"] = m.exact_ - before[0], m.fallback_ - before[1]
                rows.append(row)

        model.fit(train, callback=record)
        df = pd.DataFrame(rows)
        df.insert(0, "eta0", getattr(model, "eta0", np.nan))
        df.insert(0, "lam", getattr(model, "lam", np.nan))
        frames.append(df)
    df = pd.concat(frames, ignore_index=True)
    df.insert(0, "params", json.dumps(base, sort_keys=True))
    df.insert(0, "learner", args.learner)
    return df
