"""Choi & Cardie 2007's run grid: BASE and both SLT E-steps, unbiased and with every bias × λ
(Tables 1-3). A run is named `<learner>-<bias>-<λ>` (`cc_slt_closest-p1-1.5`, unbiased:
`<learner>-none-1`); `run_name` and `parse_run` are inverse. `Grid` binds the grid to a
workflow config for workflow/rules/papers/cc2007.smk.
"""

LEARNERS = ("cc_base", "cc_slt_closest", "cc_slt_preserving")


def run_name(learner, bias, weight):
    return f"{learner}-{bias}-{weight:g}" if not isinstance(weight, str) else f"{learner}-{bias}-{weight}"


def parse_run(run):
    """(learner, bias, weight as written) of a run name."""
    learner, bias, weight = run.rsplit("-", 2)
    return learner, bias, weight


def runs(cc_config):
    """Run names of config["cc2007"], learner by learner (the order Tables 1-3 list them)."""
    out = []
    for learner in LEARNERS:
        out.append(run_name(learner, "none", "1"))
        out += [run_name(learner, b, w) for b in cc_config["biases"] for w in cc_config["bias_weights"]]
    return out


def run_args(run):
    """`coreflab cc2007 run` options of one run."""
    learner, bias, weight = parse_run(run)
    return f"--learner {learner} --bias {bias} --bias-weight {weight}"


class Grid:
    """The grid of one workflow config, as Snakemake input and params functions."""

    def __init__(self, config):
        self.config = config["cc2007"]

    def runs(self):
        return runs(self.config)

    def run_args(self, wildcards):
        return run_args(wildcards.run)

    def run_files(self, wildcards):
        return [f"results/{wildcards.corpus}/paper/cc2007/runs/{r}.csv" for r in self.runs()]
