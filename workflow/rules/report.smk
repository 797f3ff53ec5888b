# Corpus overview, results manifest, skipped-experiments table and the generated docs pages,
# marked for `snakemake --report`.


def compiled_splits(wildcards):
    return [f"results/{wildcards.corpus}/compiled/{s}.npz" for s in SPLITS]


def config_json(wildcards):
    """The validated config (defaults filled in), for the results manifest."""
    return json.dumps(config, sort_keys=True)


def skipped_json(wildcards):
    """The skipped experiments as JSON (params: the table is rewritten when the set changes)."""
    return json.dumps(paper_registry.skipped_experiments(config))


def docs_templates():
    """docs/templates/results-<corpus>.md of every configured corpus that has one, results-<paper>.md of
    every paper run that has its own page (its experiments use corpora of their own), and the
    performance page (benchmark JSONs, made by `snakemake bench` or `python bench/<name>.py`).
    """
    names = (
        [f"results-{c}" for c in RUNS]
        + [f"results-{p}" for p in config["run"]["papers"]]
        + ["performance"]
    )
    return [
        f"docs/templates/{n}.md"
        for n in names
        if os.path.exists(os.path.join(REPO_DIR, f"docs/templates/{n}.md"))
    ]


def docs_inputs(wildcards):
    """Every result file the configured corpora's docs pages cite (so `snakemake docs` makes them)."""
    from coreflab.report.docs import references

    out = []
    for template in docs_templates():
        with open(os.path.join(REPO_DIR, template), encoding="utf-8") as fh:
            text = fh.read()
        out += [f"results/{r}" for r in references(text) if not r.startswith("bench/")]
    for paper in PAPER_PLUGINS.values():
        # a cited table nothing makes under this config: say why, before a MissingInputException would
        why = paper.docs_blocker(config, out) if paper.docs_blocker else None
        if why:
            sys.exit(f"coreflab: error: `snakemake docs` {why}")
    return sorted(set(out))


def docs_args(wildcards):
    pages = [(t, t.replace("docs/templates/", "docs/")) for t in docs_templates()]
    return " ".join(f"--template {t} --out {o}" for t, o in pages)


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
