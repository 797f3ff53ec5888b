"""`coreflab baseline`: string-match predictions for a compiled split, written as CoNLL.

    coreflab baseline --compiled SPLIT.npz --conll KEY.conll --out PRED.conll
                      [--singletons auto|keep|drop] [--window N]

The response is the key's documents with their clusters replaced by the baseline's
(`coreflab.learn.trees.string_match`). `--singletons auto` drops one-mention clusters when the key
annotates none (CoNLL-2012 style) and keeps them when it does (LitBank, GUM).
"""

from coreflab.corpus.compiled import CompiledCorpus
from coreflab.corpus.readers.conll import read_conll_path, write_conll
from coreflab.errors import UserError
from coreflab.learn.output import check_same_tokens, key_has_singletons
from coreflab.learn.trees.string_match import antecedents_to_clusters, string_match_antecedents


def add_arguments(parser):
    parser.add_argument("--compiled", required=True, help="compiled split (.npz from coreflab prepare)")
    parser.add_argument("--conll", required=True, help="the split's key (CoNLL-2012 file or directory)")
    parser.add_argument("--out", required=True, help="response CoNLL-2012 file to write")
    parser.add_argument(
        "--singletons",
        default="auto",
        choices=("auto", "keep", "drop"),
        help="keep one-mention clusters (default auto: as the key does)",
    )
    parser.add_argument("--window", type=int, default=3, help="pronoun antecedent window in sentences (default 3)")


def response_documents(corpus, key_docs, clusters_per_doc, singletons="auto"):
    """Key documents carrying the predicted clusters (matched on (doc_id, part))."""
    keep = singletons == "keep" or (singletons == "auto" and key_has_singletons(key_docs))
    index = {(doc_id, int(part)): d for d, (doc_id, part) in enumerate(zip(corpus.doc_ids, corpus.doc_parts))}
    out = []
    for doc in key_docs:
        d = index.get(doc.key)
        if d is None:
            raise UserError(
                f"{doc.source or 'key'}: document {doc.name!r} is not in the compiled split {corpus.name}/{corpus.split}"
            )
        check_same_tokens(doc, corpus, d, doc.source or "key")
        clusters = [c for c in clusters_per_doc[d] if keep or len(c) > 1]
        out.append(doc.with_clusters(clusters))
    return out


def run(args):
    if args.window < 0:
        raise UserError(f"--window must be >= 0, got {args.window}")
    try:
        corpus = CompiledCorpus.load(args.compiled)
    except (FileNotFoundError, OSError, ValueError, KeyError) as err:
        raise UserError(f"{args.compiled}: cannot read compiled split ({err})") from None
    key = read_conll_path(args.conll)
    antecedents = string_match_antecedents(corpus, args.window)
    clusters = antecedents_to_clusters(corpus, antecedents)
    write_conll(response_documents(corpus, key, clusters, args.singletons), args.out)
    return 0
