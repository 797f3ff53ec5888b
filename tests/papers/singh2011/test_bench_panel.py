"""Singh et al.'s panel of the benchmark figure: the Dask worker points it draws, from either record."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from coreflab.papers import registry  # noqa: E402
from coreflab.papers.singh2011.bench_panel import worker_points  # noqa: E402
from coreflab.report import performance  # noqa: E402
from tests.fixtures.crossdoc_record import CROSSDOC  # noqa: E402


def test_worker_points_prefer_crossdoc_then_scaling_copy():
    pts = worker_points({"crossdoc": CROSSDOC})
    assert pts == [(1, 240_000.0, 250_000.0, 10.0), (2, 280_000.0, 300_000.0, 12.0)]
    copy = {"scaling": {"workers": {"points": [{"workers": 1, "proposals_per_s_per_worker": 5.0}]}}}
    assert worker_points(copy) == [(1, None, 5.0, None)]
    assert worker_points({}) == []


def test_worker_points_read_the_runs_of_crossdoc_json():
    results = {
        "crossdoc": {
            "personx": {
                "runs": [
                    {
                        "workers": 1,
                        "proposals_per_s_total": 100.0,
                        "proposals_per_s_per_worker": 100.0,
                        "wall_s_with_scoring": 4.0,
                    },
                    {
                        "workers": 2,
                        "proposals_per_s_total": 190.0,
                        "proposals_per_s_per_worker": 95.0,
                        "wall_s_with_scoring": 4.5,
                    },
                ],
                "speedup_K2_over_K1_total_best": 1.9,
            }
        }
    }
    assert worker_points(results) == [(1, 100.0, 100.0, 4.0), (2, 190.0, 190.0, 4.5)]


def test_the_paper_draws_panel_e_and_the_core_figure_leaves_it_empty_without_it():
    panel = registry.get("singh2011").bench_panel
    with_panel = performance.scaling_figure({"crossdoc": CROSSDOC}, panels=[panel])
    without = performance.scaling_figure({"crossdoc": CROSSDOC})
    try:
        e = with_panel.axes[5]
        assert e.get_xlabel() == "Dask workers K" and len(e.lines) >= 3
        assert not without.axes[5].axison and not without.axes[5].lines
    finally:
        plt.close(with_panel)
        plt.close(without)
