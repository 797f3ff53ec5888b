"""Singh 2011 run grid: tuning settings per corpus, Fig. 7 traces and baselines with/without ECB+."""

from types import SimpleNamespace

from coreflab.papers.singh2011 import runs


def test_personx_priors_start_from_singletons(default_config):
    cfg = default_config["crossdoc"]
    flat = runs.tuning_params(cfg, "personx")
    union = runs.tuning_params(cfg, "personx", "_union")
    assert (flat["model"], flat["context"], flat["init"]) == ("flat", "pairwise", "singletons")
    assert (union["model"], union["context"]) == ("hier", "union")


def test_string_initialised_priors_tune_the_string_weight(default_config):
    cfg = default_config["crossdoc"]
    large = runs.tuning_params(cfg, "large")
    assert large["init"] == "string" and large["weights"].split() == [str(w) for w in cfg["tune"]["string_weight_grid"]]


def test_fig7_and_baselines_follow_ecbplus(default_config):
    cfg = default_config["crossdoc"]
    without = runs.fig7_traces(cfg, ecbplus=False)
    assert len(without) == len(cfg["workers"])
    with_ecb = runs.fig7_traces(cfg, ecbplus=True)
    assert with_ecb[: len(without)] == without and len(with_ecb) == len(without) + 3  # flat, combined, within
    assert any("ecbplus_string_flat_" in t for t in with_ecb)
    assert runs.baseline_corpora(False) == ["large"] and runs.baseline_corpora(True) == ["large", "ecbplus"]


def test_ecbplus_source_names_the_folder_the_download_or_both():
    assert (
        runs.ecbplus_source_args({"ecbplus_dir": "data/ECB plus", "ecbplus_download": False})
        == "--local-dir 'data/ECB plus'"
    )
    assert runs.ecbplus_source_args({"ecbplus_dir": None, "ecbplus_download": True}) == "--download"
    assert runs.ecbplus_source_args({"ecbplus_dir": "d", "ecbplus_download": True}) == "--local-dir d --download"


def test_run_jobs_get_the_workflows_seeds():
    assert runs.seeds_args([1, 2, 3]) == "--seeds 1 2 3"
    assert runs.seeds_args([2, 2, 1]) == "--seeds 2 1"
    assert runs.seeds_args([]) == runs.seeds_args(None) == ""
    assert runs.Grid({"crossdoc": {"ecbplus_dir": None}, "seeds": [1, 2]}).seeds_args == "--seeds 1 2"
    grid = runs.Grid({"crossdoc": {"ecbplus_dir": None}, "seeds": [1, 2]})
    assert grid.run_seeds_args(SimpleNamespace(model="hier", ctx="", workers="2")) == "--seeds 1 2"
    assert grid.run_seeds_args(SimpleNamespace(model="hier", ctx="_union", workers="2")) == ""


def test_heldout_minima_of_the_config_are_the_calibrate_defaults(default_config):
    from coreflab.papers.singh2011.tuning import HELDOUT_MIN_ENTITIES, HELDOUT_MIN_MENTIONS

    assert default_config["crossdoc"]["tune"]["heldout_min_mentions"] == HELDOUT_MIN_MENTIONS
    assert default_config["crossdoc"]["tune"]["heldout_min_entities"] == HELDOUT_MIN_ENTITIES
