"""Benchmark: peak memory and time of `coreflab features` on one compiled split, as the workflow runs it.

The store's size is known from its arrays; what decides whether the job fits its 6,000 MB (and a
cluster node) is the process's peak. This runs the command in a child process and records the
child's peak resident set (`getrusage`), wall and CPU seconds, arcs and bytes per arc:

    python bench/features_peak.py --compiled results/conll2012_predicted/compiled/train.npz \
        --featureset local_fine --window 100 --label conll2012_size_predicted_train
    → bench/results/features_peak_<label>.json

For predicted mentions at CoNLL-2012 size, the split is OntoGUM repeated to CoNLL-2012's size
(bench/replicate_release.py) with every candidate kept (bench/predicted_mentions.yaml).
"""

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]


def measure(compiled, featureset, window, bits=22):
    """{arcs, bytes_per_arc, store_mb, peak_mb, wall_s, cpu_s} of one `coreflab features` run."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "arcs.npz"
        cmd = [sys.executable, "-m", "coreflab.cli", "features", "--compiled", str(compiled)]
        cmd += ["--featureset", featureset, "--bits", str(bits), "--out", str(out)]
        if window is not None:
            cmd += ["--window", str(window)]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        done = subprocess.run(cmd, capture_output=True, text=True)
        wall = time.perf_counter() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode:
            sys.exit(f"features_peak: coreflab features failed:\n{done.stderr}")
        with np.load(out) as z:
            arcs = int(z["arc_ante"].shape[0])
            store = sum(int(z[k].nbytes) for k in z.files if not k.startswith("_"))
    return {
        "arcs": arcs,
        "store_mb": round(store / 1e6, 1),
        "bytes_per_arc": round(store / max(arcs, 1), 1),
        "peak_mb": round(after.ru_maxrss / 1024, 1),  # the largest child so far: run this alone
        "peak_bytes_per_arc": round(after.ru_maxrss * 1024 / max(arcs, 1), 1),
        "wall_s": round(wall, 1),
        "cpu_s": round(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, 1),
        "log": done.stdout.strip().splitlines()[:2],
    }


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--compiled", required=True)
    ap.add_argument("--featureset", default="local_fine")
    ap.add_argument("--window", type=int, default=100)
    ap.add_argument("--label", required=True, help="bench/results/features_peak_<label>.json")
    ap.add_argument("--how", default="", help="machine state: load, what ran beside it")
    args = ap.parse_args(argv)
    record = {
        "compiled": args.label,
        "featureset": args.featureset,
        "window": args.window,
        "load_average_start": list(os.getloadavg()),
        **measure(args.compiled, args.featureset, args.window),
        "how": args.how,
    }
    path = ROOT / "bench" / "results" / f"features_peak_{args.label}.json"
    path.write_text(json.dumps(record, indent=1) + "\n")
    print(json.dumps(record, indent=1))


if __name__ == "__main__":
    main()
