# Leaderboard systems: every configured learner trained on the same features and split.


include: "learn_helpers.smk"


rule train_system:
    input:
        unpack(system_training_inputs),
    output:
        model="results/{corpus}/models/{system}.npz",
        curve="results/{corpus}/curves/{system}.csv",
    log:
        "results/{corpus}/logs/train_{system}.log",
    benchmark:
        "results/{corpus}/benchmarks/train_{system}.tsv"
    wildcard_constraints:
        system=LEARNER_SYSTEM_REGEX,
    # before the paper experiments, which then fill the end of the run instead of one learner alone
    priority: 5
    conda:
        "../envs/coreflab.yaml"
    threads: 1
    resources:
        mem_mb=8000,
        runtime=120,
    params:
        learner=system_learner,
        params=system_params,
        seed=config["seed"],
        tuned=system_tuned_option,
        first_fit=system_first_fit_option,
    shell:
        "coreflab train --learner {params.learner} --compiled {input.compiled} --arcs {input.arcs} "
        "--dev-compiled {input.dev_compiled} --dev-arcs {input.dev_arcs} --dev-conll {input.dev_conll} "
        "--curve {output.curve} --params {params.params:q} {params.tuned} {params.first_fit} --seed {params.seed} "
        "--out {output.model} > {log} 2>&1"


rule predict_system:
    input:
        unpack(system_prediction_inputs),
    output:
        conll="results/{corpus}/predictions/{system}/{split}.conll",
    log:
        "results/{corpus}/logs/predict_{system}_{split}.log",
    benchmark:
        "results/{corpus}/benchmarks/predict_{system}_{split}.tsv"
    wildcard_constraints:
        system=LEARNER_SYSTEM_REGEX,
    conda:
        "../envs/coreflab.yaml"
    threads: 1
    resources:
        mem_mb=4000,
        runtime=30,
    params:
        singletons=singletons_flag,
    shell:
        "coreflab predict --model {input.model} --compiled {input.compiled} --arcs {input.arcs} "
        "--conll {input.conll} {params.singletons} --out {output.conll} > {log} 2>&1"


# tuned on the feature set selection starts from, so that selection judges templates with it too
rule tune_root_loss:
    input:
        unpack(
            lambda wildcards: training_inputs(
                wildcards.corpus, featureset_dir(config["selection"]["start"])
            )
        ),
    output:
        json="results/{corpus}/tuning/root_loss.json",
    log:
        "results/{corpus}/logs/tune_root_loss.log",
    benchmark:
        "results/{corpus}/benchmarks/tune_root_loss.tsv"
    # on every learner's path (data, features, root loss, selection): first, so that the jobs that
    # do not need them (Singh, 20 Newsgroups) fill the gaps instead of running before them
    priority: 20
    conda:
        "../envs/coreflab.yaml"
    threads: 1
    resources:
        mem_mb=8000,
        runtime=60,
    params:
        grid=root_loss_grid,
        iterations=config["root_loss"]["iterations"],
        seed=config["seed"],
    shell:
        "coreflab tune-root-loss --compiled {input.compiled} --arcs {input.arcs} --dev-compiled {input.dev_compiled} "
        "--dev-arcs {input.dev_arcs} --dev-conll {input.dev_conll} --grid {params.grid} "
        "--iterations {params.iterations} --seed {params.seed} --out {output.json} > {log} 2>&1"
