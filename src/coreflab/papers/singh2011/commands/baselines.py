"""`coreflab singh2011 baselines`: B3 of string match and label propagation (Subsquare stand-in).

For a corpus with topics (ECB+) both baselines are also run in the within-topic setting
(no cluster crosses a topic); the `setting` column tells the rows apart in Table 2.
With `--prior-from` (a singh2011 calibrate JSON) the held-out tuning entities are left out, as in
the model's runs, and label propagation uses the tuned b and w (`--prior-within-from` for the
within-topic setting). Every row carries the entity-level log p of its labelling, of the gold
state and of the string-match state under that setting's prior, so Table 2 can show whether
the model's optimum is the truth or string match.
"""

import time
from pathlib import Path

import numpy as np
import pandas as pd

from coreflab.arg_types import at_least
from coreflab.errors import UserError
from coreflab.papers.singh2011.b3 import b3_scores
from coreflab.papers.singh2011.baselines import label_propagation_labels, string_match_labels
from coreflab.papers.singh2011.data import CrossdocCorpus
from coreflab.papers.singh2011.tuning import entity_log_score, evaluation_corpus, load_prior, state_scores
from coreflab.report.io import atomic_write_text


def add_arguments(p):
    p.add_argument("--corpus", required=True)
    p.add_argument("--corpus-name", required=True)
    p.add_argument("--bias", type=float, default=0.05)
    p.add_argument("--string-weight", type=float, default=0.8)
    p.add_argument("--prior-from", default=None, help="singh2011 calibrate JSON (overrides --bias/--string-weight)")
    p.add_argument("--prior-within-from", default=None, help="singh2011 calibrate JSON for the within-topic setting")
    p.add_argument("--neighbours", type=at_least(1), default=10)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", required=True, help="CSV: corpus, system, B3 P/R/F1, entities, seconds, log p")
    p.add_argument(
        "--labels-out", default=None, help="NPZ: gold, doc and each system's labels ('system|setting'), for the tests"
    )


def _prior(args, path):
    if path:
        bias, weight, _ = load_prior(path)
        return bias, weight
    return args.bias, args.string_weight


def run(args):
    corpus = evaluation_corpus(CrossdocCorpus.load(args.corpus), args.prior_from)
    if args.prior_from and args.prior_within_from:
        a, b = load_prior(args.prior_from)[2], load_prior(args.prior_within_from)[2]
        if not np.array_equal(a, b):
            raise UserError(f"{args.prior_from} and {args.prior_within_from} hold out different entities")
    rows = []
    kept = {"gold": corpus.gold, "doc": corpus.doc}
    settings = [("whole corpus", None, _prior(args, args.prior_from))]
    if len(np.unique(corpus.topic)) > 1:
        settings.append(("within topic", corpus.topic, _prior(args, args.prior_within_from or args.prior_from)))
    for setting, blocks, (bias, weight) in settings:
        ref = state_scores(corpus, bias, weight, blocks)
        for system, fn in [
            ("string_match", lambda: string_match_labels(corpus, blocks=blocks)),
            (
                "label_propagation",
                lambda: label_propagation_labels(
                    corpus, bias, weight, k=args.neighbours, seed=args.seed, blocks=blocks
                ),
            ),
        ]:
            start = time.perf_counter()
            labels = fn()
            seconds = time.perf_counter() - start
            kept[f"{system}|{setting}"] = np.asarray(labels)
            p, r, f = b3_scores(labels, corpus.gold)
            rows.append(
                {
                    "corpus": args.corpus_name,
                    "system": system,
                    "setting": setting,
                    "b3_p": p,
                    "b3_r": r,
                    "b3_f1": f,
                    "entities": int(len(set(labels.tolist()))),
                    "seconds": seconds,
                    "mentions": len(corpus),
                    "bias": bias,
                    "string_weight": weight,
                    "log_p": entity_log_score(corpus, labels, bias, weight),
                    **ref,
                }
            )
    atomic_write_text(args.out, pd.DataFrame(rows).to_csv(index=False, lineterminator="\n"))
    if args.labels_out:
        tmp = Path(args.labels_out).with_name(f".{Path(args.labels_out).name}.tmp.npz")
        np.savez_compressed(tmp, **kept)
        tmp.replace(args.labels_out)
    return 0
