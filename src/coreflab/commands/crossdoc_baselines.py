"""`coreflab crossdoc-baselines`: B3 of string match and label propagation (Subsquare stand-in).

For a corpus with topics (ECB+) both baselines are also run in the within-topic setting
(no cluster crosses a topic); the `setting` column tells the rows apart in Table 2.
"""

import time

import numpy as np
import pandas as pd

from coreflab.crossdoc.b3 import b3_scores
from coreflab.crossdoc.baselines import label_propagation_labels, string_match_labels
from coreflab.crossdoc.data import CrossdocCorpus
from coreflab.report.io import atomic_write_text


def add_arguments(p):
    p.add_argument("--corpus", required=True)
    p.add_argument("--corpus-name", required=True)
    p.add_argument("--bias", type=float, default=0.05)
    p.add_argument("--string-weight", type=float, default=0.8)
    p.add_argument("--neighbours", type=int, default=10)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", required=True, help="CSV: corpus, system, B3 P/R/F1, entities, seconds")


def run(args):
    corpus = CrossdocCorpus.load(args.corpus)
    rows = []
    settings = [("whole corpus", None)]
    if len(np.unique(corpus.topic)) > 1:
        settings.append(("within topic", corpus.topic))
    for setting, blocks in settings:
        for system, fn in [("string_match", lambda: string_match_labels(corpus, blocks=blocks)),
                           ("label_propagation", lambda: label_propagation_labels(
                               corpus, args.bias, args.string_weight, k=args.neighbours, seed=args.seed,
                               blocks=blocks))]:
            start = time.perf_counter()
            labels = fn()
            seconds = time.perf_counter() - start
            p, r, f = b3_scores(labels, corpus.gold)
            rows.append({"corpus": args.corpus_name, "system": system, "setting": setting, "b3_p": p, "b3_r": r,
                         "b3_f1": f, "entities": int(len(set(labels.tolist()))), "seconds": seconds})
    atomic_write_text(args.out, pd.DataFrame(rows).to_csv(index=False, lineterminator="\n"))
    return 0
