"""`coreflab train`: fit a registered learner on a compiled split and its arc store.

With `--dev-compiled/--dev-arcs/--dev-conll --curve CSV` the dev split is scored after
every epoch (one job = the whole learning curve, as in B&K 2014 Fig. 3-4).
`--params` is a JSON object (inline or a file path) of the learner's parameters;
`--seed` overrides its `seed`.
"""

import json
import sys
from pathlib import Path

from coreflab.errors import UserError


def add_arguments(p):
    p.add_argument("--learner", required=True, help="registered learner name, e.g. bk_delayed_laso")
    p.add_argument("--compiled", required=True, help="compiled training split (.npz)")
    p.add_argument("--arcs", required=True, help="arc store of the training split (.npz)")
    p.add_argument("--dev-compiled", help="compiled dev split, for the per-epoch curve")
    p.add_argument("--dev-arcs", help="arc store of the dev split")
    p.add_argument("--dev-conll", help="dev key (CoNLL-2012 file or directory)")
    p.add_argument("--curve", help="CSV of dev scores after every epoch")
    p.add_argument("--params", default="{}", help="learner parameters: JSON object or a .json file")
    p.add_argument("--seed", type=int, default=None, help="random seed (overrides params)")
    p.add_argument("--tuned", help="JSON of values tuned on dev (`coreflab tune-root-loss`): its root_loss "
                                   "is used unless --params sets one")
    p.add_argument("--keep-singletons", action="store_true", help="keep singleton clusters in dev responses (default: iff the dev key annotates singletons)")
    p.add_argument("--out", required=True, help="model file to write (.npz)")


def parse_params(text):
    """JSON object given inline or as a path to a file."""
    source = "--params"
    if not text.lstrip().startswith("{"):
        path = Path(text)
        if not path.is_file():
            raise UserError(f"--params {text!r}: neither a JSON object nor an existing file")
        source, text = str(path), path.read_text(encoding="utf-8")
    try:
        params = json.loads(text)
    except json.JSONDecodeError as err:
        raise UserError(f"{source}: invalid JSON at line {err.lineno}: {err.msg}") from None
    if not isinstance(params, dict):
        raise UserError(f"{source}: expected a JSON object of learner parameters")
    return params


def _tuned_root_loss(path):
    try:
        value = json.loads(Path(path).read_text(encoding="utf-8"))["root_loss"]
    except (OSError, ValueError, KeyError, TypeError) as err:
        raise UserError(f"--tuned {path}: expected a JSON object with a root_loss ({err})") from None
    return float(value)


def load_split(compiled, arcs):
    """(CompiledCorpus, ArcStore) from their files; a missing or wrong file is a UserError."""
    from coreflab.corpus.compiled import CompiledCorpus
    from coreflab.features.store import ArcStore

    try:
        corpus = CompiledCorpus.load(compiled)
    except (OSError, KeyError, ValueError) as err:
        raise UserError(f"{compiled}: not a readable compiled corpus ({err})") from None
    return corpus, ArcStore.load(arcs)


def run(args):
    from coreflab.learn.base import as_training_data
    from coreflab.learn.registry import make_learner

    params = parse_params(args.params)
    if args.tuned:
        params.setdefault("root_loss", _tuned_root_loss(args.tuned))
    if args.seed is not None:
        params["seed"] = args.seed
    model = make_learner(args.learner, params)
    train = as_training_data(load_split(args.compiled, args.arcs))
    callback = None
    dev_args = (args.dev_compiled, args.dev_arcs, args.dev_conll)
    if args.curve or any(dev_args):
        if not all(dev_args) or not args.curve:
            raise UserError("a dev curve needs --dev-compiled, --dev-arcs, --dev-conll and --curve")
        from coreflab.corpus.conll import read_conll_path
        from coreflab.learn.curve import DevCurve

        dev = as_training_data(load_split(args.dev_compiled, args.dev_arcs))
        callback = DevCurve(dev.corpus, dev.store, read_conll_path(args.dev_conll), path=args.curve,
                            learner=args.learner, seed=params.get("seed", 0),
                            keep_singletons=True if args.keep_singletons else None)
    model.fit(train, callback=callback)
    model.save(args.out)
    hist = getattr(model, "history_", [])
    secs = sum(h.get("seconds", 0.0) for h in hist)
    print(f"coreflab train: {args.learner}: {len(hist)} epoch(s) in {secs:.1f} s -> {args.out}", file=sys.stderr)
    return 0
