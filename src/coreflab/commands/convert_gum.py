"""`coreflab convert-gum`: GUM or OntoGUM written as a CoNLL-2012 release in the official layout.

    coreflab convert-gum --gum DIR --out DIR [--scheme ontogum|gum] [--drop-singletons]

The nearest open stand-in for OntoNotes, so that `config/conll2012.yaml` (the reader of the
official layout, mentions from the parse column, every learner) runs end to end on a corpus with
all 14 columns (`coreflab.corpus.release`). Then:

    snakemake --cores 2 --configfile config/conll2012.yaml \
        --config 'corpora={"conll2012": {"local_dir": "DIR", "language": "english", "annotation": "gold"}}'
"""

from coreflab.corpus.readers.gum import SCHEMES

OUT_IS_FOLDER = True  # --out is the release's root folder


def add_arguments(parser):
    parser.add_argument("--gum", required=True, help="a GUM copy (the shared layout or the repository's)")
    parser.add_argument("--out", required=True, help="folder to write the release into")
    parser.add_argument(
        "--scheme", default="ontogum", choices=sorted(SCHEMES), help="ontogum (no singletons, default) or gum"
    )
    parser.add_argument("--drop-singletons", action="store_true", help="leave one-mention clusters out of the key")


def run(args):
    from coreflab.corpus.release import write_gum_release

    counts = write_gum_release(args.gum, args.out, args.scheme, args.drop_singletons)
    print(f"{args.out}: " + ", ".join(f"{k} {v} documents" for k, v in counts.items()))
    return 0
