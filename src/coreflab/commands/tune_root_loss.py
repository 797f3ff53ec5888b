"""`coreflab tune-root-loss`: B&K's root-attachment loss chosen on dev (responses with singletons).

    coreflab tune-root-loss --compiled TRAIN.npz --arcs TRAIN.arcs.npz --dev-compiled DEV.npz \
        --dev-arcs DEV.arcs.npz --dev-conll DEV.conll [--grid 0.5,1.0,1.5] [--iterations 3] --out TUNED.json

Writes {"root_loss": x, "reason": ..., "runs": [per iteration: dev MELA, share at the root]};
`coreflab train --tuned TUNED.json` trains with it every learner whose `tuned_params` name it
(coreflab.learn.tuned). See coreflab.learn.trees.root_loss.
"""

import json

from coreflab.arg_types import at_least
from coreflab.errors import UserError


def add_arguments(p):
    p.add_argument("--compiled", required=True, help="compiled training split")
    p.add_argument("--arcs", required=True, help="arc store of the training split")
    p.add_argument("--dev-compiled", required=True)
    p.add_argument("--dev-arcs", required=True)
    p.add_argument("--dev-conll", required=True, help="dev key (CoNLL-2012)")
    p.add_argument("--grid", default="0.5,1.0,1.5", help="root losses to try (comma-separated)")
    p.add_argument("--iterations", type=at_least(1), default=3, help="bk_baseline iterations per value")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", required=True, help="JSON with the chosen root_loss and the dev numbers")


def _grid(text):
    try:
        grid = [float(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise UserError(f"--grid {text!r}: expected comma-separated numbers, e.g. 0.5,1.0,1.5") from None
    if not grid or any(g <= 0 for g in grid):
        raise UserError(f"--grid {text!r}: expected positive root losses")
    return grid


def run(args):
    from coreflab.corpus.readers.conll import atomic_write_text, read_conll_path
    from coreflab.learn.base import as_training_data
    from coreflab.learn.io import load_split
    from coreflab.learn.trees.root_loss import tune_root_loss

    grid = _grid(args.grid)
    train = as_training_data(load_split(args.compiled, args.arcs))
    dev = load_split(args.dev_compiled, args.dev_arcs)
    result = tune_root_loss(train, dev, read_conll_path(args.dev_conll), grid, args.iterations, args.seed)
    atomic_write_text(args.out, json.dumps(result, indent=1, sort_keys=True) + "\n")
    print(f"root loss {result['root_loss']:g} ({result['reason']})")
    return 0
