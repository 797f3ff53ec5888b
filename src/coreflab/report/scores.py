"""Tidy score rows: one row per corpus × split × system × metric (the DESIGN's score table).

Score JSON files are what `coreflab score --format json` prints; this module turns a set
of them into one long table that every leaderboard, table and plot reads.
"""

import json
from pathlib import Path

import pandas as pd

from coreflab.errors import UserError

METRIC_ORDER = ["muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "mentions", "mela"]
COLUMNS = ["corpus", "split", "system", "metric", "recall", "precision", "f1"]


def read_score_json(path):
    try:
        return json.loads(Path(path).read_text())
    except FileNotFoundError:
        raise UserError(f"{path}: no such score file") from None
    except json.JSONDecodeError as err:
        raise UserError(f"{path}:{err.lineno}: not a JSON score file ({err.msg})") from None


def tidy_rows(scores, corpus, split, system):
    """Rows for one system's score object (metrics with R/P/F; MELA carries only F1)."""
    rows = []
    for metric in METRIC_ORDER:
        if metric not in scores:
            continue
        value = scores[metric]
        if isinstance(value, dict):
            rows.append([corpus, split, system, metric, value["recall"], value["precision"], value["f1"]])
        else:
            rows.append([corpus, split, system, metric, float("nan"), float("nan"), float(value)])
    return rows


def tidy_table(entries):
    """entries: iterable of (corpus, split, system, json_path) → tidy DataFrame, stably sorted."""
    rows = []
    for corpus, split, system, path in entries:
        scores = read_score_json(path)
        found = tidy_rows(scores, corpus, split, system) if isinstance(scores, dict) else []
        if not found:
            raise UserError(
                f"{path}: no scores in it; expected `coreflab score --format json` output ({', '.join(METRIC_ORDER)})"
            )
        rows += found
    df = pd.DataFrame(rows, columns=COLUMNS)
    order = {m: i for i, m in enumerate(METRIC_ORDER)}
    df["_m"] = df["metric"].map(order)
    df = df.sort_values(["corpus", "split", "system", "_m"], kind="stable").drop(columns="_m")
    return df.reset_index(drop=True)


def wide_f1(df, metrics=("muc", "bcub", "ceafe", "mela")):
    """One row per system with the F1 of each metric as a column (leaderboards, tables)."""
    sub = df[df["metric"].isin(metrics)]
    wide = sub.pivot_table(index="system", columns="metric", values="f1", aggfunc="first")
    return wide[[m for m in metrics if m in wide.columns]]
