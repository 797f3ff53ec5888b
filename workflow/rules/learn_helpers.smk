# Input functions and settings of learn.smk's rules (Snakemake's lint wants rules and functions apart).


def system_tuning_files(wildcards):
    """{parameter: file} of the values a leaderboard learner takes from tuning (its `tuned_params`,
    coreflab.learn.tuned) that its config's parameters do not set: the root loss, or a paper's tuning.
    """
    entry = config["learners"][wildcards.system]
    return tuning_files(
        entry["learner"],
        get_learner(entry["learner"]),
        entry.get("params", {}),
        wildcards.corpus,
        TUNINGS,
    )


def system_training_inputs(wildcards):
    """Training inputs, the files of the values the learner takes from tuning, and the model of the
    system whose fit is this one's first (`first_fit`: C&C's SLT takes BASE's, first_fit_source).
    """
    out = training_inputs(wildcards.corpus)
    for name, path in system_tuning_files(wildcards).items():
        out[f"tuned_{name}"] = path
    source = first_fit_source(config["learners"], config["systems"], wildcards.system)
    if source is not None:
        out["first_fit"] = f"results/{wildcards.corpus}/models/{source}.npz"
    return out


def system_first_fit_option(wildcards, input):
    return f"--first-fit {input.first_fit}" if "first_fit" in input.keys() else ""


def system_tuned_option(wildcards, input):
    return " ".join(
        f"--tuned {arg}"
        for arg in tuned_args(
            system_tuning_files(wildcards),
            TUNINGS,
            config["learners"][wildcards.system]["learner"],
        )
    )


def root_loss_grid(wildcards):
    return ",".join(f"{x:g}" for x in config["root_loss"]["grid"])


def system_prediction_inputs(wildcards):
    return {
        "model": f"results/{wildcards.corpus}/models/{wildcards.system}.npz",
        **split_inputs(wildcards.corpus, wildcards.split),
    }


def system_learner(wildcards):
    return config["learners"][wildcards.system]["learner"]


def system_params(wildcards):
    return json.dumps(
        config["learners"][wildcards.system].get("params", {}), sort_keys=True
    )
