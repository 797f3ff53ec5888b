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


def test_transfer_runs_table4_on_the_corpus_itself_with_the_borrowed_regressor(default_config, tmp_path, monkeypatch):
    """hm2017.transfer: the source's regressor comes from its own run, copied outside the DAG; until it
    exists, Table 4 has no transfer run (and the scorecard says why)."""
    import copy

    config = copy.deepcopy(default_config)
    config["hm2017"]["transfer"] = {"gum": "litbank"}
    monkeypatch.chdir(tmp_path)
    grid = runs.Grid(config)
    assert runs.second_corpus(config["hm2017"], "gum") == "gum"
    report = grid.report_inputs(SimpleNamespace(corpus="gum"))
    assert [p.rsplit("/", 1)[1] for p in report["second_runs"]] == ["lsp_f-1.csv", "lsp_yj-1.csv", "lsp_rho-1.csv"]
    assert grid.import_params(SimpleNamespace(source="litbank"))["digest"] == "missing"

    source = tmp_path / runs.transfer_regressor("litbank")
    source.parent.mkdir(parents=True)
    source.write_text('{"weights": [1.0]}', encoding="utf-8")
    report = grid.report_inputs(SimpleNamespace(corpus="gum"))
    assert report["second_runs"][-1] == "results/gum/paper/hm2017/runs/lsp_rho_from_litbank-1.csv"
    wc = SimpleNamespace(corpus="gum", hm_learner="lsp_rho_from_litbank", fraction="1")
    assert grid.run_inputs(wc)["regressor"] == "results/gum/paper/hm2017/transfer/litbank.json"
    first = grid.import_params(SimpleNamespace(source="litbank"))["digest"]
    source.write_text('{"weights": [2.0]}', encoding="utf-8")
    assert grid.import_params(SimpleNamespace(source="litbank"))["digest"] not in (first, "missing")
    own = SimpleNamespace(corpus="gum", hm_learner="lsp_rho", fraction="1")
    assert grid.run_inputs(own)["regressor"] == "results/gum/paper/hm2017/regressor.json"
