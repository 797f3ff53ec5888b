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


@pytest.mark.parametrize("seed", [None, 2, 17])
def test_run_name_with_seed_round_trips(seed):
    name = runs.run_name("bk_laso", "nonlocal", 5, seed=seed)
    assert runs.parse_run(name) == ("bk_laso", "nonlocal", 5)
    assert runs.seed_of(name) == seed


def test_other_seeds_repeat_every_run_and_the_main_names_stay(default_config):
    cfg = default_config["bk2014"]
    main = runs.runs(cfg)
    assert runs.runs(cfg, seeds=[], seed=1) == main
    assert runs.runs(cfg, seeds=[1], seed=1) == main  # the config's own seed adds nothing
    grid = runs.runs(cfg, seeds=[3, 1, 2], seed=1)
    assert grid[: len(main)] == main
    assert sorted(grid[len(main) :]) == sorted(f"{r}-s{k}" for r in main for k in (2, 3))


def test_grid_trains_each_run_with_its_seed(default_config):
    grid = runs.Grid({**default_config, "seed": 7, "seeds": [7, 8]})
    assert grid.run_seed(SimpleNamespace(run="bk_early-local-b5")) == 7
    assert grid.run_seed(SimpleNamespace(run="bk_early-local-b5-s8")) == 8
    assert len(grid.runs()) == 2 * len(runs.runs(default_config["bk2014"]))


def test_table1_dev_scores_are_the_delayed_laso_runs_at_the_first_beam(default_config):
    grid = runs.Grid(default_config)
    wc = SimpleNamespace(corpus="synth")
    beam = default_config["bk2014"]["beams"][0]
    files = grid.table1_dev_scores(wc)
    assert files == {
        f"dev_{f}": f"results/synth/paper/bk2014/dev/bk_delayed_laso-{f}-b{beam}.json" for f in ("local", "nonlocal")
    }
    assert set(runs.table1_runs(default_config["bk2014"]).values()) <= set(grid.runs())
    args = grid.table1_dev_args(wc, files)
    assert args.split() == [
        "--dev-scores",
        f"local={files['dev_local']}",
        "--dev-scores",
        f"nonlocal={files['dev_nonlocal']}",
    ]
    no_delayed = {**default_config["bk2014"], "strategies": ["bk_early"]}
    assert runs.table1_runs(no_delayed) == {}


def test_table1_iteration_is_the_last_unless_the_config_names_one(default_config):
    from coreflab.errors import UserError

    cfg = default_config["bk2014"]
    assert cfg["table1_iteration"] is None
    assert runs.table1_iteration(cfg) == cfg["iterations"]
    assert runs.table1_iteration({**cfg, "iterations": 50, "table1_iteration": 25}) == 25
    with pytest.raises(UserError, match="table1_iteration: 60 is more than bk2014.iterations"):
        runs.table1_iteration({**cfg, "iterations": 50, "table1_iteration": 60})
    assert runs.Grid({**default_config, "bk2014": {**cfg, "table1_iteration": 3}}).table1_iteration(None) == 3
