"""Benchmark: one loss-and-gradient pass and one scoring pass of the pair model (Choi & Cardie's
logistic regression over the arc store), on a workflow's training split; and one pass of
`score_arcs` over every arc (what B&K, L3M and the LSP learners score arcs with) under random
weights of the store's hash size. All gather weights by hashed feature id.

The three paths of `StorePairs.loss_grad` (a shared-row store read through its rows, the flat
column copy of the expanded store, and reading through the id map as corpora above the copy's
budget do) and `StorePairs.decision` (rows, and flat), timed over `--repeats` passes
after a warm-up, with the checksums of their results (equal checksums across code versions:
the same sums). The numbers go under `--label` into the JSON file, beside earlier labels, so
that a change is recorded with the numbers before it (run the script on both versions).

Usage: python bench/pair_kernel.py --store-dir results/gum --label after [--repeats 3]
                                   [--out bench/results/pair_kernel.json]
"""

import argparse
import json
import os
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]


def timed(fn, repeats):
    fn()  # warm-up: compilation, the flat copy, page faults
    t = time.perf_counter()
    for _ in range(repeats):
        out = fn()
    return (time.perf_counter() - t) / repeats, out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--store-dir", required=True, help="results directory with compiled/ and features/selected/")
    ap.add_argument("--label", required=True, help="key of these numbers in the JSON file (e.g. before, after)")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "pair_kernel.json"))
    args = ap.parse_args()

    import coreflab.learn.pairwise.pair_logistic as pl
    from coreflab.features.shared_rows import expand
    from coreflab.learn.io import load_split
    from coreflab.learn.pairwise.pair_data import build_pairs

    d = Path(args.store_dir)
    corpus, store = load_split(d / "compiled" / "train.npz", d / "features" / "selected" / "train.npz")
    pairs = build_pairs(corpus, store)
    flat = expand(store)
    arcs = pl.StorePairs(flat, pairs.arcs)
    cols = arcs.column_map()
    n = int(np.count_nonzero(cols >= 0))
    y = pairs.gold.astype(np.float64)
    sw = np.ones(len(arcs))
    w = np.random.default_rng(0).normal(size=n) * 0.1
    entries = int((arcs.offsets[arcs.arcs + 1] - arcs.offsets[arcs.arcs]).sum())

    def loss_grad(reader):
        grad = np.zeros(n + 1)
        loss = reader.loss_grad(cols, y, sw, w, 0.1, grad)
        return loss, float(np.abs(grad).sum())

    result = {"store": d.name, "pairs": len(arcs), "columns": n, "entries": entries}
    budget = pl.COMPACT_BUDGET_BYTES
    rows = pl.StorePairs(store, pairs.arcs)  # the store as written: shared rows, where the features job shares them
    for path, size, reader in (("shared_rows", budget, rows), ("flat_copy", budget, arcs), ("through_map", 0, arcs)):
        if path == "shared_rows" and not rows.shared:
            continue
        pl.COMPACT_BUDGET_BYTES, reader._held = size, None
        secs, (loss, gsum) = timed(lambda reader=reader: loss_grad(reader), args.repeats)
        result[f"loss_grad_{path}_s"] = round(secs, 3)
        result[f"loss_grad_{path}_ns_per_entry"] = round(1e9 * secs / entries, 2)
        result[f"loss_grad_{path}_checksum"] = [loss, gsum]
        if path == "shared_rows":
            layout = rows._layout(cols)
            result["shared_rows_entries_per_pass"] = int(layout[0].shape[0] + layout[2].shape[0])
            result["shared_rows_layout_mb"] = round(sum(a.nbytes for a in layout) / 1e6, 1)
    pl.COMPACT_BUDGET_BYTES, arcs._held = budget, None
    result["flat_copy_layout_mb"] = round(sum(a.nbytes for a in arcs._layout(cols)) / 1e6, 1)
    secs, z = timed(lambda: arcs.decision(cols, w, 0.1), args.repeats)
    result["decision_s"] = round(secs, 3)
    result["decision_checksum"] = float(np.abs(z).sum())
    if rows.shared:
        secs, z = timed(lambda: rows.decision(cols, w, 0.1), args.repeats)
        result["decision_shared_rows_s"] = round(secs, 3)
        result["decision_shared_rows_checksum"] = float(np.abs(z).sum())
    from coreflab.decode.arcs import arc_scores

    w_all = np.random.default_rng(0).normal(size=2 ** int(store.n_bits))
    secs, scores = timed(lambda: arc_scores(w_all, store), args.repeats)
    result["score_arcs_s"] = round(secs, 3)
    result["score_arcs_entries"] = int(store.arc_feats.shape[0])
    result["score_arcs_checksum"] = float(np.abs(scores).sum())
    result["load_average"] = list(os.getloadavg())

    out = Path(args.out)
    data = json.loads(out.read_text()) if out.exists() else {}
    data[args.label] = result
    out.write_text(json.dumps(data, indent=2) + "\n")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
