"""`coreflab prepare`: read and validate a CoNLL split, compile it, save the `.npz`.

    coreflab prepare --conll FILE --corpus NAME --split S [--mentions gold|predicted]
                     [--singletons auto|keep|drop] [--scheme-key TRAIN.conll]
                     --out SPLIT.npz [--stats STATS.json]

Prints the split's size (documents, tokens, gold mentions, clusters, singletons) and, with
predicted mentions, mention recall/precision/F1 against the key (exact spans). Outputs are
written atomically; an empty split (no documents) is an error.

The compiled split records whether responses on the corpus keep one-mention clusters, which every
later step that scores it follows: `--singletons keep|drop`, or `auto` (default): whether the key
of `--scheme-key` (the workflow passes the training split's; default this split's own) annotates
singletons. One decision per corpus, because splits can disagree: documents cut into parts leave
one-mention clusters, so one split's key can pass the 5% mark and another's not.
"""

import json
from pathlib import Path

import numpy as np

from coreflab.corpus.compile import MENTION_MODES, compile_documents
from coreflab.corpus.mentions import gold_mentions
from coreflab.corpus.readers.conll import atomic_write_text, read_conll_path
from coreflab.errors import UserError
from coreflab.learn.output import key_singleton_counts
from coreflab.mela.mode import CHOICES, annotates_singletons, parse_mode


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


def response_singletons(choice, docs, conll, scheme_key=None):
    """(keep, why): whether responses keep one-mention clusters, and a phrase saying what decided it."""
    mode = parse_mode(choice)
    if mode is not None:
        return mode, "as configured"
    source, scheme_docs = "this split's key", docs
    if scheme_key is not None and Path(scheme_key).resolve() != Path(conll).resolve():  # train reads its own once
        scheme_docs = read_conll_path(scheme_key)
        if not scheme_docs:
            raise UserError(f"{scheme_key}: --scheme-key holds no documents")
        source = f"the key of {scheme_key}"
    n_single, n_clusters = key_singleton_counts(scheme_docs)
    return annotates_singletons(n_single, n_clusters), f"{source} has {n_single} one-mention clusters of {n_clusters}"


def run(args):
    docs = read_conll_path(args.conll)
    if not docs:
        raise UserError(f"{args.conll}: split {args.split!r} of corpus {args.corpus!r} holds no documents")
    keep, why = response_singletons(args.singletons, docs, args.conll, args.scheme_key)
    corpus = compile_documents(docs, args.corpus, args.split, mentions=args.mentions)
    corpus.response_singletons = keep
    stats = split_stats(docs, corpus)
    stats["mention_mode"] = args.mentions
    stats["response_singletons"] = decision = "keep" if keep else "drop"
    if args.stats:
        atomic_write_text(args.stats, json.dumps(stats, indent=2) + "\n")
    corpus.save(args.out)
    line = (
        f"{args.corpus}/{args.split}: {stats['documents']} documents, {stats['tokens']} tokens, "
        f"{stats['gold_mentions']} gold mentions, {stats['clusters']} clusters, {stats['singletons']} singletons"
    )
    if args.mentions == "predicted":
        line += (
            f"; {stats['mentions']} predicted mentions, recall {100 * stats['mention_recall']:.2f}%, "
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
    print(f"responses {decision} one-mention clusters ({why})")
    return 0
