# Input functions and settings of report.smk's rules (Snakemake's lint wants rules and functions apart).


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
