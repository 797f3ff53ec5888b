# The arc feature store of every split (local features of every candidate arc, computed once), and
# greedy template selection (B&K 2014 Sec. 6): featureset `selected` is its output, which every learner
# is trained on.


include: "features_helpers.smk"


rule features:
    input:
        unpack(featureset_inputs),
    output:
        arcs="results/{corpus}/features/{featureset}/{split}.npz",
    log:
        "results/{corpus}/logs/features_{featureset}_{split}.log",
    benchmark:
        "results/{corpus}/benchmarks/features_{featureset}_{split}.tsv"
    # on every learner's path (data, features, root loss, selection): first, so that the jobs that
    # do not need them (Singh, 20 Newsgroups) fill the gaps instead of running before them
    priority: 20
    conda:
        "../envs/coreflab.yaml"
    threads: 1
    resources:
        mem_mb=6000,
        runtime=30,
    params:
        bits=config["features"]["bits"],
        window=window_option,
        featureset=featureset_arg,
        layout="" if config["features"]["shared_rows"] else "--flat",
    shell:
        "coreflab features --compiled {input.compiled} --featureset {params.featureset} "
        "--bits {params.bits} {params.window} {params.layout} --out {output.arcs} > {log} 2>&1"


rule select_templates:
    input:
        unpack(selection_inputs),
    output:
        log=report(
            "results/{corpus}/selection/steps.html",
            caption="../report/selection.rst",
            category="Björkelund & Kuhn 2014",
            labels={"corpus": "{corpus}", "item": "feature selection"},
        ),
        log_csv="results/{corpus}/selection/steps.csv",
        featureset="results/{corpus}/selection/selected.yaml",
    log:
        "results/{corpus}/logs/select_templates.log",
    benchmark:
        "results/{corpus}/benchmarks/select_templates.tsv"
    # on every learner's path (data, features, root loss, selection): first, so that the jobs that
    # do not need them (Singh, 20 Newsgroups) fill the gaps instead of running before them
    priority: 20
    conda:
        "../envs/coreflab.yaml"
    threads: config["selection"]["jobs"]
    resources:
        mem_mb=8000,
        runtime=240,
    params:
        mentions=mentions_param,
        model=selection_model_args,
        start=config["selection"]["start"],
        candidates=config["selection"]["candidates"],
        nonlocal_candidates=",".join(config["selection"]["nonlocal_candidates"]),
        iterations=config["selection"]["iterations"],
        nonlocal_schedule=selection_nonlocal_schedule,
        max_steps=config["selection"]["max_steps"],
        nonlocal_max_steps=selection_option("nonlocal_max_steps"),
        sample="" if config["selection"]["sample"] else "--no-sample",
        seed=config["seed"],
        bits=config["features"]["bits"],
        window=window_option,
        singletons=config["response_singletons"],
    shell:
        "coreflab select --conll {input.conll} --corpus {wildcards.corpus} --mentions {params.mentions} {params.model} "
        "--singletons {params.singletons} --policy-from {input.compiled} "
        "--start {params.start} --candidates {params.candidates} --nonlocal {params.nonlocal_candidates:q} "
        "--iterations {params.iterations} {params.nonlocal_schedule} --bits {params.bits} {params.window} --max-steps {params.max_steps} {params.nonlocal_max_steps} {params.sample} --jobs {threads} --seed {params.seed} "
        "--tuned {input.tuned} --log-out {output.log_csv} --out {output.featureset} > {log} 2>&1"
