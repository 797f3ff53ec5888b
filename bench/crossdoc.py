"""Benchmark of the distributed cross-document sampler (Singh et al. 2011; not run by CI).

1. Person-X size (25K mentions, 50 entities): proposals/s per worker of the flat model with
   K = 1 and K = 2 Dask workers (targets: >= 200,000 per worker; K=2 >= 1.7x the total of K=1).
2. Scaling run: the synthetic Wikipedia-link-size corpus (1.5M mentions, 43K entities), string-
   match initialisation, K = 2 workers: wall-clock, peak memory (driver + workers), proposals/s.

Usage: python bench/crossdoc.py [--skip-large] [--large-rounds 3] [--large-samples 2000000]
Writes bench/results/crossdoc.json.
"""

import argparse
import json
import os
import resource
import sys
import time
from pathlib import Path

import numpy as np


def peak_rss_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run(corpus, params, workers, rounds, samples, init, seed=1, t_start=0.05, t_stop=0.0005):
    from coreflab.commands.crossdoc import _warm_up
    from coreflab.crossdoc.distributed import DaskExecutor, InferenceConfig, run_inference, start_client

    client = start_client("local", workers)
    try:
        data = corpus.features()
        t0 = time.perf_counter()
        ex = DaskExecutor(client, data)
        _warm_up(client, data, params)
        setup = time.perf_counter() - t0
        cfg = InferenceConfig(params=params, rounds=rounds, samples_per_round=samples, init=init, seed=seed,
                              t_start=t_start, t_stop=t_stop)
        t0 = time.perf_counter()
        _, trace = run_inference(corpus, cfg, ex, shards=workers)
        wall = time.perf_counter() - t0
        worker_peak = client.run(peak_rss_mb)
    finally:
        cluster = client.cluster
        client.close()
        cluster.close()
    last = trace.iloc[1:]
    return {
        "workers": workers, "rounds": rounds, "samples_per_round_per_worker": samples, "setup_s": setup,
        "wall_s": wall, "proposals": int(last["proposals"].sum()),
        "proposals_per_s_per_worker": float(last["proposals"].sum() / last["sum_shard_seconds"].sum()),
        "proposals_per_s_total_wall": float(last["proposals"].sum() / wall),
        "b3_f1_first": float(trace["b3_f1"].iloc[0]), "b3_f1_last": float(trace["b3_f1"].iloc[-1]),
        "entities_last": int(trace["entities"].iloc[-1]),
        "worker_peak_rss_mb": sorted(worker_peak.values()), "driver_peak_rss_mb": peak_rss_mb(),
        "trace": trace.to_dict(orient="records"),
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--skip-large", action="store_true")
    ap.add_argument("--skip-personx", action="store_true")
    ap.add_argument("--large-rounds", type=int, default=3)
    ap.add_argument("--large-samples", type=int, default=2_000_000)
    ap.add_argument("--large-model", default="flat")
    ap.add_argument("--out", default=str(Path(__file__).parent / "results" / "crossdoc.json"))
    args = ap.parse_args()
    os.environ.setdefault("NUMBA_CACHE_DIR", str(Path.cwd() / ".numba_cache"))
    from coreflab.crossdoc.shard import ModelParams
    from coreflab.crossdoc.synthetic import config_for, generate

    out = {"machine_cpus": os.cpu_count(), "load_avg_at_start": os.getloadavg()}
    if not args.skip_personx:
        px = generate(config_for("personx")).person_x()
        p = ModelParams(model="flat", bias=0.04)
        out["personx"] = [run(px, p, k, rounds=4, samples=1_000_000, init="singletons") for k in (1, 2)]
        k1, k2 = out["personx"]
        out["personx_speedup_total_throughput"] = (k2["proposals_per_s_per_worker"] * 2) / k1["proposals_per_s_per_worker"]
        print(json.dumps({k: v for k, v in k1.items() if k != "trace"}), file=sys.stderr)
        print(json.dumps({k: v for k, v in k2.items() if k != "trace"}), file=sys.stderr)
    if not args.skip_large:
        t0 = time.perf_counter()
        big = generate(config_for("large"))
        gen_s = time.perf_counter() - t0
        p = ModelParams(model=args.large_model, bias=0.04, string_weight=0.8)
        res = run(big, p, 2, rounds=args.large_rounds, samples=args.large_samples, init="string")
        res.update(mentions=len(big), entities=int(len(np.unique(big.gold))), nnz=int(big.X.nnz), generate_s=gen_s)
        res["total_peak_rss_mb"] = res["driver_peak_rss_mb"] + sum(res["worker_peak_rss_mb"])
        out["large"] = res
        print(json.dumps({k: v for k, v in res.items() if k != "trace"}), file=sys.stderr)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(out, indent=1, default=float) + "\n")


if __name__ == "__main__":
    main()
