"""Haponchyk & Moschitti 2017's run grid: LSP_F, LSP_YJ and LSP_ρ at every feature-space fraction
(Fig. 3, Tables 2-3), and Table 4's runs with another corpus's regressor (`lsp_rho_from_<corpus>`):
on the paired corpus (`hm2017.pairs`, both corpora in one run), or on the corpus itself with the
regressor another config's run wrote (`hm2017.transfer`, real corpora with settings of their own). A run is `<learner>-<fraction>` (`lsp_yj-0.1`);
`run_name` and `parse_run` are inverse. `Grid` binds the grid to a workflow config for
workflow/rules/papers/hm2017.smk.
"""

import hashlib
import json
from pathlib import Path

from coreflab.seeds import seeds_args

LEARNERS = ("lsp_f", "lsp_yj", "lsp_rho")
FROM_PREFIX = "lsp_rho_from_"


def base_learner(name):
    """The registered learner of a run's learner: lsp_rho_from_<corpus> trains lsp_rho."""
    return "lsp_rho" if name.startswith("lsp_rho") else name


def regressor_corpus(name, corpus):
    """Whose regressor an LSP_ρ run uses (None for LSP_F and LSP_YJ)."""
    if name == "lsp_rho":
        return corpus
    if name.startswith(FROM_PREFIX):
        return name[len(FROM_PREFIX) :]
    return None


def fraction_name(fraction):
    return f"{float(fraction):g}"


def run_name(learner, fraction):
    return f"{learner}-{fraction_name(fraction)}"


def parse_run(run):
    """(learner, fraction) of a run name."""
    learner, fraction = run.rsplit("-", 1)
    return learner, float(fraction)


def transfer_source(hm_config, corpus):
    """The corpus whose regressor Table 4 of `corpus` borrows (config hm2017.transfer), or None."""
    return (hm_config.get("transfer") or {}).get(corpus)


def transfer_regressor(source):
    """Where the source corpus's own run writes its regressor (outside this run's DAG)."""
    return f"results/{source}/paper/hm2017/regressor.json"


def run_names(hm_config, corpus, transfer_ready=True):
    """The runs Fig. 3 and Tables 2-4 of `corpus` read: (runs on corpus, Table 4's runs).

    Paired: Table 4's runs are on the second corpus, LSP_ρ there also with this corpus's regressor.
    Transfer: on this corpus, LSP_ρ also with the source's regressor once its run has written it
    (`transfer_ready`); before, Table 4 has no transfer row and the scorecard says so."""
    own = [run_name(l, f) for l in LEARNERS for f in hm_config["fractions"]]
    source = transfer_source(hm_config, corpus)
    if source is None:
        return own, [run_name(l, 1) for l in (*LEARNERS, f"{FROM_PREFIX}{corpus}")]
    extra = [f"{FROM_PREFIX}{source}"] if transfer_ready else []
    return own, [run_name(l, 1) for l in (*LEARNERS, *extra)]


def second_corpus(hm_config, corpus):
    """Table 4's corpus for `corpus` (config hm2017.pairs; itself when unpaired or transferring)."""
    if transfer_source(hm_config, corpus) is not None:
        return corpus
    return hm_config["pairs"].get(corpus, corpus)


def run_params(hm_config, learner):
    params = {"n_iter": hm_config["n_iter"]}
    if learner.startswith("lsp_rho"):
        params.update(calibration=hm_config["calibration"], max_passes=hm_config["max_passes"])
    return params


def grid_arg(values):
    return ",".join(f"{x:g}" for x in values)


class Grid:
    """The grid of one workflow config, as Snakemake input and params functions."""

    def __init__(self, config):
        self.config = config["hm2017"]
        # the config's `seeds`, repeated inside each Fig. 2 and Fig. 3 job (a run is seconds of a
        # job's startup: one job per seed would cost more than the runs)
        self.seeds_args = seeds_args(config.get("seeds"))
        corpora = config.get("run", {}).get("corpora", [])
        # the runs of those corpora: gold mentions write results/<corpus>/, predicted results/<corpus>_predicted/
        self.figure_corpora = set(corpora) | {f"{c}_predicted" for c in corpora}

    def run_seeds(self, wildcards):
        """The seeds of one run job: Fig. 3's corpora only (a paired corpus's runs feed Table 4,
        which reads the main seed: extra seeds there would cost and show nothing)."""
        return self.seeds_args if wildcards.corpus in self.figure_corpora else ""

    @staticmethod
    def regressor(corpus):
        return f"results/{corpus}/paper/hm2017/regressor.json"

    @staticmethod
    def imported_regressor(corpus, source):
        """The copy of `source`'s regressor that `corpus`'s transfer run reads (hm2017_import_regressor)."""
        return f"results/{corpus}/paper/hm2017/transfer/{source}.json"

    def transfer_ready(self, corpus):
        """Whether the transfer source's own run has written its regressor (checked when the DAG is built)."""
        source = transfer_source(self.config, corpus)
        return source is not None and Path(transfer_regressor(source)).is_file()

    def import_params(self, wildcards):
        """The source regressor's path and digest: a new source regressor makes the copy again."""
        path = Path(transfer_regressor(wildcards.source))
        digest = hashlib.sha256(path.read_bytes()).hexdigest()[:16] if path.is_file() else "missing"
        return {"path": str(path), "digest": digest}

    def tune_inputs(self, wildcards):
        """The regressor of an LSP_ρ tuning job (besides the train and dev splits)."""
        return {"regressor": self.regressor(wildcards.corpus)} if wildcards.learner == "lsp_rho" else {}

    def tune_options(self, wildcards, input):
        if wildcards.learner == "lsp_rho":
            return f"--regressor {input.regressor}"
        tune = self.config["tune"]
        return "--r-grid " + grid_arg(tune["r_f"] if wildcards.learner == "lsp_f" else tune["r_yj"])

    def C_grid(self, wildcards):
        return grid_arg(self.config["tune"]["C"])

    def run_inputs(self, wildcards):
        """Ranking, tuned parameters and (LSP_ρ) regressor of one run (besides the three splits)."""
        c = wildcards.corpus
        out = {
            "ranking": f"results/{c}/paper/hm2017/ranking.npz",
            "tuned": f"results/{c}/paper/hm2017/tune/{base_learner(wildcards.hm_learner)}.json",
        }
        source = regressor_corpus(wildcards.hm_learner, c)
        if source is not None and source != c and source == transfer_source(self.config, c):
            out["regressor"] = self.imported_regressor(c, source)
        elif source is not None:
            out["regressor"] = self.regressor(source)
        return out

    def run_options(self, wildcards, input):
        opts = f"--learner {base_learner(wildcards.hm_learner)} --label {wildcards.hm_learner} --tuned {input.tuned}"
        regressor = getattr(input, "regressor", None)
        if regressor:
            opts += f" --regressor {regressor}"
        return opts

    def run_params(self, wildcards):
        return json.dumps(run_params(self.config, wildcards.hm_learner), sort_keys=True)

    def report_inputs(self, wildcards):
        c = wildcards.corpus
        second = second_corpus(self.config, c)
        own, second_runs = run_names(self.config, c, self.transfer_ready(c))
        base = f"results/{c}/paper/hm2017"
        return {
            "runs": [f"{base}/runs/{r}.csv" for r in own],
            "second_runs": [f"results/{second}/paper/hm2017/runs/{r}.csv" for r in second_runs],
            "tuned": [f"{base}/tune/{l}.json" for l in LEARNERS],
            "ranking": f"{base}/ranking.npz",
        }
