# Input functions and settings of training_size.smk's rules (Snakemake's lint wants rules and functions apart).

TRAINING_SIZE = config["training_size"]
TRAINING_SIZE_RUNS = [
    run_name(c, m) for c in config["run"]["corpora"] for m in TRAINING_SIZE["mentions"]
]
TRAINING_SIZE_FILES = (
    "curve.csv",
    "curve.md",
    "crossover.json",
    "figure.png",
    "figure.pdf",
)


def training_size_learners():
    """The curve's learners: those of `training_size.learners` the config configures (`learners`), on
    the leaderboard or not (the tuning jobs make their tuned values either way); the others are left
    out (and named in curve.md).
    """
    return [s for s in TRAINING_SIZE["learners"] if s in LEARNER_SYSTEMS]


def training_size_left_out():
    return [s for s in TRAINING_SIZE["learners"] if s not in training_size_learners()]


def training_size_curve_inputs(wildcards):
    """Training inputs (with the files of the values the learner takes from tuning) and the test split."""
    out = system_training_inputs(wildcards)
    for kind, path in split_inputs(wildcards.corpus, "test").items():
        out[f"test_{kind}"] = path
    return out


def training_size_report_inputs(wildcards):
    if "sieve" not in LEARNER_SYSTEMS:
        sys.exit(
            "coreflab: error: `snakemake training_size` draws the sieve's flat line: configure it "
            "(learners: {sieve: {learner: sieve}})"
        )
    c = wildcards.corpus
    out = {
        f"curve_{s}": f"results/{c}/training_size/curves/{s}.csv"
        for s in training_size_learners()
    }
    out["rule_sieve"] = f"results/{c}/scores/sieve/test.json"
    out["rule_string_match"] = f"results/{c}/scores/string_match/test.json"
    return out


def training_size_report_args(wildcards, input):
    args = [f"--curve {input[k]}" for k in input.keys() if k.startswith("curve_")]
    args += [
        f"--rule {k.removeprefix('rule_')}={input[k]}"
        for k in input.keys()
        if k.startswith("rule_")
    ]
    args += [f"--left-out {s}" for s in training_size_left_out()]
    mode = run_mentions(wildcards.corpus)
    args.append(f"--run '{run_source(wildcards.corpus)}, {mode} mentions'")
    return " ".join(args)


def training_size_targets(wildcards):
    return [
        f"results/{run}/training_size/{name}"
        for run in TRAINING_SIZE_RUNS
        for name in TRAINING_SIZE_FILES
    ]
