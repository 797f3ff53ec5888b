"""`coreflab singh2011 ecbplus`: ECB+ entity mentions with cross-document ids as a corpus .npz."""

from coreflab.arg_types import at_least
from coreflab.papers.singh2011.ecbplus import CONTEXT_WINDOW, read_ecbplus


def add_arguments(p):
    p.add_argument(
        "--local-dir", default=None, help="folder holding ECBplus_xml.tar.xz and ECBplus_coreference_sentences.csv"
    )
    p.add_argument(
        "--all-sentences", action="store_true", help="keep mentions outside the sentences whose annotation is complete"
    )
    p.add_argument(
        "--download",
        action="store_true",
        help="fetch the pinned ECB+ archives into resources/ecbplus/ when --local-dir has no copy (needs network)",
    )
    p.add_argument(
        "--context-window",
        type=at_least(0),
        default=CONTEXT_WINDOW,
        help="context tokens on each side of a mention, other mentions' tokens left out (0: the mention's sentence)",
    )
    p.add_argument("--person-x", action="store_true", help="replace every mention string by X")
    p.add_argument("--out", required=True)


def run(args):
    corpus = read_ecbplus(
        args.local_dir or None,
        restrict_sentences=not args.all_sentences,
        download=args.download,
        window=args.context_window or None,
    )
    if args.person_x:
        corpus = corpus.person_x()
    corpus.save(args.out)
    print(
        f"{args.out}: {len(corpus)} mentions, {len(set(corpus.gold.tolist()))} entities, "
        f"{len(set(corpus.topic.tolist()))} topics"
    )
    return 0
