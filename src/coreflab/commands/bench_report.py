"""`coreflab bench-report`: the benchmark records against their targets, and the scaling figure.

    coreflab bench-report [--results bench/results] [--out bench/results/scaling]
    coreflab bench-report a.json b.json --png f.png --pdf f.pdf --csv t.csv --md t.md

Reads every `*.json` of --results (or the files named) and writes `<out>.md` (one row per
benchmark, which `docs/performance.md` includes), `<out>.csv` (every recorded number, with its
target where it has one) and `<out>.png`/`.pdf` (time and memory against arcs, beam and workers).
See `coreflab.report.performance`.
"""

from pathlib import Path

OUTPUTS = ("png", "pdf", "csv", "md")


def add_arguments(parser):
    parser.add_argument("records", nargs="*", help="benchmark JSON files (default: every *.json of --results)")
    parser.add_argument(
        "--results", default="bench/results", help="folder of benchmark records (default bench/results)"
    )
    parser.add_argument("--out", help="output prefix for <prefix>.{png,pdf,csv,md} (default <results>/scaling)")
    for ext in OUTPUTS:
        parser.add_argument(f"--{ext}", help=f"the .{ext} output (overrides --out)")


def run(args):
    from coreflab.papers import registry
    from coreflab.report.performance import write_report

    prefix = Path(args.out) if args.out else Path(args.results) / "scaling"
    outputs = {ext: getattr(args, ext) or prefix.with_name(f"{prefix.name}.{ext}") for ext in OUTPUTS}
    papers = registry.papers()  # the targets of the papers' own benchmarks
    anchors = [a for p in papers for a in p.bench_anchors]
    headlines = [h for p in papers for h in p.bench_headlines]
    panels = [p.bench_panel for p in papers if p.bench_panel is not None]
    df = write_report(args.records or args.results, outputs, anchors, headlines, panels)
    judged = df[df["met"] != ""]
    print(
        f"{len(df)} numbers, {int((judged['met'] == 'yes').sum())}/{len(judged)} judged against a target -> "
        + ", ".join(str(p) for p in outputs.values())
    )
    return 0
