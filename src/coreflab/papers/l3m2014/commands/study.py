"""`coreflab l3m2014 <study>`: the L3M paper's learning curves, robustness, CCCP-vs-SGD and order-control
studies (one verb each; the studies themselves are coreflab.papers.l3m2014.experiments).

  curves         one learner trained for --passes passes at every (λ, η0) of --grid, dev and
                 test MUC/B3/CEAFe/AVG after every pass (Table 1: 1 pass, and passes tuned
                 on dev; λ and η0 are tuned on dev per technique, as the paper does).
  robustness     --runs random N(0, sd²) initialisations of L3M at each of two scales, sd = --init-sd
                 and the zero start's learned RMS; γ = 1, one pass, documents in one fixed order,
                 λ and η0 as Table 1 tuned them on dev (--curves): AVG per run on the training
                 split (the paper's measure) and on test. Fewer runs when --max-arcs/--max-passes
                 caps the study's work.
  cccp_vs_sgd    §5.3: on --draws random subsets of --docs training item sets, L3M (γ = 1)
                 trained by CCCP until its objective stops changing (relative --tol, at most
                 --max-outer × --inner iterations) and by --sgd-passes SGD passes: training-data
                 clustering quality, objective, iterations and seconds of both. With
                 --newsgroups: VI of 20 Newsgroups author clustering (the paper's task);
                 otherwise MELA on the corpus's training documents, each cut to its first
                 --max-mentions mentions (or the cut --max-arcs/--max-passes allow).
  order_control  §5.4: Table 1's online systems as tuned on dev (--curves: passes, γ, λ, η0)
                 trained and tested with mentions shuffled within documents (every pair keeps
                 its features) against the natural order: AVG and the drop.

robustness, cccp_vs_sgd and order_control log what they run and a progress line per unit and at
least every 30 s to stderr; --jobs runs their units in that many processes (the results do not
depend on it).
"""

import argparse

from coreflab.arg_types import at_least
from coreflab.corpus.readers.conll import read_conll_path
from coreflab.errors import UserError
from coreflab.learn.base import as_training_data
from coreflab.learn.io import load_split
from coreflab.papers.l3m2014.experiments import (
    CccpSettings,
    CurveSettings,
    OrderSettings,
    RobustnessSettings,
    cccp_vs_sgd,
    curves,
    order_control,
    robustness,
)
from coreflab.papers.l3m2014.report import ONLINE, read_curves
from coreflab.report.io import atomic_write_text

STUDIES = ("curves", "robustness", "cccp_vs_sgd", "order_control")


def _non_negative(kind):
    """An argparse `type` for a number >= 0 (`kind`: int or float)."""

    def parse(text):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
        if value < 0:
            raise argparse.ArgumentTypeError(f"must be at least 0, got {value}")
        return value

    parse.__name__ = f"{kind.__name__} >= 0"
    return parse


def _positive(text):
    value = _non_negative(float)(text)
    if value == 0:
        raise argparse.ArgumentTypeError("must be above 0")
    return value


def add_arguments(p):
    p.add_argument("--study", choices=STUDIES, default=None, help=argparse.SUPPRESS)  # set by the verb
    p.add_argument("--learner", default="l3m", help="curves: registered learner")
    p.add_argument("--params", default="{}", help="curves: JSON learner parameters")
    p.add_argument(
        "--grid",
        default="{}",
        help='curves: JSON {"lam": [...], "eta0": [...]} tuned on dev (missing: the learner\'s default)',
    )
    p.add_argument("--dev-compiled")
    p.add_argument("--dev-arcs")
    p.add_argument("--dev-conll")
    for split in ("train", "test"):
        p.add_argument(f"--{split}-compiled")
        p.add_argument(f"--{split}-arcs")
        p.add_argument(f"--{split}-conll")
    p.add_argument(
        "--curves",
        nargs="+",
        default=None,
        help="robustness, cccp_vs_sgd, order_control: Table 1's curves CSVs (the dev-tuned systems)",
    )
    p.add_argument("--corpus", default="the corpus", help="name of the corpus, for the tables")
    p.add_argument("--runs", type=at_least(1), default=30, help="robustness: random initialisations per scale")
    p.add_argument(
        "--init-sd",
        type=_positive,
        default=1.0,
        help="robustness: sd of the configured random start (also run: the zero start's learned RMS)",
    )
    p.add_argument(
        "--max-arcs",
        type=_non_negative(int),
        default=0,
        help="robustness, cccp_vs_sgd: arcs the study may process (fewer runs, shorter documents); 0: no cap",
    )
    p.add_argument(
        "--max-passes",
        type=_non_negative(float),
        default=0.0,
        help="robustness, cccp_vs_sgd: the same cap in passes over the training split (the smaller wins); 0: none",
    )
    p.add_argument(
        "--max-mentions",
        type=_non_negative(int),
        default=0,
        help="cccp_vs_sgd: first mentions kept of each document (0: all, or what the cap allows)",
    )
    p.add_argument("--jobs", type=at_least(1), default=1, help="robustness, cccp_vs_sgd, order_control: runs at a time")
    p.add_argument(
        "--docs", type=at_least(1), default=20, help="cccp_vs_sgd: training item sets per subset (paper 100)"
    )
    p.add_argument("--draws", type=at_least(1), default=3, help="cccp_vs_sgd: random subsets (paper 10)")
    p.add_argument("--max-outer", type=at_least(1), default=100, help="cccp_vs_sgd: cap on CCCP's outer steps")
    p.add_argument("--inner", type=at_least(1), default=100, help="cccp_vs_sgd: cap on L-BFGS iterations per step")
    p.add_argument("--tol", type=float, default=1e-6, help="cccp_vs_sgd: relative objective change that stops CCCP")
    p.add_argument("--sgd-passes", type=at_least(1), default=1, help="cccp_vs_sgd: SGD passes (paper 1)")
    p.add_argument("--newsgroups", action="store_true", help="cccp_vs_sgd on 20 Newsgroups author clustering")
    p.add_argument("--local-dir", default=None, help="--newsgroups: 20 Newsgroups bydate copy; empty = download")
    p.add_argument("--resources", default="resources")
    p.add_argument("--set-size", type=at_least(2), default=100, help="--newsgroups: posts per item set")
    p.add_argument("--passes", type=at_least(1), default=5, help="curves: passes")
    p.add_argument("--gamma", type=float, default=1.0)
    p.add_argument("--lam", type=float, default=1e-4, help="without --curves (robustness, cccp_vs_sgd)")
    p.add_argument("--eta0", type=float, default=0.1, help="without --curves (robustness, cccp_vs_sgd)")
    p.add_argument(
        "--techniques",
        default=None,
        help=f"order_control: Table 1 techniques, comma-separated (default: its online ones, {','.join(ONLINE)})",
    )
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", required=True)


def _split(args, split):
    paths = [getattr(args, f"{split}_{part}") for part in ("compiled", "arcs", "conll")]
    if not all(paths):
        raise UserError(f"{args.study} needs --{split}-compiled, --{split}-arcs and --{split}-conll")
    return as_training_data(load_split(paths[0], paths[1])), read_conll_path(paths[2])


def _curves(args, required):
    if not args.curves:
        if required:
            raise UserError(f"{args.study} needs --curves: Table 1's curves CSVs (its dev-tuned systems)")
        return None
    try:
        return read_curves(args.curves)
    except FileNotFoundError as err:
        raise UserError(f"{err.filename}: no such file") from None


def _newsgroups_cccp(args):
    from coreflab.papers.l3m2014 import doccluster
    from coreflab.papers.l3m2014.newsgroups import item_sets, load_posts

    sets = item_sets(load_posts(args.local_dir or None, args.resources), args.set_size)
    settings = CccpSettings.from_args(args).training()
    return doccluster.cccp_vs_sgd(sets, "author", docs=args.docs, draws=args.draws, settings=settings)


def run(args):
    if args.study == "cccp_vs_sgd" and args.newsgroups:
        df = _newsgroups_cccp(args)
    elif args.study == "cccp_vs_sgd":
        train, train_key = _split(args, "train")
        df = cccp_vs_sgd(CccpSettings.from_args(args), train, train_key, _curves(args, False), corpus_name=args.corpus)
    else:
        train, train_key = _split(args, "train")
        test, key = _split(args, "test")
        if args.study == "curves":
            dev, dev_key = _split(args, "dev")
            df = curves(CurveSettings.from_args(args), train, dev, dev_key, test, key)
        elif args.study == "robustness":
            df = robustness(RobustnessSettings.from_args(args), train, test, key, train_key, _curves(args, False))
        else:
            techniques = [t.strip() for t in args.techniques.split(",") if t.strip()] if args.techniques else None
            settings = OrderSettings.from_args(args)
            df = order_control(settings, train, test, key, _curves(args, True), techniques)
    atomic_write_text(args.out, df.to_csv(index=False, lineterminator="\n", float_format="%.6f"))
    print(df.to_string(index=False))
    return 0
