# The registered papers (coreflab.papers.registry), their rule files and targets, and the default target's
# files: every run's leaderboard, manifest and overview, and the configured papers' outputs.


# the registered papers, each with its rule file (included by the Snakefile) and its targets
PAPER_PLUGINS = {paper.name: paper for paper in paper_registry.papers()}
PAPERS = list(PAPER_PLUGINS)


def paper_rule_file(paper):
    return paper_registry.rule_file(PAPER_PLUGINS[paper], workflow.basedir)


def paper_targets(paper):
    """The outputs of one paper's experiments for the configured runs."""
    return PAPER_PLUGINS[paper].targets(config, paper_runs(paper))


def paper_runs(paper):
    """The runs a paper's experiments use: those with its mentions (`paper_mentions`) when the config
    runs that mode, else every run."""
    wanted = config["paper_mentions"].get(paper)
    if wanted not in MENTION_MODES:
        return RUNS
    return [r for r in RUNS if run_mentions(r) == wanted]


def all_targets(wildcards):
    out = []
    for corpus in RUNS:
        out += [
            f"results/{corpus}/manifest.json",
            f"results/{corpus}/leaderboard.md",
            f"results/{corpus}/overview.png",
            f"results/{corpus}/overview.pdf",
        ]
        if mention_model_used(corpus):
            out.append(f"results/{corpus}/mentions/detection.md")
        # models are targets too: deleting one reruns its training and exactly what depends on it
        # (Snakemake does not regenerate a missing intermediate file whose consumers are up to date)
        out += [
            f"results/{corpus}/models/{s}.npz"
            for s in systems()
            if s in LEARNER_SYSTEMS
        ]
    for paper in config["run"]["papers"]:
        out.extend(paper_targets(paper))
    out.append("results/skipped_experiments.md")
    return out
