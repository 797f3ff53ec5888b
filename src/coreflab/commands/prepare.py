"""`coreflab prepare`: read and validate a CoNLL split, compile it, save the `.npz`.

    coreflab prepare --conll FILE --corpus NAME --split S [--mentions gold|predicted]
                     [--mention-model MODEL.npz [--mention-filter P] [--cross-fit]]
                     [--singletons auto|keep|drop] [--scheme-key TRAIN.conll] [--parses gold|auto]
                     --out SPLIT.npz [--stats STATS.json]

Prints the split's size (documents, tokens, gold mentions, clusters, singletons) and, with
predicted mentions, mention recall/precision/F1 against the key (exact spans), of the rules and,
with a mention model (`coreflab mention-model`), of the candidates it keeps: those whose entity
probability is at least `--mention-filter`. `--cross-fit` scores the model's own training split fold
by fold. Outputs are written atomically; an empty split (no documents) is an error.

The compiled split records the singleton policy (`coreflab.corpus.singletons`), which every later step
that scores it follows: `--singletons keep|drop`, or `auto` (default): from the mention mode, whether
the key of `--scheme-key` (the workflow passes the training split's; default this split's own)
annotates singletons, and whether a mention model decides which predicted mentions are entities. One
decision per corpus, because splits can disagree: documents cut into parts leave one-mention clusters.
"""

import json
from pathlib import Path

import numpy as np

from coreflab.arg_types import probability
from coreflab.corpus.compile import MENTION_MODES, compile_documents
from coreflab.corpus.mentions import gold_mentions
from coreflab.corpus.readers.conll import atomic_write_text, read_conll_path
from coreflab.corpus.singletons import annotates_singletons, decide_policy, keeps_singletons, policy_text
from coreflab.errors import UserError
from coreflab.learn.output import key_singleton_counts
from coreflab.mela.mode import CHOICES, parse_mode


def add_arguments(parser):
    parser.add_argument("--conll", required=True, help="CoNLL-2012 file or directory of the split")
    parser.add_argument("--corpus", required=True, help="corpus name stored in the compiled file")
    parser.add_argument("--split", required=True, help="split name (train, dev, test, ...)")
    parser.add_argument(
        "--mentions", default="gold", choices=MENTION_MODES, help="gold or predicted mentions (default: gold)"
    )
    parser.add_argument(
        "--singletons",
        default="auto",
        choices=CHOICES,
        help="do responses keep one-mention clusters: keep, drop, or auto (default): as --scheme-key's key",
    )
    parser.add_argument(
        "--scheme-key",
        help="CoNLL key whose share of one-mention clusters decides --singletons auto (default: --conll; "
        "the workflow passes the training split's, so that every split follows one decision)",
    )
    parser.add_argument(
        "--mention-model", help="predicted mentions: the mention classifier (`coreflab mention-model`) to apply"
    )
    parser.add_argument(
        "--mention-filter",
        type=probability,
        default=0.1,
        help="drop candidates whose entity probability is below this (default 0.1; 0 keeps every candidate)",
    )
    parser.add_argument(
        "--cross-fit", action="store_true", help="this is the mention model's training split: score it fold by fold"
    )
    parser.add_argument(
        "--parses", choices=("gold", "auto"), default="gold", help="what the parse column holds (captions say it)"
    )
    parser.add_argument("--out", required=True, help="compiled split (.npz)")
    parser.add_argument("--stats", help="also write the statistics as JSON here")


def split_stats(docs, corpus):
    """Counts of a split (from the key) and, for predicted mentions, detection scores."""
    n_single, n_clusters = key_singleton_counts(docs)
    n_gold = n_shared = 0
    for doc in docs:
        n_gold += len(gold_mentions(doc)[0])
        n_shared += sum(len(set(c)) for c in doc.clusters) - len({span for c in doc.clusters for span in c})
    stats = {
        "corpus": corpus.name,
        "split": corpus.split,
        "documents": len(docs),
        "tokens": sum(len(d.words) for d in docs),
        "gold_mentions": n_gold,
        "clusters": n_clusters,
        "singletons": n_single,
        "spans_in_two_clusters": n_shared,  # one gold mention each, of the first cluster in the file
        "mentions": corpus.n_mentions,
        "missing": list(corpus.missing),
    }
    matched = int(np.sum(corpus.m_in_key))
    stats["mention_recall"] = matched / n_gold if n_gold else 0.0
    stats["mention_precision"] = matched / corpus.n_mentions if corpus.n_mentions else 0.0
    r, p = stats["mention_recall"], stats["mention_precision"]
    stats["mention_f1"] = 2 * p * r / (p + r) if p + r else 0.0
    return stats


def key_scheme(docs, conll, scheme_key=None):
    """(annotates singletons, a phrase saying which key and its counts)."""
    source, scheme_docs = "this split's key", docs
    if scheme_key is not None and Path(scheme_key).resolve() != Path(conll).resolve():  # train reads its own once
        scheme_docs = read_conll_path(scheme_key)
        if not scheme_docs:
            raise UserError(f"{scheme_key}: --scheme-key holds no documents")
        source = f"the key of {scheme_key}"
    n_single, n_clusters = key_singleton_counts(scheme_docs)
    return annotates_singletons(n_single, n_clusters), f"{source} has {n_single} one-mention clusters of {n_clusters}"


def singleton_policy(choice, mentions, has_model, docs, conll, scheme_key=None):
    """(policy, why): the singleton policy (`coreflab.corpus.singletons`) and a phrase saying what decided it."""
    mode = parse_mode(choice)
    if mode is not None:
        return decide_policy(mentions, None, has_model, mode), "as configured"
    annotates, why = key_scheme(docs, conll, scheme_key)
    why += ", so the scheme " + ("annotates singletons" if annotates else "does not annotate singletons")
    if annotates and mentions == "predicted":
        why += "; predicted mentions " + ("with" if has_model else "without") + " a mention model"
    return decide_policy(mentions, annotates, has_model, None), why


def apply_model(args, docs):
    """The classifier's candidates filtered with the mention model, and the per-type detection of the rules,
    the candidates and those the classifier keeps (None without a key)."""
    from coreflab.features.mention_model import MentionModel, apply_mention_model, detection_by_type

    model = MentionModel.load(args.mention_model)
    candidates = compile_documents(docs, args.corpus, args.split, mentions=model.extractor)
    filtered, prob = apply_mention_model(candidates, model, args.mention_filter, cross_fit=args.cross_fit)
    if "key" in candidates.missing:
        return filtered, None
    rules = candidates if model.candidates == "rules" else compile_documents(docs, args.corpus, args.split, "predicted")
    stages = {
        "rules": (rules, None),
        "candidates": (candidates, None),
        "classifier": (candidates, prob >= args.mention_filter),
    }
    return filtered, detection_by_type(compile_documents(docs, args.corpus, args.split, mentions="gold"), stages)


def run(args):
    docs = read_conll_path(args.conll)
    if not docs:
        raise UserError(f"{args.conll}: split {args.split!r} of corpus {args.corpus!r} holds no documents")
    if args.mention_model and args.mentions != "predicted":
        raise UserError("--mention-model applies to predicted mentions (--mentions predicted)")
    has_model = bool(args.mention_model)
    policy, why = singleton_policy(args.singletons, args.mentions, has_model, docs, args.conll, args.scheme_key)
    by_type = None
    if has_model:
        corpus, by_type = apply_model(args, docs)
    else:
        corpus = compile_documents(docs, args.corpus, args.split, mentions=args.mentions)
    corpus.response_singletons = keep = keeps_singletons(policy)
    corpus.singleton_policy = policy
    corpus.mention_mode = args.mentions
    corpus.parses = "none" if "parse" in corpus.missing else args.parses
    stats = split_stats(docs, corpus)
    stats["mention_mode"] = args.mentions
    stats["parses"] = corpus.parses
    stats["response_singletons"] = "keep" if keep else "drop"
    stats["singleton_policy"] = policy
    if by_type is not None:
        stats["mention_filter"] = args.mention_filter
        stats["detection_by_type"] = by_type
    if args.stats:
        atomic_write_text(args.stats, json.dumps(stats, indent=2) + "\n")
    corpus.save(args.out)
    line = (
        f"{args.corpus}/{args.split}: {stats['documents']} documents, {stats['tokens']} tokens, "
        f"{stats['gold_mentions']} gold mentions, {stats['clusters']} clusters, {stats['singletons']} singletons"
    )
    if args.mentions == "predicted":
        if by_type is not None:
            rules = by_type["rules"]["all"]
            line += (
                f"; rules: {rules['predicted']} mentions, recall {100 * rules['recall']:.2f}%, "
                f"precision {100 * rules['precision']:.2f}%; classifier: of {by_type['candidates']['all']['predicted']} "
                f"candidates, kept at entity probability >= {args.mention_filter:g}:"
            )
        line += (
            f" {stats['mentions']} predicted mentions, recall {100 * stats['mention_recall']:.2f}%, "
            f"precision {100 * stats['mention_precision']:.2f}%, F1 {100 * stats['mention_f1']:.2f}%"
        )
    if stats["spans_in_two_clusters"]:
        line += (
            f"; {stats['spans_in_two_clusters']} span(s) in more than one cluster of the key, each one mention "
            "of the first cluster"
        )
    if stats["missing"]:
        line += f"; missing: {', '.join(stats['missing'])}"
    print(line)
    print(f"singleton policy {policy}: {policy_text(policy)} ({why})")
    return 0
