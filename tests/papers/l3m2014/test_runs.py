"""L3M 2014 run grid: techniques round-trip, parameters, the document-clustering switch."""

import json
from types import SimpleNamespace

import pytest

from coreflab.papers.l3m2014 import runs


@pytest.mark.parametrize("gamma", [0.0, 0.2, 1.0])
def test_technique_round_trips(gamma):
    assert runs.parse_technique(runs.technique_name(gamma)) == ("l3m", gamma)


def test_baselines_are_their_own_learner():
    assert runs.parse_technique("sumlink") == ("sumlink", None)


def test_default_grid(default_config):
    cfg = default_config["l3m2014"]
    techniques = runs.techniques(cfg)
    assert techniques[:4] == list(runs.BASELINES)
    assert techniques[4:] == [f"l3m-g{g:g}" for g in cfg["gammas"]]
    assert len(techniques) == len(set(techniques))


def test_params_add_gamma_to_configured_learner_params(default_config):
    cfg = default_config["l3m2014"]
    assert runs.technique_params(cfg, "l3m-g0.4") == {**cfg["learner_params"].get("l3m", {}), "gamma": 0.4}
    assert runs.technique_params(cfg, "corr_clustering") == cfg["learner_params"]["corr_clustering"]


def test_doccluster_runs_only_when_enabled(default_config):
    off = {**default_config, "doccluster": {**default_config["doccluster"], "enabled": False}}
    assert runs.doccluster_files(off) == []
    grid = runs.Grid(off)
    inputs = grid.table_inputs(SimpleNamespace(corpus="synth"))
    assert inputs["doccluster"] == [] and len(inputs["curves"]) == len(grid.techniques())
    assert grid.doccluster_args(None, SimpleNamespace(doccluster=[])) == ""
    assert json.loads(grid.params(SimpleNamespace(technique="l3m-g1")))["gamma"] == 1.0


@pytest.mark.parametrize("local_dir, args", [("data/20news", "--local-dir data/20news"), (None, ""), ("", "")])
def test_doccluster_names_a_local_copy_or_none_so_the_command_downloads(default_config, local_dir, args):
    """A null or empty local_dir passes no --local-dir: quoted, it was read as a folder named 'None'
    (or left the option without its value), and the download was never reached."""
    config = {**default_config, "doccluster": {**default_config["doccluster"], "local_dir": local_dir}}
    assert runs.Grid(config).doccluster_source_args() == args


def test_a_corpus_shows_its_own_cccp_vs_sgd_and_20_newsgroups_has_its_own_tables(default_config):
    from coreflab.papers.l3m2014 import NEWSGROUPS, targets

    on = {**default_config, "doccluster": {**default_config["doccluster"], "enabled": True}}
    off = {**default_config, "doccluster": {**default_config["doccluster"], "enabled": False}}
    wc = SimpleNamespace(corpus="synth")
    for cfg in (on, off):  # one experiment, one column: 20 Newsgroups never stands in for a corpus
        assert runs.Grid(cfg).table_inputs(wc)["cccp"] == "results/synth/paper/l3m2014/runs/cccp_vs_sgd.csv"
    assert set(NEWSGROUPS) <= set(targets(on, ["synth", "gum"]))
    assert sum("doccluster/" in t for t in targets(on, ["synth", "gum"])) == len(NEWSGROUPS)  # once, not per corpus
    assert not any("doccluster/" in t for t in targets(off, ["synth"]))
    args = runs.Grid(on).cccp_args()
    cfg = default_config["l3m2014"]
    for flag, key in (("--docs", "cccp_docs"), ("--draws", "cccp_draws"), ("--max-outer", "cccp_max_outer")):
        assert f"{flag} {cfg[key]}" in args
    assert "--inner" in args and "--tol" in args


def test_studies_read_table1s_online_curves(default_config):
    grid = runs.Grid(default_config)
    curves = grid.study_curves(SimpleNamespace(corpus="synth"))
    assert curves == [
        f"results/synth/paper/l3m2014/runs/curves_{t}.csv"
        for t in grid.techniques()
        if t in ("sumlink", "binleftlink") or t.startswith("l3m-g")
    ]


def test_doccluster_tunes_lambda_eta0_and_gives_batch_techniques_their_passes(default_config):
    grid = runs.Grid(default_config)
    args = grid.doccluster_tune_args()
    d = default_config["doccluster"]
    assert f"--batch-passes {d['batch_passes']}" in args and d["batch_passes"] == 10
    assert "--lams " in args and "--eta0s " in args and "--rs " in args
    shuffled = grid.doccluster_shuffle_flag(SimpleNamespace(order="shuffled"))
    assert shuffled == "--shuffle-items --techniques sumlink,binleftlink,l3m_gamma0,l3m"
    assert grid.doccluster_shuffle_flag(SimpleNamespace(order="natural")) == ""
