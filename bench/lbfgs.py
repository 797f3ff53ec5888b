"""Benchmark: the Choi & Cardie pair model's solvers on one training split.

Default mode (the numbers docs/performance.md reads from bench/results/lbfgs.json): one cc_base
fit with scipy's L-BFGS-B and with coreflab's L-BFGS, which take the same steps
(tests/learn/pairwise/test_lbfgs.py); what differs is the cost of an iteration beyond the
loss-and-gradient pass over the pairs, which at GUM's 3.5M columns was about as large as the pass
itself. Wall and CPU seconds, the time spent in the objective, iterations, evaluations, and how far
apart the two fits' coefficients end up (the path is the same up to rounding, which 100
unconverged iterations can amplify).

--convergence (bench/results/lbfgs_convergence_<label>.json): what converging
costs and buys. The fits a C&C job makes, with the capped L-BFGS every fit used before ("before":
`max_iter` iterations) and with the truncated Newton solver to each tolerance of --tols ("after"):
the first fit (cc_base with --bias/--bias-weight on gold labels, from zero) and a second EM
iteration (cc_slt_closest's E-step relabels the pairs from the first fit, then the fit restarts
from it), each with wall and CPU seconds, iterations, Hessian products, passes over the pairs and
‖∇f‖/‖∇f(0)‖ at the end. Then, for the first fit,
- how far it is from the optimum: the largest change of a training pair's score z = w·x + b and
  the decisions (z ≥ 0) that differ from those of a fit to --reference-tol;
- how much it moves with the order of floating-point sums: the same fit on the flat store (every
  pair's ids in full, as the shared-row store is expanded: other sums in another order), its largest
  score difference and differing decisions (--no-orders skips it).

Usage: python bench/lbfgs.py --store-dir results/gum [--max-iter 100] [--out bench/results/lbfgs.json]
       python bench/lbfgs.py --convergence --compiled X/train.npz --arcs X/arcs.npz --label gum \\
           [--bias pa --bias-weight 3] [--max-iter 100] [--tols 1e-4,1e-5] [--reference-tol 1e-10]
(X: a scratch directory with GUM's training split: `coreflab import --corpus gum --split train
--options-json '{"local_dir": ..., "include_reddit": false}' --out X/train.conll`, `coreflab
prepare --conll X/train.conll --corpus gum --split train --out X/train.npz`, `coreflab features
--compiled X/train.npz --featureset local_fine --window 50 --out X/arcs.npz`.)
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
            coef, intercept, nit, _ = pair_logistic.fit_logistic(
                arcs, cols, n, y, weights, max_iter=max_iter, tol=1e-4, solver="lbfgs"
            )
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


def compare_lbfgs(args):
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
    Path(args.out or ROOT / "bench/results/lbfgs.json").write_text(json.dumps(results, indent=2) + "\n")
    print(json.dumps(results, indent=2))


# ---------------------------------------------------------------- --convergence


def solve(arcs, cols, n, y, weights, solver, tol, max_iter, warm=None):
    """(fit, measurements) of one fit_logistic run: seconds, its convergence record, passes over the pairs."""
    from coreflab.learn.pairwise import pair_logistic

    evaluations = [0]
    original = pair_logistic.StorePairs.objective

    def counted(self, *a):  # L-BFGS's passes (the Newton solver counts its own)
        evaluations[0] += 1
        return original(self, *a)

    pair_logistic.StorePairs.objective = counted
    try:
        wall, cpu = time.perf_counter(), time.process_time()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = pair_logistic.fit_logistic(
                arcs, cols, n, y, weights, tol=tol, max_iter=max_iter, warm=warm, solver=solver
            )
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    finally:
        pair_logistic.StorePairs.objective = original
    record = dict(result.convergence)
    passes = record.get("passes") if solver == "newton" else evaluations[0]
    out = {
        "solver": solver,
        "tol": tol,
        "max_iter": max_iter,
        "wall_s": round(wall, 2),
        "cpu_s": round(cpu, 2),
        "iterations": int(record["iterations"]),
        "hessian_products": record.get("cg_iterations"),
        "passes_over_pairs": passes,
        "block_preconditioners": record.get("blocks"),
        "converged": bool(record["converged"]),
        "grad_norm_rel": float(record["grad_norm_rel"]),
        "objective": float(record["f"]),
        "message": record["message"],
    }
    return result, out


def scores(arcs, cols, result):
    return arcs.decision(cols, result.coef, result.intercept)


def apart(z, z_other):
    """How far two fits' training scores are apart: the largest |Δz| and the decisions (z ≥ 0) that differ."""
    import numpy as np

    return {
        "max_abs_score_difference": float(np.abs(z - z_other).max()),
        "decisions_differing": int(np.count_nonzero((z >= 0) != (z_other >= 0))),
    }


def convergence(args):
    # isort: off
    import coreflab  # noqa: F401 - first: it sets one BLAS thread per process, as the workflow's jobs have
    import numpy as np

    # isort: on
    from coreflab.features.shared_rows import expand
    from coreflab.learn.io import load_split
    from coreflab.learn.pairwise.crf_slt import CCBase
    from coreflab.learn.pairwise.pair_logistic import StorePairs, probabilities
    from coreflab.learn.pairwise.slt_estep import estep_closest

    corpus, store = load_split(args.compiled, args.arcs)
    model = CCBase(bias=args.bias, bias_weight=args.bias_weight)
    pairs, arcs = model._store_pairs(corpus, store)
    cols = arcs.column_map()
    n = int(np.count_nonzero(cols >= 0))
    weights = model.pair_weights(pairs)
    gold = pairs.gold
    solve(arcs, cols, n, gold, weights, "newton", 1e-1, 2)  # warm-up: compilation, the pairs' layout
    results = {
        "label": args.label,
        "problem": f"cc_base bias={args.bias} λ={args.bias_weight:g} on {args.arcs}",
        "pairs": len(arcs),
        "columns": n,
        "shared_rows": bool(arcs.shared),
        "load_average_start": [round(x, 2) for x in os.getloadavg()],
    }

    def first_and_second(store_pairs, solver, tol, max_iter):
        first, a = solve(store_pairs, cols, n, gold, weights, solver, tol, max_iter)
        labels = estep_closest(pairs, probabilities(scores(store_pairs, cols, first)), model.threshold)
        second, b = solve(
            store_pairs, cols, n, labels, weights, solver, tol, max_iter, warm=(first.coef, first.intercept)
        )
        b["relabelled"] = int(np.count_nonzero(labels != gold))
        return first, {"first_fit": a, "second_em_iteration": b}

    runs = {"before": ("lbfgs", 1e-4, args.max_iter)}
    runs.update({f"after_tol_{tol:g}": ("newton", tol, args.max_iter) for tol in args.tols})
    firsts = {}
    for name, (solver, tol, max_iter) in runs.items():
        firsts[name], results[name] = first_and_second(arcs, solver, tol, max_iter)
        print(name, json.dumps(results[name]), flush=True)
    if args.reference_tol:
        reference, results["reference"] = solve(arcs, cols, n, gold, weights, "newton", args.reference_tol, 1000)
        print("reference", json.dumps(results["reference"]), flush=True)
        z_ref = scores(arcs, cols, reference)
        for name, first in firsts.items():
            results[name]["first_fit"]["from_reference"] = apart(scores(arcs, cols, first), z_ref)
    if args.orders:
        flat = StorePairs(expand(store), pairs.arcs)  # the same pairs, every id read in full: other sums
        for name, (solver, tol, max_iter) in runs.items():
            other, measured = solve(flat, cols, n, gold, weights, solver, tol, max_iter)
            results[name]["first_fit"]["flat_store"] = {
                "cpu_s": measured["cpu_s"],
                "iterations": measured["iterations"],
                **apart(scores(arcs, cols, firsts[name]), scores(arcs, cols, other)),
            }
            print(name, "flat", json.dumps(results[name]["first_fit"]["flat_store"]), flush=True)
    results["load_average_end"] = [round(x, 2) for x in os.getloadavg()]
    out = Path(args.out or ROOT / f"bench/results/lbfgs_convergence_{args.label}.json")
    out.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")
    print(json.dumps(results, indent=2, ensure_ascii=False))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--store-dir", help="results directory with compiled/train.npz and features/selected/train.npz")
    ap.add_argument("--max-iter", type=int, default=100)
    ap.add_argument("--out", default=None)
    ap.add_argument("--convergence", action="store_true", help="L-BFGS capped vs Newton to tolerances (docstring)")
    ap.add_argument("--compiled", help="--convergence: compiled training split")
    ap.add_argument("--arcs", help="--convergence: its arc store")
    ap.add_argument("--label", default="gum")
    ap.add_argument("--bias", default="pa", choices=["none", "p1", "pa"])
    ap.add_argument("--bias-weight", type=float, default=3.0)
    ap.add_argument("--tols", type=lambda s: [float(t) for t in s.split(",")], default=[1e-4])
    ap.add_argument("--reference-tol", type=float, default=1e-10, help="0: no reference fit")
    ap.add_argument("--no-orders", dest="orders", action="store_false")
    args = ap.parse_args()
    if args.convergence:
        if not (args.compiled and args.arcs):
            ap.error("--convergence needs --compiled and --arcs")
        convergence(args)
    else:
        if not args.store_dir:
            ap.error("--store-dir is required")
        compare_lbfgs(args)


if __name__ == "__main__":
    main()
