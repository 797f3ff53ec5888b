"""Singh et al. 2011: distributed hierarchical MCMC cross-document coreference (data, numba kernels,
Dask inference, tuning, baselines) and its Figs. 5-7 and Table 2."""

from pathlib import Path

from coreflab.errors import UserError
from coreflab.papers.registry import Paper, config_schema
from coreflab.papers.singh2011 import optional_data
from coreflab.papers.singh2011.cli import HELP, VERBS
from coreflab.papers.singh2011.findings import CLAIMS, INTRO
from coreflab.report.bench_targets import Anchor, Headline

# cross-document: its own corpora (results/crossdoc/), not the within-document runs
OUTPUTS = [
    f"results/crossdoc/paper/singh2011/{name}"
    for name in ("fig5_workers.png", "fig6_hierarchy.png", "fig7_large.png", "table2.md")
]


def check_config(config, checks):
    """The sampler's temperature falls: `crossdoc.t_stop` is not above `t_start`."""
    crossdoc = config.get("crossdoc") or {}
    if "t_start" in crossdoc and "t_stop" in crossdoc and crossdoc["t_stop"] > crossdoc["t_start"]:
        raise UserError(
            f"config key crossdoc.t_stop: {crossdoc['t_stop']} is above t_start ({crossdoc['t_start']}); "
            "the temperature falls from t_start to t_stop"
        )


# its benchmark record (bench/crossdoc.py): bench/results/crossdoc.json
BENCH_ANCHORS = (
    Anchor(
        "crossdoc", r"personx\[workers=\d+\]\.proposals_per_s_per_worker", ">=", 200_000, "MCMC proposals/s per worker"
    ),
    Anchor("crossdoc", r"personx_speedup_total_throughput", ">=", 1.7, "K=2 throughput over K=1"),
    Anchor("crossdoc", r"personx\.speedup_K2_over_K1_total_best", ">=", 1.7, "K=2 throughput over K=1 (crossdoc.json)"),
)
BENCH_HEADLINES = (
    Headline(
        r"crossdoc",
        "cross-document MCMC, throughput of 2 Dask workers over 1",
        "personx.speedup_K2_over_K1_total_best",
        ">=",
        1.7,
    ),
)


def bench_panel(ax, results):
    """Its panel of the benchmark figure (imported when drawn: matplotlib stays out of the CLI's start)."""
    from coreflab.papers.singh2011.bench_panel import panel_workers

    panel_workers(ax, results)


# its config sections (validated and defaulted with the workflow's schema)
SCHEMA = config_schema(Path(__file__).with_name("config.schema.yaml"))

PAPER = Paper(
    name="singh2011",
    title="Singh et al. 2011",
    help=HELP,
    verbs=VERBS,
    rules="rules/papers/singh2011.smk",
    config_sections={"crossdoc": SCHEMA["crossdoc"]},
    targets=lambda config, runs: list(OUTPUTS),
    enabled=lambda config: config.get("crossdoc", {}).get("enabled") is not False,
    system_names={
        "label_propagation": "label propagation",
        "flat": "pairwise",
        "sub": "sub-entities",
        "super": "super-entities",
        "hier": "combined",
    },
    claims=CLAIMS,
    bench_anchors=BENCH_ANCHORS,
    bench_headlines=BENCH_HEADLINES,
    bench_panel=bench_panel,
    findings_intro=INTRO,
    findings_order=5,
    check_config=check_config,
    skipped=optional_data.skipped,
)
