"""Expected cost of `config/conll2012.yaml` at CoNLL-2012 size, Choi & Cardie included.

The conll2012-size run (`bench/results/workflow_conll2012_size.json`, see bench/conll2012_size.yaml)
measures every job but C&C's, whose pair-model fit was measured alone
(`bench/results/cc2007_conll2012_size.json`: one `cc_base` fit). C&C makes many such fits: each
`cc2007_run` job (one per bias setting) fits iteration 1 once (shared by BASE and both SLT E-steps)
and `em_iterations - 1` more per SLT variant; the leaderboard's `cc_base` fits once and
`cc_slt_closest` once per EM iteration, and a job scores the leaderboard's model instead of
fitting a learner the leaderboard fits with the same settings. This adds those fits, at the measured fit's CPU seconds, to

- 2 cores: the run's CPU seconds (`/usr/bin/time`, every job and Snakemake) plus the C&C fits'
  CPU seconds, over 2 (both cores kept busy; job wall seconds would count the load of a shared
  machine as cost);
- a SLURM cluster (a node per job): the longer of the measured critical path and the C&C chain
  (the training features ready, then one `cc2007_run` job or the `cc_slt_closest` leaderboard fit).

    python bench/conll2012_estimate.py        → bench/results/conll2012_estimate.json
    python bench/conll2012_estimate.py --fit bench/results/cc2007_conll2012_size_fine.json \
        --out bench/results/conll2012_estimate_fine.json   (C&C's fits measured on another store)
"""

import argparse
import json
from pathlib import Path

import yaml

from coreflab.config import overlay
from coreflab.papers.cc2007.runs import settings, stand_ins

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results"


def cc_fits(config):
    """(fits of all C&C jobs, fits of the longest one C&C job) under a merged workflow config."""
    cc = config["cc2007"]
    em = cc["em_iterations"]
    per_setting = 1 + 2 * (em - 1)
    paper = 0
    if "cc2007" in config["run"]["papers"]:
        for setting in settings(cc):
            shared = stand_ins(cc, config["learners"], config["systems"], setting)
            paper += per_setting - ("cc_base" in shared) - (em - 1) * ("cc_slt_closest" in shared)
    learners = {
        config["learners"][s]["learner"]: config["learners"][s].get("params", {})
        for s in config["systems"]
        if s in config["learners"]
    }
    board = {
        name: (1 if name == "cc_base" else p.get("em_iterations", 5))
        for name, p in learners.items()
        if name in ("cc_base", "cc_slt_closest", "cc_slt_preserving")
    }
    longest = max([per_setting if paper else 0, *board.values()], default=0)
    return paper + sum(board.values()), longest


def estimate(config, run, fit):
    fits, longest = cc_fits(config)
    fit_s = fit["store_dir_train"]["fit_cpu_s"]
    cc_s = fits * fit_s
    two_cores = (run["run_cpu_s"] + cc_s) / 2
    cc_chain = (run.get("train_features_ready_s") or 0.0) + longest * fit_s
    cluster = max(run["critical_path_s"], cc_chain)
    return {
        "cc_fits": fits,
        "cc_fit_cpu_s": fit_s,
        "cc_cpu_h": round(cc_s / 3600, 2),
        "run_cpu_h": round(run["run_cpu_s"] / 3600, 2),
        "two_cores_h": round(two_cores / 3600, 1),
        "two_cores_without_cc_h": round(run["run_cpu_s"] / 2 / 3600, 1),
        "cluster_h": round(cluster / 3600, 1),
        "cluster_without_cc_min": round(run["critical_path_s"] / 60, 1),
        "cc_chain_fits": longest,
    }


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--fit", default=str(RESULTS / "cc2007_conll2012_size.json"), help="C&C fit record (bench/cc2007.py)"
    )
    ap.add_argument("--out", default=str(RESULTS / "conll2012_estimate.json"))
    args = ap.parse_args(argv)
    config = overlay(
        yaml.safe_load((ROOT / "config" / "config.yaml").read_text()),
        yaml.safe_load((ROOT / "config" / "conll2012.yaml").read_text()),
    )
    run = json.loads((RESULTS / "workflow_conll2012_size.json").read_text())
    fit = json.loads(Path(args.fit).read_text())
    out = estimate(config, run, fit)
    Path(args.out).write_text(json.dumps(out, indent=2) + "\n")
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
