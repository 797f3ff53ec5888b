"""Table 1's non-local gain per iteration over training seeds (`seed_study`), by hand."""

import math

import pandas as pd

from coreflab.papers.bk2014.report import load_curves, seed_study


def _curves(tmp_path, mela, beam=5):
    """Curves written as `coreflab train --curve` CSVs: {(features, seed): MELA per iteration}; seed 1 is the
    config's seed (a run name without `-s`), as the workflow names Table 1's runs."""
    paths = {}
    for (features, seed), values in mela.items():
        run = f"bk_delayed_laso-{features}-b{beam}" + ("" if seed == 1 else f"-s{seed}")
        paths[run] = tmp_path / f"{run}.csv"
        pd.DataFrame({"epoch": range(1, len(values) + 1), "metric": "mela", "f1": values}).to_csv(
            paths[run], index=False
        )
    return load_curves(paths)


def test_seed_study_by_hand(tmp_path):
    """Seeds 1-3 at two iterations; seed 4 has only a local curve and is left out; another beam's runs
    are not Table 1's. Iteration 1: differences +1, -1, +3 -> mean 1, sd 2, se 2/sqrt(3), ahead 2.
    Iteration 2: differences 0, +2, +1 -> mean 1, sd 1, ahead 2 (a tie is not ahead)."""
    mela = {
        ("local", 1): [70, 72], ("nonlocal", 1): [71, 72],
        ("local", 2): [70, 70], ("nonlocal", 2): [69, 72],
        ("local", 3): [60, 61], ("nonlocal", 3): [63, 62],
        ("local", 4): [50, 50],
    }  # fmt: skip
    (tmp_path / "b9").mkdir()
    other_beam = _curves(tmp_path / "b9", {("local", 1): [0, 0], ("nonlocal", 1): [99, 99]}, beam=9)
    study = seed_study(pd.concat([_curves(tmp_path, mela), other_beam], ignore_index=True), 5)
    assert study["iteration"].tolist() == [1, 2]
    first, second = study.to_dict("records")
    assert first["seeds"] == 3 and first["difference"] == 1.0 and first["sd"] == 2.0
    assert math.isclose(first["se"], 2 / math.sqrt(3)) and first["ahead"] == 2
    assert math.isclose(first["local"], 200 / 3) and math.isclose(first["nonlocal"], 203 / 3)
    assert second["difference"] == 1.0 and second["sd"] == 1.0 and second["ahead"] == 2


def test_seed_study_without_a_pair_is_empty(tmp_path):
    study = seed_study(_curves(tmp_path, {("local", 1): [1.0], ("nonlocal", 2): [1.0]}), 5)
    assert study.empty and "difference" in study.columns
