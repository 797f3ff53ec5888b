"""Singh et al. 2011's run grid: the prior each corpus is calibrated for (and by which rule), the traces of Fig. 7 and the
baselines of Table 2 (ECB+ only when its folder is configured), and the seeds the run jobs of
Figs. 5-7 trace besides `crossdoc.seed` (the workflow's `seeds`, run inside the same job: the
figures' bands). `Grid` binds the grid to a workflow config for workflow/rules/papers/singh2011.smk.
"""

import shlex

from coreflab.papers.singh2011 import optional_data
from coreflab.seeds import seeds_args


def tuning_params(crossdoc_config, corpus, context_suffix=""):
    """Rule, model, initialisation, string-weight grid and evaluated schedule of a corpus's prior:
    Person-X runs (Figs. 5-6) start from singletons with w meaningless (every string is X) and
    get b by the paper's Person-X rule (§5.2: the predicted number of entities equals the true
    one, `--rule entity-count`); the string-initialised runs (Fig. 7, Table 2) use the
    hierarchical model and b, w tuned by B3 F1 on held-out entities (§5.3, `--rule heldout-b3`)."""
    c = crossdoc_config
    if corpus == "personx":
        # mention-pair Person-X runs share the flat model's prior; node-level (union) runs score
        # aggregated contexts, whose cosines are on another scale, so they get their own
        union = context_suffix == "_union"
        return dict(
            rule="entity-count",
            model="hier" if union else "flat",
            context="union" if union else "pairwise",
            init="singletons",
            weights="0",
            start_w=0,
            rounds=c["rounds"],
            samples=c["samples_per_round"],
        )
    return dict(
        rule="heldout-b3",
        model="hier",
        context=c["context"],
        init="string",
        weights=" ".join(map(str, c["tune"]["string_weight_grid"])),
        start_w=c["string_weight"],
        rounds=c["large_rounds"],
        samples=c["large_samples_per_round"],
    )


def fig7_traces(crossdoc_config, ecbplus):
    """Traces of Fig. 7: the large corpus at every worker count, ECB+ (and within-topic) at the most, and
    ECB+'s pairwise (flat) model beside the combined one at the same prior: the super-entity level adds
    its own pull to every entity move that crosses super-entities, and Table 2 shows what it costs."""
    workers = crossdoc_config["workers"]
    out = [f"results/crossdoc/traces/large_string_hier_K{k}.csv" for k in workers]
    if ecbplus:
        out.append(f"results/crossdoc/traces/ecbplus_string_flat_K{max(workers)}.csv")
        out.append(f"results/crossdoc/traces/ecbplus_string_hier_K{max(workers)}.csv")
        out.append(f"results/crossdoc/traces/ecbplus_string_hier_K{max(workers)}_within.csv")  # within-topic
    return out


def ecbplus_source_args(crossdoc_config):
    """Arguments of `coreflab singh2011 ecbplus` naming where ECB+ comes from (a folder, the download, or both)."""
    args = []
    if crossdoc_config.get("ecbplus_dir"):
        args += ["--local-dir", shlex.quote(str(crossdoc_config["ecbplus_dir"]))]
    if crossdoc_config.get("ecbplus_download"):
        args.append("--download")
    return " ".join(args)


def baseline_corpora(ecbplus):
    return ["large", "ecbplus"] if ecbplus else ["large"]


class Grid:
    """The grid of one workflow config, as Snakemake input and params functions."""

    def __init__(self, config):
        self.config = config["crossdoc"]
        self.ecbplus = optional_data.ecbplus_available(config)
        self.seeds_args = seeds_args(config.get("seeds"))  # a string: the run rules' params

    def run_seeds_args(self, wildcards):
        """`--seeds` of one run job: none for node-level (union-context) runs, whose chains cost
        about 7 times a pairwise one (`personx_small`, K = 2: 38 s of inference vs 6 s): Fig. 6
        draws the union run without a band."""
        return "" if getattr(wildcards, "ctx", "") else self.seeds_args

    def tuning_params(self, wildcards):
        return tuning_params(self.config, wildcards.corpus, wildcards.ctx)

    def fig7_traces(self, wildcards):
        return fig7_traces(self.config, self.ecbplus)

    def ecbplus_source_args(self, wildcards):
        return ecbplus_source_args(self.config)

    def baseline_files(self, wildcards):
        return [f"results/crossdoc/baselines/{c}.csv" for c in baseline_corpora(self.ecbplus)]

    def significance_files(self, wildcards):
        return [f"results/crossdoc/significance/{c}.csv" for c in baseline_corpora(self.ecbplus)]

    def significance_models(self, wildcards):
        """The model runs Table 2 shows for a corpus (the most workers; ECB+ also within topic), as
        {setting: labels .npy}: the runs the bootstrap compares each baseline with."""
        k = max(self.config["workers"])
        out = {"whole_corpus": f"results/crossdoc/labels/{wildcards.corpus}_string_hier_K{k}.npy"}
        if wildcards.corpus == "ecbplus":
            out["within_topic"] = f"results/crossdoc/labels/ecbplus_string_hier_K{k}_within.npy"
        return out
