"""`coreflab baseline`: string-match predictions for a compiled split, written as CoNLL.

    coreflab baseline --compiled SPLIT.npz --conll KEY.conll --out PRED.conll
                      [--singletons auto|keep|drop] [--window N]

The response is the key's documents with their clusters replaced by the baseline's
(`coreflab.learn.trees.string_match`). `--singletons auto` follows the decision `coreflab prepare`
recorded for the corpus: one-mention clusters dropped when its training key annotates none
(CoNLL-2012 style), kept when it does (LitBank, GUM).
"""

from coreflab.arg_types import at_least
from coreflab.corpus.compiled import CompiledCorpus
from coreflab.corpus.readers.conll import read_conll_path, write_conll
from coreflab.errors import UserError
from coreflab.learn.output import response_documents
from coreflab.learn.trees.string_match import StringMatch


def add_arguments(parser):
    parser.add_argument("--compiled", required=True, help="compiled split (.npz from coreflab prepare)")
    parser.add_argument("--conll", required=True, help="the split's key (CoNLL-2012 file or directory)")
    parser.add_argument("--out", required=True, help="response CoNLL-2012 file to write")
    parser.add_argument(
        "--singletons",
        default="auto",
        choices=("auto", "keep", "drop"),
        help="keep one-mention clusters (default auto: as recorded in the compiled split)",
    )
    parser.add_argument(
        "--window", type=at_least(0), default=3, help="pronoun antecedent window in sentences (default 3)"
    )


def run(args):
    try:
        corpus = CompiledCorpus.load(args.compiled)
    except (FileNotFoundError, OSError, ValueError, KeyError) as err:
        raise UserError(f"{args.compiled}: cannot read compiled split ({err})") from None
    key = read_conll_path(args.conll)
    ante = StringMatch(window=args.window).predict(corpus)
    # auto: as the compiled split records (response_documents resolves the choice)
    write_conll(response_documents(key, corpus, ante, args.singletons, source=args.conll, who="string_match"), args.out)
    return 0
