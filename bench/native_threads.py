"""Benchmark: BLAS threads per process when jobs run side by side (coreflab/native_threads.py).

Two identical Choi & Cardie fits (cc_base, one M-step on the default synthetic training split)
run at the same time, as `snakemake --cores 2` runs two `threads: 1` jobs; once with one
OpenBLAS thread per process (coreflab's default) and once with one per core (OpenBLAS's
default). Records wall and CPU seconds of each pair and the machine's load.

Usage: python bench/native_threads.py   → bench/results/threads.json
"""

import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_JOB = """
import time
from coreflab.corpus.compile import compile_documents
from coreflab.corpus.synthetic.generator import generate_corpus
from coreflab.features.extract import extract_arc_store
from coreflab.learn.registry import make_learner
corpus = compile_documents(generate_corpus("default", seed=1)["train"], "synth", "train")
store = extract_arc_store(corpus, "local", n_bits=22)
t0, c0 = time.perf_counter(), time.process_time()
make_learner("cc_base", {}).fit((corpus, store))
print(time.perf_counter() - t0, time.process_time() - c0)
"""


def pair_of_jobs(threads):
    env = {**os.environ, "COREFLAB_THREADS": str(threads)}
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        env.pop(var, None)
    procs = [
        subprocess.Popen([sys.executable, "-c", _JOB], env=env, stdout=subprocess.PIPE, text=True) for _ in range(2)
    ]
    fits = [tuple(float(x) for x in p.communicate()[0].split()) for p in procs]
    return {"fit_wall_s": [round(w, 2) for w, _ in fits], "fit_cpu_s": [round(c, 2) for _, c in fits]}


def main():
    cores = os.cpu_count() or 1
    out = {
        "what": "two cc_base fits side by side (default synth train), BLAS threads per process",
        "cores": cores,
        "load_before": round(os.getloadavg()[0], 2),
        "started": time.strftime("%Y-%m-%d %H:%M"),
    }
    out["one_thread_per_process"] = pair_of_jobs(1)
    out[f"{cores}_threads_per_process"] = pair_of_jobs(cores)
    out["load_after"] = round(os.getloadavg()[0], 2)
    path = ROOT / "bench" / "results" / "threads.json"
    path.write_text(json.dumps(out, indent=2) + "\n")
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
