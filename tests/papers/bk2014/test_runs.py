"""B&K 2014 run grid: names round-trip, the default config plans the curves of Figs. 3-4 and Table 1."""

import json
from types import SimpleNamespace

import pytest

from coreflab.papers.bk2014 import runs


@pytest.mark.parametrize(
    "learner,features,beam",
    [("bk_early", "local", 5), ("bk_delayed_laso", "nonlocal", 20), ("bk_baseline", "local", 1)],
)
def test_run_name_round_trips(learner, features, beam):
    assert runs.parse_run(runs.run_name(learner, features, beam)) == (learner, features, beam)


@pytest.mark.parametrize("bad", ["bk_early-local-5", "bk_early-global-b5"])
def test_parse_run_rejects_malformed_names(bad):
    with pytest.raises(ValueError):
        runs.parse_run(bad)


def test_default_grid(default_config):
    cfg = default_config["bk2014"]
    grid = runs.runs(cfg)
    assert grid == sorted(set(grid))
    assert "bk_baseline-local-b1" in grid
    # early update at every beam, every other strategy at the first beam, with both feature sets
    for features in ("local", "nonlocal"):
        assert {f"bk_early-{features}-b{b}" for b in cfg["beams"]} <= set(grid)
        for s in ("bk_maxviolation", "bk_laso", "bk_delayed_laso"):
            assert f"{s}-{features}-b{cfg['beams'][0]}" in grid
            assert f"{s}-{features}-b{cfg['beams'][1]}" not in grid
    assert len(grid) == 1 + 2 * (len(cfg["beams"]) + 3)


def test_params_name_nonlocal_templates_only_for_nonlocal_runs(default_config):
    cfg = default_config["bk2014"]
    assert runs.run_params(cfg, "bk_laso-local-b5") == {"n_iter": cfg["iterations"], "beam": 5}
    nonlocal_params = runs.run_params(cfg, "bk_laso-nonlocal-b5")
    assert nonlocal_params["nonlocal_templates"] == cfg["nonlocal_templates"]


def test_grid_binds_wildcards(default_config):
    grid = runs.Grid(default_config)
    wc = SimpleNamespace(corpus="synth", run="bk_early-nonlocal-b20")
    assert grid.run_learner(wc) == "bk_early"
    assert json.loads(grid.run_params(wc))["beam"] == 20
    files = grid.curve_files(wc)
    assert files[0].startswith("results/synth/paper/bk2014/runs/") and len(files) == len(grid.runs())
    args = grid.curve_args(wc, SimpleNamespace(curves=files))
    assert args.split()[1] == f"{grid.runs()[0]}={files[0]}"
