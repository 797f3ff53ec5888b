"""Benchmark: peak memory and time of each learner's training job (and H&M's feature ranking) on one store.

The workflow gives every training job 8,000 MB at most; with predicted mentions at CoNLL-2012 size
the training store holds several times the arcs of the gold-mention run, so whether each learner
fits is measured, not extrapolated. Each learner trains in its own child process (`coreflab train`,
as the workflow runs it, without dev scoring) and its peak resident set (`getrusage`), wall and CPU
seconds are recorded:

    python bench/learner_peaks.py --compiled results/conll2012_predicted/compiled/train.npz \
        --arcs results/conll2012_predicted/features/local_fine/train.npz --label conll2012_size_predicted
    → bench/results/learner_peaks_<label>.json

Fewer epochs than a leaderboard run (`LEARNERS`): the peak is reached in the first one; the seconds
are per job as run here, and the record says how many epochs they cover.
"""

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
# (name, registered learner, parameters): one of each kind of training (pair model and its EM, latent
# trees, the latent structured perceptron, the clustering learners)
LEARNERS = (
    ("cc_base", "cc_base", {"max_iter": 100}),
    ("cc_slt_closest", "cc_slt_closest", {"em_iterations": 3, "max_iter": 100}),
    ("bk_baseline", "bk_baseline", {"n_iter": 2}),
    ("lsp_f", "lsp_f", {"n_iter": 2}),
    ("l3m", "l3m", {"gamma": 0.2, "epochs": 1}),
    ("sumlink", "sumlink", {"epochs": 1}),
)
# other jobs that read the whole training store: (name, the `coreflab` arguments after the verb's own)
JOBS = (("hm2017_select", ["hm2017", "select", "--seed", "1"]),)
# runs a command and prints its own children's usage as JSON on the last line of stderr: one child's peak
_MEASURE = (
    "import json, resource, subprocess, sys, time\n"
    "t = time.perf_counter(); r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)\n"
    "u = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
    "print(json.dumps({'rc': r.returncode, 'wall_s': time.perf_counter() - t, 'cpu_s': u.ru_utime + u.ru_stime,"
    " 'peak_kb': u.ru_maxrss}), file=sys.stderr)\n"
)


def runs():
    """(kind, name, `coreflab` arguments, what the record says beside the measures) of every job."""
    for name, learner, params in LEARNERS:
        args = ["train", "--learner", learner, "--params", json.dumps(params), "--seed", "1"]
        yield "learners", name, args, {"params": params}
    for name, args in JOBS:
        yield "jobs", name, args, {}


def measure_command(args, compiled, arcs, out):
    """{peak_mb, wall_s, cpu_s} of `coreflab <args> --compiled --arcs --out` in its own process."""
    cmd = [sys.executable, "-m", "coreflab.cli", *args, "--compiled", str(compiled), "--arcs", str(arcs)]
    cmd += ["--out", str(out)]
    done = subprocess.run([sys.executable, "-c", _MEASURE, *cmd], capture_output=True, text=True)
    lines = done.stderr.strip().splitlines()
    usage = json.loads(lines[-1]) if lines and lines[-1].startswith("{") else {"rc": done.returncode}
    if usage["rc"]:
        sys.exit(f"learner_peaks: coreflab {' '.join(args[:3])} failed:\n{done.stderr}")
    return {
        "peak_mb": round(usage["peak_kb"] / 1024, 1),
        "wall_s": round(usage["wall_s"], 1),
        "cpu_s": round(usage["cpu_s"], 1),
    }


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--compiled", required=True, help="the compiled training split")
    ap.add_argument("--arcs", required=True, help="its features store")
    ap.add_argument("--label", required=True, help="bench/results/learner_peaks_<label>.json")
    ap.add_argument("--only", nargs="*", help="names of LEARNERS and JOBS to run (default: all)")
    ap.add_argument("--how", default="", help="machine state: load, what ran beside it")
    args = ap.parse_args(argv)
    with np.load(args.arcs) as z:
        n_arcs = int(z["arc_ante"].shape[0])
        store_mb = sum(int(z[k].nbytes) for k in z.files if not k.startswith("_")) / 1e6
    record = {
        "label": args.label,
        "arcs": n_arcs,
        "store_mb": round(store_mb, 1),
        "limit_mb": 8000,
        "load_average_start": list(os.getloadavg()),
        "learners": {},
        "how": args.how,
    }
    path = ROOT / "bench" / "results" / f"learner_peaks_{args.label}.json"
    if args.only and path.exists():  # a partial run updates the record's other learners' entries in place
        earlier = json.loads(path.read_text())
        if earlier.get("arcs") == n_arcs:
            record["learners"], record["jobs"] = earlier.get("learners", {}), earlier.get("jobs", {})
    out = path.with_suffix(".model.npz")
    try:
        for kind, name, job_args, extra in runs():
            if args.only and name not in args.only:
                continue
            record.setdefault(kind, {})[name] = {**extra, **measure_command(job_args, args.compiled, args.arcs, out)}
            peaks = [r["peak_mb"] for k in ("learners", "jobs") for r in record.get(k, {}).values()]
            record["max_peak_mb"] = max(peaks)
            path.write_text(json.dumps(record, indent=1) + "\n")  # after each job: a long run keeps its part
            print(name, record[kind][name], flush=True)
    finally:
        out.unlink(missing_ok=True)
    print(f"-> {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
