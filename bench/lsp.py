"""Benchmark of H&M 2017: regressor data generation and LSP_ρ vs LSP_F epoch time.

Usage: python bench/lsp.py --small DIR --large DIR [--out bench/results/lsp.json]
DIR holds compiled `train.npz` and the local arc store `arcs_train.npz` of a synthetic corpus
(`--small`: the default size, `--large`: the conll2012 size). Targets: data generation on 100
documents of the default corpus < 2 min on one core; one LSP_ρ epoch ≤ 5× one LSP_F epoch.
Times exclude numba compilation (a warm-up run first).
"""

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path


def _load(d):
    from coreflab.corpus.compiled import CompiledCorpus
    from coreflab.features.store import ArcStore

    return CompiledCorpus.load(Path(d) / "train.npz"), ArcStore.load(Path(d) / "arcs_train.npz")


def main(argv=None):
    p = argparse.ArgumentParser()
    p.add_argument("--small", required=True)
    p.add_argument("--large", required=True)
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--out", default="bench/results/lsp.json")
    args = p.parse_args(argv)
    from coreflab.learn.registry import make_learner
    from coreflab.mela.features import FEATURE_NAMES
    from coreflab.mela.regressor import fit_regressor, save_regressor
    from coreflab.papers.hm2017.regressor_data import regressor_examples, regressor_table

    corpus, store = _load(args.small)
    regressor_examples(corpus, store, [0], n_iter=2)  # compile
    t = time.perf_counter()
    df = regressor_examples(corpus, store, list(range(min(100, store.n_docs))), n_iter=50)
    data_secs = time.perf_counter() - t
    table = regressor_table(corpus, store, per_sample=100, n_iter=50, seed=1)
    reg = Path(tempfile.mkdtemp()) / "reg.json"
    save_regressor(reg, fit_regressor(table[list(FEATURE_NAMES)].to_numpy(), table["mela"].to_numpy()), len(table))

    big = _load(args.large)
    out = {
        "data_generation_100_docs_seconds": round(data_secs, 2),
        "data_examples": len(df),
        "large_docs": big[1].n_docs,
        "large_mentions": big[1].n_mentions,
        "epochs": {},
    }
    for name, params in (("lsp_f", {}), ("lsp_yj", {}), ("lsp_rho", {"regressor": str(reg)})):
        make_learner(name, dict(params, n_iter=1)).fit(_load(args.small))  # compile
        m = make_learner(name, dict(params, n_iter=args.epochs, C=100.0)).fit(big)
        out["epochs"][name] = [h["seconds"] for h in m.history_]
    f = min(out["epochs"]["lsp_f"])
    out["rho_over_f"] = round(min(out["epochs"]["lsp_rho"]) / f, 2) if f else None
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(out, indent=2) + "\n")
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
