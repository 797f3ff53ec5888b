# Input functions and settings of leaderboard.smk's rules (Snakemake's lint wants rules and functions apart).


def leaderboard_inputs(wildcards):
    c = wildcards.corpus
    out = {
        "scores": f"results/{c}/scores/systems_test.csv",
        "compiled": f"results/{c}/compiled/test.npz",
    }
    for s in systems():
        out[f"json_{s}"] = f"results/{c}/scores/{s}/test.json"
        if s in LEARNER_SYSTEMS:
            out[f"bench_{s}"] = f"results/{c}/benchmarks/train_{s}.tsv"
    return out


def leaderboard_args(wildcards, input):
    args = [f"--compiled {input.compiled}"]
    args += [f"--score-json {s}={input.get('json_%s' % s)}" for s in systems()]
    args += [
        f"--benchmark {s}={input.get('bench_%s' % s)}"
        for s in systems()
        if s in LEARNER_SYSTEMS
    ]
    return " ".join(args)
