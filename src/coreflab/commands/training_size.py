"""`coreflab training-size`: one learner's test MELA by the number of training documents.

    coreflab training-size --learner l3m --params '{"epochs": 5}' --train-compiled ... --train-arcs ...
        --test-compiled ... --test-arcs ... --test-conll ... [--dev-compiled ... --dev-arcs ... --dev-conll ...]
        [--tuned JSON|NAME=PATH ...] --sizes 5 10 20 40 80 --draws 3 --seed 1 --out CURVE.csv

Trains the learner on seeded draws of each size of the training split (a size at or above the split's
is "all") as `coreflab train` does, scores each model on the whole test split as the leaderboard does,
and writes one CSV row per size and draw (`coreflab.learn.training_size`). The dev split is read only
for a learner whose passes are tuned on dev (its best dev epoch, as `coreflab train` keeps it).
`coreflab training-size-report` reads the curves of several learners against the rule systems.
"""

from coreflab.arg_types import at_least
from coreflab.errors import UserError


def add_arguments(p):
    p.add_argument("--learner", required=True, help="registered learner name, e.g. bk_baseline")
    p.add_argument("--system", help="name of the curve in the CSV (the config's learner key; default: --learner)")
    p.add_argument("--params", default="{}", help="learner parameters: JSON object or a .json file")
    p.add_argument(
        "--tuned",
        action="append",
        default=[],
        metavar="JSON or NAME=PATH",
        help="values tuned on dev, as `coreflab train --tuned` takes them (repeatable)",
    )
    for split in ("train", "test"):
        p.add_argument(f"--{split}-compiled", required=True, help=f"compiled {split} split (.npz)")
        p.add_argument(f"--{split}-arcs", required=True, help=f"arc store of the {split} split (.npz)")
    p.add_argument("--test-conll", required=True, help="test key (CoNLL-2012 file or directory)")
    p.add_argument("--dev-compiled", help="compiled dev split (for a learner whose passes are tuned on dev)")
    p.add_argument("--dev-arcs", help="arc store of the dev split")
    p.add_argument("--dev-conll", help="dev key (CoNLL-2012 file or directory)")
    p.add_argument(
        "--sizes",
        type=at_least(1),
        nargs="+",
        default=[5, 10, 20, 40, 80],
        help="training documents per size (default 5 10 20 40 80); sizes at or above the split's are dropped, "
        "and the whole split ('all') is always run",
    )
    p.add_argument("--draws", type=at_least(1), default=3, help="seeded draws of documents per size (default 3)")
    p.add_argument("--seed", type=int, default=1, help="seed of the draws; draw d trains with seed + d (default 1)")
    p.add_argument(
        "--singletons",
        default="auto",
        choices=("auto", "keep", "drop"),
        help="one-mention clusters in test responses (default auto: as recorded in the compiled split)",
    )
    p.add_argument("--out", required=True, help="CSV to write: one row per size and draw")


def run(args):
    import sys

    import pandas as pd

    from coreflab.corpus.readers.conll import atomic_write_text, read_conll_path
    from coreflab.learn.base import as_training_data
    from coreflab.learn.io import load_split, parse_params
    from coreflab.learn.registry import get_learner
    from coreflab.learn.training_size import CURVE_COLUMNS, learning_curve
    from coreflab.numba_cache import compile_notice

    params = parse_params(args.params)
    cls = get_learner(args.learner)
    if args.tuned:
        from coreflab.learn.tuned import read_tuned_args, tuned_params, untuned

        if not tuned_params(cls):
            raise UserError(f"--tuned {' '.join(args.tuned)}: {args.learner} takes no parameter from tuning")
        names = untuned(cls, params)
        if names:
            params.update(read_tuned_args(args.tuned, names))
    dev_args = (args.dev_compiled, args.dev_arcs, args.dev_conll)
    if any(dev_args) and not all(dev_args):
        raise UserError("the dev split needs --dev-compiled, --dev-arcs and --dev-conll")
    train = as_training_data(load_split(args.train_compiled, args.train_arcs))
    test = as_training_data(load_split(args.test_compiled, args.test_arcs))
    test_key = read_conll_path(args.test_conll)
    dev = dev_key = None
    if all(dev_args) and getattr(cls, "epochs_tuned_on_dev", False):
        dev = as_training_data(load_split(args.dev_compiled, args.dev_arcs))
        dev_key = read_conll_path(args.dev_conll)
    compile_notice(sys.stderr)
    rows = learning_curve(
        args.learner,
        params,
        train,
        test,
        test_key,
        sizes=args.sizes,
        draws=args.draws,
        seed=args.seed,
        dev=dev,
        dev_key=dev_key,
        keep_singletons=args.singletons,
        system=args.system,
    )
    frame = pd.DataFrame(rows, columns=list(CURVE_COLUMNS))
    atomic_write_text(args.out, frame.to_csv(index=False, lineterminator="\n", float_format="%.6f"))
    return 0
