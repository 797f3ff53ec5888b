"""`coreflab singh2011 significance`: paired bootstrap over documents of the model's B3 F1 against
each baseline of Table 2 (the paper: "significantly above Subsquare, p < 0.0001").

coreflab singh2011 significance --baseline-labels B.npz --model whole_corpus=M.npy [within_topic=W.npy]
    --corpus-name ecbplus --out S.csv
"""

import numpy as np
import pandas as pd

from coreflab.arg_types import at_least
from coreflab.errors import UserError
from coreflab.papers.singh2011.b3 import paired_bootstrap_b3
from coreflab.report.io import atomic_write_text

SETTINGS = {"whole_corpus": "whole corpus", "within_topic": "within topic"}


def add_arguments(p):
    p.add_argument("--baseline-labels", required=True, help="NPZ of `singh2011 baselines --labels-out`")
    p.add_argument(
        "--model",
        nargs="+",
        required=True,
        help="SETTING=labels.npy of the model (SETTING: whole_corpus or within_topic)",
    )
    p.add_argument("--corpus-name", required=True)
    p.add_argument("--samples", type=at_least(1), default=10000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", required=True, help="CSV: corpus, setting, system, B3 F1 difference, interval, p")


def run(args):
    base = np.load(args.baseline_labels)
    gold, doc = base["gold"], base["doc"]
    rows = []
    for item in args.model:
        key, sep, path = item.partition("=")
        if not sep or key not in SETTINGS:
            raise UserError(f"--model {item!r}: expected SETTING=labels.npy with SETTING in {', '.join(SETTINGS)}")
        setting = SETTINGS[key]
        model = np.load(path)
        if model.shape != gold.shape:
            raise UserError(f"{path}: {model.size} labels for {gold.size} mentions of {args.baseline_labels}")
        for name in base.files:
            system, _, where = name.partition("|")
            if where != setting:
                continue
            delta, low, high, p = paired_bootstrap_b3(model, base[name], gold, doc, args.samples, args.seed)
            rows.append(
                {
                    "corpus": args.corpus_name,
                    "setting": setting,
                    "system": system,
                    "B3 F1 model − system": delta,
                    "95% low": low,
                    "95% high": high,
                    "p (bootstrap)": p,
                    "documents": int(len(np.unique(doc))),
                }
            )
    atomic_write_text(args.out, pd.DataFrame(rows).to_csv(index=False, lineterminator="\n"))
    return 0
