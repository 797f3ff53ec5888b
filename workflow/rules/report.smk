# Corpus overview, results manifest, skipped-experiments table and the generated docs pages,
# marked for `snakemake --report`.


localrules:
    manifest,
    docs,
    skipped_experiments,
    overview,


rule overview:
    input:
        compiled=compiled_splits,
    output:
        png=report(
            "results/{corpus}/overview.png",
            caption="../report/overview.rst",
            category="Corpora",
            labels={"corpus": "{corpus}", "figure": "overview"},
        ),
        pdf="results/{corpus}/overview.pdf",
        reach="results/{corpus}/overview.reach.json",
    params:
        window=lambda wildcards: f"--window {config['features']['window']}" if config["features"]["window"] else "",
    log:
        "results/{corpus}/logs/overview.log",
    benchmark:
        "results/{corpus}/benchmarks/overview.tsv"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=5,
    conda:
        "../envs/coreflab.yaml"
    shell:
        "coreflab overview --compiled {input.compiled} --corpus {wildcards.corpus} "
        "--png {output.png} --pdf {output.pdf} {params.window} --reach-json {output.reach} > {log} 2>&1"


rule manifest:
    output:
        json="results/{corpus}/manifest.json",
    params:
        config=config_json,
    log:
        "results/{corpus}/logs/manifest.log",
    benchmark:
        "results/{corpus}/benchmarks/manifest.tsv"
    threads: 1
    resources:
        mem_mb=500,
        runtime=5,
    conda:
        "../envs/coreflab.yaml"
    shell:
        "coreflab manifest --config-json {params.config:q} --out {output.json} > {log} 2>&1"


rule skipped_experiments:
    output:
        html=report(
            "results/skipped_experiments.html",
            caption="../report/skipped_experiments.rst",
            category="Corpora",
            labels={"table": "skipped experiments"},
        ),
        md="results/skipped_experiments.md",
    params:
        skipped=skipped_json,
    log:
        "results/logs/skipped_experiments.log",
    threads: 1
    resources:
        mem_mb=500,
        runtime=5,
    conda:
        "../envs/coreflab.yaml"
    shell:
        "coreflab skipped --skipped-json {params.skipped:q} --out-md {output.md} --out-html {output.html} > {log} 2>&1"


rule docs:
    input:
        docs_inputs,
    params:
        pages=docs_args,
    log:
        "results/logs/docs.log",
    conda:
        "../envs/coreflab.yaml"
    shell:
        "coreflab docs {params.pages} --results results --snapshot docs/numbers > {log} 2>&1 && cat {log}"
