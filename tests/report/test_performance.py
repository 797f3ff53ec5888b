"""The benchmarks' report (coreflab.report.performance, `coreflab bench-report`) on small fake records:
flattening, targets met or not, fits, one row per benchmark, written files."""

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from coreflab import cli
from coreflab.commands import bench_report
from coreflab.report import performance
from tests.command_runner import run_command
from tests.fixtures.crossdoc_record import CROSSDOC

ROOT = Path(__file__).resolve().parents[2]

FAKE = {
    "train_bk": {
        "arcs": 1000,
        "synth_baseline_last_epoch_seconds": 12.0,
        "synth_baseline_last_epoch_us_per_arc": 0.1,
        "synth_baseline_fit_cpu_seconds_per_epoch": 0.5,
        "peak_rss_mb": 100.0,
        "updates": [3, 4],
        "machine": {"cores": 2},
        "targets": {"baseline_epoch_seconds": 15, "baseline_us_per_arc": 0.2, "peak_rss_mb": 50},
    },
    "features": {"full": {"arcs": 1000, "us_per_arc": 0.7, "cpu_us_per_arc": 0.3}, "target_us_per_arc": 0.5},
    "crossdoc": CROSSDOC,
    "scaling": {
        "date": "2026-01-01T00:00:00+00:00",
        "plan": "quick",
        "machine": {"cpu_count": 2},
        "load_average_at_start": [1.0, 1.0, 1.0],
        "arcs": [
            {
                "documents": d,
                "arcs": a,
                "extract_cpu_s": 0.25e-6 * a,
                "extract_wall_s": 0.3e-6 * a,
                "baseline_epoch_cpu_s": 0.1e-6 * a,
                "baseline_epoch_wall_s": 0.12e-6 * a,
                "baseline_cpu_us_per_arc": 0.1,
                "peak_mb": 300 + a / 1e4,
                "store_mb": a / 1e4,
                "rss_before_extract_mb": 260.0,
            }
            for d, a in ((10, 10_000), (20, 40_000), (40, 160_000))
        ],
        "beam": [
            {
                "beam": b,
                "arcs": 40_000,
                "epoch_cpu_s": 0.01 * b,
                "epoch_wall_s": 0.02 * b,
                "cpu_us_per_arc": 0.25 * b,
                "peak_mb": 400.0,
                "training_added_mb": 160.0,
                "store_mb": 4.0,
            }
            for b in (1, 5, 20)
        ],
        "targets": {"baseline_cpu_us_per_arc": 0.2, "peak_mb": 4096},
    },
    "misc": {"name": "text only", "flag": True, "n": 3, "nan": None},
}


def _write(tmp_path, results):
    d = tmp_path / "results"
    d.mkdir()
    for name, data in results.items():
        (d / f"{name}.json").write_text(json.dumps(data))
    return d


def _row(df, bench, quantity):
    sel = df[(df.benchmark == bench) & (df.quantity == quantity)]
    assert len(sel) == 1, (bench, quantity, sel)
    return sel.iloc[0]


def test_flatten_numbers_only_with_labels():
    rows = performance.flatten(
        {
            "a": 1,
            "b": {"c": 2.5, "d": "x", "e": True},
            "trace": [1],
            "targets": {"a": 3},
            "target_a": 4,
            "l": [7, 8],
            "k": [{"workers": 2, "v": 9.0}, {"v": 10}],
            "inf": float("inf"),
        }
    )
    assert rows == [
        ("a", 1),
        ("b.c", 2.5),
        ("l[0]", 7),
        ("l[1]", 8),
        ("k[workers=2].workers", 2),
        ("k[workers=2].v", 9.0),
        ("k[1].v", 10),
    ]


def test_targets_from_json_override_registry_and_decide_met():
    df = performance.table({k: FAKE[k] for k in ("train_bk", "features")})
    r = _row(df, "train_bk", "synth_baseline_last_epoch_seconds")
    assert (r.value, r.target, r.met) == (12.0, "<= 15", "yes")  # JSON target 15 overrides the default 10
    r = _row(df, "train_bk", "synth_baseline_last_epoch_us_per_arc")
    assert (r.target, r.met) == ("<= 0.2", "yes")
    r = _row(df, "train_bk", "peak_rss_mb")
    assert (r.target, r.met) == ("<= 50", "no")
    r = _row(df, "features", "full.us_per_arc")
    assert (r.target, r.met) == ("<= 0.5", "no")
    assert _row(df, "features", "full.cpu_us_per_arc").met == "yes"
    r = _row(df, "train_bk", "updates[1]")
    assert (r.value, r.target, r.met) == (4, "", "")
    assert not (df.quantity.str.startswith("machine") | df.quantity.str.startswith("targets")).any()


def _papers_targets():
    """The anchors and headlines of the papers' own benchmarks (`Paper.bench_anchors`, `bench_headlines`)."""
    from coreflab.papers import registry

    papers = registry.papers()
    return [a for p in papers for a in p.bench_anchors], [h for p in papers for h in p.bench_headlines]


def test_rates_are_lower_bounds_and_lists_of_points_get_labels():
    anchors, _ = _papers_targets()
    df = performance.table({"crossdoc": FAKE["crossdoc"]}, [*performance.ANCHORS, *anchors])
    r1 = _row(df, "crossdoc", "personx[workers=1].proposals_per_s_per_worker")
    r2 = _row(df, "crossdoc", "personx[workers=2].proposals_per_s_per_worker")
    assert (r1.target, r1.met, r2.met) == (">= 200000", "yes", "no")
    assert _row(df, "crossdoc", "personx_speedup_total_throughput").met == "no"
    assert not df.quantity.str.contains("trace").any()


def test_generic_json_targets_apply_to_every_point_by_last_component():
    df = performance.table({"scaling": FAKE["scaling"]})
    judged = df[(df.met != "") & (df.benchmark == "scaling")]
    assert sorted(judged.quantity) == sorted(
        [f"arcs[documents={d}].{k}" for d in (10, 20, 40) for k in ("baseline_cpu_us_per_arc", "peak_mb")]
        + [f"beam[beam={b}].peak_mb" for b in (1, 5, 20)]
    )
    assert (judged.met == "yes").all()
    # "peak_mb" must not match "extract_peak_mb" or "store_mb"
    assert _row(df, "scaling", "arcs[documents=10].store_mb").target == ""


def test_fits_recover_exact_cost_and_exponent():
    arcs = np.array([1e4, 4e4, 1.6e5])
    t0, c = performance.linear_fit(arcs, 0.05 + 0.25e-6 * arcs)
    assert (t0, c) == (pytest.approx(0.05), pytest.approx(0.25e-6))
    a, b = performance.power_fit(arcs, 3.0 * arcs**1.5)
    assert (a, b) == (pytest.approx(3.0), pytest.approx(1.5))


def test_fitted_slopes_are_table_rows_with_targets():
    df = performance.table({"scaling": FAKE["scaling"]})
    fit = df[df.benchmark == "scaling_fit"].set_index("quantity")
    assert fit.loc["extract_cpu_us_per_arc_slope", "value"] == pytest.approx(0.25)
    assert fit.loc["baseline_epoch_cpu_us_per_arc_slope", "value"] == pytest.approx(0.1)
    assert fit.loc["baseline_epoch_cpu_fixed_s", "value"] == pytest.approx(0.0, abs=1e-9)
    assert fit.loc["baseline_epoch_cpu_loglog_exponent", "value"] == pytest.approx(1.0)
    assert fit.loc["delayed_laso_cpu_beam_exponent", "value"] == pytest.approx(1.0)
    assert list(fit.loc[["extract_cpu_us_per_arc_slope", "baseline_epoch_cpu_us_per_arc_slope"], "met"]) == ["yes"] * 2
    assert fit.loc["baseline_epoch_cpu_us_per_arc_slope", "target"] == "<= 0.2"
    slow = {"scaling": {"arcs": [{"arcs": a, "baseline_epoch_cpu_s": 1e-6 * a} for a in (1e5, 2e5)]}}
    row = performance.table(slow).set_index("quantity").loc["baseline_epoch_cpu_us_per_arc_slope"]
    assert (row.value, row.met) == (pytest.approx(1.0), "no")


@pytest.mark.slow
def test_the_verb_writes_figure_and_tables(tmp_path):
    d = _write(tmp_path, FAKE)
    prefix = tmp_path / "out" / "scaling"
    assert run_command(bench_report, ["--results", d, "--out", prefix]) == 0
    for ext in ("png", "pdf", "csv", "md"):
        assert prefix.with_name(f"scaling.{ext}").stat().st_size > 0
    assert prefix.with_name("scaling.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    csv = pd.read_csv(prefix.with_name("scaling.csv"), keep_default_na=False)
    assert list(csv.columns) == performance.TABLE_COLUMNS
    assert len(csv) == len(performance.table(performance.load_results(d)))
    assert _row(csv, "misc", "n").value == 3
    md = prefix.with_name("scaling.md").read_text()
    rows = [line for line in md.splitlines() if line.startswith("| `")]
    assert [r.split(" | ")[0] for r in rows] == [f"| `{name}`" for name in sorted(FAKE)]  # one row per record
    assert "2 of 2 targets met" in md  # features' µs per arc and the scaling slope; the others lack their measure
    assert not list(prefix.parent.glob(".*"))  # no temporary files left


def test_one_row_per_benchmark_with_its_target_reference_and_load():
    results = {
        "arc_store_shared_rows_gum_train_local": {
            "corpus": "gum",
            "split": "train",
            "featureset": "local",
            "window": 50,
            "target_bytes_per_arc": 160,
            "shared": {"bytes_per_arc": 80.0},
            "flat": {"bytes_per_arc": 160.0},
            "load_average": [1.25, 1.0, 1.0],
        },
        "corpus": {"gold": {"read_plus_compile_cpu_tok_per_s": 150_000}},
        "nonlocal_seeds_gum_b5": {"beam": 5},  # a research record: not a benchmark
        "something_new": {"x": 1},
    }
    df = performance.headline_table(results).set_index("benchmark")
    assert list(df.index) == ["arc_store_shared_rows_gum_train_local", "corpus", "something_new"]
    row = df.loc["arc_store_shared_rows_gum_train_local"]
    assert row.measure == "arc store, bytes per arc (gum train, `local`, window 50)"
    assert (row.target, row.now, row.met, row["vs reference"], row.load) == (
        "≤ 160",
        "80",
        "yes",
        "0.5× flat store",
        "1.2",
    )
    row = df.loc["corpus"]
    assert (row.target, row.now, row.met, row.load) == ("≥ 200,000", "150,000", "no", "—")
    assert df.loc["something_new", "measure"].startswith("no headline measure")
    assert "0 of 1 targets met" in performance.headline_markdown({"corpus": results["corpus"]})


def test_the_load_is_the_one_nearest_the_measure():
    record = {"before": {"load_average": [9.0]}, "after": {"v": 1.0, "load_average": [2.0, 1.0, 1.0]}}
    assert performance.machine_load(record, "after.v") == 2.0
    assert performance.machine_load(record) == 9.0  # no measure: the first found from the top
    assert performance.machine_load({"load_before": 0.5, "load_after": 3.0}) == 0.5
    assert performance.machine_load({"x": 1}) is None


def test_every_committed_record_has_a_headline_or_is_a_research_record():
    """A new benchmark gets its headline in HEADLINES; the table says so otherwise."""
    results = performance.load_results(ROOT / "bench" / "results")
    headlines = [*performance.HEADLINES, *_papers_targets()[1]]
    missing = [
        n
        for n in results
        if not performance.NOT_BENCHMARKS.fullmatch(n) and performance.headline_for(n, headlines) is None
    ]
    assert missing == []


def test_the_core_targets_name_no_papers_benchmark_and_the_committed_csv_is_the_reports():
    """The targets of cc2007, l3m and crossdoc come from their papers; `coreflab bench-report` on the committed
    records gives the committed scaling.csv and scaling.md."""
    anchors, headlines = _papers_targets()
    own = {"cc2007", "l3m", "crossdoc"}
    assert own.isdisjoint(a.benchmark for a in performance.ANCHORS) and own <= {a.benchmark for a in anchors}
    assert not [h for h in performance.HEADLINES if any(performance.re.fullmatch(h.benchmark, n) for n in own)]
    results = performance.load_results(ROOT / "bench" / "results")
    csv = performance.table(results, [*performance.ANCHORS, *anchors]).to_csv(index=False, lineterminator="\n")
    assert csv == (ROOT / "bench" / "results" / "scaling.csv").read_text(encoding="utf-8")
    md = performance.headline_markdown(results, [*performance.HEADLINES, *headlines])
    assert md == (ROOT / "bench" / "results" / "scaling.md").read_text(encoding="utf-8")


def test_figure_without_sweeps_still_draws():
    fig = performance.scaling_figure({"features": FAKE["features"]})
    try:
        texts = [t.get_text() for ax in fig.axes for t in ax.texts]
        assert len(fig.axes) == 6
        assert {"no arcs sweep", "no beam sweep", "no paper's benchmark panel"} <= set(texts)
    finally:
        performance.plt.close(fig)


def test_bad_input_is_one_line_error(tmp_path, capsys):
    d = tmp_path / "results"
    d.mkdir()
    (d / "broken.json").write_text('{"a": 1,\n')
    assert cli.main(["bench-report", "--results", str(d), "--out", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err
    assert "broken.json:2" in err and err.count("\n") == 1
    assert cli.main(["bench-report", "--results", str(tmp_path / "missing"), "--out", str(tmp_path / "x")]) == 2


def test_explicit_files_and_outputs(tmp_path):
    d = _write(tmp_path, {k: FAKE[k] for k in ("features", "scaling")})
    out = {ext: tmp_path / "o" / f"t.{ext}" for ext in ("csv", "md")}
    df = performance.write_report([d / "scaling.json", d / "features.json"], out)
    csv = pd.read_csv(out["csv"], keep_default_na=False)
    assert sorted(set(csv.benchmark)) == ["features", "scaling", "scaling_fit"] and len(csv) == len(df)
    assert sorted(p.name for p in (tmp_path / "o").iterdir()) == ["t.csv", "t.md"]
    assert cli.main(["bench-report", str(d / "absent.json"), "--out", str(tmp_path / "x")]) == 2
