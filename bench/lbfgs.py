"""Benchmark: one Choi & Cardie pair-model fit with scipy's L-BFGS-B and with coreflab's L-BFGS.

Both take the same steps (tests/learn/pairwise/test_lbfgs.py); what differs is the cost of an
iteration beyond the loss-and-gradient pass over the pairs, which at GUM's 3.5M columns was about
as large as the pass itself. On a workflow results directory holding compiled/train.npz and
features/selected/train.npz (after `snakemake --configfile config/gum.yaml`): a cc_base fit
(unbiased, max_iter as the config's) each way, in this process, with wall and CPU seconds, the
time spent in the objective, iterations, evaluations, and how far apart the two fits' coefficients
and objective values end up (the path is the same up to rounding, which 100 unconverged
iterations can amplify).

Usage: python bench/lbfgs.py --store-dir results/gum [--max-iter 100] [--out bench/results/lbfgs.json]
"""

import argparse
import json
import os
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def fit(arcs, cols, n, y, weights, max_iter, use_scipy):
    from coreflab.learn.pairwise import lbfgs, pair_logistic

    saved = lbfgs.DCSRCH
    if use_scipy:
        lbfgs.DCSRCH = None
    spent = {"objective_s": 0.0, "evaluations": 0}
    original = pair_logistic.StorePairs.objective

    def timed(self, *args):
        t = time.perf_counter()
        out = original(self, *args)
        spent["objective_s"] += time.perf_counter() - t
        spent["evaluations"] += 1
        return out

    pair_logistic.StorePairs.objective = timed
    try:
        wall, cpu = time.perf_counter(), time.process_time()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            coef, intercept, nit = pair_logistic.fit_logistic(arcs, cols, n, y, weights, max_iter=max_iter)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    finally:
        pair_logistic.StorePairs.objective = original
        lbfgs.DCSRCH = saved
    out = {
        "wall_s": round(wall, 2),
        "cpu_s": round(cpu, 2),
        "iterations": nit,
        "evaluations": spent["evaluations"],
        "objective_s": round(spent["objective_s"], 2),
        "beyond_objective_s_per_iteration": round((wall - spent["objective_s"]) / max(nit, 1), 3),
    }
    return out, coef, intercept


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--store-dir", required=True)
    ap.add_argument("--max-iter", type=int, default=100)
    ap.add_argument("--out", default=str(ROOT / "bench/results/lbfgs.json"))
    args = ap.parse_args()
    # isort: off
    import coreflab  # noqa: F401 - first: it sets one BLAS thread per process, as the workflow's jobs have
    import numpy as np

    # isort: on
    from coreflab.learn.io import load_split
    from coreflab.learn.pairwise.crf_slt import CCBase

    d = Path(args.store_dir)
    corpus, store = load_split(d / "compiled/train.npz", d / "features/selected/train.npz")
    model = CCBase(max_iter=args.max_iter)
    pairs, arcs = model._store_pairs(corpus, store)
    cols = arcs.column_map()
    n = int(np.count_nonzero(cols >= 0))
    weights = model.pair_weights(pairs)
    arcs.objective(cols, pairs.gold.astype(float), weights, np.zeros(n + 1), 1.0, 0.0, np.empty(n + 1))  # warm-up
    results = {"store": str(args.store_dir), "pairs": len(arcs), "columns": n, "max_iter": args.max_iter}
    fits = {}
    for name, use_scipy in (("scipy_lbfgsb", True), ("coreflab_lbfgs", False)):
        results[name], *fits[name] = fit(arcs, cols, n, pairs.gold, weights, args.max_iter, use_scipy)
        print(name, results[name], flush=True)
    (a, b), (c, e) = fits["scipy_lbfgsb"], fits["coreflab_lbfgs"]
    results["max_abs_coef_difference"] = float(np.abs(a - c).max())
    results["intercept_difference"] = float(abs(b - e))
    results["speedup_wall"] = round(results["scipy_lbfgsb"]["wall_s"] / results["coreflab_lbfgs"]["wall_s"], 2)
    results["load_average"] = list(os.getloadavg())
    Path(args.out).write_text(json.dumps(results, indent=2) + "\n")
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
