"""Where learning overtakes rules (`coreflab.report.training_size`): the crossover rule on hand-made
curves, learning's line as the best learner per size, and the files the report writes."""

import json

import pandas as pd
import pytest

from coreflab.report.training_size import crossover, crossovers, statement, write_outputs

SIZES = [5, 10, 20, 40, 80, 200]


@pytest.mark.parametrize(
    "means,want",
    [
        ([50, 55, 61, 65, 70, 72], 20),  # overtakes at 20 and stays above
        ([62, 55, 61, 65, 70, 72], 20),  # above at 5, falls back at 10: the crossover is where it stays above
        ([50, 55, 61, 65, 58, 72], 200),  # falls back at 80: only the last size is above from there on
        ([50, 55, 61, 65, 70, 59], None),  # falls back at the largest size: never stays above
        ([50, 51, 52, 53, 54, 55], None),  # never above
        ([61, 62, 63, 64, 65, 66], 5),  # above from the smallest size
        ([50, 55, 60, 60, 61, 62], 80),  # equal to the reference is not above it
    ],
)
def test_the_crossover_is_the_smallest_size_above_the_reference_at_every_larger_size(means, want):
    assert crossover(SIZES, means, 60.0) == want
    assert crossover(SIZES[::-1], means[::-1], 60.0) == want  # the order the sizes come in does not matter


def test_no_sizes_no_crossover():
    assert crossover([], [], 60.0) is None


def test_statements():
    assert statement(20, 200) == "Learning overtakes the sieve from 20 training documents."
    assert (
        statement(None, 80)
        == "Learning does not overtake the sieve within the sizes run (up to 80 training documents)."
    )


def _curve(means_by_learner, draws=3, sizes=SIZES):
    """Draws spread ±1 around each mean (their mean is the mean)."""
    rows = []
    for learner, means in means_by_learner.items():
        for n, m in zip(sizes, means):
            for d, delta in zip(range(draws), (-1.0, 0.0, 1.0)):
                label = "all" if n == sizes[-1] else str(n)
                rows.append(
                    {"learner": learner, "size": label, "train_docs": n, "draw": d, "seed": 1 + d, "mela": m + delta}
                )
    return pd.DataFrame(rows)


def test_learning_is_the_best_learner_at_each_size():
    # neither learner stays above 60 from 10 on by itself; the better of the two does
    curve = _curve({"a": [50, 62, 59, 65, 58, 70], "b": [55, 58, 63, 59, 64, 61]})
    got = crossovers(curve, {"sieve": 60.0})
    assert got == {"learning": 10, "by_learner": {"a": 200, "b": 80}}
    assert crossovers(curve, {"sieve": 71.0})["learning"] is None


def test_the_report_writes_the_curve_the_line_and_the_figure(tmp_path):
    curve = _curve({"bk_baseline": [50, 55, 61, 65, 70, 72], "l3m": [40, 45, 50, 55, 58, 59]})
    record = write_outputs(
        curve, {"sieve": 60.0, "string_match": 52.5}, tmp_path, run="synth, gold mentions", notes=["LSP_ρ is left out."]
    )
    assert record["crossover"] == 20 and record["by_learner"] == {"bk_baseline": 20, "l3m": None}
    saved = json.loads((tmp_path / "crossover.json").read_text())
    assert saved["statement"] == "Learning overtakes the sieve from 20 training documents."
    assert saved["rules"] == {"sieve": 60.0, "string_match": 52.5}
    tidy = pd.read_csv(tmp_path / "curve.csv")
    assert len(tidy) == len(curve) + 2 and set(tidy[tidy["size"] == "rule"]["learner"]) == {"sieve", "string_match"}
    md = (tmp_path / "curve.md").read_text()
    assert "| all (200)" in md and "B&K baseline" in md and "bk_baseline" not in md
    assert "61.00 (60.00–62.00)" in md  # B&K baseline at 20: mean (min–max) over its draws
    assert "**Learning overtakes the sieve from 20 training documents.**" in md and "LSP_ρ is left out." in md
    assert "L3M: not within the sizes run" in md
    for ext in ("png", "pdf"):
        assert (tmp_path / f"figure.{ext}").stat().st_size > 1000
