# Input functions and settings of evaluate.smk's rules (Snakemake's lint wants rules and functions apart).


def score_files(wildcards):
    return {
        s: f"results/{wildcards.corpus}/scores/{s}/{wildcards.split}.json"
        for s in systems()
    }


def score_args(wildcards, input):
    return " ".join(f"--score {s}={input[s]}" for s in systems())
