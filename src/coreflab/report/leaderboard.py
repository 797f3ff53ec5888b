"""The leaderboard: every system on one split, best first (MUC, B3, CEAFe R/P/F and MELA), with
paired-bootstrap significance against the best (or a reference) system, and the measured training
cost of each system beside it."""

from pathlib import Path

import pandas as pd

from coreflab.errors import UserError
from coreflab.report.scores import wide_f1


def per_doc_scores(path):
    """A Scores-like object (per_doc arrays, doc_keys) from `coreflab score --format json --per-doc`."""
    from types import SimpleNamespace

    import numpy as np

    from coreflab.report.scores import read_score_json

    obj = read_score_json(path)
    docs = obj.get("documents")
    if docs is None:
        raise UserError(f"{path}: no per-document scores (score with --per-doc)")
    per_doc = {}
    for metric in ("muc", "bcub", "ceafe"):
        per_doc[metric] = np.array(
            [[d[metric][k] for k in ("recall_num", "recall_den", "precision_num", "precision_den")] for d in docs],
            dtype=np.float64,
        ).reshape(len(docs), 4)
    return SimpleNamespace(per_doc=per_doc, doc_keys=[(d["doc_id"], d["part"]) for d in docs])


def add_significance(board, jsons, samples, seed, reference=None):
    """Paired bootstrap of every system against the best or a reference (MELA): difference, p, † at p < 0.05."""
    from coreflab.metrics.significance import paired_test

    best = reference or board["system"].iloc[0]
    if reference is not None and reference not in set(board["system"]):
        raise UserError(f"--reference {reference!r} is not on the leaderboard")
    if best not in jsons:
        return board
    best_scores = per_doc_scores(jsons[best])
    deltas, pvalues = [], []
    for system in board["system"]:
        if system == best or system not in jsons:
            deltas.append(0.0 if system == best else float("nan"))
            pvalues.append(float("nan"))
            continue
        res = paired_test(
            per_doc_scores(jsons[system]), best_scores, metric="mela", test="bootstrap", samples=samples, seed=seed
        )
        deltas.append(res.difference)
        pvalues.append(res.p_value)
    board = board.copy()
    board[f"Δ MELA vs {'best' if reference is None else reference}"] = deltas
    board["p (bootstrap)"] = pvalues
    board["sig."] = ["" if not (p == p) else ("†" if p < 0.05 else "") for p in pvalues]
    return board


def add_costs(board, benchmarks):
    """Training time (s) and peak memory (MB) of each system, from Snakemake benchmark files.

    benchmarks = {system: "PATH[,PATH...]"}: a system whose training started from another job's
    fit (Choi & Cardie's SLT from BASE's iteration 1) lists both jobs, so its cost counts the
    shared part too: the seconds add up, the memory is the larger peak."""
    secs, mem = [], []
    for system in board["system"]:
        spec = benchmarks.get(system)
        if spec is None:
            secs.append(float("nan"))
            mem.append(float("nan"))
            continue
        paths = spec.split(",")
        missing = [p for p in paths if not Path(p).is_file()]
        if missing:
            raise UserError(f"--benchmark {system}: no benchmark file {missing[0]}")
        frames = [pd.read_csv(path, sep="\t") for path in paths]
        secs.append(sum(float(b["s"].iloc[0]) for b in frames))
        peaks = [float(b["max_rss"].iloc[0]) for b in frames if "max_rss" in b and str(b["max_rss"].iloc[0]) != "-"]
        mem.append(max(peaks) if len(peaks) == len(frames) else float("nan"))
    board = board.copy()
    board["train s"] = secs
    board["peak MB"] = mem
    return board


def leaderboard_frame(df, split):
    """MUC, B3, CEAFe (R/P/F), MELA and mention detection (R/P/F: the response's mentions against the
    key's, exact spans, as the official scorer's "Identification of Mentions") per system, sorted by
    MELA (ties by name)."""
    sub = df[df["split"] == split]
    if sub.empty:
        raise UserError(f"no scores for split {split!r}")
    rows = []
    for system, g in sub.groupby("system", sort=True):
        by = g.set_index("metric")
        row = {"system": system}
        for metric, label in (("muc", "MUC"), ("bcub", "B3"), ("ceafe", "CEAFe")):
            for col, short in (("recall", "R"), ("precision", "P"), ("f1", "F")):
                row[f"{label} {short}"] = float(by.loc[metric, col]) if metric in by.index else float("nan")
        row["MELA"] = float(by.loc["mela", "f1"]) if "mela" in by.index else float(wide_f1(g).mean(axis=1).iloc[0])
        for col, short in (("recall", "R"), ("precision", "P"), ("f1", "F")):
            row[f"Mentions {short}"] = float(by.loc["mentions", col]) if "mentions" in by.index else float("nan")
        rows.append(row)
    out = pd.DataFrame(rows).sort_values(["MELA", "system"], ascending=[False, True], kind="stable")
    out.insert(0, "rank", range(1, len(out) + 1))
    return out.reset_index(drop=True)
