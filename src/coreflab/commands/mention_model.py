"""`coreflab mention-model`: learn which rule-extracted candidates are entity mentions of the key.

    coreflab mention-model --conll TRAIN.conll --out MODEL.npz [--c 1.0] [--folds 5] [--jobs 1] [--stats STATS.json]

Compiles the training split's candidate mentions (the rules', or with `--candidates extended` those and the
nested ones they leave out, `coreflab.corpus.mentions.candidate_mentions`), fits the mention classifier
(`coreflab.features.mention_model`) on whether each candidate is a key mention, and prints its
cross-fitted precision and recall on that split per mention type. `coreflab prepare --mention-model`
then filters candidates and decides which unlinked mentions are entities.
"""

import json

from coreflab.arg_types import at_least
from coreflab.corpus.compile import compile_documents
from coreflab.corpus.readers.conll import atomic_write_text, read_conll_path
from coreflab.errors import UserError


def add_arguments(parser):
    parser.add_argument(
        "--conll", required=True, help="CoNLL-2012 file or directory of the training split (with a key)"
    )
    parser.add_argument("--corpus", default="corpus", help="corpus name (messages only)")
    parser.add_argument("--out", required=True, help="the fitted model (.npz)")
    parser.add_argument("--c", type=float, default=1.0, help="inverse L2 regularisation of the logistic regression")
    parser.add_argument(
        "--folds", type=at_least(1), default=5, help="folds of documents for the cross-fitted training probabilities"
    )
    parser.add_argument(
        "--candidates",
        choices=("rules", "extended"),
        default="rules",
        help="what it classifies: the rules' mentions (default), or those and the nested spans the rules leave out",
    )
    parser.add_argument(
        "--jobs", type=at_least(1), default=1, help="fits at a time (the whole one and each fold's; threads)"
    )
    parser.add_argument("--stats", help="also write the cross-fitted detection statistics as JSON here")


def run(args):
    from coreflab.features.mention_model import CANDIDATE_SETS, fit_mention_model

    if args.c <= 0:
        raise UserError(f"--c must be positive, not {args.c}")
    docs = read_conll_path(args.conll)
    if not docs:
        raise UserError(f"{args.conll}: holds no documents")
    corpus = compile_documents(docs, args.corpus, "train", mentions=CANDIDATE_SETS[args.candidates])
    model = fit_mention_model(corpus, c=args.c, folds=args.folds, candidates=args.candidates, jobs=args.jobs)
    model.save(args.out)
    if args.stats:
        atomic_write_text(args.stats, json.dumps(model.stats, indent=2) + "\n")
    at_half = model.stats["train_cross_fitted"]["0.5"]
    parts = ", ".join(
        f"{name} recall {100 * v['recall_of_candidates']:.1f}% precision {100 * v['precision']:.1f}%"
        for name, v in at_half.items()
    )
    print(
        f"{args.corpus}/train: {corpus.n_mentions} candidates, {int(corpus.m_in_key.sum())} in the key; "
        f"cross-fitted at p >= 0.5: {parts}"
    )
    return 0
