# Björkelund & Kuhn 2014, Sec. 6: greedy forward/backward template selection on the training split.


rule select_templates:
    input:
        conll="results/{corpus}/data/train.conll",
        tuned="results/{corpus}/tuning/root_loss.json",
    output:
        log=report(
            "results/{corpus}/selection/steps.html",
            caption="../report/selection.rst",
            category="Björkelund & Kuhn 2014",
            labels={"corpus": "{corpus}", "item": "feature selection"},
        ),
        log_csv="results/{corpus}/selection/steps.csv",
        featureset="results/{corpus}/selection/selected.yaml",
    params:
        mentions=config["mentions"],
        start=config["selection"]["start"],
        candidates=config["selection"]["candidates"],
        nonlocal_candidates=",".join(config["selection"]["nonlocal_candidates"]),
        iterations=config["selection"]["iterations"],
        max_steps=config["selection"]["max_steps"],
        seed=config["seed"],
        bits=config["features"]["bits"],
        window=window_option,
    log:
        "results/{corpus}/logs/select_templates.log",
    benchmark:
        "results/{corpus}/benchmarks/select_templates.tsv"
    threads: 2
    resources:
        mem_mb=8000,
        runtime=240,
    conda:
        "../envs/coreflab.yaml"
    shell:
        "coreflab select --conll {input.conll} --corpus {wildcards.corpus} --mentions {params.mentions} "
        "--start {params.start} --candidates {params.candidates} --nonlocal {params.nonlocal_candidates:q} "
        "--iterations {params.iterations} --bits {params.bits} {params.window} --max-steps {params.max_steps} --jobs {threads} --seed {params.seed} "
        "--tuned {input.tuned} --log-out {output.log_csv} --out {output.featureset} > {log} 2>&1"
