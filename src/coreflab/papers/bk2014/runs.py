"""Björkelund & Kuhn 2014's run grid: which learner, feature set and beam every curve of Figs. 3-4
and Table 1 trains, and the run names the workflow uses as the `{run}` wildcard.

A run is named `<learner>-<local|nonlocal>-b<beam>` (`bk_early-nonlocal-b4`), trained with the
config's `seed`; for the spread of the learning curves, every run is repeated with each other seed of
the config's `seeds` as `<name>-s<seed>` (`bk_early-nonlocal-b4-s2`). The figures draw the `seed`
run as the line and the range over all seeds as a band; Table 1 reads the `seed` runs only.
`run_name` and `parse_run` are inverse. `Grid` binds the grid to a workflow config for the rules
in workflow/rules/papers/bk2014.smk.
"""

import json

from coreflab.errors import UserError

FEATURES = ("local", "nonlocal")


def run_name(learner, features, beam, seed=None):
    """`<learner>-<features>-b<beam>[-s<seed>]`: the `{run}` wildcard of one curve (no suffix: the config's seed)."""
    if features not in FEATURES:
        raise ValueError(f"features must be one of {FEATURES}, got {features!r}")
    name = f"{learner}-{features}-b{int(beam)}"
    return name if seed is None else f"{name}-s{int(seed)}"


def _split_seed(run):
    """(name without its seed suffix, seed or None)."""
    head, _, last = run.rpartition("-")
    if head and last[:1] == "s" and last[1:].isdigit():
        return head, int(last[1:])
    return run, None


def parse_run(run):
    """(learner, features, beam) of a run name, whatever its seed (inverse of `run_name`)."""
    learner, features, beam = _split_seed(run)[0].rsplit("-", 2)
    if features not in FEATURES or not beam.startswith("b") or not beam[1:].isdigit():
        raise ValueError(f"not a bk2014 run name: {run!r}")
    return learner, features, int(beam[1:])


def seed_of(run):
    """The seed a run name carries (`-s<seed>`), or None for a run with the config's seed."""
    parse_run(run)
    return _split_seed(run)[1]


def runs(bk_config, seeds=(), seed=None):
    """Sorted run names of config["bk2014"]: the baseline, early update at every beam, and every
    other strategy at the first beam, each with local and with non-local features; then each of
    them again for every seed of `seeds` other than `seed` (the curves' spread)."""
    beams = bk_config["beams"]
    out = [run_name("bk_baseline", "local", 1)]
    for features in FEATURES:
        out += [run_name("bk_early", features, b) for b in beams]
        out += [run_name(s, features, beams[0]) for s in bk_config["strategies"] if s != "bk_early"]
    main = sorted(set(out))
    extra = [run_name(*parse_run(r), seed=k) for k in sorted(set(seeds)) if k != seed for r in main]
    return main + extra


def table1_runs(bk_config):
    """{features: run} of Table 1: delayed LaSO at the first beam, local and non-local, config seed
    (none when the grid has no delayed LaSO)."""
    if "bk_delayed_laso" not in bk_config["strategies"]:
        return {}
    return {f: run_name("bk_delayed_laso", f, bk_config["beams"][0]) for f in FEATURES}


def table1_seed_runs(bk_config, seeds=(), seed=None):
    """Sorted extra runs of Table 1 alone: its two runs with every seed of `bk2014.table1_seeds` that
    is neither `seed` nor one of `seeds` (those runs are in `runs` already)."""
    extra = sorted(set(bk_config.get("table1_seeds", [])) - set(seeds) - {seed})
    return [run_name(*parse_run(r), seed=k) for k in extra for r in table1_runs(bk_config).values()]


def table1_iteration(bk_config):
    """The iteration Table 1 reports: `table1_iteration`, or the last (`iterations`) when null.
    Every run's model file is its model after that iteration; its curve goes on to `iterations`."""
    chosen = bk_config.get("table1_iteration")
    last = int(bk_config["iterations"])
    if chosen is None:
        return last
    if int(chosen) > last:
        raise UserError(f"config key bk2014.table1_iteration: {chosen} is more than bk2014.iterations ({last})")
    return int(chosen)


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
        self.seed = config["seed"]
        self.seeds = config.get("seeds", [])

    def runs(self):
        return runs(self.config, self.seeds, self.seed)

    def run_learner(self, wildcards):
        return parse_run(wildcards.run)[0]

    def run_seed(self, wildcards):
        seed = seed_of(wildcards.run)
        return self.seed if seed is None else seed

    def run_params(self, wildcards):
        return json.dumps(run_params(self.config, wildcards.run), sort_keys=True)

    def curve_files(self, wildcards):
        return [f"results/{wildcards.corpus}/paper/bk2014/runs/{r}.csv" for r in self.runs()]

    def curve_args(self, wildcards, input):
        return " ".join(f"--curve {r}={p}" for r, p in zip(self.runs(), input.curves))

    def table1_seed_files(self, wildcards):
        """Curves of Table 1's extra seeds (`table1_seed_runs`): its seed spread, not the figures."""
        runs = table1_seed_runs(self.config, self.seeds, self.seed)
        return [f"results/{wildcards.corpus}/paper/bk2014/runs/{r}.csv" for r in runs]

    def table1_seed_args(self, wildcards, input):
        runs = table1_seed_runs(self.config, self.seeds, self.seed)
        return " ".join(f"--table1-curve {r}={p}" for r, p in zip(runs, input.table1_curves))

    def table1_dev_scores(self, wildcards):
        """Per-document dev scores of Table 1's two runs (the paired bootstrap of its difference row)."""
        return {
            f"dev_{features}": f"results/{wildcards.corpus}/paper/bk2014/dev/{run}.json"
            for features, run in table1_runs(self.config).items()
        }

    def table1_dev_args(self, wildcards, input):
        return " ".join(f"--dev-scores {f}={input[f'dev_{f}']}" for f in table1_runs(self.config))

    def table1_iteration(self, wildcards=None):
        return table1_iteration(self.config)

    def beams(self, wildcards):
        return ",".join(str(b) for b in self.config["beams"])
