"""`coreflab cc2007 run`: train Choi & Cardie configurations, score every EM iteration.

One job per (bias, λ), for one or more learners (`--learner` and `--out` repeated, in pairs):
the per-iteration callback scores the training and test splits, so Tables 1–3 come from these
rows without retraining: the training rows choose SLT's iteration (of 2..5) and Table 3's `*`,
the test rows are what the tables report. Iteration 1 of BASE and of both SLT E-steps is the
same fit on y*, so it is fitted once, by the first learner, and shared with the others (the
rows are bit for bit those of separate runs; tests/papers/cc2007/test_run_command.py).
"""

import pandas as pd

from coreflab.corpus.readers.conll import read_conll_path
from coreflab.errors import UserError
from coreflab.learn.io import load_split
from coreflab.learn.registry import make_learner
from coreflab.papers.cc2007.evaluation import cc_rows
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
    p.add_argument("--em-iterations", type=int, default=5)
    p.add_argument(
        "--max-iter",
        type=int,
        default=300,
        help="L-BFGS iterations per EM fit (the pair model's solver budget; default 300)",
    )
    p.add_argument("--seed", type=int, default=1)
    for split in ("train", "test"):
        p.add_argument(f"--{split}-compiled", required=True)
        p.add_argument(f"--{split}-arcs", required=True)
        p.add_argument(f"--{split}-conll", required=True)
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
    params = {
        "bias": args.bias,
        "bias_weight": args.bias_weight if args.bias != "none" else 1.0,
        "em_iterations": args.em_iterations,
        "max_iter": args.max_iter,
        "seed": args.seed,
    }
    first = None
    for learner, out in zip(args.learner, args.out):
        model = make_learner(learner, params)
        rows = []

        def record(iteration, m, learner=learner, rows=rows):
            for split, (corpus, store) in (("train", train), ("test", test)):
                rows.extend(cc_rows(m, corpus, store, keys[split], iteration, split))
            print(f"{learner} bias={args.bias} λ={args.bias_weight}: iteration {iteration} scored", flush=True)

        model.fit(train, callback=record, first_fit=first)
        first = first or model.first_fit()
        if args.model:
            model.save(args.model)
        df = pd.DataFrame(rows, columns=["iteration", "split", "stage", "measure", "value"])
        df.insert(0, "bias_weight", params["bias_weight"])
        df.insert(0, "bias", args.bias)
        df.insert(0, "learner", learner)
        atomic_write_text(out, df.to_csv(index=False, lineterminator="\n", float_format="%.6f"))
    return 0
