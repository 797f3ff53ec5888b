"""`coreflab docs`: render documentation pages whose numbers come from result files.

    coreflab docs --template docs/templates/results-gum.md --out docs/results-gum.md \
        [--results results] [--bench bench/results] [--snapshot docs/numbers] [--no-collect]

Without --no-collect the cited result files are first copied into the snapshot folder; with
it the page is rendered from the committed snapshot alone (what the docs test does).
See coreflab.report.docs for the placeholder syntax.
"""

from pathlib import Path

from coreflab.errors import UserError


def add_arguments(p):
    p.add_argument("--template", required=True, action="append", help="template(s) under docs/templates/")
    p.add_argument("--out", required=True, action="append", help="rendered page(s), one per template")
    p.add_argument("--results", default="results", help="results directory the numbers come from")
    p.add_argument("--bench", default="bench/results", help="benchmark JSON directory")
    p.add_argument("--snapshot", default="docs/numbers", help="where cited files are copied")
    p.add_argument("--no-collect", action="store_true", help="render from the snapshot as it is")


def scorecard():
    """The claims the findings directives decide: the core's, then every registered paper's (`Paper.claims`),
    each group headed by its title; the papers' in page order (`Paper.findings_order`), for `{{ findings papers }}`."""
    from coreflab.papers import registry
    from coreflab.report.findings import CORE_CLAIMS, CORE_TITLES, Scorecard

    papers = registry.papers()
    on_page = sorted(papers, key=lambda p: p.findings_order)  # stable: registry order within one place
    return Scorecard(
        claims={**CORE_CLAIMS, **{p.name: list(p.claims) for p in papers}},
        titles={**CORE_TITLES, **{p.name: p.title for p in papers}},
        intros={p.name: p.findings_intro for p in papers if p.findings_intro},
        notes={p.name: p.findings_note for p in papers if p.findings_note},
        papers=tuple(p.name for p in on_page),
    )


def run(args):
    from coreflab.report.docs import render, snapshot
    from coreflab.report.io import atomic_write_text

    if len(args.template) != len(args.out):
        raise UserError("give one --out per --template")
    for template, out in zip(args.template, args.out):
        path = Path(template)
        if not path.is_file():
            raise UserError(f"template {template} not found")
        text = path.read_text(encoding="utf-8")
        if not args.no_collect:
            snapshot(text, args.results, args.bench, args.snapshot)
        atomic_write_text(out, render(text, args.snapshot, name=template, scorecard=scorecard()))
        print(f"{template} -> {out}")
    return 0
