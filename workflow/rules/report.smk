# Leaderboards and figures, marked for `snakemake --report`.


localrules:
    manifest,
    docs,
    skipped_experiments,
    leaderboard,
    overview,
    bk2014_report,
    bk2014_table2,
    cc2007_tables,
    l3m2014_tables,
    hm2017_table1,
    hm2017_report,


rule leaderboard:
    input:
        unpack(leaderboard_inputs),
    output:
        csv="results/{corpus}/leaderboard.csv",
        md=report(
            "results/{corpus}/leaderboard.html",
            caption="../report/leaderboard.rst",
            category="Leaderboards",
            labels={"corpus": "{corpus}", "table": "leaderboard"},
        ),
        md_md="results/{corpus}/leaderboard.md",
        tex="results/{corpus}/leaderboard.tex",
        costs=report(
            "results/{corpus}/leaderboard_costs.html",
            caption="../report/leaderboard_costs.rst",
            category="Leaderboards",
            labels={"corpus": "{corpus}", "table": "training cost"},
        ),
        costs_md="results/{corpus}/leaderboard_costs.md",
        costs_csv="results/{corpus}/leaderboard_costs.csv",
    params:
        prefix="results/{corpus}/leaderboard",
        extra=leaderboard_args,
        seed=config["seed"],
    log:
        "results/{corpus}/logs/leaderboard.log",
    benchmark:
        "results/{corpus}/benchmarks/leaderboard.tsv"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    conda:
        "../envs/coreflab.yaml"
    shell:
        "coreflab leaderboard --scores {input.scores} --split test {params.extra} --seed {params.seed} "
        "--out-prefix {params.prefix} > {log} 2>&1"


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
