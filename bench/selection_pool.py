"""Benchmark: template selection at CoNLL-2012 size, each candidate's stores cut from the pool's vs
extracted anew (`learn/selection.py`, POOL_BUDGET_BYTES).

Below the budget, selection extracts the pool's stores once and cuts every candidate's from them;
above it, each evaluation extracts its own. On the synthetic corpus of CoNLL-2012's size (2,802
training documents) with `config/conll2012.yaml`'s selection settings (`local_fine`, window 100,
22 bits, 2 iterations, 2 joblib workers), the pool's stores exceed the 2 GiB budget. This runs the
first N remove-step evaluations both ways, each in a fresh process: wall seconds per evaluation
(two workers), the process tree's peak memory (sampled: RSS summed, where the pages the workers
share through joblib's memory maps count once per process, and PSS summed, where they count once),
and the MELA of each evaluation (equal both ways: the same stores).

Usage: python bench/selection_pool.py [--evaluations N] [--out JSON]
"""

import argparse
import json
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _tree_peak(stop, peak):
    """peak = [RSS summed over the process tree, PSS summed (shared pages split among their users)]."""
    import psutil

    me = psutil.Process()
    while not stop.is_set():
        try:
            procs = [me, *me.children(recursive=True)]
            peak[0] = max(peak[0], sum(p.memory_info().rss for p in procs))
            peak[1] = max(peak[1], sum(p.memory_full_info().pss for p in procs))
        except psutil.Error:
            pass
        time.sleep(0.5)


def measure(mode, n):
    """One way (`pool`: budget raised so the pool is used; `extract`: the shipped budget)."""
    import coreflab.learn.selection as sel
    from coreflab.corpus.synthetic.generator import generate_corpus
    from coreflab.features.featureset import load_featureset

    if mode == "pool":
        sel.POOL_BUDGET_BYTES = 64 << 30
    docs = generate_corpus("conll2012", seed=0)["train"]
    pool = load_featureset("local_fine").local
    stop, peak = threading.Event(), [0, 0]
    threading.Thread(target=_tree_peak, args=(stop, peak), daemon=True).start()
    t0 = time.perf_counter()
    ev = sel.Evaluator(docs, "synth", "gold", 1, 2, 5, n_bits=22, window=100, reach=True, root_loss=1.5, pool=pool)
    setup = time.perf_counter() - t0
    sets = [([t for j, t in enumerate(pool) if j != k],) for k in range(n)]
    t0 = time.perf_counter()
    mela = sel._evaluate_all(ev, sets, 2)
    wall = time.perf_counter() - t0
    stop.set()
    out = {"setup_s": setup, "evaluations": n, "wall_s": wall, "s_per_evaluation": wall / n}
    out |= {"tree_peak_rss_gb": peak[0] / 1e9, "tree_peak_pss_gb": peak[1] / 1e9}
    out |= {"mela": mela, "pool_used": ev.pools is not None}
    if ev.pools is not None:
        out["pool_gb"] = sum(p.nbytes for p in ev.pools) / 1e9
        out["train_arcs"] = int(ev.pools[0].store.arc_feat_offsets.shape[0] - 1)
        out["train_entries_per_arc"] = ev.pools[0].store.arc_feats.shape[0] / out["train_arcs"]
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--evaluations", type=int, default=10)
    p.add_argument("--out", default=str(ROOT / "bench/results/selection_conll2012_size.json"))
    p.add_argument("--mode", choices=["pool", "extract"], help=argparse.SUPPRESS)  # one way, in this process
    args = p.parse_args()
    if args.mode:
        print(json.dumps(measure(args.mode, args.evaluations)))
        return
    res = {"corpus": "synthetic, CoNLL-2012 size (2,802 training documents)", "templates": "local_fine"}
    for mode in ("extract", "pool"):
        cmd = [sys.executable, __file__, "--mode", mode, "--evaluations", str(args.evaluations)]
        done = subprocess.run(cmd, capture_output=True, text=True, check=True)
        res[mode] = json.loads(done.stdout.strip().splitlines()[-1])
        print(mode, {k: v for k, v in res[mode].items() if k != "mela"}, flush=True)
    res["same_mela"] = res["extract"]["mela"] == res["pool"]["mela"]
    res["pool_speedup"] = res["extract"]["s_per_evaluation"] / res["pool"]["s_per_evaluation"]
    Path(args.out).write_text(json.dumps(res, indent=1) + "\n")


if __name__ == "__main__":
    main()
