"""`coreflab overview`: the corpus overview figure (PNG and PDF) from compiled splits."""

from coreflab.corpus.compiled import CompiledCorpus
from coreflab.report.io import save_figure
from coreflab.report.overview import overview_figure


def add_arguments(p):
    p.add_argument("--compiled", nargs="+", required=True, help="compiled splits (.npz), first one drives the distance panel")
    p.add_argument("--corpus", required=True)
    p.add_argument("--png", required=True)
    p.add_argument("--pdf", required=True)


def run(args):
    corpora = [CompiledCorpus.load(p) for p in args.compiled]
    fig = overview_figure(corpora, f"Corpus overview: {args.corpus}")
    save_figure(fig, args.png)
    save_figure(fig, args.pdf)
    return 0
