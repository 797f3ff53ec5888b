"""H&M 2017 run grid: names round-trip, regressors, the runs Fig. 3 and Tables 2-4 read."""

import json
from types import SimpleNamespace

import pytest

from coreflab.papers.hm2017 import runs


@pytest.mark.parametrize("learner,fraction", [("lsp_f", 0.006), ("lsp_rho_from_synth", 1.0), ("lsp_yj", 0.09)])
def test_run_name_round_trips(learner, fraction):
    assert runs.parse_run(runs.run_name(learner, fraction)) == (learner, fraction)


def test_base_learner_and_regressor():
    assert runs.base_learner("lsp_rho_from_gum") == "lsp_rho"
    assert runs.regressor_corpus("lsp_rho_from_gum", "synth") == "gum"
    assert runs.regressor_corpus("lsp_rho", "synth") == "synth"
    assert runs.regressor_corpus("lsp_f", "synth") is None


def test_default_grid(default_config):
    cfg = default_config["hm2017"]
    own, second = runs.run_names(cfg, "synth")
    assert len(own) == 3 * len(cfg["fractions"]) and "lsp_rho-1" in own and "lsp_f-0.006" in own
    assert second == ["lsp_f-1", "lsp_yj-1", "lsp_rho-1", "lsp_rho_from_synth-1"]
    assert runs.second_corpus(cfg, "synth") == "synth_hard"
    assert runs.second_corpus(cfg, "gum") == "gum"


def test_grid_binds_wildcards(default_config):
    grid = runs.Grid(default_config)
    wc = SimpleNamespace(corpus="synth_hard", hm_learner="lsp_rho_from_synth", fraction="1")
    inputs = grid.run_inputs(wc)
    assert inputs["regressor"] == "results/synth/paper/hm2017/regressor.json"
    assert inputs["tuned"].endswith("tune/lsp_rho.json")
    assert "--regressor results/synth" in grid.run_options(wc, SimpleNamespace(**inputs))
    assert json.loads(grid.run_params(wc))["max_passes"] == default_config["hm2017"]["max_passes"]
    assert grid.tune_inputs(SimpleNamespace(corpus="synth", learner="lsp_f")) == {}
    assert grid.tune_options(SimpleNamespace(learner="lsp_yj"), None) == "--r-grid 0.05,0.1,0.5"
    report = grid.report_inputs(SimpleNamespace(corpus="synth"))
    assert report["second_runs"][-1] == "results/synth_hard/paper/hm2017/runs/lsp_rho_from_synth-1.csv"


def test_extra_seeds_only_for_the_figure_corpora(default_config):
    grid = runs.Grid(default_config)
    assert grid.run_seeds(SimpleNamespace(corpus="synth")) == "--seeds 1 2 3"
    assert grid.run_seeds(SimpleNamespace(corpus="synth_hard")) == ""  # Table 4's paired corpus
