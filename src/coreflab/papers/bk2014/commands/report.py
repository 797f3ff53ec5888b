"""`coreflab bk2014 report`: Björkelund & Kuhn (2014) Figs. 3–4 and Table 1 from dev curves."""

from pathlib import Path

import pandas as pd

from coreflab.errors import UserError
from coreflab.papers.bk2014.report import figure3, figure4, load_curves, same_runs, seed_study, table1
from coreflab.report.io import save_figure, write_table


def add_arguments(p):
    p.add_argument("--curve", action="append", default=[], metavar="RUN=CSV", help="a run's dev curve (repeatable)")
    p.add_argument(
        "--table1-curve",
        action="append",
        default=[],
        metavar="RUN=CSV",
        help="a dev curve of Table 1's runs with another seed: its seed columns, not the figures (repeatable)",
    )
    p.add_argument("--beams", required=True, help="the two beam sizes of Fig. 3, e.g. 20,100")
    p.add_argument("--corpus", required=True)
    p.add_argument("--out-dir", required=True)
    p.add_argument(
        "--dev-scores",
        action="append",
        default=[],
        metavar="FEATURES=JSON",
        help="per-document dev scores of Table 1's local and nonlocal models (`coreflab score --format json "
        "--per-doc`): adds the paired bootstrap of the difference",
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the paired bootstrap (default: 0)")
    p.add_argument(
        "--table1-iteration", type=int, metavar="N", help="the iteration Table 1 reports (default: the curves' last)"
    )


def _dev_scores(items):
    """{"local": scores, "nonlocal": scores} from FEATURES=JSON arguments, or None without them."""
    from coreflab.report.leaderboard import per_doc_scores

    if not items:
        return None
    paths = {}
    for item in items:
        name, sep, path = item.partition("=")
        if not sep or name not in ("local", "nonlocal"):
            raise UserError(f"--dev-scores {item!r}: expected local=JSON or nonlocal=JSON")
        paths[name] = path
    if set(paths) != {"local", "nonlocal"}:
        raise UserError("--dev-scores: give both local=JSON and nonlocal=JSON")
    return {name: per_doc_scores(path) for name, path in paths.items()}


def _runs(items, flag):
    """{run: csv} of RUN=CSV arguments."""
    runs = {}
    for item in items:
        name, sep, path = item.partition("=")
        if not sep:
            raise UserError(f"{flag} {item!r}: expected RUN=CSV")
        runs[name] = path
    return runs


def run(args):
    runs, table1_runs = _runs(args.curve, "--curve"), _runs(args.table1_curve, "--table1-curve")
    try:
        curves = load_curves(runs)
        table_curves = pd.concat([curves, load_curves(table1_runs)], ignore_index=True) if table1_runs else curves
    except (FileNotFoundError, ValueError) as err:
        raise UserError(str(err)) from None
    dev_scores = _dev_scores(args.dev_scores)
    beams = [int(b) for b in args.beams.split(",")]
    out = Path(args.out_dir)
    for name, fig in (("fig3", figure3(curves, beams, args.corpus)), ("fig4", figure4(curves, beams[0], args.corpus))):
        save_figure(fig, out / f"{name}.png")
        save_figure(fig, out / f"{name}.pdf")
    t = table1(table_curves, beams[0], dev_scores=dev_scores, seed=args.seed, iteration=args.table1_iteration)
    caption = f"Björkelund & Kuhn 2014 Table 1 on {args.corpus} (dev): delayed LaSO with local vs non-local features (beam {beams[0]})"
    if dev_scores is not None:
        caption += "; MELA difference: 95% interval and p of a paired bootstrap over the dev documents"
    if "seeds" in t:
        caption += "; seed columns: the same two runs retrained with each training seed (mean, sd, seeds the non-local model is ahead in)"
    if same_runs(table_curves, beams[0]):
        caption += (
            "; the two runs' dev curves are the same at every iteration, as when template selection keeps no "
            "non-local template (results/<corpus>/selection/steps.csv)"
        )
    write_table(t, out / "table1", caption=caption)
    print(caption)
    print(t.to_string(index=False))
    study = seed_study(table_curves, beams[0])
    seeds = int(study["seeds"].max()) if len(study) else 0
    write_table(
        study,
        out / "nonlocal_seeds",
        formats=("csv", "md"),
        caption=f"Björkelund & Kuhn 2014 on {args.corpus} (dev): Table 1's non-local gain after every iteration over "
        f"{seeds} training seeds (delayed LaSO, beam {beams[0]}; MELA non-local minus local: mean, sd, standard error, "
        "seeds ahead)",
    )
    return 0
