"""report/bk2014.py Figs. 3-4: one line per run drawn in the right panel, baseline where it belongs."""

from __future__ import annotations

import pandas as pd

from coreflab.papers.bk2014 import report as bk2014


def _curves():
    rows = []
    runs = ["bk_baseline-local-b1"] + [
        f"{s}-{f}-b{b}"
        for s in ("bk_early", "bk_laso", "bk_delayed_laso")
        for f in ("local", "nonlocal")
        for b in (2, 4)
    ]
    for k, run in enumerate(runs):
        learner, features, beam = bk2014.parse_run(run)
        for epoch in (1, 2, 3):
            rows.append(
                {
                    "run": run,
                    "learner": learner,
                    "features": features,
                    "beam": beam,
                    "epoch": epoch,
                    "metric": "mela",
                    "f1": 50 + k + epoch,
                }
            )
    return pd.DataFrame(rows)


def _lines(ax):
    return {line.get_label(): list(line.get_ydata()) for line in ax.get_lines()}


def test_figure3_early_update_at_each_beam_beside_the_baseline():
    fig = bk2014.figure3(_curves(), [2, 4])
    local, nonlocal_ = fig.axes
    assert set(_lines(local)) == {"baseline (local, exact search)", "early update, beam 2", "early update, beam 4"}
    assert _lines(local)["baseline (local, exact search)"] == [51, 52, 53]
    assert _lines(local)["early update, beam 2"] == [52, 53, 54]  # bk_early-local-b2 is run 1
    assert _lines(nonlocal_)["early update, beam 4"] == [55, 56, 57]  # bk_early-nonlocal-b4 is run 4
    assert local.get_title() == "Local features" and nonlocal_.get_title() == "Non-local features"


def test_figure4_strategies_at_one_beam_baseline_only_on_the_left():
    fig = bk2014.figure4(_curves(), 4)
    local, nonlocal_ = fig.axes
    assert set(_lines(local)) == {"early update", "LaSO", "delayed LaSO", "baseline"}
    assert set(_lines(nonlocal_)) == {"early update", "LaSO", "delayed LaSO"}
    assert _lines(nonlocal_)["delayed LaSO"] == [63, 64, 65]  # bk_delayed_laso-nonlocal-b4 is run 12
    assert nonlocal_.get_title() == "Non-local features (beam 4)"
