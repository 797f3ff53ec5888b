# Corpus overview, results manifest, skipped-experiments table and the generated docs pages,
# marked for `snakemake --report`.


include: "report_helpers.smk"


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
    log:
        "results/{corpus}/logs/overview.log",
    benchmark:
        "results/{corpus}/benchmarks/overview.tsv"
    conda:
        "../envs/coreflab.yaml"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=5,
    params:
        window=lambda wildcards: (
            f"--window {config['features']['window']}"
            if config["features"]["window"]
            else ""
        ),
    shell:
        "coreflab overview --compiled {input.compiled} --corpus {wildcards.corpus} "
        "--png {output.png} --pdf {output.pdf} {params.window} --reach-json {output.reach} > {log} 2>&1"


rule manifest:
    output:
        json="results/{corpus}/manifest.json",
    log:
        "results/{corpus}/logs/manifest.log",
    benchmark:
        "results/{corpus}/benchmarks/manifest.tsv"
    conda:
        "../envs/coreflab.yaml"
    threads: 1
    resources:
        mem_mb=500,
        runtime=5,
    params:
        config=config_json,
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
    log:
        "results/logs/skipped_experiments.log",
    conda:
        "../envs/coreflab.yaml"
    threads: 1
    resources:
        mem_mb=500,
        runtime=5,
    params:
        skipped=skipped_json,
    shell:
        "coreflab skipped --skipped-json {params.skipped:q} --out-md {output.md} --out-html {output.html} > {log} 2>&1"


rule docs:
    input:
        docs_inputs,
    log:
        "results/logs/docs.log",
    conda:
        "../envs/coreflab.yaml"
    params:
        pages=docs_args,
        # last: the scorecard reads every corpus in the snapshot, as the pages before it left it
        findings="--template docs/templates/findings.md --out docs/findings.md",
    shell:
        "coreflab docs {params.pages} {params.findings} --results results --snapshot docs/numbers > {log} 2>&1 && cat {log}"
