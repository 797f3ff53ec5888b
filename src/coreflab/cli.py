"""The `coreflab` command: one verb per workflow step, so every step runs without Snakemake.

Each verb lives in `coreflab.commands.<module>` and provides `add_arguments(parser)` and
`run(args) -> int`. Verbs are imported lazily so `coreflab score` does not pay for numba.
"""

import argparse
import importlib
import os
import sys

from coreflab.errors import UserError

# verb -> (module under coreflab.commands, one-line help)
VERBS = {
    "score": ("score", "score a response against a key with the CoNLL metrics"),
    "compare": ("compare", "paired significance test between two systems"),
    "synth": ("synth", "generate the embedded synthetic corpus as CoNLL-2012"),
    "import": ("import_corpus", "load one split of a corpus source and write it as CoNLL-2012"),
    "prepare": ("prepare", "read, validate and compile a corpus split"),
    "baseline": ("baseline", "string-match baseline predictions"),
    "features": ("features", "compute the arc feature store (local features of every candidate arc) of a compiled split"),
    "train": ("train", "fit a registered learner on a compiled split and its arc store"),
    "predict": ("predict", "predict a split with a trained model and write CoNLL-2012"),
    "scores-table": ("scores_table", "collect score files into tidy CSV"),
    "leaderboard": ("leaderboard", "leaderboard table from tidy scores"),
    "overview": ("overview", "corpus overview figure"),
    "select": ("select", "greedy forward/backward feature-template selection (B&K 2014)"),
    "tune-root-loss": ("tune_root_loss", "choose B&K's root-attachment loss on dev (keys with singletons)"),
    "bk-report": ("bk_report", "Björkelund & Kuhn 2014 Figs. 3-4 and Table 1 from dev curves"),
    "cc-run": ("cc_run", "train one Choi & Cardie 2007 configuration and score every EM iteration"),
    "cc-tables": ("cc_tables", "Choi & Cardie 2007 Tables 1-3 from cc-run results"),
    "l3m-experiment": ("l3m_experiments", "L3M robustness, CCCP vs SGD and order-control studies"),
    "l3m-tables": ("l3m_tables", "Samdani et al. 2014 tables from the experiment results"),
    "mela-data": ("mela_data", "regressor training data from per-document LSP_F runs (H&M 2017)"),
    "mela-fit": ("mela_fit", "fit the MELA regressor (LinearSVR on the nine features)"),
    "hm2017-table1": ("hm2017_table1", "H&M 2017 Table 1 and Fig. 2"),
    "hm2017-select": ("hm2017_select", "rank features by a mention-pair classifier"),
    "hm2017-tune": ("hm2017_tune", "tune C and r of an LSP learner on a training sample"),
    "hm2017-run": ("hm2017_run", "one LSP learner in one feature space, dev/test scores per epoch"),
    "hm2017-report": ("hm2017", "H&M 2017 Fig. 3 and Tables 2-4"),
    "crossdoc": ("crossdoc", "distributed MCMC cross-document coreference on Dask (Singh et al. 2011)"),
    "synth-crossdoc": ("synth_crossdoc", "synthetic cross-document corpus (Person-X / large scale)"),
    "crossdoc-ecbplus": ("crossdoc_ecbplus", "ECB+ entity mentions as a cross-document corpus"),
    "crossdoc-calibrate": ("crossdoc_calibrate", "entity bias giving the true number of entities (Person-X)"),
    "crossdoc-baselines": ("crossdoc_baselines", "string-match and label-propagation baselines"),
    "crossdoc-report": ("crossdoc_report", "Singh et al. 2011 Figs. 5-7 and Table 2"),
    "skipped": ("skipped", "table of the experiments skipped for missing data, with how to enable each"),
    "docs": ("docs", "render docs/ pages whose numbers come from result files"),
    "manifest": ("manifest", "record config hash, seed, package versions and git commit of a results directory"),
    "doccluster": ("doccluster", "supervised clustering of 20 Newsgroups posts (L3M Table 2)"),
}


def _load(verb):
    module_name, _ = VERBS[verb]
    return importlib.import_module(f"coreflab.commands.{module_name}")


def build_parser(verb=None):
    """The argument parser; only the requested verb's module is imported."""
    parser = argparse.ArgumentParser(prog="coreflab", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="verb", metavar="VERB")
    sub.required = True
    for name, (_, help_text) in VERBS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        if name == verb:
            _load(name).add_arguments(p)
    return parser


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    os.environ.setdefault("NUMBA_CACHE_DIR", os.path.join(os.getcwd(), ".numba_cache"))
    # Only import the module of the requested verb (fast start, isolated failures).
    parser = build_parser(argv[0] if argv and argv[0] in VERBS else None)
    args = parser.parse_args(argv)
    try:
        return int(_load(args.verb).run(args) or 0)
    except UserError as err:
        print(f"coreflab {args.verb}: error: {err}", file=sys.stderr)
        return err.exit_code
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
