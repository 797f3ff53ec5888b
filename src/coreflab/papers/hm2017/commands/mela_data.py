"""`coreflab hm2017 mela-data`: regressor training data from per-document LSP_F runs (H&M 2017, Sec. 4.3).

Two disjoint document samples S1, S2 (`--per-sample` documents each, scaled down to
half the split when it is smaller) drawn with `--seed`; on every document a fresh LSP_F
model runs up to `--n-iter` epochs and every max-violating ĥ becomes one row: the nine
features and the exact MUC, B3, CEAFe F1 and MELA from the project's scorer. CSV,
written atomically; deterministic per seed.

`--keep-singletons auto|keep|drop`: whether the scored responses keep singleton clusters,
for the features and the MELA labels alike (column `keep_singletons`, which `hm2017 mela-fit`
records in the regressor). auto follows the key, as every scored response does: the key
file `--conll` when given, else the compiled split's gold clusters.
"""

import sys

from coreflab.arg_types import at_least
from coreflab.errors import UserError


def add_arguments(p):
    p.add_argument("--compiled", required=True, help="compiled training split (.npz)")
    p.add_argument("--arcs", required=True, help="arc store of the split (.npz)")
    p.add_argument("--per-sample", type=at_least(1), default=100, help="documents per sample S1, S2 (default 100)")
    p.add_argument("--n-iter", type=at_least(1), default=50, help="LSP_F epochs per document at most (default 50)")
    p.add_argument("--C", type=float, default=1.0, help="loss weight C of LSP_F (default 1)")
    p.add_argument("--r", type=float, default=1.0, help="root-loss factor r of Δ_F (default 1)")
    p.add_argument("--seed", type=int, default=0, help="seed of the document samples")
    p.add_argument(
        "--keep-singletons",
        default="auto",
        choices=("auto", "keep", "drop"),
        help="response singletons in features and labels (default auto: as recorded in the compiled split, else as --conll's key)",
    )
    p.add_argument(
        "--conll",
        help="key of the split (CoNLL-2012), for --keep-singletons auto on a compiled split that records no decision",
    )
    p.add_argument("--out", required=True, help="CSV to write")


def run(args):
    from coreflab.corpus.readers.conll import atomic_write_text, read_conll_path
    from coreflab.learn.base import as_training_data
    from coreflab.learn.io import load_split
    from coreflab.mela.mode import mode_name, resolve_keep_singletons
    from coreflab.papers.hm2017.regressor_data import regressor_table

    if args.per_sample < 1 or args.n_iter < 1:
        raise UserError("--per-sample and --n-iter must be >= 1")
    data = as_training_data(load_split(args.compiled, args.arcs))
    key = read_conll_path(args.conll) if args.conll else None
    keep = resolve_keep_singletons(args.keep_singletons, corpus=data.corpus, key_docs=key)
    df = regressor_table(
        data.corpus,
        data.store,
        per_sample=args.per_sample,
        n_iter=args.n_iter,
        C=args.C,
        r=args.r,
        seed=args.seed,
        keep_singletons=keep,
    )
    atomic_write_text(args.out, df.to_csv(index=False, lineterminator="\n", float_format="%.10g"))
    print(
        f"coreflab hm2017 mela-data: {len(df)} examples from {df['doc'].nunique()} documents, response singletons "
        f"{mode_name(keep)} -> {args.out}",
        file=sys.stderr,
    )
    return 0
