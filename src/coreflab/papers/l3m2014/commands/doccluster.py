"""`coreflab l3m2014 doccluster`: supervised clustering of 20 Newsgroups posts (L3M paper, Table 2).

Writes tidy rows (technique, gamma, passes, fold, vi, key, shuffled) to --out; the table
verb turns them into `table2_vi` and the order-control table.
"""

import sys

from tqdm import tqdm

from coreflab.arg_types import at_least
from coreflab.errors import UserError
from coreflab.papers.l3m2014.doccluster import TECHNIQUES, cross_validate
from coreflab.papers.l3m2014.newsgroups import item_sets, load_posts
from coreflab.papers.l3m2014.pair_features import fit_vectorizer
from coreflab.report.io import atomic_write_text


def add_arguments(p):
    p.add_argument(
        "--local-dir", default=None, help="20 Newsgroups bydate copy (folders or the .tar.xz); empty = download"
    )
    p.add_argument("--resources", default="resources")
    p.add_argument("--key", choices=["author", "thread"], required=True)
    p.add_argument("--set-size", type=at_least(1), default=348)
    p.add_argument("--max-sets", type=at_least(0), default=0, help="use the first N item sets (0 = all)")
    p.add_argument("--folds", type=at_least(2), default=10)
    p.add_argument("--passes", type=at_least(1), default=5)
    p.add_argument("--gammas", default="0,0.2,0.4,0.6,0.8,1.0")
    p.add_argument("--eta0", type=float, default=0.1)
    p.add_argument("--lam", type=float, default=1e-4)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--shuffle-items", action="store_true", help="order control: shuffle posts within each item set")
    p.add_argument("--out", required=True)


def run(args):
    posts = load_posts(args.local_dir or None, args.resources)
    sets = item_sets(posts, args.set_size)
    if args.max_sets:
        # spread the chosen sets over the newsgroups: every k-th set in group order
        step = max(1, len(sets) // args.max_sets)
        sets = sets[::step][: args.max_sets]
    if len(sets) < args.folds:
        raise UserError(f"{len(sets)} item sets cannot be split into {args.folds} folds")
    gammas = tuple(float(g) for g in args.gammas.split(","))
    vectorizer = fit_vectorizer(sets)
    with tqdm(total=args.folds * len(TECHNIQUES), desc=f"doccluster {args.key}", file=sys.stderr) as bar:
        df = cross_validate(
            sets,
            vectorizer,
            args.key,
            folds=args.folds,
            passes=args.passes,
            gammas=gammas,
            seed=args.seed,
            eta0=args.eta0,
            lam=args.lam,
            shuffle_items=args.shuffle_items,
            progress=bar,
        )
    df["key"] = args.key
    df["shuffled"] = bool(args.shuffle_items)
    df["n_sets"] = len(sets)
    atomic_write_text(args.out, df.to_csv(index=False, lineterminator="\n", float_format="%.6f"))
    print(f"{len(sets)} item sets; gamma tuned per fold (VI on the fold's inner dev sets):")
    for fold, tuned in df.attrs["gamma_tuning"].items():
        best = min(tuned, key=lambda g: (tuned[g], g))
        print(f"  fold {fold}: gamma {best:g} (" + ", ".join(f"{g:g}: {v:.2f}" for g, v in tuned.items()) + ")")
    print(df.groupby(["technique", "passes"])["vi"].mean().round(2).to_string())
    return 0
