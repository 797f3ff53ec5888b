"""Björkelund & Kuhn 2014's run grid: which learner, feature set and beam every curve of Figs. 3-4
and Table 1 trains, and the run names the workflow uses as the `{run}` wildcard.

A run is named `<learner>-<local|nonlocal>-b<beam>` (`bk_early-nonlocal-b4`); `run_name` and
`parse_run` are inverse. `Grid` binds the grid to a workflow config for the rules in
workflow/rules/papers/bk2014.smk.
"""

import json

FEATURES = ("local", "nonlocal")


def run_name(learner, features, beam):
    """`<learner>-<features>-b<beam>`: the `{run}` wildcard of one curve."""
    if features not in FEATURES:
        raise ValueError(f"features must be one of {FEATURES}, got {features!r}")
    return f"{learner}-{features}-b{int(beam)}"


def parse_run(run):
    """(learner, features, beam) of a run name (inverse of `run_name`)."""
    learner, features, beam = run.rsplit("-", 2)
    if features not in FEATURES or not beam.startswith("b"):
        raise ValueError(f"not a bk2014 run name: {run!r}")
    return learner, features, int(beam[1:])


def runs(bk_config):
    """Sorted run names of config["bk2014"]: the baseline, early update at every beam, and every
    other strategy at the first beam, each with local and with non-local features."""
    beams = bk_config["beams"]
    out = [run_name("bk_baseline", "local", 1)]
    for features in FEATURES:
        out += [run_name("bk_early", features, b) for b in beams]
        out += [run_name(s, features, beams[0]) for s in bk_config["strategies"] if s != "bk_early"]
    return sorted(set(out))


def run_params(bk_config, run):
    """Learner parameters of one run (iterations, beam, non-local templates when non-local)."""
    _, features, beam = parse_run(run)
    params = {"n_iter": bk_config["iterations"], "beam": beam}
    if features == "nonlocal":
        params["nonlocal_templates"] = bk_config["nonlocal_templates"]
    return params


class Grid:
    """The grid of one workflow config, as Snakemake input and params functions."""

    def __init__(self, config):
        self.config = config["bk2014"]

    def runs(self):
        return runs(self.config)

    def run_learner(self, wildcards):
        return parse_run(wildcards.run)[0]

    def run_params(self, wildcards):
        return json.dumps(run_params(self.config, wildcards.run), sort_keys=True)

    def curve_files(self, wildcards):
        return [f"results/{wildcards.corpus}/paper/bk2014/runs/{r}.csv" for r in self.runs()]

    def curve_args(self, wildcards, input):
        return " ".join(f"--curve {r}={p}" for r, p in zip(self.runs(), input.curves))

    def beams(self, wildcards):
        return ",".join(str(b) for b in self.config["beams"])
