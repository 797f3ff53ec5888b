"""`coreflab cut-parts`: a copy of a CoNLL-2012 release with the documents of some splits cut into
parts of N sentences, as OntoNotes cuts long documents.

    coreflab cut-parts --release DIR --out DIR [--splits test] [--sentences 4]

Each part is scored as a document of its own, so a cut split can hold more one-mention clusters
than the 5% by which `response_singletons: auto` tells a scheme that annotates singletons: a check
that every split is scored by the training key's decision. The other splits' files are linked, not
copied; --out must be a new or empty folder.
"""

OUT_IS_FOLDER = True  # --out is the copy's root folder


def add_arguments(parser):
    parser.add_argument("--release", required=True, help="a release in the official layout (data/<split>/...)")
    parser.add_argument("--out", required=True, help="a new or empty folder for the copy")
    parser.add_argument(
        "--splits", default="test", help="comma-separated splits to cut: train, dev, test (default test)"
    )
    parser.add_argument("--sentences", type=int, default=4, help="sentences per part (default 4)")


def run(args):
    from coreflab.corpus.release import cut_release

    splits = [s.strip() for s in args.splits.split(",") if s.strip()]
    counts = cut_release(args.release, args.out, splits, args.sentences)
    done = ", ".join(f"{split} ({n} files)" for split, n in counts.items())
    print(f"{args.out}: {done} cut into parts of {args.sentences} sentences")
    return 0
