"""Choi & Cardie (2007) Tables 1–3 from the per-iteration rows of `coreflab cc-run`.

Iterations: BASE has one; SLT rows show the best iteration of 2..T on the reported split,
as the paper reports (its text: "best result among iterations 2–5"); the iteration is a
column, and every iteration stays in the run CSVs. Table 3 marks with `*`, for each
measure, the configuration that the training split would have chosen.
"""

import numpy as np
import pandas as pd

from coreflab.report.style_names import system_name as paper_name

NAMES = {k: paper_name(k) for k in ("cc_base", "cc_slt_closest", "cc_slt_preserving")}
LOWER_IS_BETTER = {"pairwise_error_rate"}
PAIR_COLUMNS = [("pairwise_error_rate", "e%"), ("pairwise_precision", "pair P"), ("pairwise_recall", "pair R"),
                ("pairwise_f1", "pair F")]
MUC_COLUMNS = [("muc_precision", "MUC P"), ("muc_recall", "MUC R"), ("muc_f1", "MUC F")]


def system_name(learner, bias, weight):
    base = NAMES[learner]
    return base if bias == "none" else f"{base}, {bias.upper().replace('PA', 'Pa')} λ = {weight:g}"


def _wide(runs, split, stage):
    sub = runs[(runs.split == split) & (runs.stage == stage)]
    return sub.pivot_table(index=["learner", "bias", "bias_weight", "iteration"], columns="measure", values="value").reset_index()


def _pick_iteration(wide, select_on):
    """BASE: its single iteration; SLT: the iteration (≥ 2 when available) best on `select_on`."""
    out = []
    for _, g in wide.groupby(["learner", "bias", "bias_weight"], sort=False):
        cand = g[g.iteration >= 2] if (g.iteration >= 2).any() else g
        asc = select_on in LOWER_IS_BETTER
        out.append(cand.sort_values([select_on, "iteration"], ascending=[asc, True]).iloc[0])
    return pd.DataFrame(out)


def _table(picked, columns):
    rows = []
    for _, r in picked.iterrows():
        row = {"system": system_name(r.learner, r.bias, r.bias_weight), "iteration": int(r.iteration)}
        for measure, label in columns:
            row[label] = float(r[measure]) if measure in r else np.nan
        rows.append(row)
    return pd.DataFrame(rows)


def table1(runs, split="test"):
    """BASE vs SLT (bias none): before and after single-link clustering."""
    plain = runs[runs.bias == "none"]
    parts = []
    for stage in ("before", "after"):
        picked = _pick_iteration(_wide(plain, split, stage), "pairwise_error_rate")
        t = _table(picked, PAIR_COLUMNS + (MUC_COLUMNS if stage == "after" else []))
        t.insert(1, "clustering", stage)
        parts.append(t)
    out = pd.concat(parts, ignore_index=True)
    order = {n: i for i, n in enumerate(NAMES.values())}
    return out.sort_values(["clustering", "system"], key=lambda s: s.map(order) if s.name == "system" else s.map({"before": 0, "after": 1}),
                           kind="stable").reset_index(drop=True)


def table2(runs, split="test"):
    """BASE with P1/Pa × λ, before clustering."""
    base = runs[runs.learner == "cc_base"]
    picked = _pick_iteration(_wide(base, split, "before"), "pairwise_error_rate")
    return _table(picked.sort_values(["bias", "bias_weight"], key=lambda s: s.map({"none": 0, "p1": 1, "pa": 2}) if s.name == "bias" else s),
                  PAIR_COLUMNS).drop(columns="iteration")


def table3(runs, split="test"):
    """SLT with P1/Pa × λ after clustering; `*` marks the training split's choice per measure."""
    slt = runs[(runs.learner != "cc_base")]
    test = _pick_iteration(_wide(slt, split, "after"), "pairwise_error_rate")
    train = _pick_iteration(_wide(slt, "train", "after"), "pairwise_error_rate")
    columns = PAIR_COLUMNS + MUC_COLUMNS
    table = _table(test, columns)
    chooser = _table(train, columns)
    for measure, label in columns:
        if chooser[label].isna().all():
            continue
        best = chooser[label].idxmin() if measure in LOWER_IS_BETTER else chooser[label].idxmax()
        table[label] = [f"{v:.2f}{'*' if i == best else ''}" for i, v in enumerate(table[label])]
    return table
