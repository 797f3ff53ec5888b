"""Benchmark: the pair-model fits of a C&C grid on one training store, as the workflow makes them
(SLT's first fit taken from BASE, one set of pairs per job): seconds per fit and per job, Newton iterations, Hessian products and passes over the pairs.

The fits of config/gum.yaml's C&C grid (em_iterations 3, max_iter 100, biases [pa], λ [3]) and its
leaderboard (cc_base, cc_slt_closest), in the order of their jobs, in this one process:
  train_cc_base          cc_base, unbiased: the BASE fit
  train_cc_slt_closest   cc_slt_closest: iteration 1 (the BASE fit again, or with --reuse taken from
                         train_cc_base's model, as the workflow now does: `coreflab train --first-fit`),
                         iterations 2-3
  cc2007_none-1          cc_base and cc_slt_closest stand in (the leaderboard's models); cc_slt_preserving
                         shares iteration 1 and fits 2-3
  cc2007_pa-3            cc_base pa λ = 3 (from 0, or with --warm-pa from train_cc_base's weights: `coreflab
                         cc2007 run --warm-start`, which the workflow does not use), shared by both SLT
                         E-steps, which fit 2-3 each
Each fit: CPU and wall seconds, its solver record (iterations, Hessian products, passes, ‖∇f‖/‖∇f(0)‖, f),
and per job the sum. Scoring is not timed (the same work before and after). With --models-out DIR every
learner's model is saved; --compare DIR compares them with another run's (same store): the largest
difference of a test pair's score and the test pairs whose decision (P ≥ 0.5) differs, per learner,
and the objective of each fit against the other run's.

Usage: python bench/cc2007_fits.py --store-dir results/gum [--reuse] [--warm-pa] [--run after] [--models-out DIR]
           [--compare DIR] [--merge JSON ...] [--out bench/results/cc2007_fits_gum.json]
Run it with the code to measure on PYTHONPATH (the code before: a checkout of the commit before, without
--reuse and --warm-pa, which that code lacks). Records: "before" (the code before, nothing reused beyond
what it did), "after" (--reuse), "pa_warm_start" (--reuse --warm-pa, compared with "before"'s models).
"""

import argparse
import inspect
import json
import os
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
EM, MAX_ITER, BIAS, WEIGHT = 3, 100, "pa", 3.0


class Fits:
    """Times every solver run (crf_slt's fit_logistic) and records it at the M-step's callback: an
    iteration without a solver run since the last callback was taken (a shared first fit)."""

    def __init__(self):
        from coreflab.learn.pairwise import crf_slt

        self.rows = []
        self._timed = None
        solve = crf_slt.fit_logistic

        def timed(*args, **kwargs):
            t = (time.perf_counter(), time.process_time())
            out = solve(*args, **kwargs)
            self._timed = (time.perf_counter() - t[0], time.process_time() - t[1])
            return out

        crf_slt.fit_logistic = timed

    def callback(self, job, learner):
        def record(iteration, model):
            rec = (getattr(model, "convergence_", None) or [None] * iteration)[iteration - 1] or {}
            fitted, (wall, cpu) = self._timed is not None, self._timed or (0.0, 0.0)
            self._timed = None
            self.rows.append(
                {
                    "job": job,
                    "learner": learner,
                    "iteration": iteration,
                    "fitted": fitted,
                    "start": rec.get("start", "cold" if iteration == 1 else "previous") if fitted else "shared",
                    "wall_s": round(wall, 2),
                    "cpu_s": round(cpu, 2),
                    **{
                        k: rec.get(k)
                        for k in ("iterations", "cg_iterations", "passes", "grad_norm_rel", "f", "converged")
                    },
                }
            )

        return record


def run(store_dir, reuse, warm_pa, models_out):
    from coreflab.learn.io import load_split
    from coreflab.learn.registry import make_learner

    d = Path(store_dir)
    train = load_split(d / "compiled" / "train.npz", d / "features" / "selected" / "train.npz")
    fits = Fits()
    if (reuse or warm_pa) and "warm_start" not in inspect.signature(make_learner("cc_base").fit).parameters:
        raise SystemExit("--reuse, --warm-pa: this code's PairwiseCRF.fit takes no warm_start")
    models = {}

    def fit(job, learner, params, **kwargs):
        model = make_learner(learner, {"max_iter": MAX_ITER, **params})
        model.fit(train, callback=fits.callback(job, learner), **kwargs)
        models[f"{job}/{learner}"] = model
        if models_out:
            Path(models_out).mkdir(parents=True, exist_ok=True)
            model.save(Path(models_out) / f"{job}_{learner}.npz")
        return model

    unbiased = {"bias": "none", "bias_weight": 1.0}
    biased = {"bias": BIAS, "bias_weight": WEIGHT}
    base = fit("train_cc_base", "cc_base", unbiased)
    extra = {"first_fit": base.first_fit()} if reuse else {}
    fit("train_cc_slt_closest", "cc_slt_closest", {**unbiased, "em_iterations": EM}, **extra)
    fit("cc2007_none-1", "cc_slt_preserving", {**unbiased, "em_iterations": EM}, first_fit=base.first_fit())
    warm = {"warm_start": base.first_fit()} if warm_pa else {}
    pa = fit("cc2007_pa-3", "cc_base", biased, **warm)
    for learner in ("cc_slt_closest", "cc_slt_preserving"):
        fit("cc2007_pa-3", learner, {**biased, "em_iterations": EM}, first_fit=pa.first_fit())
    return fits.rows, models


def jobs_of(rows):
    out = {}
    for r in rows:
        j = out.setdefault(r["job"], {"fits": 0, "wall_s": 0.0, "cpu_s": 0.0, "passes": 0, "hessian_products": 0})
        if r["fitted"]:
            j["fits"] += 1
            j["passes"] += r["passes"] or 0
            j["hessian_products"] += r["cg_iterations"] or 0
        j["wall_s"] = round(j["wall_s"] + r["wall_s"], 2)
        j["cpu_s"] = round(j["cpu_s"] + r["cpu_s"], 2)
    total = {
        k: round(sum(j[k] for j in out.values()), 2) for k in ("fits", "wall_s", "cpu_s", "passes", "hessian_products")
    }
    return out, total


def compare(store_dir, models, other_dir):
    """Per model: the largest |score difference| on the test split's pairs and the decisions that differ,
    against the model of the same job and learner in other_dir; per fitted iteration, the objectives."""
    from coreflab.learn.base import Learner
    from coreflab.learn.io import load_split

    d = Path(store_dir)
    test = load_split(d / "compiled" / "test.npz", d / "features" / "selected" / "test.npz")
    out = {}
    for key, model in models.items():
        job, learner = key.split("/")
        path = Path(other_dir) / f"{job}_{learner}.npz"
        if not path.exists():
            continue
        other = Learner.load(path)
        row = {"iterations": []}
        for t in range(1, model.n_iterations_ + 1):
            pairs, p = model.pair_probabilities(test, t)
            _, q = other.pair_probabilities(test, t)
            z, zo = np.log(p) - np.log1p(-p), np.log(q) - np.log1p(-q)
            f, fo = model.convergence_[t - 1].get("f"), other.convergence_[t - 1].get("f")
            row["iterations"].append(
                {
                    "iteration": t,
                    "test_pairs": int(len(p)),
                    "max_abs_score_difference": float(np.max(np.abs(z - zo))),
                    "test_decisions_differing": int(np.count_nonzero((p >= 0.5) != (q >= 0.5))),
                    "objective_relative_difference": abs(f - fo) / abs(fo) if f is not None and fo else None,
                }
            )
        out[key] = row
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--store-dir", required=True, help="workflow results directory (compiled/, features/selected/)")
    ap.add_argument("--reuse", action="store_true", help="the leaderboard SLT's first fit is BASE's model")
    ap.add_argument("--warm-pa", action="store_true", help="the Pa fit starts from BASE's weights")
    ap.add_argument("--run", default=None, help="key of this run in --out (default: before, or after with --reuse)")
    ap.add_argument("--models-out", default=None)
    ap.add_argument("--compare", default=None, metavar="DIR", help="another run's --models-out")
    ap.add_argument("--merge", nargs="*", default=[], metavar="JSON", help="keep these files' runs in --out")
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "cc2007_fits_gum.json"))
    args = ap.parse_args()
    load_start = [round(x, 2) for x in os.getloadavg()]
    rows, models = run(args.store_dir, args.reuse, args.warm_pa, args.models_out)
    jobs, total = jobs_of(rows)
    entry = {
        "load_average_start": load_start,
        "config": f"config/gum.yaml's C&C grid: em_iterations {EM}, max_iter {MAX_ITER}, {BIAS} λ = {WEIGHT:g}",
        "reuse": args.reuse,
        "warm_pa": args.warm_pa,
        "fits": rows,
        "jobs": jobs,
        "total": total,
    }
    if args.compare:
        by_model = compare(args.store_dir, models, args.compare)
        entry["compared_with"] = {"models": Path(args.compare).name, "by_model": by_model}  # no path of this machine
    entry["load_average_end"] = [round(x, 2) for x in os.getloadavg()]
    out = {"label": Path(args.store_dir).resolve().name}  # the corpus: results/<corpus>
    for path in args.merge:
        out.update(json.loads(Path(path).read_text()))
    out[args.run or ("pa_warm_start" if args.warm_pa else "after" if args.reuse else "before")] = entry
    Path(args.out).write_text(json.dumps(out, indent=2, ensure_ascii=False) + "\n")
    print(json.dumps({"jobs": jobs, "total": total}, indent=2))


if __name__ == "__main__":
    main()
