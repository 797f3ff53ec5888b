"""`coreflab hm2017 select`: rank features by |weight| of a mention-pair classifier (H&M 2017, Sec. 6).

Writes an .npz with `ranked` (pair features, best first), `root_only` (features of root
arcs only, always kept) and `weight` (|weight| in ranked order).
"""

import sys
from pathlib import Path

import numpy as np


def add_arguments(p):
    p.add_argument("--compiled", required=True, help="compiled training split (.npz)")
    p.add_argument("--arcs", required=True, help="arc store of the split (.npz)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", required=True, help="ranking (.npz)")


def run(args):
    from coreflab.learn.base import as_training_data
    from coreflab.learn.io import load_split
    from coreflab.papers.hm2017.experiments import design_matrix, pair_columns, rank_by_weight

    data = as_training_data(load_split(args.compiled, args.arcs))
    indptr, indices, y, ids, root_only, (docs, pairs) = pair_columns(data.corpus, data.store, seed=args.seed)
    n_docs = data.corpus.n_docs
    del data  # the store is not needed for the matrix or the fit: at CoNLL-2012 size it is 2 GB of the peak
    if docs < n_docs:
        print(
            f"coreflab hm2017 select: the classifier's matrix holds the pairs of {docs} of {n_docs} training "
            f"documents ({pairs} pairs), drawn with seed {args.seed}, within its memory budget",
            file=sys.stderr,
        )
    X = design_matrix(indptr, indices, ids.size)
    del indptr, indices  # X holds them (or its own int32 copies)
    ranked, weight = rank_by_weight(X, y, ids, seed=args.seed)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.name}.tmp.npz")
    np.savez(tmp, ranked=ranked, root_only=root_only, weight=weight)
    tmp.replace(out)
    print(
        f"coreflab hm2017 select: {len(ranked)} pair features ranked, {len(root_only)} root-only kept -> {out}",
        file=sys.stderr,
    )
    return 0
