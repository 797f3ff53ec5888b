"""Haponchyk & Moschitti 2017: the LSP experiments (feature ranking, tuning, learning runs), the
MELA regressor's training data, the run grid, Tables 1-4 and Figs. 2-3. The learners are
coreflab.learn.trees.lsp; the learned loss itself is coreflab.mela."""

from pathlib import Path

from coreflab.learn.tuned import Tuning
from coreflab.papers.hm2017.cli import HELP, VERBS
from coreflab.papers.hm2017.findings import CLAIMS
from coreflab.papers.registry import Paper, config_schema

OUTPUTS = [
    "paper/hm2017/table1.md",
    "paper/hm2017/fig2.png",
    "paper/hm2017/fig3.png",
    "paper/hm2017/table2.md",
    "paper/hm2017/table3.md",
    "paper/hm2017/table4.md",
]
TUNE = Tuning("results/{corpus}/paper/hm2017/tune/{learner}.json")
REGRESSOR_OF = "lsp_rho_from_"  # LSP_ρ with the regressor learned on another corpus


def system_name(name):
    if name.startswith(REGRESSOR_OF):
        return f"LSP_ρ (regressor of {name[len(REGRESSOR_OF) :]})"
    return None


# its config sections (validated and defaulted with the workflow's schema)
SCHEMA = config_schema(Path(__file__).with_name("config.schema.yaml"))

PAPER = Paper(
    name="hm2017",
    title="Haponchyk & Moschitti 2017",
    help=HELP,
    verbs=VERBS,
    rules="rules/papers/hm2017.smk",
    config=SCHEMA["hm2017"],
    targets=lambda config, runs: [f"results/{r}/{name}" for r in runs for name in OUTPUTS],
    system_names={"lsp_f": "LSP_F", "lsp_yj": "LSP_YJ", "lsp_rho": "LSP_ρ", "LSP_rho": "LSP_ρ"},
    system_name=system_name,
    # the leaderboard's LSPs: C and r of `coreflab hm2017 tune` (rule hm2017_tune), LSP_ρ's regressor
    tunings={
        **{(learner, name): TUNE for learner in ("lsp_f", "lsp_yj") for name in ("C", "r")},
        ("lsp_rho", "C"): TUNE,
        ("lsp_rho", "regressor"): Tuning("results/{corpus}/paper/hm2017/regressor.json", is_file=True),
    },
    claims=CLAIMS,
    findings_order=4,
)
