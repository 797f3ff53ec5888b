"""`coreflab leaderboard`: every system on one test split, best first (CSV, Markdown, LaTeX)."""

import pandas as pd

from coreflab.errors import UserError
from coreflab.report.io import write_table
from coreflab.report.scores import wide_f1


def add_arguments(p):
    p.add_argument("--scores", required=True, help="tidy scores CSV (scores-table output)")
    p.add_argument("--split", default="test")
    p.add_argument("--out-prefix", required=True, help="writes PREFIX.csv, PREFIX.md, PREFIX.tex")


def leaderboard_frame(df, split):
    """MUC, B3, CEAFe (R/P/F) and MELA per system, sorted by MELA (ties by name)."""
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
        rows.append(row)
    out = pd.DataFrame(rows).sort_values(["MELA", "system"], ascending=[False, True], kind="stable")
    out.insert(0, "rank", range(1, len(out) + 1))
    return out.reset_index(drop=True)


def run(args):
    df = pd.read_csv(args.scores)
    corpus = df["corpus"].iloc[0] if len(df) else "?"
    board = leaderboard_frame(df, args.split)
    write_table(board, args.out_prefix, caption=f"Leaderboard: {corpus}, {args.split} split (F1 in %, MELA = CoNLL average)")
    print(board.to_string(index=False, float_format=lambda v: f"{v:.2f}"))
    return 0
