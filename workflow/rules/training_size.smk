# Where learning overtakes rules: each learner trained on 5, 10, 20, 40, 80 and all
# training documents (seeded draws per size), scored on the test split against the sieve's and
# string match's flat lines. Its own target, not in `all`: `snakemake --cores 2 training_size`.
# Cost: per learner and run, draws x (sizes + 1) trainings (18 with the defaults), three of them on
# the whole split, so about three times the leaderboard's training of that learner plus the
# small ones; it needs the leaderboard's inputs (features, template selection, tuning) and the
# sieve's and string match's test scores. Config: `training_size` (sizes, draws, learners, mentions).
# Measured on 2 cores: the curves' jobs take 280 CPU-s on synth (gold) and 220 on synth_predicted,
# 21 min wall with everything they need from scratch; LitBank (gold) 120 CPU-s, 6.5 min from scratch.


include: "training_size_helpers.smk"


localrules:
    training_size,
    training_size_report,


rule training_size_curve:
    input:
        unpack(training_size_curve_inputs),
    output:
        csv="results/{corpus}/training_size/curves/{system}.csv",
    log:
        "results/{corpus}/logs/training_size_{system}.log",
    benchmark:
        "results/{corpus}/benchmarks/training_size_{system}.tsv"
    wildcard_constraints:
        system=LEARNER_SYSTEM_REGEX,
    conda:
        "../envs/coreflab.yaml"
    threads: 1
    resources:
        mem_mb=8000,
        runtime=720,
    params:
        learner=system_learner,
        params=system_params,
        tuned=system_tuned_option,
        sizes=" ".join(str(n) for n in TRAINING_SIZE["sizes"]),
        draws=TRAINING_SIZE["draws"],
        seed=config["seed"],
        singletons=config["response_singletons"],
    shell:
        "coreflab training-size --learner {params.learner} --system {wildcards.system} --params {params.params:q} "
        "{params.tuned} --train-compiled {input.compiled} --train-arcs {input.arcs} "
        "--dev-compiled {input.dev_compiled} --dev-arcs {input.dev_arcs} --dev-conll {input.dev_conll} "
        "--test-compiled {input.test_compiled} --test-arcs {input.test_arcs} --test-conll {input.test_conll} "
        "--sizes {params.sizes} --draws {params.draws} --seed {params.seed} --singletons {params.singletons} "
        "--out {output.csv} > {log} 2>&1"


rule training_size_report:
    input:
        unpack(training_size_report_inputs),
    output:
        csv="results/{corpus}/training_size/curve.csv",
        md="results/{corpus}/training_size/curve.md",
        json="results/{corpus}/training_size/crossover.json",
        png=report(
            "results/{corpus}/training_size/figure.png",
            caption="../report/training_size.rst",
            category="Training size",
            labels={"corpus": "{corpus}", "figure": "training size"},
        ),
        pdf="results/{corpus}/training_size/figure.pdf",
    log:
        "results/{corpus}/logs/training_size_report.log",
    conda:
        "../envs/coreflab.yaml"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=5,
    params:
        args=training_size_report_args,
    shell:
        "coreflab training-size-report {params.args} --out results/{wildcards.corpus}/training_size "
        "> {log} 2>&1"


# the separate target (not in `all`): see the cost above
rule training_size:
    input:
        training_size_targets,
