"""`coreflab train`: fit a registered learner on a compiled split and its arc store.

With `--dev-compiled/--dev-arcs/--dev-conll --curve CSV` the dev split is scored after
every epoch (one job = the whole learning curve, as in B&K 2014 Fig. 3-4).
`--params` is a JSON object (inline or a file path) of the learner's parameters;
`--seed` overrides its `seed`.
"""

import sys

from coreflab.errors import UserError
from coreflab.learn.io import load_split, parse_params


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
    p.add_argument(
        "--tuned",
        action="append",
        default=[],
        metavar="JSON or NAME=PATH",
        help="values tuned on dev (a tuning job's JSON, e.g. `coreflab tune-root-loss`'s), or NAME=PATH for a "
        "parameter whose value is a fitted file (lsp_rho's regressor); repeatable: they fill the parameters the "
        "learner takes from tuning (its tuned_params, e.g. root_loss) that --params does not set",
    )
    p.add_argument(
        "--keep-singletons",
        action="store_true",
        help="keep singleton clusters in dev responses (default: as recorded in the compiled dev split)",
    )
    p.add_argument(
        "--first-fit",
        metavar="MODEL",
        help="a fitted model whose first fit is this learner's iteration 1 (C&C: the BASE model of the same "
        "settings for SLT; `first_fit_source`): taken instead of fitted again, bit for bit the same",
    )
    p.add_argument("--out", required=True, help="model file to write (.npz)")
    p.add_argument(
        "--out-epoch",
        type=int,
        metavar="N",
        help="write --out with the model after epoch N, while training (and the --curve) goes on to the last: "
        "B&K's Table 1 reports iteration 25 of curves that run to 50 (default: the last epoch)",
    )


def run(args):
    from coreflab.learn.base import as_training_data, check_param_types
    from coreflab.learn.curve import DevCurve, EpochProgress, expected_epochs
    from coreflab.learn.registry import get_learner, make_learner
    from coreflab.numba_cache import compile_notice, kernel_dir

    params = parse_params(args.params)
    if args.tuned:
        from coreflab.learn.tuned import read_tuned_args, tuned_params, untuned

        cls = get_learner(args.learner)
        if not tuned_params(cls):
            raise UserError(
                f"--tuned {' '.join(args.tuned)}: {args.learner} takes no parameter from tuning (tuned_params)"
            )
        names = untuned(cls, params)
        if names:
            params.update(read_tuned_args(args.tuned, names))
    if args.seed is not None:
        params["seed"] = args.seed
    params = check_param_types(get_learner(args.learner), params)
    model = make_learner(args.learner, params)
    missing = [m for m in ("fit", "predict") if not callable(getattr(model, m, None))]
    if missing:
        raise UserError(
            f"{args.learner}: the learner has no {' and no '.join(f'{m}()' for m in missing)} method; every learner "
            "has fit(train, dev=None, callback=None) and predict(corpus, store) (docs/adding-a-learner.md)"
        )
    train = as_training_data(load_split(args.compiled, args.arcs))
    dev_args = (args.dev_compiled, args.dev_arcs, args.dev_conll)
    if any(dev_args) and not all(dev_args):
        raise UserError("dev scores need --dev-compiled, --dev-arcs and --dev-conll (and --curve to keep them)")
    total = expected_epochs(model)
    if all(dev_args):
        from coreflab.corpus.readers.conll import read_conll_path

        dev = as_training_data(load_split(args.dev_compiled, args.dev_arcs))
        callback = DevCurve(
            dev.corpus,
            dev.store,
            read_conll_path(args.dev_conll),
            path=args.curve,
            learner=args.learner,
            seed=params.get("seed", 0),
            keep_singletons=True if args.keep_singletons else None,
            total=total,
        )
    elif args.curve:
        raise UserError("a dev curve needs --dev-compiled, --dev-arcs, --dev-conll and --curve")
    else:
        callback = EpochProgress(learner=args.learner, total=total)
    snapshot = check_out_epoch(args.out_epoch, total)
    compile_notice(sys.stderr, source_dir=kernel_dir(model))
    if snapshot is not None:
        callback = SaveAtEpoch(callback, snapshot, args.out)
    elif all(dev_args) and getattr(model, "epochs_tuned_on_dev", False):
        callback = KeepBestEpoch(callback, args.out)
    if getattr(model, "n_bits_", None) is None:  # predict checks it against the store it is given; set
        model.n_bits_ = int(train.store.n_bits)  # before fit, so an --out-epoch snapshot carries it too
    fit_kwargs = {"first_fit": first_fit_of(args.first_fit, model)} if args.first_fit else {}
    try:
        fitted = model.fit(train, callback=callback, **fit_kwargs)
    finally:
        secs = callback.close()
    if fitted is not model:
        raise UserError(
            f"{args.learner}: fit returned {type(fitted).__name__}, not the learner itself; nothing written"
        )
    if callback.epochs == 0:
        raise UserError(
            f"{args.learner}: fit returned without calling callback(epoch, model); the dev curve, the progress "
            "and --out-epoch need one call per epoch (docs/adding-a-learner.md); nothing written"
        )
    if isinstance(callback, KeepBestEpoch):
        written = f"epoch {callback.best_epoch} (best dev MELA {callback.best_mela:.2f}) "
    elif snapshot is None:
        model.save(args.out)
        written = ""
    elif not callback.saved:
        raise UserError(
            f"--out-epoch {snapshot}: {args.learner} stopped after {callback.epochs} epoch(s); nothing written"
        )
    else:
        written = f"epoch {snapshot} "
    print(
        f"coreflab train: {args.learner}: {callback.epochs} epoch(s) in {secs:.1f} s -> {written}{args.out}",
        file=sys.stderr,
    )
    return 0


def first_fit_of(path, model):
    """The `first_fit()` of the model at path, for `model.fit(first_fit=...)` (which checks its settings
    and features): a one-line error where either learner has no first fit."""
    from coreflab.learn.base import Learner

    fitted = Learner.load(path)
    if not callable(getattr(fitted, "first_fit", None)) or not callable(getattr(model, "first_fit_key", None)):
        raise UserError(f"--first-fit {path}: {fitted.name} and {model.name} do not share a first fit")
    return fitted.first_fit()


def check_out_epoch(epoch, total):
    """--out-epoch N, checked against the epochs the learner will train (None: save at the end)."""
    if epoch is None:
        return None
    if epoch < 1:
        raise UserError(f"--out-epoch {epoch}: epochs count from 1")
    if total is not None and epoch > total:
        raise UserError(f"--out-epoch {epoch}: the learner trains {total} epoch(s)")
    return epoch


class SaveAtEpoch:
    """A training callback that also saves the model after one epoch: the model file is that
    epoch's model (averaged weights as of then), the curve still runs to the end."""

    def __init__(self, inner, epoch, path):
        self.inner, self.epoch, self.path = inner, epoch, path
        self.saved = False

    def __call__(self, epoch, model):
        self.inner(epoch, model)
        if epoch == self.epoch:
            model.save(self.path)
            self.saved = True

    @property
    def epochs(self):
        return self.inner.epochs

    def close(self):
        return self.inner.close()


class KeepBestEpoch(SaveAtEpoch):
    """A training callback for learners whose passes are tuned on dev (`epochs_tuned_on_dev`): the
    model file is the epoch with the best dev MELA so far (ties keep the earlier epoch), rewritten
    when a later epoch beats it; the curve still runs to the last epoch."""

    def __init__(self, inner, path):
        super().__init__(inner, None, path)
        self.best_epoch, self.best_mela = None, None

    def __call__(self, epoch, model):
        self.inner(epoch, model)
        mela = self.inner.last_mela
        if self.best_mela is None or mela > self.best_mela:
            self.best_epoch, self.best_mela = epoch, mela
            model.save(self.path)
            self.saved = True
