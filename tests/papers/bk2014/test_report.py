"""report/bk2014.py Figs. 3-4: one line per run drawn in the right panel, baseline where it belongs."""

from __future__ import annotations

import pandas as pd
import pytest

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


def _with_seeds(curves, shifts=(-2.0, 3.0)):
    """The main runs plus one copy per extra seed (`-s<k>`), their MELA shifted by the given amounts."""
    extra = []
    for k, shift in enumerate(shifts, start=2):
        c = curves.assign(run=curves.run + f"-s{k}", f1=curves.f1 + shift, main=False)
        extra.append(c)
    return pd.concat([curves.assign(main=True), *extra], ignore_index=True)


def _bands(ax):
    """[(low, high)] vertex ranges of every filled band of an axis."""
    out = []
    for coll in ax.collections:
        ys = [p.vertices[:, 1] for p in coll.get_paths()]
        if ys:
            out.append((min(y.min() for y in ys), max(y.max() for y in ys)))
    return out


def test_seeds_draw_the_main_line_and_a_band_over_all_seeds():
    curves = _curves()
    fig = bk2014.figure3(_with_seeds(curves), [2, 4])
    plain = bk2014.figure3(curves, [2, 4])
    for ax, ax_plain in zip(fig.axes[:2], plain.axes[:2]):
        assert _lines(ax) == _lines(ax_plain)  # the lines are the main seed's, unchanged
        assert _bands(ax_plain) == []
        bands = _bands(ax)
        assert len(bands) == len(_lines(ax))  # one band per series
        for (low, high), ys in zip(sorted(bands), sorted(_lines(ax).values())):
            assert low == min(ys) - 2.0 and high == max(ys) + 3.0
    assert "range over 3 seeds" in fig._suptitle.get_text()


def test_table1_reads_only_the_main_seed():
    curves = _curves()
    for metric in ("muc", "bcub", "ceafm", "ceafe"):
        curves = pd.concat([curves, curves[curves.metric == "mela"].assign(metric=metric)], ignore_index=True)
    curves = curves.assign(recall=curves.f1, precision=curves.f1)
    plain, seeded = bk2014.table1(curves, 2), bk2014.table1(_with_seeds(curves), 2)
    pd.testing.assert_frame_equal(seeded[plain.columns], plain)  # the rows are the main seed's
    assert "seeds" not in plain and seeded["seeds"].tolist() == [3, 3, 3]


def test_table1_seed_columns_by_hand():
    """Three seeds of local (70, 71, 75) and non-local (71, 70, 78), one non-local run missing for
    seed 4: per row n, mean and sd of MELA; the difference row pairs seeds with both runs (+1, -1,
    +3: mean 1, sd 2, standard error 2/sqrt(3), ahead in 2 of 3); the rows stay the main seed's."""
    frames = [_table1_curves(70.0, 71.0)]
    for k, (lo, nl) in enumerate(((71.0, 70.0), (75.0, 78.0)), start=2):
        frames.append(_table1_curves(lo, nl).assign(run=lambda d, k=k: d.run + f"-s{k}"))
    frames.append(_table1_curves(90.0, 0.0).query("features == 'local'").assign(run=lambda d: d.run + "-s4"))
    t = bk2014.table1(pd.concat(frames, ignore_index=True), 2)
    assert t["MELA"].tolist() == pytest.approx([70.0, 71.0, 1.0])
    assert t["seeds"].tolist() == [4, 3, 3]
    assert t["MELA seed mean"].tolist() == pytest.approx([(70 + 71 + 75 + 90) / 4, 73.0, 1.0])
    # deviations from the means: local -6.5, -5.5, -1.5, 13.5; non-local -2, -3, 5; difference 0, -2, 2
    assert t["MELA seed sd"].tolist() == pytest.approx([(257 / 3) ** 0.5, (38 / 2) ** 0.5, 2.0])
    assert t["MELA seed se"].tolist() == pytest.approx([(257 / 12) ** 0.5, (38 / 6) ** 0.5, 2.0 / 3**0.5])
    assert t["non-local ahead"].tolist() == ["", "", "2 of 3"]


def test_table1_seed_runs_of_the_grid():
    """`table1_seeds` adds Table 1's two runs only, for seeds not already run for every curve."""
    from coreflab.papers.bk2014.runs import runs, table1_seed_runs

    grid = {"beams": [5, 10], "strategies": ["bk_early", "bk_delayed_laso"], "table1_seeds": [1, 2, 4]}
    assert table1_seed_runs(grid, seeds=[2, 3], seed=1) == [
        "bk_delayed_laso-local-b5-s4",
        "bk_delayed_laso-nonlocal-b5-s4",
    ]
    assert not set(table1_seed_runs(grid, seeds=[2, 3], seed=1)) & set(runs(grid, [2, 3], 1))
    assert table1_seed_runs({**grid, "strategies": ["bk_early"]}, seed=1) == []
    assert table1_seed_runs({k: v for k, v in grid.items() if k != "table1_seeds"}, seed=1) == []


def _table1_curves(local_mela, nonlocal_mela):
    rows = []
    for features, mela in (("local", local_mela), ("nonlocal", nonlocal_mela)):
        for metric in ("muc", "bcub", "ceafm", "ceafe", "mela"):
            rows.append(
                {
                    "run": f"bk_delayed_laso-{features}-b2",
                    "learner": "bk_delayed_laso",
                    "features": features,
                    "beam": 2,
                    "epoch": 1,
                    "metric": metric,
                    "f1": mela,
                    "recall": mela,
                    "precision": mela,
                }
            )
    return pd.DataFrame(rows)


def _scores(per_doc_f):
    """Scores-like per-document counts whose MUC, B3 and CEAFe F1 all equal per_doc_f[d] on document d."""
    from types import SimpleNamespace

    import numpy as np

    counts = np.array([[f, 100.0, f, 100.0] for f in per_doc_f])
    return SimpleNamespace(
        per_doc={m: counts for m in ("muc", "bcub", "ceafe")}, doc_keys=[(f"d{k}", 0) for k in range(len(per_doc_f))]
    )


def test_table1_difference_row_carries_the_paired_bootstrap_over_dev_documents():
    from coreflab.errors import UserError

    # non-local better on every one of 20 documents by 2 points: significant, interval all positive
    local = [60.0 + k for k in range(20)]
    better = [f + 2.0 for f in local]
    curves = _table1_curves(sum(local) / 20, sum(better) / 20)
    t = bk2014.table1(curves, 2, dev_scores={"local": _scores(local), "nonlocal": _scores(better)}, samples=2000)
    assert t["features"].tolist() == ["local", "nonlocal", "difference"]
    assert t["MELA"].iloc[2] == pytest.approx(2.0)
    assert t["MELA 95% interval"].iloc[2] == "[+2.00, +2.00]" and t["p (bootstrap)"].iloc[2] < 0.001
    # half the documents up, half down by the same amount: no difference, p = 1
    mixed = [f + (2.0 if k % 2 else -2.0) for k, f in enumerate(local)]
    curves = _table1_curves(sum(local) / 20, sum(mixed) / 20)
    t = bk2014.table1(curves, 2, dev_scores={"local": _scores(local), "nonlocal": _scores(mixed)}, samples=2000)
    low, high = (float(x) for x in t["MELA 95% interval"].iloc[2].strip("[]").split(","))
    assert low < 0 < high and t["p (bootstrap)"].iloc[2] == pytest.approx(1.0)
    # scores of another model than the curve's last iteration are refused
    with pytest.raises(UserError, match="not the same model"):
        bk2014.table1(_table1_curves(10.0, 20.0), 2, dev_scores={"local": _scores(local), "nonlocal": _scores(mixed)})


def test_report_command_refuses_half_given_dev_scores(tmp_path):
    from coreflab.errors import UserError
    from coreflab.papers.bk2014.commands import report as report_command
    from tests.command_runner import run_command

    curve = tmp_path / "c.csv"
    _table1_curves(50.0, 51.0).query("features == 'local'")[["epoch", "metric", "recall", "precision", "f1"]].to_csv(
        curve, index=False
    )
    base = ["--curve", f"bk_delayed_laso-local-b2={curve}", "--beams", "2,4", "--corpus", "t", "--out-dir", tmp_path]
    with pytest.raises(UserError, match="give both local=JSON and nonlocal=JSON"):
        run_command(report_command, base + ["--dev-scores", f"local={tmp_path / 'x.json'}"])
    with pytest.raises(UserError, match="expected local=JSON or nonlocal=JSON"):
        run_command(report_command, base + ["--dev-scores", "both.json"])


def test_table1_reports_the_chosen_iteration_not_the_last():
    """B&K's Table 1 is at iteration 25 of curves that run to 50: with `iteration` the rows, the
    difference and the dev-score check read that iteration; an iteration the curve lacks is refused."""
    from coreflab.errors import UserError

    two = pd.concat(
        [_table1_curves(70.0, 72.0), _table1_curves(75.0, 74.0).assign(epoch=2)], ignore_index=True
    )  # non-local ahead at iteration 1, behind at iteration 2
    last = bk2014.table1(two, 2)
    assert last["iteration"].tolist()[:2] == [2, 2] and last["MELA"].iloc[2] == pytest.approx(-1.0)
    first = bk2014.table1(two, 2, iteration=1)
    assert first["iteration"].tolist()[:2] == [1, 1] and first["MELA"].iloc[2] == pytest.approx(2.0)
    assert first["MUC F"].tolist()[:2] == [70.0, 72.0]
    local, ahead = [70.0] * 20, [72.0] * 20
    t = bk2014.table1(
        two, 2, dev_scores={"local": _scores(local), "nonlocal": _scores(ahead)}, samples=500, iteration=1
    )
    assert t["MELA 95% interval"].iloc[2] == "[+2.00, +2.00]"
    with pytest.raises(UserError, match="not the same model"):
        bk2014.table1(two, 2, dev_scores={"local": _scores(local), "nonlocal": _scores(ahead)}, samples=500)
    with pytest.raises(UserError, match="has no iteration 3"):
        bk2014.table1(two, 2, iteration=3)


@pytest.mark.slow
def test_report_command_table1_curves_feed_the_seed_columns_not_the_figures(tmp_path, monkeypatch):
    from coreflab.papers.bk2014.commands import report as report_command
    from tests.command_runner import run_command

    args = []
    for flag, suffix, (lo, nl) in (("--curve", "", (70.0, 72.0)), ("--table1-curve", "-s2", (71.0, 70.0))):
        for features, mela in (("local", lo), ("nonlocal", nl)):
            path = tmp_path / f"{features}{suffix}.csv"
            curve = _table1_curves(mela, mela).query("features == 'local'")
            curve[["epoch", "metric", "recall", "precision", "f1"]].to_csv(path, index=False)
            args += [flag, f"bk_delayed_laso-{features}-b2{suffix}={path}"]
    seen = {}
    for name in ("figure3", "figure4"):
        real = getattr(report_command, name)
        monkeypatch.setattr(
            report_command,
            name,
            lambda curves, *a, _n=name, _r=real, **k: seen.update({_n: set(curves.run)}) or _r(curves, *a, **k),
        )
    run_command(report_command, args + ["--beams", "2,4", "--corpus", "t", "--out-dir", tmp_path / "out"])
    assert seen["figure3"] == seen["figure4"] == {"bk_delayed_laso-local-b2", "bk_delayed_laso-nonlocal-b2"}
    t = pd.read_csv(tmp_path / "out" / "table1.csv")
    assert t["MELA"].tolist() == pytest.approx([70.0, 72.0, 2.0])
    assert t["seeds"].tolist() == [2, 2, 2] and t["MELA seed mean"].iloc[2] == pytest.approx(0.5)
    assert t["non-local ahead"].iloc[2] == "1 of 2"
    study = pd.read_csv(tmp_path / "out" / "nonlocal_seeds.csv")  # the same two seeds, every iteration
    assert study["seeds"].unique().tolist() == [2] and study["difference"].iloc[-1] == pytest.approx(0.5)
    assert "2 training seeds" in (tmp_path / "out" / "nonlocal_seeds.md").read_text()


def test_same_runs_tells_two_equal_table1_runs_apart_from_two_that_differ():
    curves = _curves()
    curves = curves.assign(recall=curves.f1, precision=curves.f1)
    assert not bk2014.same_runs(curves, 2)  # the non-local run's MELA is 1 higher at every epoch
    local = curves[(curves.run == "bk_delayed_laso-local-b2")]
    copy = local.assign(run="bk_delayed_laso-nonlocal-b2", features="nonlocal")
    equal = pd.concat([curves[curves.run != "bk_delayed_laso-nonlocal-b2"], copy], ignore_index=True)
    assert bk2014.same_runs(equal, 2)
    assert not bk2014.same_runs(equal, 4) and not bk2014.same_runs(equal, 7)  # 7: no runs at all
