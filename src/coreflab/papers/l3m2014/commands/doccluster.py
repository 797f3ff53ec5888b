"""`coreflab l3m2014 doccluster`: supervised clustering of 20 Newsgroups posts (L3M paper, Table 2).

Writes tidy rows (technique, gamma, lam, eta0, r, passes, fold, vi, key, shuffled) to --out;
the table verb turns them into `table2_vi` and the order-control table. λ, η0 (and γ for
L3M, r for Spanning Forest) are tuned per technique and fold on the fold's inner split.
"""

import sys

from tqdm import tqdm

from coreflab.arg_types import at_least
from coreflab.errors import UserError
from coreflab.papers.l3m2014.doccluster import TECHNIQUES, cross_validate
from coreflab.papers.l3m2014.newsgroups import item_sets, load_posts
from coreflab.report.io import atomic_write_text


def floats(text):
    try:
        values = tuple(float(x) for x in str(text).split(",") if x.strip())
    except ValueError:
        raise UserError(f"expected comma-separated numbers, got {text!r}") from None
    if not values:
        raise UserError("expected at least one number")
    return values


def add_arguments(p):
    p.add_argument(
        "--local-dir", default=None, help="20 Newsgroups bydate copy (folders or the .tar.xz); empty = download"
    )
    p.add_argument("--resources", default="resources")
    p.add_argument("--key", choices=["author", "thread"], required=True)
    p.add_argument("--set-size", type=at_least(1), default=348)
    p.add_argument("--max-sets", type=at_least(0), default=0, help="use the first N item sets (0 = all)")
    p.add_argument("--folds", type=at_least(2), default=10)
    p.add_argument("--passes", type=at_least(1), default=5, help="passes of the online techniques (and 1)")
    p.add_argument("--batch-passes", type=at_least(1), default=10, help="passes of Corr-Clustering, Spanning Forest")
    p.add_argument("--gammas", default="0,0.2,0.4,0.6,0.8,1.0")
    p.add_argument("--lams", default="1e-4,1e-3", help="λ values tuned per technique and fold")
    p.add_argument("--eta0s", default="0.1,1.0", help="η0 values tuned per technique and fold")
    p.add_argument("--rs", default="0.1,1.0", help="Spanning Forest's Δ_YJ r values tuned per fold")
    p.add_argument(
        "--techniques",
        default=",".join(TECHNIQUES),
        help="comma-separated, of " + ", ".join(TECHNIQUES) + " (order control needs the online ones only)",
    )
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--shuffle-items", action="store_true", help="order control: shuffle posts within each item set")
    p.add_argument("--out", required=True)


def _setting(s):
    parts = [f"λ {s['lam']:g}", f"η0 {s['eta0']:g}"]
    if s["gamma"] is not None:
        parts.insert(0, f"γ {s['gamma']:g}")
    if s["r"] is not None:
        parts.append(f"r {s['r']:g}")
    return ", ".join(parts)


def run(args):
    posts = load_posts(args.local_dir or None, args.resources)
    sets = item_sets(posts, args.set_size)
    if args.max_sets:
        # spread the chosen sets over the newsgroups: every k-th set in group order
        step = max(1, len(sets) // args.max_sets)
        sets = sets[::step][: args.max_sets]
    if len(sets) < args.folds:
        raise UserError(f"{len(sets)} item sets cannot be split into {args.folds} folds")
    grid = {"lam": floats(args.lams), "eta0": floats(args.eta0s), "r": floats(args.rs)}
    techniques = [t.strip() for t in args.techniques.split(",") if t.strip()]
    unknown = sorted(set(techniques) - set(TECHNIQUES))
    if unknown or not techniques:
        raise UserError(f"--techniques: expected some of {', '.join(TECHNIQUES)}, got {args.techniques!r}")
    with tqdm(total=args.folds * len(techniques), desc=f"doccluster {args.key}", file=sys.stderr) as bar:
        df = cross_validate(
            sets,
            args.key,
            folds=args.folds,
            passes=args.passes,
            batch_passes=args.batch_passes,
            gammas=floats(args.gammas),
            grid=grid,
            seed=args.seed,
            techniques=techniques,
            shuffle_items=args.shuffle_items,
            progress=bar,
        )
    df["key"] = args.key
    df["shuffled"] = bool(args.shuffle_items)
    df["n_sets"] = len(sets)
    atomic_write_text(args.out, df.to_csv(index=False, lineterminator="\n", float_format="%.6f"))
    print(f"{len(sets)} item sets; settings tuned per technique and fold (VI on the fold's inner dev sets):")
    for fold, per_technique in df.attrs["tuning"].items():
        for technique, t in per_technique.items():
            chosen = ", ".join(
                f"{p} pass{'es' if p > 1 else ''}: {_setting(t['settings'][k])} ({t['vi'][p][k]:.2f})"
                for p, k in t["chosen"].items()
            )
            print(f"  fold {fold} {technique}: {chosen}")
    print(df.groupby(["technique", "passes"])["vi"].mean().round(2).to_string())
    return 0
