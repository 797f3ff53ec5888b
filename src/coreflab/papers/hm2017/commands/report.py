"""`coreflab hm2017 report`: H&M 2017 Fig. 3 and Tables 2–4 from `hm2017 run` CSVs.

`--runs` are the first corpus's runs (every learner × N); `--second-runs` the second
corpus's runs at All features (LSP_F, LSP_YJ, LSP_ρ, and LSP_ρ with the first corpus's
regressor, label lsp_rho_from_<first corpus>). `--tuned` files are quoted in the table notes.
"""

import json
from pathlib import Path

import pandas as pd

from coreflab.errors import UserError


def add_arguments(p):
    p.add_argument("--runs", nargs="+", required=True, help="hm2017 run CSVs of the first corpus")
    p.add_argument("--second-runs", nargs="*", default=[], help="hm2017 run CSVs of the second corpus")
    p.add_argument("--ranking", required=True, help="feature ranking of the first corpus")
    p.add_argument("--tuned", nargs="*", default=[], help="hm2017 tune JSONs (for the table notes)")
    p.add_argument(
        "--corpus",
        default=None,
        help="corpus name for titles and captions (default: <corpus> of an out-dir results/<corpus>/paper/hm2017)",
    )
    p.add_argument("--second-corpus", default=None, help="second corpus name (default: from --second-runs paths)")
    p.add_argument(
        "--seed", type=int, default=None, help="the runs' main seed: tables read it, figures draw it as the line"
    )
    p.add_argument("--out-dir", required=True)


def _read(paths):
    frames = []
    for p in paths:
        try:
            frames.append(pd.read_csv(p))
        except (OSError, ValueError) as err:
            raise UserError(f"{p}: not a readable hm2017 run CSV ({err})") from None
    return pd.concat(frames, ignore_index=True)


def format_params(params):
    """{'C': 1.0, 'r': 0.5} -> 'C = 1, r = 0.5' (a caption prints no Python dicts)."""
    return ", ".join(
        f"{k} = {v:g}" if isinstance(v, (int, float)) and not isinstance(v, bool) else f"{k} = {v}"
        for k, v in params.items()
    )


def run(args):
    from coreflab.papers.hm2017 import report as R
    from coreflab.papers.hm2017.experiments import load_ranking
    from coreflab.papers.hm2017.report import corpus_of
    from coreflab.report.io import save_figure, write_table

    out = Path(args.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    n_all = len(load_ranking(args.ranking)[0])
    runs = _read(args.runs)
    notes = []
    for t in args.tuned:
        d = json.loads(Path(t).read_text(encoding="utf-8"))
        notes.append(f"{R.display_name(d['learner'])}: {format_params(d['best']['params'])}")
    note = ("Tuned on a training sample: " + "; ".join(notes)) if notes else ""
    corpus = args.corpus or corpus_of(out, "the first corpus")
    second_corpus = args.second_corpus or (
        corpus_of(args.second_runs[0], "the second corpus") if args.second_runs else ""
    )
    fig = R.fig3(runs, n_all, corpus, seed=args.seed)
    for ext in ("png", "pdf"):
        save_figure(fig, out / f"fig3.{ext}")
    best = R.best_epochs(R.main_rows(runs, args.seed))
    write_table(best, out / "fig3_best", formats=("csv",))
    write_table(
        R.curve(best, n_all),
        out / "curve",
        formats=("csv", "md"),
        caption=f"H&M 2017 Fig. 3 on {corpus} as a table: test MELA at T_best per feature count N (columns; the "
        f"last: all {n_all:,}) and the gain of LSP_ρ over LSP_F (paper: +0.90 at 1M, +0.32 at all 16.8M, largest "
        f"near 10K, a share of 0.0006).",
    )
    n_sel = R.select_n(best, n_all)
    write_table(
        R.table2(best, n_all, n_sel),
        out / "table2",
        caption=f"H&M 2017 Table 2 on {corpus} (dev and test): MELA and T_best (epoch of the best dev MELA), "
        f"N_selected = {n_sel:,} of {n_all:,} features ({R.SELECT_N_RULE}). {note}".strip(),
    )
    write_table(
        R.table3(best, n_all, n_sel),
        out / "table3",
        caption=f"H&M 2017 Table 3 on {corpus} (test): MUC, B3, CEAFe and MELA F1 at T_best, at N_selected = "
        f"{n_sel:,} and All ({R.SELECT_N_RULE}). {note}".strip(),
    )
    if args.second_runs:
        second = R.best_epochs(R.main_rows(_read(args.second_runs), args.seed))
        write_table(
            R.table4(second),
            out / "table4",
            caption=f"H&M 2017 Table 4 on {second_corpus} (dev and test), all features; 'LSP_ρ (regressor of X)' = "
            "LSP_ρ trained with corpus X's regressor (loss transfer).",
        )
    return 0
