"""`coreflab cc2007 tables`: Choi & Cardie (2007) Tables 1–3 from the cc2007 run CSVs."""

from pathlib import Path

import pandas as pd

from coreflab.errors import UserError
from coreflab.papers.cc2007.report import convergence_note, table1, table2, table3
from coreflab.report.io import write_table


def add_arguments(p):
    p.add_argument("--runs", nargs="+", required=True, help="cc2007 run CSV files")
    p.add_argument("--corpus", required=True)
    p.add_argument("--out-dir", required=True, help="writes table1..3 .csv/.md/.tex here")


def run(args):
    frames = []
    for path in args.runs:
        try:
            frames.append(pd.read_csv(path))
        except FileNotFoundError:
            raise UserError(f"{path}: no such run file") from None
    runs = pd.concat(frames, ignore_index=True)
    out = Path(args.out_dir)
    captions = {
        "table1": f"Choi & Cardie 2007 Table 1 on {args.corpus} (test; SLT iteration chosen on train): BASE vs SLT, pairwise error rate (e%), pairwise and MUC P/R/F before/after single-link clustering",
        "table2": f"Choi & Cardie 2007 Table 2 on {args.corpus} (test): BASE with biased potentials P1/Pa and λ, before clustering",
        "table3": f"Choi & Cardie 2007 Table 3 on {args.corpus} (test; iteration chosen on train): SLT with biased potentials after clustering; * = chosen by training-set performance",
    }
    subsets = {  # the runs behind each table's rows (as table1..3 select them)
        "table1": runs[runs.bias == "none"],
        "table2": runs[runs.learner == "cc_base"],
        "table3": runs[runs.learner != "cc_base"],
    }
    for name, fn in (("table1", table1), ("table2", table2), ("table3", table3)):
        t = fn(runs)
        captions[name] += f". Solver: {convergence_note(subsets[name])}"
        write_table(t, out / name, caption=captions[name])
        print(captions[name])
        print(t.to_string(index=False))
    return 0
