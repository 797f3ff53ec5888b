"""The studies of Samdani, Chang & Roth 2014 beside Table 1: learning curves over a (λ, η0) grid,
robustness to the initialisation, CCCP vs SGD (training-data clustering quality and time), and
the mention-order control. Robustness and order control run Table 1's systems as tuned on dev
(`report.tuned_settings` of the curves), so they report "the same set-up as before" (§5.4).
Each takes the settings of `coreflab l3m2014 <study>` (an argparse namespace) and returns the
study's rows as a DataFrame."""

import json
import time

import numpy as np
import pandas as pd

from coreflab.corpus.readers.conll import read_conll_path
from coreflab.errors import UserError
from coreflab.features.shared_rows import expand
from coreflab.learn.base import TrainingData, as_training_data
from coreflab.learn.evaluation import AVG_METRICS, avg_row, score_model
from coreflab.learn.io import load_split
from coreflab.learn.labels import labels_to_antecedents
from coreflab.learn.leftlink.l3m import L3M
from coreflab.learn.leftlink.l3m_cccp import train_cccp
from coreflab.learn.output import response_documents
from coreflab.learn.registry import make_learner
from coreflab.metrics.scorer import score_documents
from coreflab.papers.l3m2014.order_control import shuffled_data
from coreflab.papers.l3m2014.report import ONLINE, tuned_settings


def documents(data, doc_idx):
    """TrainingData of the documents `doc_idx` of a split (ascending), corpus arrays and store sliced consistently."""
    from types import SimpleNamespace

    s = expand(data.store)
    doc_off = np.asarray(s.doc_mention_offsets, dtype=np.int64)
    m_arc = np.asarray(s.m_arc_offsets, dtype=np.int64)
    foff = np.asarray(s.arc_feat_offsets, dtype=np.int64)
    vals = getattr(s, "arc_vals", None)
    rows, arcs, entries = [], [], []
    for d in np.asarray(doc_idx, dtype=np.int64):
        lo, hi = doc_off[d], doc_off[d + 1]
        rows.append(np.arange(lo, hi))
        arcs.append(np.arange(m_arc[lo], m_arc[hi]))
        entries.append(np.arange(foff[m_arc[lo]], foff[m_arc[hi]]))
    rows, arcs, entries = (np.concatenate(x) if x else np.empty(0, np.int64) for x in (rows, arcs, entries))
    sizes = np.diff(doc_off)[np.asarray(doc_idx, dtype=np.int64)]
    new_doc_off = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    arc_counts = np.diff(m_arc)[rows]
    feat_counts = np.diff(foff)[arcs]
    store = SimpleNamespace(
        n_bits=s.n_bits,
        doc_mention_offsets=new_doc_off,
        m_arc_offsets=np.concatenate([[0], np.cumsum(arc_counts)]).astype(np.int64),
        arc_ante=np.asarray(s.arc_ante)[arcs],
        arc_feat_offsets=np.concatenate([[0], np.cumsum(feat_counts)]).astype(np.int64),
        arc_feats=np.asarray(s.arc_feats)[entries],
        arc_vals=None if vals is None else np.asarray(vals)[entries],
    )
    corpus = SimpleNamespace(
        m_cluster=np.asarray(data.corpus.m_cluster)[rows],
        arrays={"doc_mention_offsets": new_doc_off},
        n_mentions=int(rows.size),
    )
    return TrainingData(corpus, store)


def _tuned_rows(curves, techniques, setting="tuned"):
    """Table 1's dev-tuned systems (`report.tuned_settings`) of `techniques`, in that order."""
    chosen = tuned_settings(curves)
    chosen = chosen[chosen.setting == setting].set_index("technique")
    missing = [t for t in techniques if t not in chosen.index]
    if missing:
        raise UserError(f"the curves hold no dev-tuned system for {', '.join(missing)} (Table 1's techniques)")
    return chosen.loc[list(techniques)].reset_index()


def learner_params(row, seed):
    """Parameters of a Table 1 system (a `tuned_settings` row): its base parameters, the tuned λ and η0
    (when the learner has them), γ for L3M, and its passes."""
    params = json.loads(row["params"]) if isinstance(row["params"], str) else {}
    for name in ("lam", "eta0"):
        if pd.notna(row[name]):
            params[name] = float(row[name])
    if row["learner"] == "l3m":
        params["gamma"] = float(row["gamma"])
    params["epochs"] = int(row["passes"])
    params["seed"] = seed
    return params


def tuned_l3m_step(curves, gamma, lam, eta0):
    """(λ, η0, where they came from) of L3M at γ for one pass: the dev-best 1-pass setting of the L3M
    curve at γ (Table 1's tuning), else of the tuned-γ L3M; (lam, eta0) as given without curves."""
    if curves is None:
        return lam, eta0, "fixed, not tuned"
    l3m = curves[curves.learner == "l3m"]
    at = l3m[np.isclose(l3m["gamma"].astype(float), gamma)]
    if len(at):
        row = _tuned_rows(at.assign(gamma=gamma), ["l3m"], "1 pass").iloc[0]
        return float(row["lam"]), float(row["eta0"]), f"tuned on dev for L3M at γ = {gamma:g}, 1 pass"
    row = _tuned_rows(curves, ["l3m"], "1 pass").iloc[0]
    return float(row["lam"]), float(row["eta0"]), f"tuned on dev for L3M at γ = {float(row['gamma']):g}, 1 pass"


def robustness(args, train, test, key, train_key, curves=None):
    """One row per run: training-split scores (the paper's measure) and test scores (`test …`).

    Every run sees the documents in the same order (`seed`); only the N(0, 1) initial
    weights differ (`init_seed`), so the spread is that of the initialisation alone. λ and η0
    are Table 1's dev-tuned ones for L3M at γ after one pass (`tuned_l3m_step`; without
    curves, --lam and --eta0).
    """
    rows = []
    lam, eta0, source = tuned_l3m_step(curves, args.gamma, args.lam, args.eta0)

    def row(run, model):
        out = {"run": run, **avg_row(score_model(model, train.corpus, train.store, train_key))}
        out.update({f"test {m}": v for m, v in avg_row(score_model(model, test.corpus, test.store, key)).items()})
        out.update({"gamma": args.gamma, "lam": lam, "eta0": eta0, "tuning": source})
        return out

    common = dict(gamma=args.gamma, lam=lam, eta0=eta0, epochs=1, seed=args.seed)
    for run in range(args.runs):
        rows.append(row(run, L3M(init="normal", init_seed=args.seed + 1000 + run, **common).fit(train)))
    rows.append(row("zero-init", L3M(**common).fit(train)))
    return pd.DataFrame(rows)


def random_subsets(n_pool, size, draws, seed):
    """`draws` subsets of `size` item sets (fewer if the pool is smaller), each drawn without replacement
    from range(n_pool), independently of the others; ascending indices."""
    rng = np.random.default_rng(seed)
    size = min(int(size), int(n_pool))
    return [np.sort(rng.choice(n_pool, size, replace=False)) for _ in range(draws)]


def compare_cccp_sgd(data, quality, *, gamma, lam, eta0, sgd_passes, max_outer, inner, tol, seed):
    """Two rows, CCCP then SGD: L3M at γ trained on `data` from w = 0 by CCCP (until an outer step lowers
    the objective by less than `tol` of it, at most `max_outer` outer steps of at most `inner` L-BFGS
    iterations) and by `sgd_passes` SGD passes; `quality(model)` is the training-data clustering quality.
    Seconds are the training time alone."""
    inner_counts = []
    start = time.perf_counter()
    w, history = train_cccp(
        data, gamma=gamma, lam=lam, outer=max_outer, tol=tol, inner_maxiter=inner, inner_iterations=inner_counts
    )
    cccp_secs = time.perf_counter() - start
    objectives = [h[1] for h in history]
    converged = len(objectives) > 1 and objectives[-2] - objectives[-1] < tol * max(1.0, abs(objectives[-1]))
    cccp = L3M(gamma=gamma, lam=lam, eta0=eta0, seed=seed)
    cccp.coef_ = w
    sgd = L3M(gamma=gamma, lam=lam, eta0=eta0, epochs=sgd_passes, seed=seed)
    start = time.perf_counter()
    sgd.fit(data)
    sgd_secs = time.perf_counter() - start
    items = int(np.asarray(data.store.doc_mention_offsets)[-1])
    common = {"sets": len(data.store.doc_mention_offsets) - 1, "items": items}
    return [
        {
            "method": "CCCP",
            **common,
            "iterations": len(history) - 1,
            "inner iterations": int(sum(inner_counts)),
            "converged": bool(converged),
            "seconds": cccp_secs,
            "objective": objectives[-1],
            "quality": float(quality(cccp)),
        },
        {
            "method": "SGD",
            **common,
            "iterations": sgd_passes,
            "inner iterations": 0,
            "converged": True,
            "seconds": sgd_secs,
            "objective": sgd.objective(data),
            "quality": float(quality(sgd)),
        },
    ]


def subset_mela(model, data, key, doc_idx):
    """MELA of `model` on the documents `doc_idx` of a split (the whole split is clustered, the subset scored)."""
    ante = model.predict(data.corpus, data.store)
    response = response_documents(key, data.corpus, ante, source="train", who="L3M")
    parts = data.corpus.arrays.get("doc_parts")
    wanted = {(data.corpus.doc_ids[d], int(parts[d]) if parts is not None else 0) for d in doc_idx}
    pairs = [(k, r) for k, r in zip(key, response) if k.key in wanted]
    return score_documents([k for k, _ in pairs], [r for _, r in pairs], metrics=AVG_METRICS).mela


def cccp_settings(args, lam, eta0):
    return {
        "gamma": args.gamma,
        "lam": lam,
        "eta0": eta0,
        "sgd_passes": args.sgd_passes,
        "max_outer": args.max_outer,
        "inner": args.inner,
        "tol": args.tol,
        "seed": args.seed,
    }


def cccp_rows(draw_rows, settings, metric, data_name, tuning="fixed, not tuned"):
    rows = []
    for draw, pair in draw_rows:
        for r in pair:
            rows.append(
                {
                    "draw": draw,
                    "data": data_name,
                    "metric": metric,
                    **r,
                    "gamma": settings["gamma"],
                    "lam": settings["lam"],
                    "eta0": settings["eta0"],
                    "tol": settings["tol"],
                    "max outer": settings["max_outer"],
                    "max inner": settings["inner"],
                    "sgd passes": settings["sgd_passes"],
                    "tuning": tuning,
                }
            )
    return pd.DataFrame(rows)


def cccp_vs_sgd(args, train, train_key, curves=None, corpus_name="the corpus"):
    """§5.3 item 2 on a coreference corpus (no 20 Newsgroups folder): per draw, a random subset of
    `docs` training documents; quality = MELA on those documents (training data, as the paper).
    λ and η0: Table 1's dev tuning of L3M at γ, one pass (without curves, --lam and --eta0)."""
    lam, eta0, source = tuned_l3m_step(curves, args.gamma, args.lam, args.eta0)
    settings = cccp_settings(args, lam, eta0)
    n_docs = len(np.asarray(train.store.doc_mention_offsets)) - 1
    draws = random_subsets(n_docs, args.docs, args.draws, args.seed)
    warm = documents(train, draws[0][:1])  # compile / load the kernels outside the timed runs
    compare_cccp_sgd(warm, lambda m: 0.0, **{**settings, "max_outer": 1, "inner": 1})
    out = []
    for k, idx in enumerate(draws):
        data = documents(train, idx)
        out.append((k, compare_cccp_sgd(data, lambda m, idx=idx: subset_mela(m, train, train_key, idx), **settings)))
    return cccp_rows(out, settings, "MELA", f"{corpus_name} training documents", source)


def order_control(args, train, test, key, curves, techniques=None):
    """§5.4: each of Table 1's online systems, as tuned on dev (passes, γ, λ, η0), trained and tested
    in text order and with the mentions shuffled within documents (pairs keep their features).
    techniques: Table 1 technique names; None = every online one the curves hold (L3M at γ = 0
    needs 0 among the curves' γ)."""
    if techniques is None:
        held = set(tuned_settings(curves)["technique"])
        techniques = [t for t in ONLINE if t in held]
        if not techniques:
            raise UserError("the curves hold none of Table 1's online techniques (Sum-Link, Bin-Left-Link, L3M)")
    shuffled_train, _ = shuffled_data(train, args.seed)
    shuffled_test, new_to_old = shuffled_data(test, args.seed + 1)
    doc_of = np.repeat(np.arange(len(test.store.doc_mention_offsets) - 1), np.diff(test.store.doc_mention_offsets))
    rows = []
    for _, system in _tuned_rows(curves, techniques).iterrows():
        params = learner_params(system, args.seed)
        setting = {
            "passes": int(system["passes"]),
            "gamma": system["gamma"],
            "lam": system["lam"],
            "eta0": system["eta0"],
        }
        name = system["technique"]
        natural = make_learner(system["learner"], params).fit(train)
        rows.append(
            {
                "technique": name,
                "order": "natural",
                **setting,
                **avg_row(score_model(natural, test.corpus, test.store, key)),
            }
        )
        shuffled = make_learner(system["learner"], params).fit(shuffled_train)
        labels = shuffled.predict_labels(shuffled_test)
        # back to text order: the clustering is what is scored
        back = np.empty_like(labels)
        back[new_to_old] = labels + 10**9 * doc_of
        ante = labels_to_antecedents(back, test.store.doc_mention_offsets)
        scores = score_documents(
            key, response_documents(key, test.corpus, ante, source="test", who=name), metrics=AVG_METRICS
        )
        rows.append({"technique": name, "order": "shuffled", **setting, **avg_row(scores)})
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
