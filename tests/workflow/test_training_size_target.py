"""`snakemake training_size` on the tiny config, dry runs: the curve of every learner the leaderboard
trains, with gold and predicted mentions, against the sieve's and string match's test scores; its own
target, not part of the default one; a misspelled learner stops the run before any job."""

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.workflow  # dry runs of the workflow: the workflow tier (`pytest -m workflow`)

ROOT = Path(__file__).resolve().parents[2]
TINY = str(ROOT / "tests" / "workflow" / "config.yaml")


def _dry_run(*args):
    cmd = [
        sys.executable,
        "-m",
        "snakemake",
        "-n",
        "-p",
        "--forceall",
        "--snakefile",
        str(ROOT / "workflow" / "Snakefile"),
    ]
    # --configfile last: it takes every word after it (a target too)
    return subprocess.run(cmd + [*args, "--configfile", TINY], capture_output=True, text=True, cwd=ROOT)


def test_the_training_size_target_plans_every_curve_and_the_rules_lines():
    proc = _dry_run("training_size")
    assert proc.returncode == 0, proc.stderr[-2000:]
    text = proc.stdout + proc.stderr
    curves = [line for line in proc.stdout.splitlines() if "coreflab training-size --learner" in line]
    # every configured learner of training_size.learners: bk_delayed_laso is configured but not in systems
    planned = {
        (line.split("--system ")[1].split()[0], line.split("--out results/")[1].split("/")[0]) for line in curves
    }
    learners = ("bk_baseline", "bk_delayed_laso", "l3m", "lsp_rho")
    assert planned == {(s, r) for s in learners for r in ("synth", "synth_predicted")}
    lsp = next(line for line in curves if "--system lsp_rho" in line and "results/synth/" in line)
    assert "--tuned regressor=results/synth/paper/hm2017/regressor.json" in lsp
    assert "--sizes 5 10 20 40 80 --draws 3 --seed 1" in lsp
    for run in ("synth", "synth_predicted"):
        for name in ("curve.csv", "curve.md", "crossover.json", "figure.png", "figure.pdf"):
            assert f"results/{run}/training_size/{name}" in text, (run, name)
        report = next(line for line in proc.stdout.splitlines() if f"--out results/{run}/training_size " in line)
        assert f"--rule sieve=results/{run}/scores/sieve/test.json" in report
        assert f"--rule string_match=results/{run}/scores/string_match/test.json" in report
        assert "--left-out" not in report


def test_the_default_target_does_not_run_it():
    proc = _dry_run()
    assert proc.returncode == 0, proc.stderr[-2000:]
    text = proc.stdout + proc.stderr
    assert "rule training_size" not in text and "/training_size/" not in text and "coreflab training-size" not in text


def test_a_misspelled_learner_is_a_one_line_error():
    proc = _dry_run("training_size", "--config", "training_size={learners: [l3n]}")
    assert proc.returncode != 0
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith("coreflab: error: config key training_size.learners: 'l3n' is not a configured learner")
    assert "did you mean 'l3m'" in last and "Traceback" not in proc.stderr
