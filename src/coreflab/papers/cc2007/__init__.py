"""Choi & Cardie 2007: per-EM-iteration evaluation, the run grid and Tables 1-3. The learners are
coreflab.learn.pairwise.crf_slt."""

from pathlib import Path

from coreflab.papers.cc2007.cli import HELP, VERBS
from coreflab.papers.cc2007.findings import CLAIMS
from coreflab.papers.registry import Paper, config_schema
from coreflab.report.bench_targets import Anchor, Headline

OUTPUTS = ["paper/cc2007/table1.md", "paper/cc2007/table2.md", "paper/cc2007/table3.md"]

# its benchmark records (bench/cc2007.py): bench/results/cc2007.json, cc2007_fits_<label>.json (bench/cc2007_fits.py) and cc2007_conll2012_size*.json
BENCH_ANCHORS = (
    Anchor(
        "cc2007", r"synth_default_slt_5_iterations\.(wall_s|cpu_s)", "<=", 180, "SLT, 5 EM iterations, default corpus"
    ),
)
BENCH_HEADLINES = (
    Headline(
        r"cc2007", "C&C SLT, 5 EM iterations, default corpus (CPU s)", "synth_default_slt_5_iterations.cpu_s", "<=", 180
    ),
    Headline(
        r"cc2007_fits_.+",
        "C&C pair-model fits of `config/{label}.yaml`'s grid and leaderboard, summed (CPU s)",
        "after.total.cpu_s",
        reference="before.total.cpu_s",
        reference_text="each fit made on its own",
    ),
    Headline(
        r"cc2007_conll2012_size(_fine)?",
        "C&C fit at CoNLL-2012 size, bytes per pair beyond the store",
        "store_dir_train.bytes_per_pair_beyond_inputs",
        "<=",
        200,
    ),
)

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
    bench_anchors=BENCH_ANCHORS,
    bench_headlines=BENCH_HEADLINES,
    findings_order=2,
)
