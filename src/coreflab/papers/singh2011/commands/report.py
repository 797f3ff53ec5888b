"""`coreflab singh2011 report`: Singh et al. (2011) Figs. 5–7 and Table 2 from traces and baselines."""

from pathlib import Path

import pandas as pd

from coreflab.errors import UserError
from coreflab.papers.singh2011 import report
from coreflab.report.io import save_figure, write_table


def add_arguments(p):
    p.add_argument("--fig5", nargs="+", required=True, help="traces of the flat model with K = 1, 2, ...")
    p.add_argument("--fig6", nargs="+", required=True, help="traces of flat, sub, super, hier models")
    p.add_argument("--fig7", nargs="+", required=True, help="traces on the large corpora (string init)")
    p.add_argument("--baselines", nargs="+", required=True, help="singh2011 baselines CSVs")
    p.add_argument(
        "--significance", nargs="*", default=[], help="singh2011 significance CSVs (the model vs each baseline)"
    )
    p.add_argument("--outdir", required=True)


def _read(paths):
    frames = []
    for path in paths:
        try:
            frames.append(pd.read_csv(path))
        except (OSError, pd.errors.ParserError, pd.errors.EmptyDataError) as err:
            raise UserError(f"{path}: expected a crossdoc trace/baseline CSV ({err})") from None
    return pd.concat(frames, ignore_index=True)


def run(args):
    out = Path(args.outdir)
    traces5, traces6, traces7 = _read(args.fig5), _read(args.fig6), _read(args.fig7)
    baselines = _read(args.baselines)
    for name, fig in [
        ("fig5_workers", report.fig5_workers(traces5)),
        ("fig6_hierarchy", report.fig6_hierarchy(traces6)),
        ("fig7_large", report.fig7_large(traces7, baselines)),
    ]:
        for ext in ("png", "pdf"):
            save_figure(fig, out / f"{name}.{ext}")
    corpora = ", ".join(dict.fromkeys(str(c) for c in pd.concat([traces7["corpus"], baselines["corpus"]])))
    tuned = report.tuning_note(traces7)
    notes = [f"{tuned}, left out of every row" if tuned else "all mentions", report.context_note(traces7, traces6)]
    write_table(
        report.table2(traces7, baselines, _read(args.significance) if args.significance else None),
        out / "table2",
        float_format="%.1f",
        caption=f"Singh et al. 2011 Table 2 on {corpora}: B3 P/R/F1 (%) of string match, "
        "label propagation (Subsquare stand-in) and the model at the last round (proposals per mention: its "
        "schedule, all rounds and workers); p (bootstrap): the model (most workers) against the row, paired "
        "bootstrap over documents; " + "; ".join(n for n in notes if n),
    )
    return 0
