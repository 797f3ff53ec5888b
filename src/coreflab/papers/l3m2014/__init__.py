"""Samdani, Chang & Roth 2014: the studies (robustness, CCCP vs SGD, order control), supervised
clustering of 20 Newsgroups posts (Table 2), the run grid and the tables. The learners are
coreflab.learn.leftlink and coreflab.learn.clustering."""

from pathlib import Path

from coreflab.papers.l3m2014 import optional_data
from coreflab.papers.l3m2014.cli import HELP, VERBS
from coreflab.papers.l3m2014.findings import CLAIMS, NOTE
from coreflab.papers.registry import Paper, config_schema
from coreflab.report.bench_targets import Anchor, Headline

OUTPUTS = [
    "paper/l3m2014/table1.md",
    "paper/l3m2014/robustness.md",
    "paper/l3m2014/cccp_vs_sgd.md",
    "paper/l3m2014/order_control.md",
]
# 20 Newsgroups (Table 2, CCCP vs SGD): its own folder, only when the document-clustering experiment runs
NEWSGROUPS = ["results/doccluster/paper/l3m2014/table2_vi.md", "results/doccluster/paper/l3m2014/cccp_vs_sgd.md"]


def targets(config, runs):
    extra = NEWSGROUPS if optional_data.doccluster_enabled(config) else []
    return [f"results/{r}/{name}" for r in runs for name in OUTPUTS] + extra


def docs_blocker(config, results):
    """Pages citing the 20 Newsgroups tables need 20 Newsgroups, which a config may skip."""
    if optional_data.doccluster_enabled(config) or not any("doccluster/paper/l3m2014/" in r for r in results):
        return None
    why, how = optional_data.newsgroups_missing(config)
    return f"re-renders pages that cite {optional_data.NEWSGROUPS}, which this config skips ({why}): {how}"


def check_config(config, checks):
    """`l3m2014.learner_params`: registered learners, each with parameters it takes."""
    for name, params in (config.get("l3m2014", {}).get("learner_params") or {}).items():
        checks.learner_params("l3m2014.learner_params", name, params)


# its benchmark record (bench/l3m.py): bench/results/l3m.json
BENCH_ANCHORS = (Anchor("l3m", r"l3m_over_bk_cpu", "<=", 3, "L3M pass within 3x a bk_baseline epoch"),)
BENCH_HEADLINES = (Headline(r"l3m", "L3M pass over a bk_baseline epoch (CPU)", "l3m_over_bk_cpu", "<=", 3),)

# its config sections (validated and defaulted with the workflow's schema)
SCHEMA = config_schema(Path(__file__).with_name("config.schema.yaml"))

PAPER = Paper(
    name="l3m2014",
    title="Samdani, Chang & Roth 2014",
    help=HELP,
    verbs=VERBS,
    rules="rules/papers/l3m2014.smk",
    config=SCHEMA["l3m2014"],
    config_sections={"doccluster": SCHEMA["doccluster"]},
    targets=targets,
    system_names={
        "binleftlink": "Bin-Left-Link",
        "sumlink": "Sum-Link",
        "l3m": "L3M",
        "l3m_gamma0": "L3M (γ = 0)",
        "spanning_forest": "Spanning Forest",
        "corr_clustering": "Corr-Clustering",
        "cccp": "CCCP",
        "sgd": "SGD",
    },
    docs_blocker=docs_blocker,
    skipped=optional_data.skipped,
    claims=CLAIMS,
    bench_anchors=BENCH_ANCHORS,
    bench_headlines=BENCH_HEADLINES,
    findings_note=NOTE,
    findings_order=3,
    check_config=check_config,
)
