"""Björkelund & Kuhn 2014: the run grid of the update strategies, and Figs. 3-4 and Tables 1-2.
The latent-tree learners are coreflab.learn.trees.bk; template selection and root-loss tuning,
which feed every learner, are coreflab.learn.selection and coreflab.learn.trees.root_loss."""

from pathlib import Path

from coreflab.papers.bk2014.cli import HELP, VERBS
from coreflab.papers.bk2014.findings import CLAIMS
from coreflab.papers.registry import Paper, config_schema

OUTPUTS = [
    "paper/bk2014/fig3.png",
    "paper/bk2014/fig4.png",
    "paper/bk2014/table1.md",
    "paper/bk2014/nonlocal_seeds.md",
    "selection/steps.csv",
]
TABLE2 = "paper/bk2014/table2.md"  # the leaderboard beside delayed LaSO: made when that system is on it


def targets(config, runs):
    table2 = [f"results/{r}/{TABLE2}" for r in runs] if "bk_delayed_laso" in config["systems"] else []
    return table2 + [f"results/{r}/{name}" for r in runs for name in OUTPUTS]


def check_config(config, checks):
    """`bk2014.nonlocal_templates`, a list of known non-local templates or `selected`."""
    checks.nonlocal_templates("bk2014.nonlocal_templates", config.get("bk2014", {}).get("nonlocal_templates"), True)


# its config sections (validated and defaulted with the workflow's schema)
SCHEMA = config_schema(Path(__file__).with_name("config.schema.yaml"))

PAPER = Paper(
    name="bk2014",
    title="Björkelund & Kuhn 2014",
    help=HELP,
    verbs=VERBS,
    rules="rules/papers/bk2014.smk",
    config=SCHEMA["bk2014"],
    targets=targets,
    system_names={
        "bk_baseline": "B&K baseline",  # beside other papers' systems; B&K's own figures say "baseline"
        "bk_early": "early update",
        "bk_maxviolation": "max-violation",
        "bk_laso": "LaSO",
        "bk_delayed_laso": "delayed LaSO",
    },
    claims=CLAIMS,
    findings_order=1,
    check_config=check_config,
)
