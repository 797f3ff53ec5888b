"""`coreflab prepare`: read and validate a CoNLL split, compile it, save the `.npz`.

    coreflab prepare --conll FILE --corpus NAME --split S [--mentions gold|predicted]
                     --out SPLIT.npz [--stats STATS.json]

Prints the split's size (documents, tokens, gold mentions, clusters, singletons) and, with
predicted mentions, mention recall/precision/F1 against the key (exact spans). Outputs are
written atomically; an empty split (no documents) is an error.
"""

import json

import numpy as np

from coreflab.corpus.compile import MENTION_MODES, compile_documents
from coreflab.corpus.mentions import gold_mentions
from coreflab.corpus.readers.conll import atomic_write_text, read_conll_path
from coreflab.errors import UserError


def add_arguments(parser):
    parser.add_argument("--conll", required=True, help="CoNLL-2012 file or directory of the split")
    parser.add_argument("--corpus", required=True, help="corpus name stored in the compiled file")
    parser.add_argument("--split", required=True, help="split name (train, dev, test, ...)")
    parser.add_argument(
        "--mentions", default="gold", choices=MENTION_MODES, help="gold or predicted mentions (default: gold)"
    )
    parser.add_argument("--out", required=True, help="compiled split (.npz)")
    parser.add_argument("--stats", help="also write the statistics as JSON here")


def split_stats(docs, corpus):
    """Counts of a split (from the key) and, for predicted mentions, detection scores."""
    n_gold = n_clusters = n_single = 0
    for doc in docs:
        n_gold += len(gold_mentions(doc)[0])
        n_clusters += len(doc.clusters)
        n_single += sum(1 for c in doc.clusters if len(set(c)) == 1)
    stats = {
        "corpus": corpus.name,
        "split": corpus.split,
        "documents": len(docs),
        "tokens": sum(len(d.words) for d in docs),
        "gold_mentions": n_gold,
        "clusters": n_clusters,
        "singletons": n_single,
        "mentions": corpus.n_mentions,
        "missing": list(corpus.missing),
    }
    matched = int(np.sum(corpus.m_in_key))
    stats["mention_recall"] = matched / n_gold if n_gold else 0.0
    stats["mention_precision"] = matched / corpus.n_mentions if corpus.n_mentions else 0.0
    r, p = stats["mention_recall"], stats["mention_precision"]
    stats["mention_f1"] = 2 * p * r / (p + r) if p + r else 0.0
    return stats


def run(args):
    docs = read_conll_path(args.conll)
    if not docs:
        raise UserError(f"{args.conll}: split {args.split!r} of corpus {args.corpus!r} holds no documents")
    corpus = compile_documents(docs, args.corpus, args.split, mentions=args.mentions)
    stats = split_stats(docs, corpus)
    stats["mention_mode"] = args.mentions
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
    if stats["missing"]:
        line += f"; missing: {', '.join(stats['missing'])}"
    print(line)
    return 0
