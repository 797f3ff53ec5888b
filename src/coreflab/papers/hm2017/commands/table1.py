"""`coreflab hm2017 table1`: H&M 2017 Table 1 and Fig. 2 (regressor accuracy) from hm2017 mela-data output."""

from pathlib import Path


def add_arguments(p):
    p.add_argument("--data", required=True, help="CSV from `coreflab hm2017 mela-data`")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--seeds", type=int, nargs="*", default=[], help="Fig. 2 also for these seeds (its bands; Table 1: --seed)"
    )
    p.add_argument(
        "--corpus", default=None, help="corpus name for captions (default: from --out-dir results/<corpus>/...)"
    )
    p.add_argument("--out-dir", required=True, help="folder for table1.{csv,md,tex}, fig2.{png,pdf,csv}")


def run(args):
    from coreflab.papers.hm2017 import report as R
    from coreflab.papers.hm2017.regressor_data import read_data
    from coreflab.papers.hm2017.report import corpus_of
    from coreflab.report.io import save_figure, write_table

    df = read_data(args.data)
    out = Path(args.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    corpus = args.corpus or corpus_of(out, "the corpus")
    write_table(
        R.table1(df, seed=args.seed),
        out / "table1",
        caption=f"H&M 2017 Table 1 on {corpus}: MELA regressor trained on one document sample (S1 or S2), "
        f"tested on the other; MSE in squared MELA points, {R.SCC_CAPTION}.",
    )
    points = R.fig2_points_seeds(df, seed=args.seed, seeds=args.seeds)
    write_table(points, out / "fig2", formats=("csv",))
    fig = R.fig2(points, corpus, seed=args.seed)
    for ext in ("png", "pdf"):
        save_figure(fig, out / f"fig2.{ext}")
    return 0
