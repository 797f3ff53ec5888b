"""`coreflab overview`: the corpus overview figure (PNG and PDF) from compiled splits, and
the candidate reachability of each split (an oracle ceiling of the tree learners).

Reachability: the share of non-first mentions (those with an earlier mention of their
gold cluster) that have a gold cluster mate among their candidate antecedents, for the
plain window (`before`) and for the window plus string-matched candidates beyond it
(`after`, what `coreflab features` builds by default). Without `--window` every earlier
mention is a candidate and both are 100%. Written as JSON next to the PNG
(`overview.reach.json`) and printed as a table.
"""

import json
from pathlib import Path

from coreflab.corpus.compiled import CompiledCorpus
from coreflab.report.io import save_figure
from coreflab.report.overview import overview_figure


def add_arguments(p):
    p.add_argument(
        "--compiled", nargs="+", required=True, help="compiled splits (.npz), first one drives the distance panel"
    )
    p.add_argument("--corpus", required=True)
    p.add_argument("--png", required=True)
    p.add_argument("--pdf", required=True)
    p.add_argument(
        "--window",
        type=int,
        default=None,
        help="candidate window of the arc stores (features.window), for the reachability",
    )
    p.add_argument(
        "--reach-json", default=None, help="reachability JSON to write (default: next to --png, suffix .reach.json)"
    )


def reach_rows(corpora, window):
    """One row per split: non-first mentions, reachable before/after string reach, shares, arcs."""
    from coreflab.features.candidates import reachability

    rows = []
    for c in corpora:
        if "m_cluster" not in c.arrays:
            continue
        before = reachability(c, window, reach=False)
        after = reachability(c, window, reach=True)
        rows.append(
            {
                "split": c.split,
                "window": window,
                "nonfirst": before["nonfirst"],
                "reachable_before": before["reachable"],
                "reachable_after": after["reachable"],
                "share_before": round(before["share"], 4),
                "share_after": round(after["share"], 4),
                "arcs_before": before["arcs"],
                "arcs_after": after["arcs"],
            }
        )
    return rows


def run(args):
    from coreflab.report.io import atomic_write_text

    corpora = [CompiledCorpus.load(p) for p in args.compiled]
    fig = overview_figure(corpora, f"Corpus overview: {args.corpus}")
    save_figure(fig, args.png)
    save_figure(fig, args.pdf)
    rows = reach_rows(corpora, args.window)
    out = Path(args.reach_json) if args.reach_json else Path(args.png).with_suffix(".reach.json")
    atomic_write_text(out, json.dumps({"corpus": args.corpus, "reachability": rows}, indent=1) + "\n")
    print(f"gold antecedent reachable (non-first mentions), window {args.window or 'none'}:")
    print(f"{'split':8s} {'non-first':>9s} {'window':>8s} {'+string':>8s} {'arcs':>10s} {'+string':>10s}")
    for r in rows:
        print(
            f"{r['split']:8s} {r['nonfirst']:9d} {100 * r['share_before']:7.2f}% {100 * r['share_after']:7.2f}% "
            f"{r['arcs_before']:10d} {r['arcs_after']:10d}"
        )
    return 0
