"""`coreflab hm2017 tune`: H&M 2017 parameter tuning on a training sample (best dev MELA).

Grid: C in `--C-grid`; r in `--r-grid` for lsp_f / lsp_yj (the paper: C ∈ {1, 100, 1000,
2000}, r ∈ 0.5..2.5 for Δ_F, r ∈ {0.05, 0.1, 0.5} for Δ_YJ); training on a seeded sample
of `--sample-docs` documents for `--n-iter` epochs, the best epoch's dev MELA decides.
Writes JSON {"best": {"params": {...}, "mela", "epoch"}, "grid": [...], "widened": [...]}. A best
value on the edge of its grid is no optimum: the grid grows one step past that edge (C by ×10 or
÷10, r by its grid's last step, kept positive) and the new points are tuned, up to `--widen` times.
`--singletons` as in `hm2017 run` (scored responses and lsp_rho's loss; auto: as the dev key).
"""

import itertools
import sys

from coreflab.arg_types import at_least


def add_arguments(p):
    p.add_argument("--learner", required=True, choices=("lsp_f", "lsp_yj", "lsp_rho"))
    p.add_argument("--regressor", help="regressor JSON (lsp_rho)")
    for split in ("train", "dev"):
        p.add_argument(f"--{split}-compiled", required=True)
        p.add_argument(f"--{split}-arcs", required=True)
    p.add_argument("--dev-conll", required=True)
    p.add_argument("--sample-docs", type=at_least(1), default=100)
    p.add_argument("--n-iter", type=at_least(1), default=5)
    p.add_argument("--C-grid", default="1,100,1000,2000", help="comma-separated C values")
    p.add_argument("--r-grid", default="", help="comma-separated r values (lsp_f, lsp_yj)")
    p.add_argument(
        "--singletons",
        default="auto",
        choices=("auto", "keep", "drop"),
        help="singletons in scored responses and in lsp_rho's loss (default auto: as recorded in the compiled splits)",
    )
    p.add_argument("--widen", type=at_least(0), default=2, help="grid growths past an edge the best value sits on")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", required=True, help="JSON to write")


def _floats(text):
    from coreflab.errors import UserError

    try:
        return [float(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise UserError(f"expected comma-separated numbers, not {text!r}") from None


def widened(values, best, geometric):
    """`values` grown one step past the edge `best` sits on ([] when it is inside, or the grid has one
    value): C geometrically (×10 / ÷10), r arithmetically by the grid's step at that edge, kept > 0."""
    values = sorted(set(values))
    if len(values) < 2 or best not in (values[0], values[-1]):
        return []
    if best == values[-1]:
        return [best * 10.0] if geometric else [round(best + (values[-1] - values[-2]), 10)]
    new = best / 10.0 if geometric else round(best - (values[1] - values[0]), 10)
    return [new] if new > 0 else []


def run(args):
    from coreflab.corpus.readers.conll import atomic_write_text, read_conll_path
    from coreflab.errors import UserError
    from coreflab.learn.base import as_training_data
    from coreflab.learn.io import load_split
    from coreflab.papers.hm2017.experiments import dump_json, singletons_params, subsample_docs, tune

    Cs = _floats(args.C_grid)
    rs = _floats(args.r_grid) if args.learner != "lsp_rho" else []
    if not Cs:
        raise UserError("--C-grid is empty")
    grid = [{"C": c, "r": r} for c, r in itertools.product(Cs, rs)] if rs else [{"C": c} for c in Cs]
    base = {"seed": args.seed}
    if args.learner == "lsp_rho":
        if not args.regressor:
            raise UserError("lsp_rho needs --regressor")
        base["regressor"] = args.regressor
    train = as_training_data(load_split(args.train_compiled, args.train_arcs))
    train = as_training_data(subsample_docs(train.corpus, train.store, args.sample_docs, args.seed))
    dev = as_training_data(load_split(args.dev_compiled, args.dev_arcs))
    dev_key = read_conll_path(args.dev_conll)
    base, keep = singletons_params(args.learner, base, args.singletons, dev_key, dev.corpus)
    dev_split = ("dev", dev.corpus, dev.store, dev_key)
    best, rows = tune(args.learner, base, grid, train, dev_split, args.n_iter, keep_singletons=keep)
    grown = []
    for _ in range(args.widen):
        more_C = widened(Cs, best["C"], geometric=True)
        more_r = widened(rs, best["r"], geometric=False) if rs else []
        if not more_C and not more_r:
            break
        Cs, rs = sorted(Cs + more_C), sorted(rs + more_r)
        seen = {(g["C"], g.get("r")) for g in grid}
        points = [{"C": c, "r": r} for c, r in itertools.product(Cs, rs)] if rs else [{"C": c} for c in Cs]
        new = [g for g in points if (g["C"], g.get("r")) not in seen]
        grown.append({"C": more_C, "r": more_r})
        print(
            f"coreflab hm2017 tune: best on a grid edge, {len(new)} more points: C {more_C} r {more_r}", file=sys.stderr
        )
        grid += new
        top, extra = tune(args.learner, base, new, train, dev_split, args.n_iter, keep_singletons=keep)
        rows += extra
        if top["mela"] > best["mela"]:
            best = top
    point = {k: best[k] for k in ("C", "r") if k in best}
    out = {
        "learner": args.learner,
        "best": {"params": point, "mela": best["mela"], "epoch": best["epoch"]},
        "grid": rows,
        "widened": grown,
        "sample_docs": args.sample_docs,
        "n_iter": args.n_iter,
        "response_singletons": "kept" if keep else "dropped",
    }
    atomic_write_text(args.out, dump_json(out))
    print(
        f"coreflab hm2017 tune: {args.learner}: best {point} dev MELA {best['mela']:.2f} -> {args.out}", file=sys.stderr
    )
    return 0
