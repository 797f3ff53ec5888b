"""`coreflab cc2007 run`: train one Choi & Cardie configuration, score every EM iteration.

One job per (learner, bias, λ): the per-iteration callback scores the training and test
splits, so Tables 1–3 come from these rows without retraining: the training rows choose
SLT's iteration (of 2..5) and Table 3's `*`, the test rows are what the tables report.
"""

import pandas as pd

from coreflab.corpus.readers.conll import read_conll_path
from coreflab.learn.io import load_split
from coreflab.learn.registry import make_learner
from coreflab.papers.cc2007.evaluation import cc_rows
from coreflab.report.io import atomic_write_text


def add_arguments(p):
    p.add_argument("--learner", required=True, choices=["cc_base", "cc_slt_closest", "cc_slt_preserving"])
    p.add_argument("--bias", default="none", choices=["none", "p1", "pa"])
    p.add_argument("--bias-weight", type=float, default=1.0)
    p.add_argument("--em-iterations", type=int, default=5)
    p.add_argument("--seed", type=int, default=1)
    for split in ("train", "test"):
        p.add_argument(f"--{split}-compiled", required=True)
        p.add_argument(f"--{split}-arcs", required=True)
        p.add_argument(f"--{split}-conll", required=True)
    p.add_argument("--model", default=None, help="also save the model (.npz)")
    p.add_argument("--out", required=True, help="tidy CSV of every iteration's scores")


def run(args):
    train = load_split(args.train_compiled, args.train_arcs)
    test = load_split(args.test_compiled, args.test_arcs)
    keys = {"train": read_conll_path(args.train_conll), "test": read_conll_path(args.test_conll)}
    params = {
        "bias": args.bias,
        "bias_weight": args.bias_weight if args.bias != "none" else 1.0,
        "em_iterations": args.em_iterations,
        "seed": args.seed,
    }
    model = make_learner(args.learner, params)
    rows = []

    def record(iteration, m):
        for split, (corpus, store) in (("train", train), ("test", test)):
            rows.extend(cc_rows(m, corpus, store, keys[split], iteration, split))
        print(f"{args.learner} bias={args.bias} λ={args.bias_weight}: iteration {iteration} scored", flush=True)

    model.fit(train, callback=record)
    if args.model:
        model.save(args.model)
    df = pd.DataFrame(rows, columns=["iteration", "split", "stage", "measure", "value"])
    df.insert(0, "bias_weight", params["bias_weight"])
    df.insert(0, "bias", args.bias)
    df.insert(0, "learner", args.learner)
    atomic_write_text(args.out, df.to_csv(index=False, lineterminator="\n", float_format="%.6f"))
    return 0
