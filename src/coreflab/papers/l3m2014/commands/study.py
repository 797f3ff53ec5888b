"""`coreflab l3m2014 <study>`: the L3M paper's learning curves, robustness, CCCP-vs-SGD and order-control
studies (one verb each; the studies themselves are coreflab.papers.l3m2014.experiments).

  curves         one learner trained for --passes passes at every (λ, η0) of --grid, dev and
                 test MUC/B3/CEAFe/AVG after every pass (Table 1: 1 pass, and passes tuned
                 on dev; λ and η0 are tuned on dev per technique, as the paper does).
  robustness     30 random N(0, 1) initialisations of L3M, γ = 1, one pass, documents in
                 one fixed order: AVG per run on the training split (the paper's measure)
                 and on test.
  cccp_vs_sgd    on the first --docs training documents: training objective and time of
                 CCCP (L-BFGS inner solver) and of SGD passes, from w = 0.
  order_control  each technique trained and tested with mentions shuffled within documents
                 (every pair keeps its features) against the natural order: AVG and the drop.
"""

import argparse

from coreflab.arg_types import at_least
from coreflab.corpus.readers.conll import read_conll_path
from coreflab.learn.base import as_training_data
from coreflab.learn.io import load_split
from coreflab.papers.l3m2014.experiments import cccp_vs_sgd, curves, order_control, robustness
from coreflab.report.io import atomic_write_text

STUDIES = ("curves", "robustness", "cccp_vs_sgd", "order_control")


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
        p.add_argument(f"--{split}-compiled", required=True)
        p.add_argument(f"--{split}-arcs", required=True)
        p.add_argument(f"--{split}-conll", required=True)
    p.add_argument("--runs", type=at_least(1), default=30, help="robustness: random initialisations")
    p.add_argument("--docs", type=at_least(1), default=20, help="cccp_vs_sgd: training documents in the subset")
    p.add_argument("--passes", type=at_least(1), default=5)
    p.add_argument("--gamma", type=float, default=1.0)
    p.add_argument("--lam", type=float, default=1e-4)
    p.add_argument("--eta0", type=float, default=0.1)
    p.add_argument(
        "--techniques",
        default='{"l3m": {"gamma": 0.0}, "sumlink": {}, "binleftlink": {}}',
        help="order_control: JSON {learner: params}",
    )
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", required=True)


def run(args):
    train = as_training_data(load_split(args.train_compiled, args.train_arcs))
    test = as_training_data(load_split(args.test_compiled, args.test_arcs))
    key = read_conll_path(args.test_conll)
    if args.study == "curves":
        df = curves(args, train, test, key)
    elif args.study == "robustness":
        df = robustness(args, train, test, key, read_conll_path(args.train_conll))
    elif args.study == "cccp_vs_sgd":
        df = cccp_vs_sgd(args, train)
    else:
        df = order_control(args, train, test, key)
    atomic_write_text(args.out, df.to_csv(index=False, lineterminator="\n", float_format="%.6f"))
    print(df.to_string(index=False))
    return 0
