"""Samdani, Chang & Roth 2014's run grid: the techniques of Table 1 (the four baselines and L3M at
every γ of config["l3m2014"]["gammas"]), their learner parameters, and the 20 Newsgroups runs of
Table 2. L3M at γ is the technique `l3m-g<γ>` (`l3m-g0.5`); `technique_name` and
`parse_technique` are inverse. `Grid` binds the grid to a workflow config for
workflow/rules/papers/l3m2014.smk.
"""

import json
import shlex

from coreflab.papers.l3m2014 import optional_data

BASELINES = ("corr_clustering", "spanning_forest", "sumlink", "binleftlink")
ONLINE_LEARNERS = ("sumlink", "binleftlink", "l3m")  # Table 1's online techniques (order control, §5.4)
ONLINE_TECHNIQUES = ("sumlink", "binleftlink", "l3m_gamma0", "l3m")  # their Table 2 names
NEWSGROUPS_CCCP = "results/doccluster/runs/cccp_vs_sgd.csv"
L3M_PREFIX = "l3m-g"
DOCCLUSTER_KEYS = ("author", "thread")
DOCCLUSTER_ORDERS = ("natural", "shuffled")


def technique_name(gamma):
    """The technique of L3M at γ."""
    return f"{L3M_PREFIX}{gamma:g}"


def parse_technique(technique):
    """(learner, γ or None) of a technique."""
    if technique.startswith(L3M_PREFIX):
        return "l3m", float(technique[len(L3M_PREFIX) :])
    return technique, None


def techniques(l3m_config):
    return [*BASELINES, *(technique_name(g) for g in l3m_config["gammas"])]


def technique_params(l3m_config, technique):
    """Learner parameters: config["l3m2014"]["learner_params"] of the learner, plus γ for L3M."""
    learner, gamma = parse_technique(technique)
    params = dict(l3m_config["learner_params"].get(learner, {}))
    if gamma is not None:
        params["gamma"] = gamma
    return params


def cccp_file(corpus):
    """The CCCP-vs-SGD run a corpus's tables show: on the corpus's own training documents (the 20 Newsgroups
    run has its own tables, `newsgroups-tables`)."""
    return f"results/{corpus}/paper/l3m2014/runs/cccp_vs_sgd.csv"


def doccluster_files(config):
    """The 20 Newsgroups runs (one per key × mention order), none when the experiment is off."""
    if not optional_data.doccluster_enabled(config):
        return []
    return [f"results/doccluster/runs/{k}_{o}.csv" for k in DOCCLUSTER_KEYS for o in DOCCLUSTER_ORDERS]


class Grid:
    """The grid of one workflow config, as Snakemake input and params functions."""

    def __init__(self, config):
        self.full_config = config
        self.config = config["l3m2014"]

    def techniques(self):
        return techniques(self.config)

    def learner(self, wildcards):
        return parse_technique(wildcards.technique)[0]

    def params(self, wildcards):
        return json.dumps(technique_params(self.config, wildcards.technique), sort_keys=True)

    def doccluster_enabled(self):
        return optional_data.doccluster_enabled(self.full_config)

    def doccluster_source_args(self):
        """`--local-dir DIR` for a local copy of 20 Newsgroups; nothing when `local_dir` is null or
        empty, so that the command downloads it (a quoted None or '' would be read as a folder)."""
        local = self.full_config["doccluster"].get("local_dir")
        return f"--local-dir {shlex.quote(str(local))}" if local else ""

    def doccluster_tune_args(self):
        """Table 2's tuning grid and pass counts: λ and η0 for every technique, r for Spanning Forest."""
        d = self.full_config["doccluster"]
        tune = d["tune"]
        join = lambda xs: ",".join(f"{float(x):g}" for x in xs)  # noqa: E731
        return (
            f"--batch-passes {d['batch_passes']} --gammas {join(self.config['gammas'])} --lams {join(tune['lam'])} "
            f"--eta0s {join(tune['eta0'])} --rs {join(tune['r'])}"
        )

    def doccluster_shuffle_flag(self, wildcards):
        """Shuffled runs serve the order control (§5.4), which covers the online techniques only."""
        if wildcards.order != "shuffled":
            return ""
        return "--shuffle-items --techniques " + ",".join(ONLINE_TECHNIQUES)

    def study_curves(self, wildcards):
        """The curves the studies read Table 1's dev-tuned systems from: the online techniques' (robustness
        and CCCP take L3M's λ, η0 at γ = 1; order control runs every online system as tuned)."""
        base = f"results/{wildcards.corpus}/paper/l3m2014/runs"
        return [f"{base}/curves_{t}.csv" for t in self.techniques() if parse_technique(t)[0] in ONLINE_LEARNERS]

    def cccp_args(self):
        c = self.config
        return (
            f"--docs {c['cccp_docs']} --draws {c['cccp_draws']} --max-outer {c['cccp_max_outer']} "
            f"--inner {c['cccp_inner']} --tol {c['cccp_tol']}"
        )

    def table_inputs(self, wildcards):
        base = f"results/{wildcards.corpus}/paper/l3m2014/runs"
        return {
            "curves": [f"{base}/curves_{t}.csv" for t in self.techniques()],
            "robustness": f"{base}/robustness.csv",
            "cccp": cccp_file(wildcards.corpus),
            "order": f"{base}/order_control.csv",
            "doccluster": doccluster_files(self.full_config),
        }

    def doccluster_args(self, wildcards, input):
        files = " ".join(input.doccluster)
        return f"--doccluster {files}" if input.doccluster else ""
