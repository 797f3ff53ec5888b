"""Config validation: defaults filled in, one-line errors naming the key."""

from pathlib import Path

import pytest
import yaml

from coreflab.config import check_config, overlay
from coreflab.errors import UserError

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = ROOT / "workflow" / "schemas" / "config.schema.yaml"


def _cfg(name="config/config.yaml"):
    return yaml.safe_load((ROOT / name).read_text())


@pytest.mark.parametrize("name", sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "config").glob("*.yaml")))
def test_shipped_configs_validate(name):
    check_config(overlay(_cfg(), _cfg(name)), SCHEMA)


def test_tiny_test_config_validates_alone():
    check_config(_cfg("tests/workflow/config.yaml"), SCHEMA)


def test_defaults_are_filled():
    cfg = check_config({"corpora": {"synth": {}}}, SCHEMA)
    assert cfg["run"]["corpora"] == ["synth"]
    assert cfg["corpora"]["synth"] == {"size": "default", "seed": 1, "knobs": {}}
    assert cfg["mentions"] == "gold"


@pytest.mark.parametrize(
    "patch, message",
    [
        ({"corpra": 1}, "config key 'corpra' is unknown"),
        ({"mentions": "silver"}, "config key mentions: 'silver' is not one of"),
        ({"corpora": {"synth": {"size": "huge"}}}, "config key corpora.synth.size"),
        ({"corpora": {"synth": {"sise": "tiny"}}}, "config key corpora.synth.'sise' is unknown"),
        ({"run": {"corpora": ["litbank"]}}, "has no entry under 'corpora'"),
        ({"crossdoc": {"t_start": 0.001, "t_stop": 0.01}}, "config key crossdoc.t_stop: 0.01 is above t_start (0.001)"),
        ({"crossdoc": {"t_stop": 0.1}}, "config key crossdoc.t_stop: 0.1 is above t_start (0.05)"),  # the default
        ({"seed": -1}, "config key seed"),
        (
            {"selection": {"from_corpus": {"synth_hard": "synht"}}},
            "config key selection.from_corpus.synth_hard: 'synht' is not under corpora: (did you mean 'synth'?)",
        ),
        (
            {"selection": {"from_corpus": {"synth": "synth_hard", "synth_hard": "synth"}}},
            "config key selection.from_corpus.synth: 'synth_hard' does not make a selection of its own",
        ),
        # the papers' sections, each in its folder's schema fragment
        ({"bk2014": {"iterations": 0}}, "config key bk2014.iterations: 0 is less than the minimum of 1"),
        ({"cc2007": {"biases": ["p2"]}}, "config key cc2007.biases.0: 'p2' is not one of"),
        ({"l3m2014": {"pases": 5}}, "config key l3m2014.'pases' is unknown"),
        ({"doccluster": {"folds": 1}}, "config key doccluster.folds: 1 is less than the minimum of 2"),
        ({"hm2017": {"calibration": "x"}}, "config key hm2017.calibration: 'x' is not one of"),
        ({"crossdoc": {"workers": []}}, "config key crossdoc.workers: [] should be non-empty"),
    ],
)
def test_errors_name_the_key(patch, message):
    cfg = _cfg()
    cfg.update(patch)
    with pytest.raises(UserError) as err:
        check_config(cfg, SCHEMA)
    assert message in str(err.value)
    assert "\n" not in str(err.value)


def test_a_number_given_as_text_says_where_text_comes_from():
    """`--config 'bk2014={iterations: 25}'` reaches the config as {'iterations': '25'}, and so does a quoted
    `iterations: '25'` in a --configfile: the hint names both causes, not only --config; a string that is
    no number gets no such hint."""
    cfg = overlay(_cfg(), {"bk2014": {"iterations": "25"}})
    with pytest.raises(
        UserError,
        match=r"bk2014.iterations: '25' is not of type 'integer' \(a quoted number or true/false in YAML, or a value inside",
    ):
        check_config(cfg, SCHEMA)
    with pytest.raises(UserError, match=r"features.bits: '22' .*a quoted number or true/false in YAML.*--configfile"):
        check_config(overlay(_cfg(), {"features": {"bits": "22"}}), SCHEMA)
    cfg = overlay(_cfg(), {"bk2014": {"iterations": "many"}})
    with pytest.raises(UserError) as err:
        check_config(cfg, SCHEMA)
    assert "bk2014.iterations" in str(err.value) and "--configfile" not in str(err.value)


def test_a_corpus_folder_that_is_not_there_stops_before_any_job(tmp_path):
    from coreflab.config import check_corpus_folders

    own = check_config(overlay(_cfg(), _cfg("config/conll2012.yaml")), SCHEMA)
    with pytest.raises(UserError, match=r"^config key corpora.conll2012.local_dir: not set: point it at"):
        check_corpus_folders(own)
    own["corpora"]["conll2012"]["local_dir"] = str(tmp_path / "missing")
    with pytest.raises(UserError, match=r"^config key corpora.conll2012.local_dir: .*missing: no such directory"):
        check_corpus_folders(own)
    own["corpora"]["conll2012"]["local_dir"] = str(tmp_path)  # exists, but holds no release
    with pytest.raises(UserError, match=r"no data/train/data/english/annotations \(official CoNLL-2012 layout"):
        check_corpus_folders(own)
    for split in ("train", "development", "test"):
        folder = tmp_path / "data" / split / "data" / "english" / "annotations" / "nw"
        folder.mkdir(parents=True)
        (folder / "a.v4_gold_conll").write_text("")
    check_corpus_folders(own)  # every split has files: their contents are checked by the import
    own["corpora"]["conll2012"]["annotation"] = "auto"  # only gold files: read instead (read_annotation)
    check_corpus_folders(own)
    own["corpora"]["conll2012"].update(annotation="gold", language="chinese")
    with pytest.raises(UserError, match=r"no data/train/data/chinese/annotations"):
        check_corpus_folders(own)
    own["corpora"]["conll2012"]["language"] = "english"
    (tmp_path / "data" / "development" / "data" / "english" / "annotations" / "nw" / "a.v4_gold_conll").unlink()
    with pytest.raises(UserError, match=r"development/data/english/annotations: no \*_gold_conll files"):
        check_corpus_folders(own)

    lit = check_config(overlay(_cfg(), _cfg("config/litbank.yaml")), SCHEMA)
    lit["corpora"]["litbank"]["local_dir"] = str(tmp_path / "nowhere")
    with pytest.raises(
        UserError, match=r"^config key corpora.litbank.local_dir: .*nowhere: no such directory; .* download"
    ):
        check_corpus_folders(lit)
    lit["corpora"]["litbank"]["local_dir"] = None  # download: nothing to check yet
    check_corpus_folders(lit)
    check_corpus_folders(check_config(_cfg(), SCHEMA))  # synth needs no folder


def test_a_misspelled_system_is_a_one_line_error_naming_it():
    cfg = _cfg()
    cfg["systems"] = ["string_match", "bk_delayd_laso"]
    with pytest.raises(UserError) as err:
        check_config(cfg, SCHEMA)
    msg = str(err.value)
    assert "'bk_delayd_laso'" in msg and "bk_delayed_laso" in msg and "string_match" in msg
    assert "\n" not in msg


def _error(patch):
    """The one-line error check_config gives for the default config overlaid with patch."""
    with pytest.raises(UserError) as err:
        check_config(overlay(_cfg(), patch), SCHEMA)
    msg = str(err.value)
    assert "\n" not in msg
    return msg


def test_a_misspelled_learner_parameter_is_an_error_naming_the_key():
    msg = _error({"learners": {"bk_baseline": {"learner": "bk_baseline", "params": {"beem": 5}}}})
    assert msg.startswith("config key learners.bk_baseline.params: 'beem' is not a parameter of learner bk_baseline")
    assert "did you mean 'beam'" in msg and "n_iter" in msg
    msg = _error({"l3m2014": {"learner_params": {"corr_clustering": {"max_item": 20}}}})
    assert msg.startswith("config key l3m2014.learner_params.corr_clustering: 'max_item'") and "'max_items'" in msg


def test_a_learner_parameter_of_the_wrong_type_or_value_is_an_error_naming_the_key():
    msg = _error({"learners": {"bk_baseline": {"learner": "bk_baseline", "params": {"n_iter": "10"}}}})
    assert msg.startswith("config key learners.bk_baseline.params.n_iter:") and "must be an integer" in msg
    assert "a quoted number or true/false in YAML" in msg
    msg = _error({"learners": {"bk_baseline": {"learner": "bk_baseline", "params": {"update": "pas"}}}})
    assert msg.startswith("config key learners.bk_baseline.params:") and "'pas'" in msg


def test_params_the_workflow_adds_are_not_required_and_shipped_params_pass():
    """seed and root_loss come from the workflow, not the config: a learner without them is fine."""
    cfg = check_config(overlay(_cfg(), {"learners": {"mine": {"learner": "bk_delayed_laso"}}}), SCHEMA)
    assert cfg["learners"]["mine"]["params"] == {}


def test_an_unknown_learner_is_an_error_naming_the_key_and_the_learners():
    msg = _error({"learners": {"mine": {"learner": "nosuch"}}, "systems": ["mine"]})
    assert msg.startswith("config key learners.mine.learner: unknown learner 'nosuch'")
    assert "bk_delayed_laso" in msg and "cc_base" in msg
    assert "did you mean 'cc_base'" in _error({"learners": {"mine": {"learner": "cc_bas"}}})
    msg = _error({"l3m2014": {"learner_params": {"corr_clusterin": {"max_items": 20}}}})
    assert msg.startswith("config key l3m2014.learner_params: unknown learner 'corr_clusterin'")
    assert "did you mean 'corr_clustering'" in msg


@pytest.mark.parametrize("key", ["features.featureset", "selection.start", "selection.candidates"])
def test_an_unknown_feature_set_is_an_error_naming_the_key_and_the_sets(key):
    section, name = key.split(".")
    msg = _error({section: {name: "nosuch"}})
    assert msg.startswith(f"config key {key}: 'nosuch' is neither a feature set under config/featuresets/")
    assert "local, local_fine, nonlocal, small" in msg
    assert ("selected" in msg) == (key == "features.featureset")  # selection cannot start from its own output
    assert "did you mean 'local'" in _error({section: {name: "locl"}})
    assert _error({section: {name: ""}}).startswith(f"config key {key}: '' is empty; expected one of")
    assert "'missing.yaml' is neither" in _error({section: {name: "missing.yaml"}})


def test_a_feature_set_file_is_checked_as_the_features_job_reads_it(tmp_path):
    good, bad = tmp_path / "good.yaml", tmp_path / "bad.yaml"
    good.write_text("- bias\n- ana_type+head_match\n- cluster_size\n")
    bad.write_text("- bias\n- ana_type+head_mach\n")
    check_config(overlay(_cfg(), {"features": {"featureset": str(good)}}), SCHEMA)
    msg = _error({"features": {"featureset": str(bad)}})
    assert msg.startswith(f"config key features.featureset: {bad}:2: unknown feature template 'head_mach'")
    assert f"{bad}:2" in _error({"selection": {"start": str(bad)}})


@pytest.mark.parametrize("key", ["bk2014.nonlocal_templates", "selection.nonlocal_candidates"])
def test_an_unknown_nonlocal_template_is_an_error_naming_the_key_and_the_templates(key):
    section, name = key.split(".")
    msg = _error({section: {name: ["cluster_size", "nosuch"]}})
    assert msg.startswith(f"config key {key}: 'nosuch' is not a non-local template; expected one of cluster_size,")
    assert "cluster_name_head_pair" in msg
    assert ("or selected instead of a list" in msg) == (key == "bk2014.nonlocal_templates")
    assert "did you mean 'cluster_shape'" in _error({section: {name: ["cluster_shap"]}})
    check_config(overlay(_cfg(), {section: {name: ["cluster_size", "cluster_head_match"]}}), SCHEMA)


@pytest.mark.slow
def test_snakemake_stops_on_a_misspelled_learner_parameter_before_any_job(tmp_path):
    overlay_file = tmp_path / "typo.yaml"
    overlay_file.write_text("learners: {bk_baseline: {learner: bk_baseline, params: {beem: 5}}}\n")
    proc = _dry_run("--configfile", str(overlay_file))
    assert proc.returncode != 0
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith("coreflab: error: config key learners.bk_baseline.params: 'beem'"), proc.stderr[-2000:]
    assert last.endswith(f"(set at {overlay_file}:1)")  # which of the config files to edit
    assert "Traceback" not in proc.stderr


@pytest.mark.slow
def test_a_users_conll2012_plans_every_learner_and_paper_experiment(tmp_path):
    import subprocess
    import sys

    for split in ("train", "development", "test"):  # the layout the check before any job looks for
        folder = tmp_path / "data" / split / "data" / "english" / "annotations"
        folder.mkdir(parents=True)
        (folder / "doc.v4_gold_conll").write_text("")

    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "snakemake",
            "-n",
            "--snakefile",
            str(ROOT / "workflow" / "Snakefile"),
            "--configfile",
            str(ROOT / "config" / "conll2012.yaml"),
            "--config",
            f"corpora={{conll2012: {{local_dir: {tmp_path}}}}}",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    text = proc.stdout + proc.stderr
    default = _cfg()
    for system in default["learners"]:  # gold and predicted mentions side by side
        for run in ("conll2012", "conll2012_predicted"):
            assert f"results/{run}/models/{system}.npz" in text, (run, system)
    # every paper with both mention modes (paper_mentions: {}), so the scorecard decides each claim on each
    for table in ("bk2014/table1.md", "cc2007/table3.md", "l3m2014/table1.md", "hm2017/table4.md"):
        for run in ("conll2012", "conll2012_predicted"):
            assert f"results/{run}/paper/{table}" in text, (run, table)


def _dry_run(*args):
    import subprocess
    import sys

    cmd = [sys.executable, "-m", "snakemake", "-n", "--forceall", "--snakefile", str(ROOT / "workflow" / "Snakefile")]
    return subprocess.run(cmd + list(args), capture_output=True, text=True, cwd=ROOT)


@pytest.mark.slow
def test_snakemake_docs_plans_every_table_the_pages_cite(tmp_path):
    """The pages cite tables some commands write beside their declared outputs: each is an output of its
    rule, so `snakemake docs` makes them on a fresh checkout instead of stopping at a missing input."""
    proc = _dry_run("docs", "--config", f"doccluster={{local_dir: {tmp_path}}}")
    assert proc.returncode == 0, proc.stderr[-2000:]
    text = proc.stdout + proc.stderr
    for table in ("cc2007/table2.csv", "cc2007/table3.csv", "l3m2014/robustness.csv", "hm2017/curve.csv"):
        assert f"results/synth/paper/{table}" in text, table
    for table in ("table2_vi.csv", "cccp_vs_sgd.csv"):  # 20 Newsgroups: its own folder, no corpus's
        assert f"results/doccluster/paper/l3m2014/{table}" in text, table


@pytest.mark.slow
def test_snakemake_docs_without_20_newsgroups_says_why_in_one_line(tmp_path):
    proc = _dry_run("docs", "--config", f"doccluster={{local_dir: {tmp_path / 'none'}}}")
    assert proc.returncode != 0
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith("coreflab: error: `snakemake docs`") and "20 Newsgroups" in last and "none" in last
    assert "Traceback" not in proc.stderr and "MissingInputException" not in proc.stderr


def test_crossdoc_enabled_false_leaves_singh2011_out_of_the_run():
    assert "singh2011" in check_config(_cfg(), SCHEMA)["run"]["papers"]
    cfg = check_config(overlay(_cfg(), {"crossdoc": {"enabled": False}}), SCHEMA)
    assert "singh2011" not in cfg["run"]["papers"] and "bk2014" in cfg["run"]["papers"]


def test_a_switch_given_as_text_says_where_text_comes_from():
    msg = _error({"crossdoc": {"enabled": "false"}})
    assert "crossdoc.enabled: 'false'" in msg and "true/false in YAML" in msg


def test_a_learner_lacking_what_the_workflow_passes_is_refused_at_start():
    """Every train job passes `seed`, and the values tuned on dev of the learner's `tuned_params`
    that its config does not set; a tuned parameter no tuning job makes is refused too."""
    from coreflab.learn.base import Learner
    from coreflab.learn.registry import LEARNERS, register

    @register("test_config_no_seed")
    class NoSeed(Learner):
        def __init__(self, n_iter=1):
            self.n_iter = n_iter

    @register("test_config_no_root_loss")
    class NoRootLoss(Learner):
        tuned_params = ("root_loss",)

        def __init__(self, seed=0):
            self.seed = seed

    @register("bk_test_config_plain")
    class Plain(Learner):
        def __init__(self, seed=0):
            self.seed = seed

    @register("test_config_untunable")
    class Untunable(Learner):
        tuned_params = ("margin",)

        def __init__(self, margin=1.0, seed=0):
            self.margin, self.seed = margin, seed

    try:
        msg = _error({"learners": {"mine": {"learner": "test_config_no_seed"}}})
        assert msg.startswith("config key learners.mine.learner:")
        assert "takes no seed parameter, which every train job passes;" in msg
        msg = _error({"learners": {"mine": {"learner": "test_config_no_root_loss"}}})
        assert "takes no root_loss parameter, which its tuned_params names" in msg
        assert "seed" not in msg
        msg = _error({"learners": {"mine": {"learner": "test_config_untunable"}}})
        assert "takes margin from tuning (tuned_params), which no tuning job makes; tuned: root_loss" in msg
        # the name says nothing: a bk_ learner that takes nothing from tuning needs no root_loss
        check_config(overlay(_cfg(), {"learners": {"mine": {"learner": "bk_test_config_plain"}}}), SCHEMA)
    finally:
        for name in (
            "test_config_no_seed",
            "test_config_no_root_loss",
            "test_config_untunable",
            "bk_test_config_plain",
        ):
            del LEARNERS[name]


def test_a_local_dir_that_is_a_file_says_so(tmp_path):
    from coreflab.config import check_corpus_folders

    (tmp_path / "key.conll").write_text("")
    lit = check_config(overlay(_cfg(), _cfg("config/litbank.yaml")), SCHEMA)
    lit["corpora"]["litbank"]["local_dir"] = str(tmp_path / "key.conll")
    with pytest.raises(UserError, match=r"key.conll: a file, not a directory; point it at"):
        check_corpus_folders(lit)


def test_a_featureset_file_that_is_not_yaml_is_one_line(tmp_path):
    from coreflab.features.featureset import parse_featureset

    with pytest.raises(UserError) as err:
        parse_featureset("- bias\n- [ana_type\n", "bad.yaml")
    assert (
        str(err.value).startswith("bad.yaml:") and "not valid YAML (" in str(err.value) and "\n" not in str(err.value)
    )


def test_an_error_says_which_file_and_line_set_the_key(tmp_path):
    from coreflab.config import key_origin

    base, mine = tmp_path / "config.yaml", tmp_path / "mine.yaml"
    base.write_text("features:\n  bits: 22\n  featureset: selected\n")
    mine.write_text("# my run\nfeatures:\n  featurs: local\n  featureset: nosuch\n")
    message = "config key features.featureset: 'nosuch' is neither ..."
    assert key_origin(message, [base, mine]) == f" (set at {mine}:4)"
    assert key_origin("config key features.'featurs' is unknown; expected ...", [base, mine]) == f" (set at {mine}:3)"
    assert key_origin("config key features.bits: 'x' is not ...", [base, mine]) == f" (set at {base}:2)"
    assert key_origin(message, [base, mine], {"features": {"featureset": "nosuch"}}) == " (set by --config)"
    assert key_origin(message, [base, mine], {"features": {"window": 5}}) == f" (set at {mine}:4)"
    assert key_origin("config key seed: 'x' ...", [base, mine]) == ""  # a default: no file sets it
    assert key_origin("unknown learner 'x'", [base, mine]) == ""


def test_a_learner_left_out_of_systems_is_named_in_a_note_as_untrained():
    from coreflab.config import untrained_learners, untrained_learners_note

    cfg = check_config(_cfg(), SCHEMA)
    assert untrained_learners(cfg) == [] and untrained_learners_note(cfg) == ""
    mine = overlay(_cfg(), {"learners": {"mine": {"learner": "bk_baseline"}}})
    cfg = check_config(mine, SCHEMA)
    assert untrained_learners(cfg) == ["mine"]
    note = untrained_learners_note(cfg)
    assert note.startswith("coreflab: note: learners.mine is configured but not in systems, so no job trains it")
    cfg["systems"] = [s for s in cfg["systems"] if s not in ("l3m", "sumlink")]
    assert untrained_learners(cfg) == ["mine", "sumlink"]  # the training-size curve trains l3m
    assert "learners.mine, learners.sumlink are configured" in untrained_learners_note(cfg)
    cfg["training_size"]["learners"] = ["bk_baseline"]
    assert untrained_learners(cfg) == ["l3m", "mine", "sumlink"]


@pytest.mark.slow
def test_snakemake_notes_a_learner_no_job_trains(tmp_path):
    overlay_file = tmp_path / "mine.yaml"
    overlay_file.write_text("learners: {mine: {learner: bk_baseline, params: {n_iter: 2}}}\n")
    proc = _dry_run("--configfile", str(overlay_file))
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "coreflab: note: learners.mine is configured but not in systems" in proc.stderr
    assert "results/synth/models/mine.npz" not in proc.stdout


@pytest.mark.slow
def test_a_leaderboard_learner_takes_its_tuned_values_from_the_job_that_makes_them(tmp_path):
    """B&K's root loss from the root-loss tuning, an LSP's C and r from H&M's tuning and LSP_ρ's regressor
    from H&M's fit, each as an input of the train job; a value the config sets is not asked for."""
    models = [f"results/synth/models/{s}.npz" for s in ("bk_baseline", "lsp_rho", "lsp_f")]
    overlay_file = tmp_path / "lsp_f.yaml"
    overlay_file.write_text("learners: {lsp_f: {learner: lsp_f, params: {n_iter: 2, C: 10.0}}}\n")
    tiny = str(ROOT / "tests/workflow/config.yaml")
    proc = _dry_run("-p", "--configfile", tiny, str(overlay_file), "--", *models)
    assert proc.returncode == 0, proc.stderr[-2000:]
    train = {
        line.split("--learner ")[1].split()[0]: line
        for line in proc.stdout.splitlines()
        if "coreflab train --learner" in line
    }
    assert "--tuned results/synth/tuning/root_loss.json " in train["bk_baseline"]
    assert (
        "--tuned results/synth/paper/hm2017/tune/lsp_rho.json --tuned regressor=results/synth/paper/hm2017/regressor.json "
        in train["lsp_rho"]
    )
    assert (
        train["lsp_f"].count("--tuned") == 1 and "--tuned results/synth/paper/hm2017/tune/lsp_f.json " in train["lsp_f"]
    )
    assert "rule hm2017_tune:" in proc.stdout and "rule hm2017_mela_fit:" in proc.stdout
