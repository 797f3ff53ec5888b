"""bench/nonlocal_seeds.py: the per-iteration difference over seeds, by hand, and one real run."""

import json
import math

import pandas as pd
import pytest

from coreflab.corpus.synthetic.generator import generate_corpus
from coreflab.papers.bk2014.report import load_curves
from tests.bench.bench_script import load_bench_script
from tests.commands.learner_runs import write_split_files


@pytest.fixture(scope="module")
def mod():
    return load_bench_script("nonlocal_seeds")


def test_parse_seeds(mod):
    assert mod.parse_seeds("1-3,7") == [1, 2, 3, 7]
    assert mod.parse_seeds("5") == [5]
    assert mod.parse_seeds("2,1-2") == [1, 2]
    with pytest.raises(SystemExit, match="is not a seed"):
        mod.parse_seeds("1-x")
    with pytest.raises(SystemExit, match="is empty"):
        mod.parse_seeds("5-2")


def _table(mod, tmp_path, mela, beam=5):
    """A `seed_table` of curves written as `coreflab train --curve` CSVs: {(features, seed): MELA per iteration}."""
    paths = {}
    for (features, seed), values in mela.items():
        run = f"bk_delayed_laso-{features}-b{beam}-s{seed}"
        paths[run] = tmp_path / f"{run}.csv"
        pd.DataFrame({"epoch": range(1, len(values) + 1), "metric": "mela", "f1": values}).to_csv(
            paths[run], index=False
        )
    return mod.seed_table(load_curves(paths), beam)


def test_difference_rows_by_hand(mod, tmp_path):
    """Seeds 1-3 at two iterations; seed 4 has only a local curve and is left out.
    Iteration 1: differences +1, -1, +3 -> mean 1, sd 2, se 2/sqrt(3), ahead 2.
    Iteration 2: differences 0, +2, +1 -> mean 1, sd 1, ahead 2 (a tie is not ahead)."""
    mela = {
        ("local", 1): [70, 72], ("nonlocal", 1): [71, 72],
        ("local", 2): [70, 70], ("nonlocal", 2): [69, 72],
        ("local", 3): [60, 61], ("nonlocal", 3): [63, 62],
        ("local", 4): [50, 50],
    }  # fmt: skip
    table = _table(mod, tmp_path, mela)
    rows = mod.difference_rows(table)
    assert [r["iteration"] for r in rows] == [1, 2]
    first, second = rows
    assert first["seeds"] == 3 and first["difference"] == 1.0 and first["sd"] == 2.0
    assert first["se"] == round(2 / math.sqrt(3), 4) and first["ahead"] == 2
    assert first["local"] == round(200 / 3, 4) and first["nonlocal"] == round(203 / 3, 4)
    assert second["difference"] == 1.0 and second["sd"] == 1.0 and second["ahead"] == 2
    per_seed = mod.per_seed_mela(table)
    assert per_seed["local-s4"] == [50.0, 50.0] and per_seed["nonlocal-s3"] == [63.0, 62.0]
    assert "nonlocal-s4" not in per_seed


def test_difference_rows_needs_a_pair(mod, tmp_path):
    with pytest.raises(ValueError, match="no seed has both"):
        mod.difference_rows(_table(mod, tmp_path, {("local", 1): [1.0], ("nonlocal", 2): [1.0]}))


def test_command_is_the_table1_run(mod, tmp_path):
    """Local runs carry no non-local templates; the tuned root loss is passed when the workflow made it."""
    local = mod.train_command(tmp_path, "selected", "local", 5, 3, "selected", 2, "c.csv", "m.npz")
    params = json.loads(local[local.index("--params") + 1])
    assert params == {"beam": 5, "n_iter": 3} and "--tuned" not in local
    assert local[local.index("--arcs") + 1] == str(tmp_path / "features" / "selected" / "train.npz")
    (tmp_path / "tuning").mkdir()
    (tmp_path / "tuning" / "root_loss.json").write_text("{}")
    nl = mod.train_command(tmp_path, "selected", "nonlocal", 5, 3, ["cluster_size"], 2, "c.csv", "m.npz")
    assert json.loads(nl[nl.index("--params") + 1])["nonlocal_templates"] == ["cluster_size"]
    assert nl[nl.index("--tuned") + 1] == str(tmp_path / "tuning" / "root_loss.json")
    assert nl[nl.index("--seed") + 1] == "2"


def test_runs_on_a_workflow_layout(mod, tmp_path):
    """Two seeds, two iterations on the tiny synthetic corpus laid out as results/<corpus>/: the
    record has one row per iteration and each seed's curves; the models are not kept."""
    files = write_split_files(tmp_path / "split", generate_corpus("tiny", seed=0))
    res = tmp_path / "results" / "synth"
    for split in ("train", "dev"):
        compiled, arcs, conll = files[split]
        (res / "compiled").mkdir(parents=True, exist_ok=True)
        (res / "features" / "selected").mkdir(parents=True, exist_ok=True)
        (res / "compiled" / f"{split}.npz").symlink_to(compiled)
        (res / "features" / "selected" / f"{split}.npz").symlink_to(arcs)
    (res / "data").mkdir()
    (res / "data" / "dev.conll").symlink_to(files["dev"][2])
    out = tmp_path / "out"
    mod.main(
        ["--results", str(res), "--beam", "2", "--iterations", "2", "--seeds", "1-2",
         "--nonlocal-templates", "cluster_size", "--label", "t", "--out-dir", str(out), "--jobs", "2"]
    )  # fmt: skip
    record = json.loads((out / "nonlocal_seeds_t.json").read_text())
    assert [r["iteration"] for r in record["per_iteration"]] == [1, 2]
    assert all(r["seeds"] == 2 for r in record["per_iteration"])
    assert sorted(record["per_seed_dev_mela"]) == ["local-s1", "local-s2", "nonlocal-s1", "nonlocal-s2"]
    first = record["per_iteration"][0]
    d = [
        record["per_seed_dev_mela"][f"nonlocal-s{k}"][0] - record["per_seed_dev_mela"][f"local-s{k}"][0] for k in (1, 2)
    ]
    assert first["difference"] == pytest.approx(sum(d) / 2, abs=1e-3)
    table = (out / "nonlocal_seeds_t.md").read_text().split("\n\n")[1].splitlines()
    assert len(table) == 4 and table[2].split("|")[1].strip() == "1"  # header, rule, two iterations


def test_refuses_a_results_dir_without_stores(mod, tmp_path):
    with pytest.raises(SystemExit, match="run the workflow for that corpus first"):
        mod.main(["--results", str(tmp_path), "--label", "t", "--out-dir", str(tmp_path)])


def test_the_record_is_named_after_the_corpus_and_beam_by_default(mod, tmp_path):
    assert mod.default_label(tmp_path / "results" / "gum", 5) == "gum_b5"
    assert mod.default_label("results/litbank/", 20) == "litbank_b20"
