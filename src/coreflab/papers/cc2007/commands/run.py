"""`coreflab cc2007 run`: train Choi & Cardie configurations, score every EM iteration.

One job per (bias, λ), for one or more learners (`--learner` and `--out` repeated, in pairs):
the per-iteration callback scores the training and test splits, so Tables 1–3 come from these
rows without retraining: the training rows choose SLT's iteration (of 2..5) and Table 3's `*`,
the test rows are what the tables report, and the "fit" rows record how each fit converged (the
tables' captions state it). Iteration 1 of BASE and of both SLT E-steps is the
same fit on y*, so it is fitted once, by the first learner, and shared with the others (the
rows are bit for bit those of separate runs; tests/papers/cc2007/test_run_command.py).
A learner the leaderboard already trained with the same settings on the same store is not
fitted again: `--fitted LEARNER=MODEL` scores that model's iterations (the same rows). The job's models
read each store through one set of pairs (`PairwiseCRF.share_pairs`). `--warm-start MODEL` starts the
job's first fit from that model's iteration 1 instead of 0: the same criterion, relative to ‖∇f(0)‖,
but another path to the optimum, which the tolerance does not pin down to the tables' precision (not the
same tables, bench/cc2007_fits.py --warm-pa compares them); the workflow does not use it.
"""

import time

import pandas as pd

from coreflab.arg_types import at_least
from coreflab.corpus.readers.conll import read_conll_path
from coreflab.errors import UserError
from coreflab.learn.io import load_split
from coreflab.learn.registry import make_learner
from coreflab.named_values import named_values
from coreflab.papers.cc2007.evaluation import FIT_SPLIT, cc_rows, convergence_rows
from coreflab.papers.cc2007.runs import learner_params
from coreflab.report.io import atomic_write_text


def add_arguments(p):
    p.add_argument(
        "--learner",
        action="append",
        required=True,
        choices=["cc_base", "cc_slt_closest", "cc_slt_preserving"],
        help="a learner to run (repeatable; each with its own --out, in the same order)",
    )
    p.add_argument("--bias", default="none", choices=["none", "p1", "pa"])
    p.add_argument("--bias-weight", type=float, default=1.0)
    p.add_argument("--em-iterations", type=at_least(1), default=5)
    p.add_argument(
        "--max-iter",
        type=int,
        default=300,
        help="cap on the pair model's Newton iterations per EM fit (default 300; fits converge well before: "
        "the tables' captions say in how many)",
    )
    p.add_argument("--seed", type=int, default=1)
    for split in ("train", "test"):
        p.add_argument(f"--{split}-compiled", required=True)
        p.add_argument(f"--{split}-arcs", required=True)
        p.add_argument(f"--{split}-conll", required=True)
    p.add_argument(
        "--fitted",
        action="append",
        default=[],
        metavar="LEARNER=MODEL",
        help="score this already fitted model (`coreflab train`, same settings and training store) "
        "instead of fitting the learner again (repeatable)",
    )
    p.add_argument(
        "--warm-start",
        default=None,
        metavar="MODEL",
        help="a fitted C&C model on the same training store (any bias and λ): the job's first fit starts from "
        "its iteration 1's weights instead of 0, and stops by the same criterion",
    )
    p.add_argument("--model", default=None, help="also save the model (.npz; with one --learner only)")
    p.add_argument("--out", action="append", required=True, help="tidy CSV of every iteration's scores, per learner")


def run(args):
    if len(args.out) != len(args.learner):
        raise UserError(f"{len(args.learner)} --learner but {len(args.out)} --out: give one --out per learner")
    if args.model and len(args.learner) > 1:
        raise UserError("--model saves one model: give a single --learner")
    train = load_split(args.train_compiled, args.train_arcs)
    test = load_split(args.test_compiled, args.test_arcs)
    keys = {"train": read_conll_path(args.train_conll), "test": read_conll_path(args.test_conll)}
    params = {**learner_params(args.bias, args.bias_weight, args.em_iterations, args.max_iter), "seed": args.seed}
    fitted = fitted_models(args.fitted, args.learner)
    warm = warm_start(args.warm_start, train, args.train_arcs)
    first = owner = None
    for learner, out in zip(args.learner, args.out):
        model = make_learner(learner, params)
        rows = []
        fit_start = [time.perf_counter()]  # the end of the previous iteration's scoring

        def record(iteration, m, learner=learner, rows=rows, fit_start=fit_start):
            fitted_at = time.perf_counter()
            for split, (corpus, store) in (("train", train), ("test", test)):
                rows.extend(cc_rows(m, corpus, store, keys[split], iteration, split))
            rows.extend(convergence_rows(m, iteration))
            scored_at = time.perf_counter()
            fit_s, fit_start[0] = fitted_at - fit_start[0], scored_at
            print(iteration_line(learner, m, args, iteration, rows, fit_s, scored_at - fitted_at), flush=True)
            print(f"  {solver_line(m, iteration)}", flush=True)

        if learner in fitted:
            model = stand_in(fitted[learner], model, train, args.train_arcs, owner)
            for t in range(1, model.n_iterations_ + 1):
                record(t, model)
        else:
            if owner is not None:
                model.share_pairs(owner)
            model.fit(train, callback=record, first_fit=first, warm_start=warm)
        owner = owner or model  # each store's pairs are built once, for all the job's models
        first = first or model.first_fit()
        if args.model:
            model.save(args.model)
        df = pd.DataFrame(rows, columns=["iteration", "split", "stage", "measure", "value"])
        df.insert(0, "bias_weight", params["bias_weight"])
        df.insert(0, "bias", args.bias)
        df.insert(0, "learner", learner)
        # the scores to 6 decimals; the solver's records (‖∇f‖/‖∇f(0)‖ ~ 1e-9) to 9 significant digits
        df["value"] = [f"{v:.9g}" if split == FIT_SPLIT else f"{v:.6f}" for split, v in zip(df.split, df.value)]
        atomic_write_text(out, df.to_csv(index=False, lineterminator="\n", float_format="%.6f"))
    return 0


def iteration_line(learner, model, args, iteration, rows, fit_s, score_s):
    """`cc_slt_closest bias=pa λ=3: iteration 2/3: test MUC F1 71.25, 80.1 s fit + 2.0 s scoring`
    (fit 0.0 s where a shared first fit or a leaderboard model stands in)."""
    total = model.planned_epochs
    muc = next(v for it, split, _, measure, v in rows if (it, split, measure) == (iteration, "test", "muc_f1"))
    return (
        f"{learner} bias={args.bias} λ={args.bias_weight:g}: iteration {iteration}/{total}: "
        f"test MUC F1 {muc:.2f}, {fit_s:.1f} s fit + {score_s:.1f} s scoring"
    )


def solver_line(model, iteration):
    """`solver: newton, 11 iterations, 342 Hessian products, ‖g‖/‖g(0)‖ 3.4e-09 (tol 1e-06): converged`."""
    records = getattr(model, "convergence_", None) or []
    record = records[iteration - 1] if iteration <= len(records) else None
    if not record:
        return "solver: convergence not recorded (a model saved before fits kept it)"
    products = f", {record['cg_iterations']} Hessian products" if record.get("cg_iterations") is not None else ""
    state = "converged" if record.get("converged") else f"NOT converged ({record.get('message', '')})"
    if record.get("start") == "warm":
        state += ", warm-started"
    return (
        f"solver: {record.get('solver', '?')}, {record.get('iterations')} iterations{products}, "
        f"‖g‖/‖g(0)‖ {record.get('grad_norm_rel', float('nan')):.1e} (tol {record.get('tol', float('nan')):g}): {state}"
    )


def fitted_models(specs, learners):
    """{learner: model path} of the --fitted LEARNER=MODEL options (each learner one of --learner)."""
    out = named_values(specs, "--fitted", "LEARNER=MODEL")
    for learner, path in out.items():
        if learner not in learners:
            raise UserError(f"--fitted '{learner}={path}': {learner} is not one of this job's --learner")
    return out


def warm_start(path, train, train_arcs):
    """The `first_fit()` of the C&C model at path (None without one), checked to be fitted on the
    features of the training store (else a one-line error)."""
    if path is None:
        return None
    from coreflab.learn.base import Learner
    from coreflab.learn.pairwise.crf_slt import PairwiseCRF

    fitted = Learner.load(path)
    if not isinstance(fitted, PairwiseCRF):
        raise UserError(f"--warm-start {path}: a {fitted.name} model, not a Choi & Cardie one")
    if not fitted.fitted_on(train):
        raise UserError(f"--warm-start {path}: fitted on other training features than --train-arcs {train_arcs}")
    return fitted.first_fit()


def stand_in(path, model, train, train_arcs, pairs_of=None):
    """The model fitted at path, checked to be the fit `model.fit(train)` would make: the same
    learner and fit settings, over the same training features (else a one-line error); reading the
    stores through the pairs of the model `pairs_of`, if given."""
    from coreflab.learn.base import Learner

    fitted = Learner.load(path)
    if pairs_of is not None and callable(getattr(fitted, "share_pairs", None)):
        fitted.share_pairs(pairs_of)
    if type(fitted) is not type(model) or fitted.fit_key() != model.fit_key():
        raise UserError(
            f"{path}: fitted as {fitted.name} {fitted.fit_key()}, this job runs {model.name} {model.fit_key()}"
        )
    if not fitted.fitted_on(train):
        raise UserError(f"{path}: fitted on other training features than --train-arcs {train_arcs}")
    return fitted
