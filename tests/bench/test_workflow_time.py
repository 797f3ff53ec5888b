"""bench/workflow_time.py: per-paper sums and the costliest jobs from Snakemake's benchmark TSVs."""

from pathlib import Path

from tests.bench.bench_script import load_bench_script

ROOT = Path(__file__).resolve().parents[2]
HEADER = "s\th:m:s\tmax_rss\tmax_vms\tmax_uss\tmax_pss\tio_in\tio_out\tmean_load\tcpu_time\n"


def _load():
    return load_bench_script("workflow_time")


def _tsv(path, wall, rss, cpu):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(HEADER + f"{wall}\t0:00:01\t{rss}\t0\t0\t0\t0\t0\t50\t{cpu}\n")


def test_sums_per_paper_and_ranks_jobs_by_wall(tmp_path):
    mod = _load()
    _tsv(tmp_path / "synth/benchmarks/cc2007_cc_base-none-1.tsv", 10.0, 500.0, 8.0)
    _tsv(tmp_path / "synth/benchmarks/cc2007_tables.tsv", 1.0, 100.0, 0.5)
    _tsv(tmp_path / "synth/benchmarks/train_l3m.tsv", 4.0, 300.0, 3.0)
    _tsv(tmp_path / "crossdoc/benchmarks/personx_flat_K2.tsv", 6.0, 900.0, 12.0)
    out = mod.summary(mod.read_jobs(tmp_path), wall_s=30.0, how="test", label="t", run_cpu_s=42.0)
    assert out["jobs"] == 4 and out["cpu_s_total"] == 23.5 and out["peak_job_rss_mb"] == 900.0
    assert out["job_wall_s_total"] == 21.0 and out["run_cpu_s"] == 42.0
    assert out["busy_share_of_cores"] == round(42.0 / (30.0 * out["cores"]), 3)
    assert out["per_paper"]["cc2007"] == {"jobs": 2, "wall_s": 11.0, "cpu_s": 8.5, "max_rss_mb": 500.0}
    assert out["per_paper"]["singh2011"]["cpu_s"] == 12.0
    assert out["per_paper"]["pipeline_and_leaderboard"]["jobs"] == 1
    assert [j["job"] for j in out["costliest_jobs"]][:2] == ["synth/cc2007_cc_base-none-1", "crossdoc/personx_flat_K2"]


def test_critical_path_is_the_longest_chain_of_measured_jobs(tmp_path):
    """A(10 s) feeds B(5 s) and C(20 s), both feed D(1 s); E(3 s) stands alone; F has no
    benchmark (0 s): the chain is A, C, D = 31 s, whatever order the table lists the jobs in."""
    mod = _load()
    for job, wall in (("a", 10.0), ("b", 5.0), ("c", 20.0), ("d", 1.0), ("e", 3.0)):
        _tsv(tmp_path / f"results/x/benchmarks/{job}.tsv", wall, 100.0, wall)
    rows = [
        ("results/x/d.out", "d", "results/x/b.out,results/x/c.out,results/x/f.out"),
        ("results/x/b.out", "b", "results/x/a.out"),
        ("results/x/c.out", "c", "results/x/a.out,data/raw.txt"),
        ("results/x/c2.out", "c", "results/x/a.out"),
        ("results/x/a.out", "a", ""),
        ("results/x/e.out", "e", ""),
        ("results/x/f.out", "f", ""),
    ]
    lines = ["output_file\tdate\trule\tlog-file(s)\tinput-file(s)\tshellcmd\tstatus\tplan"]
    lines += [f"{out}\t-\t{job}\tresults/x/logs/{job}.log\t{inputs}\t-\tok\tno update" for out, job, inputs in rows]
    (tmp_path / "summary.tsv").write_text("\n".join(lines) + "\n")
    seconds, chain, ends = mod.critical_path(tmp_path / "summary.tsv", tmp_path)
    assert seconds == 31.0 and ends["x/b"] == 15.0 and ends["x/e"] == 3.0 and ends["x/f"] == 0.0
    assert chain == ["results/x/logs/a.log", "results/x/logs/c.log", "results/x/logs/d.log"]
