"""Benchmark: Björkelund & Kuhn training epochs on a conll2012-size arc store.

Two stores over the training split of the conll2012-size synthetic corpus
(`coreflab.corpus.synthetic.generator`, size "conll2012"; every earlier mention a candidate, no
window, so the number of candidate arcs is that corpus's):
- `synth`: the real local features (`config/featuresets/local.yaml`, E1's extractor)
  and the corpus's own gold clusters and mention attributes — realistic feature-id
  skew (frequent features stay in cache) and violation rates;
- `random`: the same shape with `--feats` uniformly random ids per arc and random gold
  clusters: every feature lookup a cache miss, nearly every document violating — the
  worst case.

Measured: a local best-first PA epoch (bk_baseline; targets ≤ 10 s and ≤ 0.2 µs per
arc), a beam-20 non-local delayed-LaSO epoch (≤ 120 s), and peak memory (≤ 4 GB).
Numba compilation is excluded (warm-up on a small store). Writes
bench/results/train_bk.json.

    python bench/train_bk.py [--feats 40] [--n-bits 22] [--beam 20] [--quick] [--skip-random]

Timings are wall clock and process CPU time (the machines are shared; CPU time is the
fairer number when the load average is high, also recorded).
"""

import argparse
import json
import os
import platform
import resource
import time
from pathlib import Path

import numpy as np

from coreflab.decode.random_problem import random_problem
from coreflab.learn.registry import make_learner

NONLOCAL = [
    "cluster_size",
    "cluster_shape",
    "syntactic_context",
    "cluster_start_distance",
    "ante_ante_type",
    "ante_ante_head",
    "cluster_first_head",
    "cluster_first_name_head",
    "cluster_bag_head",
]


def synth_train(quick):
    """Compiled training split of the conll2012-size synthetic corpus."""
    from coreflab.corpus.compile import compile_documents
    from coreflab.corpus.synthetic.generator import SIZES, generate_document, resolve_knobs

    spec = SIZES["conll2012"]
    n_docs = 200 if quick else spec["docs"][0]
    knobs = resolve_knobs(None)
    docs = [generate_document(0, 0, i, spec, knobs, "train") for i in range(n_docs)]
    return compile_documents(docs, "synth", "train")


def epochs(data, beam, prefix, res, n_iter):
    """Time n_iter baseline epochs and n_iter beam non-local delayed-LaSO epochs.

    Reported: the first epoch (w = 0: every document wrong, cold pages) and the last
    (steady state), wall clock, plus the process CPU time of the whole fit.
    """
    n_arcs = int(data[1].arc_ante.shape[0])
    for key, name, params in (
        ("baseline", "bk_baseline", dict(n_iter=n_iter)),
        ("delayed_laso", "bk_delayed_laso", dict(n_iter=n_iter, beam=beam, nonlocal_templates=NONLOCAL)),
    ):
        cpu = time.process_time()
        m = make_learner(name, params).fit(data)
        cpu = time.process_time() - cpu
        first, last = m.history_[0], m.history_[-1]
        res[f"{prefix}_{key}_first_epoch_seconds"] = first["seconds"]
        res[f"{prefix}_{key}_last_epoch_seconds"] = last["seconds"]
        res[f"{prefix}_{key}_last_epoch_us_per_arc"] = round(1e6 * last["seconds"] / n_arcs, 4)
        res[f"{prefix}_{key}_fit_cpu_seconds_per_epoch"] = round(cpu / n_iter, 3)
        res[f"{prefix}_{key}_updates_per_epoch"] = [h["updates"] for h in m.history_]


def peak_rss_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--feats", type=int, default=40, help="features per arc")
    ap.add_argument("--n-bits", type=int, default=22)
    ap.add_argument("--beam", type=int, default=20)
    ap.add_argument("--quick", action="store_true", help="200 documents only (smoke run)")
    ap.add_argument("--epochs", type=int, default=3, help="epochs per learner (first and last reported)")
    ap.add_argument("--skip-random", action="store_true", help="only the synth store")
    ap.add_argument("--out", default=str(Path(__file__).parent / "results" / "train_bk.json"))
    args = ap.parse_args()

    # warm-up: compile every kernel on a small store
    small = random_problem([5, 9, 14], n_bits=args.n_bits, seed=1)
    make_learner("bk_baseline", dict(n_iter=1)).fit(small)
    make_learner("bk_delayed_laso", dict(n_iter=1, beam=3, nonlocal_templates=NONLOCAL)).fit(small)

    from coreflab.features.extract import extract_arc_store

    root = Path(__file__).resolve().parents[1]
    t0 = time.perf_counter()
    corpus = synth_train(args.quick)
    sizes = np.diff(corpus.doc_mention_offsets)
    res = {
        "documents": int(len(sizes)),
        "mentions": int(sizes.sum()),
        "n_bits": args.n_bits,
        "beam": args.beam,
        "nonlocal_templates": NONLOCAL,
        "seconds_corpus": round(time.perf_counter() - t0, 1),
    }
    t0 = time.perf_counter()
    store = extract_arc_store(corpus, root / "config" / "featuresets" / "local.yaml", n_bits=args.n_bits)
    res["seconds_extract"] = round(time.perf_counter() - t0, 1)
    res["arcs"] = int(store.arc_ante.shape[0])
    res["synth_feature_entries"] = int(store.arc_feats.shape[0])
    res["synth_store_mb"] = round(store.nbytes / 2**20, 1)
    epochs((corpus, store), args.beam, "synth", res, args.epochs)
    del store
    if not args.skip_random:
        data = random_problem(
            sizes, n_bits=args.n_bits, feats_per_arc=(args.feats, args.feats), informative=False, seed=0
        )
        res["random_feats_per_arc"] = args.feats
        res["random_store_mb"] = round(data[1].nbytes / 2**20, 1)
        epochs(data, args.beam, "random", res, args.epochs)
        del data
    res["peak_rss_mb"] = round(peak_rss_mb(), 1)
    res["targets"] = {
        "baseline_epoch_seconds": 10,
        "baseline_us_per_arc": 0.2,
        "delayed_laso_epoch_seconds": 120,
        "peak_rss_mb": 4096,
    }
    res["load_average_1min"] = round(os.getloadavg()[0], 2)
    res["machine"] = {"python": platform.python_version(), "processor": platform.processor() or platform.machine()}
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.name}.tmp")
    tmp.write_text(json.dumps(res, indent=2) + "\n")
    tmp.replace(out)
    print(json.dumps(res, indent=2))


if __name__ == "__main__":
    main()
