"""Record what one whole workflow run cost: wall time, the jobs' CPU and memory, the machine's load.

Snakemake writes one benchmark TSV per job (`results/**/benchmarks/*.tsv`: wall s, max RSS MB,
mean load, CPU s). This sums them per paper and lists the costliest jobs, beside the run's wall
time measured around `snakemake` (pass it in; with `/usr/bin/time -v` it is the "Elapsed" line),
and says how the run was made (fresh clone and cold numba cache or not), so the time a reader sees
in docs/performance.md comes with the conditions it was measured under.

Snakemake samples a job's CPU time at intervals, so `cpu_s` misses the tail of every job (a
fully busy 37 s job can read 14 CPU-s); the jobs' wall seconds (`wall_s`, summed per paper) and
the run's total CPU from `/usr/bin/time` (`--cpu-s`: user + system, snakemake and every job) are
the reliable costs, and the jobs are ranked by wall time.

    python bench/workflow_time.py --label default --results RUN/results --wall-s 1234 \
        --how "fresh clone, cold numba cache, GUM run beside it" [--cpu-s 1700] [--summary S.tsv]
                                                            → bench/results/workflow_default.json

With `--summary` (the output of `snakemake --detailed-summary` in the run's folder, same config),
it also gives the run's critical path: the longest chain of jobs, each waiting for the jobs that
make its inputs, weighted by the jobs' measured wall seconds: the wall time with as many cores as
jobs (a SLURM cluster with a free node per job, queueing not counted).
"""

import argparse
import json
import os
import re
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]

# Every Singh et al. job writes under results/crossdoc/ (its folder says the paper); the others are
# named <paper>_... or by the B&K step that feeds every learner; the rest is the shared pipeline and
# the leaderboard.
FOLDERS = {"crossdoc": "singh2011", "doccluster": "l3m2014"}
PREFIXES = {
    "bk2014": "bk2014",
    "select_templates": "bk2014",
    "tune_root_loss": "bk2014",
    "cc2007": "cc2007",
    "l3m2014": "l3m2014",
    "hm2017": "hm2017",
}


def paper_of(path):
    folder = path.parent.parent.name
    if folder in FOLDERS:
        return FOLDERS[folder]
    for prefix, paper in PREFIXES.items():
        if path.stem.startswith(prefix):
            return paper
    return "pipeline_and_leaderboard"


def read_jobs(results):
    rows = []
    for tsv in sorted(Path(results).glob("**/benchmarks/*.tsv")):
        df = pd.read_csv(tsv, sep="\t")
        last = df.iloc[-1]
        rows.append(
            {
                "job": f"{tsv.parent.parent.name}/{tsv.stem}",
                "paper": paper_of(tsv),
                "wall_s": float(last["s"]),
                "cpu_s": float(last["cpu_time"]),
                "max_rss_mb": float(last["max_rss"]),
                "mean_load": float(last["mean_load"]),
            }
        )
    return pd.DataFrame(rows)


def benchmark_of(log):
    """The benchmark TSV of the job that writes `log` (the rules name both after the job)."""
    path = Path(log)
    return path.parent.parent / "benchmarks" / f"{path.stem}.tsv"


def job_name(log):
    """`<folder>/<job>` of a job's log, as `read_jobs` names jobs (synth/select_templates)."""
    path = Path(log)
    return f"{path.parent.parent.name}/{path.stem}"


def critical_path(summary_tsv, results_parent):
    """(seconds, [job logs], {job: finish seconds}) of the longest chain of jobs in a
    `snakemake --detailed-summary` table; a job is its log file, its weight the wall seconds of its
    benchmark (0 without one), its finish the earliest time it can end with a core per job."""
    table = pd.read_csv(summary_tsv, sep="\t", dtype=str).fillna("")
    table = table[table["log-file(s)"] != ""]
    producer = dict(zip(table["output_file"], table["log-file(s)"]))
    inputs = {}
    for log, sub in table.groupby("log-file(s)"):
        inputs[log] = {producer[f] for files in sub["input-file(s)"] for f in files.split(",") if f in producer}
        inputs[log].discard(log)

    def wall(log):
        tsv = Path(results_parent) / benchmark_of(log)
        return float(pd.read_csv(tsv, sep="\t").iloc[-1]["s"]) if tsv.exists() else 0.0

    finish, chain = {}, {}

    def visit(log, stack=()):
        if log in finish:
            return finish[log]
        if log in stack:
            raise ValueError(f"cycle through {log}")
        before = max(inputs.get(log, ()), key=lambda d: visit(d, (*stack, log)), default=None)
        finish[log] = wall(log) + (finish[before] if before else 0.0)
        chain[log] = (chain[before] if before else []) + [log]
        return finish[log]

    end = max(inputs, key=visit, default=None)
    ends = {job_name(log): round(t, 1) for log, t in finish.items()}
    return (finish[end], chain[end], ends) if end else (0.0, [], ends)


def summary(jobs, wall_s, how, label, run_cpu_s=None):
    per_paper = jobs.groupby("paper").agg(
        jobs=("job", "size"), wall_s=("wall_s", "sum"), cpu_s=("cpu_s", "sum"), max_rss_mb=("max_rss_mb", "max")
    )
    top = jobs.sort_values(["wall_s", "job"], ascending=[False, True]).head(8)
    cores = os.cpu_count() or 1
    return {
        "label": label,
        "how": how,
        "wall_s": round(wall_s, 1),
        "wall_min": round(wall_s / 60, 1),
        "run_cpu_s": None if run_cpu_s is None else round(run_cpu_s, 1),
        "busy_share_of_cores": None if run_cpu_s is None else round(run_cpu_s / (wall_s * cores), 3),
        "jobs": int(len(jobs)),
        "job_wall_s_total": round(float(jobs["wall_s"].sum()), 1),
        "cpu_s_total": round(float(jobs["cpu_s"].sum()), 1),
        "cpu_min_total": round(float(jobs["cpu_s"].sum()) / 60, 1),
        "cores": cores,
        "cpu_min_over_cores": round(float(jobs["cpu_s"].sum()) / 60 / cores, 1),
        "peak_job_rss_mb": round(float(jobs["max_rss_mb"].max()), 1),
        "load_at_record": round(os.getloadavg()[0], 2),
        "per_paper": {
            p: {
                "jobs": int(r["jobs"]),
                "wall_s": round(float(r["wall_s"]), 1),
                "cpu_s": round(float(r["cpu_s"]), 1),
                "max_rss_mb": round(float(r["max_rss_mb"]), 1),
            }
            for p, r in per_paper.iterrows()
        },
        "costliest_jobs": [
            {k: (round(v, 1) if isinstance(v, float) else v) for k, v in r.items()}
            for r in top[["job", "wall_s", "cpu_s", "max_rss_mb"]].to_dict("records")
        ],
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--label", required=True, help="config name, e.g. default or gum")
    ap.add_argument("--results", required=True, help="the run's results/ directory")
    ap.add_argument("--wall-s", type=float, required=True, help="wall seconds of the whole snakemake run")
    ap.add_argument("--how", required=True, help="how it was run (fresh clone? cold caches? what else ran?)")
    ap.add_argument("--cpu-s", type=float, default=None, help="the run's user + system seconds (/usr/bin/time -v)")
    ap.add_argument("--summary", help="`snakemake --detailed-summary` of the run (adds the critical path)")
    args = ap.parse_args()
    if not re.fullmatch(r"[a-z0-9_]+", args.label):
        raise SystemExit(f"--label {args.label!r}: use lower-case letters, digits and _")
    out = summary(read_jobs(args.results), args.wall_s, args.how, args.label, args.cpu_s)
    if args.summary:
        seconds, chain, ends = critical_path(args.summary, Path(args.results).resolve().parent)
        out["critical_path_s"] = round(seconds, 1)
        # when every learner can start: the last training split's features of the selected set built
        ready = [t for job, t in ends.items() if job.endswith("/features_selected_train")]
        out["train_features_ready_s"] = max(ready, default=None)
        out["critical_path_min"] = round(seconds / 60, 1)
        out["critical_path_jobs"] = [job_name(log) for log in chain]
        out["critical_path_chain"] = " → ".join(out["critical_path_jobs"])
    path = ROOT / "bench" / "results" / f"workflow_{args.label}.json"
    path.write_text(json.dumps(out, indent=2, ensure_ascii=False) + "\n")
    print(json.dumps(out, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
