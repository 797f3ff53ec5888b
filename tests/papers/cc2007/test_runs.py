"""C&C 2007 run grid: names round-trip, the default config plans every learner × bias × λ."""

from types import SimpleNamespace

import pytest

from coreflab.papers.cc2007 import runs


@pytest.mark.parametrize(
    "learner,bias,weight", [("cc_base", "none", "1"), ("cc_slt_closest", "p1", 1.5), ("cc_slt_preserving", "pa", 3.0)]
)
def test_run_name_round_trips(learner, bias, weight):
    name = runs.run_name(learner, bias, weight)
    parsed = runs.parse_run(name)
    assert parsed[:2] == (learner, bias) and float(parsed[2]) == float(weight)


def test_default_grid(default_config):
    cfg = default_config["cc2007"]
    grid = runs.runs(cfg)
    per_learner = 1 + len(cfg["biases"]) * len(cfg["bias_weights"])
    assert len(grid) == len(set(grid)) == 3 * per_learner
    assert grid[0] == "cc_base-none-1"
    assert "cc_slt_closest-pa-1.5" in grid and "cc_slt_preserving-p1-3" in grid


def test_settings_cover_the_runs_and_name_their_options(default_config):
    cfg = default_config["cc2007"]
    assert runs.settings(cfg)[0] == "none-1"
    assert sorted(f"{learner}-{s}" for learner in runs.LEARNERS for s in runs.settings(cfg)) == sorted(runs.runs(cfg))
    assert runs.setting_args("p1-1.5") == "--bias p1 --bias-weight 1.5"
    assert runs.setting_args("none-1") == "--bias none --bias-weight 1"


def test_grid_binds_wildcards(default_config):
    grid = runs.Grid(default_config)
    files = grid.run_files(SimpleNamespace(corpus="gum"))
    assert files == [f"results/gum/paper/cc2007/runs/{r}.csv" for r in grid.runs()]


def test_leaderboard_models_stand_in_only_for_identical_fits(default_config):
    """The unbiased job reuses the leaderboard's C&C models whose fit settings are the job's; a
    biased setting, another solver budget or a learner left off the leaderboard gets its own fit."""
    import copy

    cfg = copy.deepcopy(default_config)
    cfg["cc2007"]["em_iterations"] = cfg["learners"]["cc_slt_closest"]["params"]["em_iterations"]
    grid = runs.Grid(cfg)
    wc = SimpleNamespace(corpus="gum", setting="none-1")
    assert grid.fitted_models(wc) == {
        "fitted_cc_base": "results/gum/models/cc_base.npz",
        "fitted_cc_slt_closest": "results/gum/models/cc_slt_closest.npz",
    }
    assert grid.fitted_models(SimpleNamespace(corpus="gum", setting="pa-3")) == {}
    cfg["learners"]["cc_slt_closest"]["params"]["max_iter"] = 7
    cfg["systems"].remove("cc_base")
    assert runs.Grid(cfg).fitted_models(wc) == {}
    inputs = {"train_arcs": "a.npz", "fitted_cc_base": "m.npz"}
    assert runs.Grid.fitted_args(wc, inputs) == "--fitted cc_base=m.npz"


def test_the_leaderboards_slt_takes_base_as_its_first_fit_never_the_other_way_round(default_config):
    """Issue 57: the leaderboard's SLT takes BASE's model as its iteration 1 where their first fits are
    the same fit (`coreflab train --first-fit`); BASE never waits for SLT, and other settings fit their own."""
    import copy

    from coreflab.learn.registry import first_fit_source

    cfg = copy.deepcopy(default_config)
    learners, systems = cfg["learners"], cfg["systems"]
    assert first_fit_source(learners, systems, "cc_slt_closest") == "cc_base"
    assert first_fit_source(learners, systems, "cc_base") is None
    assert first_fit_source(learners, systems, "bk_baseline") is None
    assert first_fit_source(learners, [s for s in systems if s != "cc_base"], "cc_slt_closest") is None
    learners["cc_slt_closest"]["params"]["max_iter"] = 7  # another first fit
    assert first_fit_source(learners, systems, "cc_slt_closest") is None
