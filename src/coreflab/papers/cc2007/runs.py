"""Choi & Cardie 2007's run grid: BASE and both SLT E-steps, unbiased and with every bias × λ
(Tables 1-3). A run is named `<learner>-<bias>-<λ>` (`cc_slt_closest-p1-1.5`, unbiased:
`<learner>-none-1`); `run_name` and `parse_run` are inverse. One job trains the three learners
of a setting `<bias>-<λ>` together (they share their first fit); `Grid` binds the grid to a
workflow config for workflow/rules/papers/cc2007.smk. A learner the leaderboard trains with the
same fit settings (`stand_ins`) is scored from the leaderboard's model instead of fitted again.
"""

LEARNERS = ("cc_base", "cc_slt_closest", "cc_slt_preserving")


def setting_name(bias, weight):
    """`<bias>-<λ>` (λ as %g unless given as written): the part of a run name one job trains."""
    return f"{bias}-{weight:g}" if not isinstance(weight, str) else f"{bias}-{weight}"


def run_name(learner, bias, weight):
    return f"{learner}-{setting_name(bias, weight)}"


def parse_run(run):
    """(learner, bias, weight as written) of a run name."""
    learner, bias, weight = run.rsplit("-", 2)
    return learner, bias, weight


def runs(cc_config):
    """Run names of config["cc2007"], learner by learner (the order Tables 1-3 list them)."""
    return [f"{learner}-{setting}" for learner in LEARNERS for setting in settings(cc_config)]


def settings(cc_config):
    """The `<bias>-<λ>` settings of config["cc2007"]: unbiased first, then every bias × λ."""
    return [setting_name("none", "1")] + [
        setting_name(b, w) for b in cc_config["biases"] for w in cc_config["bias_weights"]
    ]


def setting_args(setting):
    """`coreflab cc2007 run` options of one setting (its learners and outputs come from the rule)."""
    bias, weight = setting.split("-", 1)
    return f"--bias {bias} --bias-weight {weight}"


def learner_params(bias, bias_weight, em_iterations, max_iter):
    """The pair-model parameters of a C&C job (λ only where a bias uses it): what `coreflab cc2007 run`
    fits with and what `stand_ins` compares the leaderboard's learners to."""
    return {
        "bias": bias,
        "bias_weight": float(bias_weight) if bias != "none" else 1.0,
        "em_iterations": em_iterations,
        "max_iter": max_iter,
    }


def job_params(cc_config, setting):
    """The learner parameters of one setting's job under a workflow config."""
    bias, weight = setting.split("-", 1)
    return learner_params(bias, weight, cc_config["em_iterations"], cc_config["max_iter"])


def stand_ins(cc_config, learners, systems, setting):
    """{learner: leaderboard system} of this setting's learners that a leaderboard system fits
    identically (same learner and fit settings; the store is the same by construction, and the
    job checks it): their models stand in for a second fit."""
    from coreflab.learn.registry import learner_of_entry, make_learner

    out = {}
    for learner in LEARNERS:
        key = make_learner(learner, job_params(cc_config, setting)).fit_key()
        for system in systems:
            entry = learners.get(system)
            if entry is None or entry["learner"] != learner or learner in out:
                continue
            if learner_of_entry(entry).fit_key() == key:
                out[learner] = system
    return out


class Grid:
    """The grid of one workflow config, as Snakemake input and params functions."""

    def __init__(self, config):
        self.config = config["cc2007"]
        self.learners = config["learners"]
        self.systems = list(config["systems"])

    def runs(self):
        return runs(self.config)

    def setting_args(self, wildcards):
        return setting_args(wildcards.setting)

    def run_files(self, wildcards):
        return [f"results/{wildcards.corpus}/paper/cc2007/runs/{r}.csv" for r in self.runs()]

    def fitted_models(self, wildcards):
        """Inputs `fitted_<learner>`: the leaderboard models that stand in for this job's fits."""
        found = stand_ins(self.config, self.learners, self.systems, wildcards.setting)
        return {f"fitted_{k}": f"results/{wildcards.corpus}/models/{s}.npz" for k, s in found.items()}

    @staticmethod
    def fitted_args(wildcards, input):
        prefix = "fitted_"
        return " ".join(f"--fitted {k[len(prefix) :]}={v}" for k, v in input.items() if k.startswith(prefix))
