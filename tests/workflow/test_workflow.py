"""The whole DAG on the tiny config: runs, is deterministic, and fails cleanly on bad config."""

import filecmp
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

# whole-workflow runs: not in the fast default tier (`pytest`); `.ci/run` runs them (`pytest -m workflow`)
pytestmark = pytest.mark.workflow

ROOT = Path(__file__).resolve().parents[2]
TABLES = (".csv", ".md", ".tex", ".html", ".conll", ".json", ".png")


def _copy_workflow(dest):
    for name in ("workflow", "config", "profiles"):
        src = ROOT / name
        (shutil.copytree if src.is_dir() else shutil.copy)(src, dest / name)
    shutil.copy(ROOT / "tests" / "workflow" / "config.yaml", dest / "tiny.yaml")


EXAMPLE = [
    "--config",
    "learners={example_counts: {learner: example_counts}}",
    "systems=[string_match, bk_baseline, l3m, example_counts]",
]


def _snakemake(cwd, *args):
    # the example learner lives outside the package, as a researcher's own module would
    env = dict(
        os.environ,
        COREFLAB_LEARNER_MODULES="example_learner",
        PYTHONPATH=os.pathsep.join([str(ROOT / "tests" / "workflow"), os.environ.get("PYTHONPATH", "")]),
    )
    return subprocess.run(
        [sys.executable, "-m", "snakemake", "--cores", "2", "--configfile", "tiny.yaml", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=1500,
        env=env,
    )


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory):
    dirs = []
    for name in ("run_a", "run_b"):
        d = tmp_path_factory.mktemp(name)
        _copy_workflow(d)
        proc = _snakemake(d, *EXAMPLE)
        assert proc.returncode == 0, proc.stderr[-3000:]
        (d / "snakemake.stderr").write_text(proc.stderr)
        dirs.append(d)
    return dirs


def test_tiny_workflow_produces_leaderboard_and_overview(two_runs):
    res = two_runs[0] / "results" / "synth"
    board = (res / "leaderboard.csv").read_text().splitlines()
    assert board[0].startswith("rank,system,MUC R")
    systems = {line.split(",")[1] for line in board[1:]}
    assert {"string_match", "bk_baseline", "l3m", "example_counts"} <= systems  # the added learner is ranked too
    for name in ("leaderboard.md", "leaderboard.tex", "overview.png", "overview.pdf", "scores/systems_test.csv"):
        assert (res / name).stat().st_size > 0
    caption = (res / "leaderboard.md").read_text().splitlines()[0]
    assert "responses without one-mention clusters" in caption  # the synthetic key has none


TIMED_TABLES = {"cccp_vs_sgd"}  # carries the measured seconds its caption promises


def _reproducible(path):
    """Tables and figures; not the measured costs (benchmarks, *_costs, *_time), not the
    intermediate run/curve/trace files that carry seconds, and not Singh et al.'s figures,
    whose x axis is measured wall-clock time (their Table 2 is compared)."""
    parts = set(path.parts)
    timed = {"benchmarks", "logs", "runs", "curves", "traces", "baselines"}
    wall_clock_figure = "singh2011" in parts and path.suffix == ".png"
    return (
        path.suffix in TABLES
        and not parts & timed
        and not wall_clock_figure
        and not path.stem.endswith(("_costs", "_time"))
        and path.stem not in TIMED_TABLES
    )


def test_two_clean_runs_give_byte_identical_tables(two_runs):
    a, b = (d / "results" for d in two_runs)
    files = sorted(p.relative_to(a) for p in a.rglob("*") if _reproducible(p.relative_to(a)))
    assert len(files) >= 10
    differing = [str(f) for f in files if not filecmp.cmp(a / f, b / f, shallow=False)]
    assert differing == []


def test_nothing_left_to_do_after_a_run(two_runs):
    proc = _snakemake(two_runs[0], "-n", *EXAMPLE)
    assert proc.returncode == 0
    assert "Nothing to be done" in proc.stdout + proc.stderr


def test_manifest_records_config_seed_and_versions(two_runs):
    import json

    manifest = json.loads((two_runs[0] / "results" / "synth" / "manifest.json").read_text())
    assert manifest["seed"] == 1 and len(manifest["config_sha256"]) == 64
    assert manifest["packages"]["numpy"] and manifest["config"]["corpora"]["synth"]["size"] == "tiny"


@pytest.mark.parametrize(
    "extra, phrase",
    [
        (["--config", "corpra=1"], "config key 'corpra' is unknown"),
        (["--config", "mentions=silver"], "config key mentions: 'silver' is not one of"),
    ],
)
def test_config_typo_is_one_line_error(tmp_path, extra, phrase):
    _copy_workflow(tmp_path)
    proc = _snakemake(tmp_path, "-n", *extra)
    assert proc.returncode != 0
    assert phrase in proc.stderr + proc.stdout
    assert "Traceback" not in proc.stderr
    assert not (tmp_path / "results").exists()


def _planned_jobs(proc):
    """{rule: count} from the 'Job stats' block of a dry run."""
    text = proc.stdout + proc.stderr
    block = text.split("Job stats:", 1)[1].strip("\n").split("\n\n", 1)[0].splitlines()
    rows = (line.split() for line in block)  # "job count", "--- -----", then one rule per line
    return {row[0]: int(row[1]) for row in rows if len(row) == 2 and row[1].isdigit() and row[0] != "total"}


def test_deleting_one_model_reruns_only_what_depends_on_it(two_runs, tmp_path):
    run = tmp_path / "run"
    shutil.copytree(two_runs[0], run, symlinks=True)  # copy2 keeps mtimes: the copy is up to date
    (run / "results" / "synth" / "models" / "l3m.npz").unlink()
    proc = _snakemake(run, "-n", *EXAMPLE)
    assert proc.returncode == 0, proc.stderr[-2000:]
    jobs = _planned_jobs(proc)
    # l3m: trained, predicted on the test split, scored; then the tables that read those scores
    assert jobs.get("train_system") == 1 and jobs.get("predict_system") == 1 and jobs.get("score") == 1
    assert set(jobs) <= {"train_system", "predict_system", "score", "scores_table", "leaderboard", "manifest", "all"}, (
        jobs
    )
    assert "wildcards: corpus=synth, system=l3m" in proc.stdout + proc.stderr
    assert "system=bk_baseline" not in proc.stdout + proc.stderr


def _incomplete_outputs(run):
    import base64

    marks = run / ".snakemake" / "incomplete"
    if not marks.is_dir():
        return []
    names = []
    for mark in marks.iterdir():
        try:
            names.append(base64.urlsafe_b64decode(mark.name.encode() + b"==").decode())
        except ValueError:
            names.append(mark.name)
    return names


def test_a_run_killed_during_training_finishes_identically_with_rerun_incomplete(two_runs, tmp_path):
    import signal
    import time

    run = tmp_path / "run"
    run.mkdir()
    _copy_workflow(run)
    env = dict(
        os.environ,
        COREFLAB_LEARNER_MODULES="example_learner",
        PYTHONPATH=os.pathsep.join([str(ROOT / "tests" / "workflow"), os.environ.get("PYTHONPATH", "")]),
    )
    cmd = [sys.executable, "-m", "snakemake", "--cores", "2", "--configfile", "tiny.yaml", *EXAMPLE]
    proc = subprocess.Popen(
        cmd, cwd=run, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    deadline = time.monotonic() + 900
    while proc.poll() is None and time.monotonic() < deadline:
        if any("/models/" in name for name in _incomplete_outputs(run)):
            break
        time.sleep(0.02)
    assert proc.poll() is None, "the run ended before any training job started"
    os.killpg(proc.pid, signal.SIGKILL)  # the whole job tree, as a crash or a lost node would
    proc.wait()
    assert any("/models/" in name for name in _incomplete_outputs(run))

    # a killed Snakemake leaves its lock behind; it says so and the user unlocks, as here
    assert _snakemake(run, "--unlock", *EXAMPLE).returncode == 0
    resumed = _snakemake(run, "--rerun-incomplete", *EXAMPLE)
    assert resumed.returncode == 0, resumed.stderr[-3000:]
    a, b = two_runs[0] / "results", run / "results"
    files = sorted(p.relative_to(a) for p in a.rglob("*") if _reproducible(p.relative_to(a)))
    differing = [str(f) for f in files if not (b / f).exists() or not filecmp.cmp(a / f, b / f, shallow=False)]
    assert differing == []


@pytest.mark.parametrize("enabled", [True, False])
def test_l3m_table2_vi_is_planned_only_with_20_newsgroups_in_its_own_folder(tmp_path, enabled):
    _copy_workflow(tmp_path)
    news = tmp_path / "news"  # the dry run only checks that the configured copy exists
    news.mkdir()
    tiny = tmp_path / "tiny.yaml"
    tiny.write_text(
        tiny.read_text().replace(
            "doccluster:\n  enabled: false", f"doccluster:\n  enabled: {str(enabled).lower()}\n  local_dir: {news}"
        )
    )
    proc = _snakemake(tmp_path, "-n", "l3m2014")
    assert proc.returncode == 0, proc.stderr[-2000:]
    text = proc.stdout + proc.stderr
    assert ("results/doccluster/paper/l3m2014/table2_vi.html" in text) is enabled  # a report entry, no corpus's
    assert "results/synth/paper/l3m2014/table2_vi" not in text
    assert (_planned_jobs(proc).get("doccluster") == 4) is enabled


def _dag_edges(proc):
    """(rule of the upstream node, rule of the downstream node) pairs of `snakemake --dag`."""
    import re

    labels = {n: label.split("\\n")[0] for n, label in re.findall(r'^\s*(\d+)\[label = "([^"]*)"', proc.stdout, re.M)}
    edges = [(a, b) for a, b in re.findall(r"^\s*(\d+) -> (\d+)", proc.stdout, re.M)]
    return labels, edges


def test_selection_is_upstream_of_every_bk_and_leaderboard_training_job(tmp_path):
    _copy_workflow(tmp_path)
    proc = _snakemake(tmp_path, "--dag", *EXAMPLE)
    assert proc.returncode == 0, proc.stderr[-2000:]
    labels, edges = _dag_edges(proc)
    parents = {}
    for a, b in edges:
        parents.setdefault(b, set()).add(a)

    def ancestors(node):
        seen, todo = set(), [node]
        while todo:
            for p in parents.get(todo.pop(), ()):
                if p not in seen:
                    seen.add(p)
                    todo.append(p)
        return {labels[p] for p in seen}

    trainers = [n for n, rule in labels.items() if rule in ("train_system", "bk2014_run")]
    assert len(trainers) >= 5
    assert all("select_templates" in ancestors(n) for n in trainers)


def test_a_corpus_borrowing_a_selection_trains_on_the_other_corpus_templates(tmp_path):
    """`selection.from_corpus: {synth_hard: synth}` (the default): synth_hard's features are cut by synth's
    selected templates and no selection of its own is planned; mapped to itself it selects its own."""
    _copy_workflow(tmp_path)
    target = "results/synth_hard/features/selected/train.npz"
    proc = _snakemake(tmp_path, "-n", "-p", "--forceall", target)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "--featureset results/synth/selection/selected.yaml" in proc.stdout
    assert "coreflab select --conll results/synth/" in proc.stdout
    assert "coreflab select --conll results/synth_hard/" not in proc.stdout
    own = _snakemake(
        tmp_path, "-n", "-p", "--forceall", target, "--config", "selection={from_corpus: {synth_hard: synth_hard}}"
    )
    assert own.returncode == 0, own.stderr[-2000:]
    assert "--featureset results/synth_hard/selection/selected.yaml" in own.stdout
    assert "coreflab select --conll results/synth_hard/" in own.stdout


def test_a_cc_fit_is_reused_one_way_the_paper_job_scores_the_leaderboard_models(tmp_path):
    """The leaderboard's SLT takes BASE's model as its iteration 1 (`coreflab train --first-fit`: the same
    fit), BASE fits on its own; the cc2007 job of the unbiased setting scores the leaderboard's models of the
    same fit settings (`coreflab cc2007 run --fitted`) instead of fitting again."""
    _copy_workflow(tmp_path)
    tiny = tmp_path / "tiny.yaml"
    text = tiny.read_text()
    text = text.replace(
        "learners:\n",
        "learners:\n  cc_base: {learner: cc_base}\n"
        "  cc_slt_closest: {learner: cc_slt_closest, params: {em_iterations: 2}}\n",
    )
    text, n = re.subn(r"^systems: \[.*\]$", "systems: [string_match, cc_base, cc_slt_closest]", text, flags=re.M)
    assert n == 1, "the tiny config has one `systems:` line"
    tiny.write_text(text)
    proc = _snakemake(tmp_path, "-n", "-p", "results/synth/leaderboard.csv", "cc2007")
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-2000:]
    lines = [x.removeprefix("Shell command: ") for x in (proc.stdout + proc.stderr).splitlines()]
    slt = [x for x in lines if "coreflab train --learner cc_slt_closest" in x]
    base = [x for x in lines if "coreflab train --learner cc_base" in x]
    assert len(slt) == 1 and "--first-fit results/synth/models/cc_base.npz " in slt[0]
    assert len(base) == 1 and "--first-fit" not in base[0] and "cc_slt_closest" not in base[0].split("--out")[0]
    board = next(x for x in lines if x.startswith("coreflab leaderboard"))
    assert "--benchmark cc_slt_closest=results/synth/benchmarks/train_cc_slt_closest.tsv " in board
    runs = {x.split("--bias ")[1].split()[0]: x for x in lines if x.startswith("coreflab cc2007 run")}
    assert set(runs) == {"none", "p1"}
    assert "--fitted cc_base=results/synth/models/cc_base.npz" in runs["none"]
    assert "--fitted cc_slt_closest=results/synth/models/cc_slt_closest.npz" in runs["none"]
    assert "--fitted" not in runs["p1"]


def test_changing_the_systems_replans_the_leaderboard(two_runs):
    proc = _snakemake(
        two_runs[0],
        "-n",
        "--config",
        "learners={example_counts: {learner: example_counts}}",
        "systems=[string_match, bk_baseline, example_counts]",
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    jobs = _planned_jobs(proc)
    assert jobs.get("leaderboard") == 1 and jobs.get("scores_table") == 1
    assert "train_system" not in jobs  # nothing to retrain: only the tables that list the systems


def test_a_misspelled_system_stops_the_workflow_before_any_job(tmp_path):
    _copy_workflow(tmp_path)
    proc = _snakemake(tmp_path, "-n", "--config", "systems=[string_match, bk_delayd_laso]")
    assert proc.returncode != 0
    assert "'bk_delayd_laso' is neither string_match nor a configured learner" in proc.stderr + proc.stdout
    assert "Traceback" not in proc.stderr


def test_skipped_experiments_are_announced_at_the_end_and_in_the_results(two_runs):
    # the tiny config has neither 20 Newsgroups (doccluster.enabled: false) nor ECB+ (ecbplus_dir: null)
    tail = (two_runs[0] / "snakemake.stderr").read_text().splitlines()[-8:]
    assert any("2 experiment(s) skipped for missing data" in line for line in tail)
    assert any("20 Newsgroups" in line and "doccluster.local_dir" in line for line in tail)
    assert any("ECB+" in line and "crossdoc.ecbplus_dir" in line for line in tail)
    table = (two_runs[0] / "results" / "skipped_experiments.md").read_text()
    assert "20 Newsgroups" in table and "ECB+" in table
    assert (two_runs[0] / "results" / "skipped_experiments.html").stat().st_size > 0


def test_predicted_mentions_end_to_end_beside_gold(tmp_path):
    """`mentions: [gold, predicted]`: the predicted run writes results/synth_predicted/ with the mention
    classifier's filtered splits, a leaderboard whose caption and columns say how the mentions were
    found, and the mention-detection table; `paper_mentions` plans each paper in its own setting."""
    _copy_workflow(tmp_path)
    both = ["--config", "mentions=[gold, predicted]", "paper_mentions={bk2014: predicted, l3m2014: gold}"]
    proc = _snakemake(tmp_path, "-n", *both)
    assert proc.returncode == 0, proc.stderr[-2000:]
    planned = proc.stdout
    assert "results/synth_predicted/paper/bk2014/table1.md" in planned
    assert "results/synth/paper/bk2014/table1.md" not in planned
    assert "results/synth/paper/l3m2014/table1.md" in planned
    assert "results/synth_predicted/paper/l3m2014/table1.md" not in planned
    targets = ["results/synth_predicted/leaderboard.md", "results/synth_predicted/mentions/detection.md"]
    proc = _snakemake(tmp_path, "--config", "mentions=predicted", "--", *targets)
    assert proc.returncode == 0, proc.stderr[-3000:]
    board = (tmp_path / targets[0]).read_text()
    assert "predicted mentions, gold parses" in board.splitlines()[0]
    assert "Mentions R" in board and "Mentions P" in board
    detection = (tmp_path / targets[1]).read_text()
    assert "rules + classifier" in detection and "pronoun" in detection
    log = (tmp_path / "results/synth_predicted/logs/prepare_test.log").read_text()
    assert "singleton policy drop" in log  # the synthetic key has no singletons
    assert (tmp_path / "results/synth_predicted/mentions/model.npz").exists()
