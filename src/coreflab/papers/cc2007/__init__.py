"""Choi & Cardie 2007: per-EM-iteration evaluation, the run grid and Tables 1-3. The learners are
coreflab.learn.pairwise.crf_slt."""

from pathlib import Path

from coreflab.papers.cc2007.cli import HELP, VERBS
from coreflab.papers.cc2007.findings import CLAIMS
from coreflab.papers.registry import Paper, config_schema

OUTPUTS = ["paper/cc2007/table1.md", "paper/cc2007/table2.md", "paper/cc2007/table3.md"]

# its config sections (validated and defaulted with the workflow's schema)
SCHEMA = config_schema(Path(__file__).with_name("config.schema.yaml"))

PAPER = Paper(
    name="cc2007",
    title="Choi & Cardie 2007",
    help=HELP,
    verbs=VERBS,
    rules="rules/papers/cc2007.smk",
    config=SCHEMA["cc2007"],
    targets=lambda config, runs: [f"results/{r}/{name}" for r in runs for name in OUTPUTS],
    system_names={"cc_base": "BASE", "cc_slt_closest": "SLT (closest)", "cc_slt_preserving": "SLT (preserving)"},
    claims=CLAIMS,
    findings_order=2,
)
