"""`coreflab hm2017 run`: one LSP learner in one feature space, dev and test scores after every epoch.

One job per (learner, N) gives a Fig. 3 curve and the T_best scores of Tables 2–4.
`--n-fraction` keeps the top fraction of the ranked pair features (1 = all; the root-only
features are always kept); `--tuned` merges the parameters chosen by `hm2017 tune`.
`--label` names the system in the output (e.g. lsp_rho_from_synth: LSP_ρ with another corpus's regressor).
`--singletons auto|keep|drop`: singleton clusters in the scored responses (auto: as the compiled
splits record for the corpus, iff its training key annotates them); lsp_rho's learned loss takes the same mode unless `--params` sets
`keep_singletons`, and its regressor must have been fitted in it (or `transfer_regressor`).
"""

import json
import sys
from pathlib import Path

from coreflab.errors import UserError


def add_arguments(p):
    p.add_argument("--learner", required=True, choices=("lsp_f", "lsp_yj", "lsp_rho"))
    p.add_argument("--label", help="system name in the output (default: the learner)")
    p.add_argument("--params", default="{}", help="learner parameters: JSON object or a .json file")
    p.add_argument("--tuned", help="JSON from `coreflab hm2017 tune` (its `best` parameters are merged)")
    p.add_argument("--regressor", help="regressor JSON (lsp_rho)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--seeds",
        type=int,
        nargs="*",
        default=[],
        help="train again with each of these seeds (Fig. 3's bands; rows tagged by a `seed` column)",
    )
    for split in ("train", "dev", "test"):
        p.add_argument(f"--{split}-compiled", required=True)
        p.add_argument(f"--{split}-arcs", required=True)
    for split in ("dev", "test"):
        p.add_argument(f"--{split}-conll", required=True, help=f"{split} key (CoNLL-2012)")
    p.add_argument("--ranking", help="feature ranking from `coreflab hm2017 select`")
    p.add_argument("--n-fraction", type=float, default=1.0, help="fraction of ranked pair features kept (1 = all)")
    p.add_argument(
        "--singletons",
        default="auto",
        choices=("auto", "keep", "drop"),
        help="singletons in scored responses and in lsp_rho's loss (default auto: as recorded in the compiled splits)",
    )
    p.add_argument("--out", required=True, help="tidy CSV of per-epoch scores")


def tuned_params(path):
    if not path:
        return {}
    try:
        return dict(json.loads(Path(path).read_text(encoding="utf-8"))["best"]["params"])
    except (OSError, ValueError, KeyError, TypeError) as err:
        raise UserError(f"{path}: not a `coreflab hm2017 tune` result ({err})") from None


def run(args):
    import pandas as pd

    from coreflab.corpus.readers.conll import atomic_write_text, read_conll_path
    from coreflab.learn.base import as_training_data
    from coreflab.learn.io import load_split, parse_params
    from coreflab.papers.hm2017.experiments import (
        keep_ids_for,
        learning_run,
        load_ranking,
        n_features_grid,
        reduce_store,
        singletons_params,
    )
    from coreflab.seeds import seed_order

    params = parse_params(args.params)
    params.update(tuned_params(args.tuned))
    params["seed"] = args.seed
    if args.learner == "lsp_rho":
        if not args.regressor:
            raise UserError("lsp_rho needs --regressor")
        params["regressor"] = args.regressor
    if not 0 < args.n_fraction:
        raise UserError("--n-fraction must be > 0")
    splits = {
        s: as_training_data(load_split(getattr(args, f"{s}_compiled"), getattr(args, f"{s}_arcs")))
        for s in ("train", "dev", "test")
    }
    n = 0
    if args.n_fraction < 1:
        if not args.ranking:
            raise UserError("--n-fraction < 1 needs --ranking")
        ranking = load_ranking(args.ranking)
        n = n_features_grid(len(ranking[0]), [args.n_fraction])[0]
        keep = keep_ids_for(ranking, n)
        splits = {s: type(d)(d.corpus, reduce_store(d.store, keep)) for s, d in splits.items()}
    evals = [
        (s, splits[s].corpus, splits[s].store, read_conll_path(getattr(args, f"{s}_conll"))) for s in ("dev", "test")
    ]
    params, keep = singletons_params(args.learner, params, args.singletons, evals[0][3], evals[0][1])
    frames = []
    for seed in seed_order(args.seed, args.seeds):
        df = learning_run(args.learner, dict(params, seed=seed), splits["train"], evals, n, keep_singletons=keep)
        frames.append(df.assign(seed=seed))
    df = pd.concat(frames, ignore_index=True)
    df["learner"] = args.label or args.learner
    df.insert(2, "n_fraction", args.n_fraction)
    atomic_write_text(args.out, df.to_csv(index=False, lineterminator="\n", float_format="%.6f"))
    best = df[(df.split == "dev") & (df.seed == args.seed)]["mela"].max()
    print(
        f"coreflab hm2017 run: {args.label or args.learner} N={n or 'all'}: best dev MELA {best:.2f} -> {args.out}",
        file=sys.stderr,
    )
    return 0
