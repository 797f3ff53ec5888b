"""bench/conll2012_estimate.py: C&C's fits counted from a config, and the two estimates."""

import json

from tests.bench.bench_script import load_bench_script


def _load():
    return load_bench_script("conll2012_estimate")


def _config(papers, systems):
    return {
        "run": {"papers": papers},
        "cc2007": {"em_iterations": 3, "max_iter": 300, "biases": ["p1", "pa"], "bias_weights": [3.0]},
        "learners": {
            "cc_base": {"learner": "cc_base", "params": {}},
            "cc_slt_closest": {"learner": "cc_slt_closest", "params": {"em_iterations": 4}},
            "l3m": {"learner": "l3m", "params": {}},
        },
        "systems": systems,
    }


def test_fits_per_config():
    mod = _load()
    # 3 settings (unbiased, p1-3, pa-3) × (1 shared + 2 SLT variants × 2 more) = 15; leaderboard 1 + 4;
    # the unbiased job scores the leaderboard's cc_base instead of fitting it: 19
    assert mod.cc_fits(_config(["cc2007"], ["string_match", "cc_base", "cc_slt_closest", "l3m"])) == (19, 5)
    # ... and its cc_slt_closest too when the EM iterations agree: 2 fewer again
    same_em = _config(["cc2007"], ["string_match", "cc_base", "cc_slt_closest"])
    same_em["learners"]["cc_slt_closest"]["params"]["em_iterations"] = 3
    assert mod.cc_fits(same_em) == (15 + 4 - 1 - 2, 5)
    assert mod.cc_fits(_config(["cc2007"], ["string_match", "l3m"])) == (15, 5)
    assert mod.cc_fits(_config(["bk2014"], ["string_match", "cc_slt_closest"])) == (4, 4)
    assert mod.cc_fits(_config(["bk2014"], ["string_match", "l3m"])) == (0, 0)


def test_estimates_add_the_fits_to_the_measured_run():
    mod = _load()
    run = {"run_cpu_s": 1000.0, "critical_path_s": 300.0, "train_features_ready_s": 100.0}
    fit = {"store_dir_train": {"fit_cpu_s": 60.0}}
    out = mod.estimate(_config(["cc2007"], ["cc_base"]), run, fit)
    assert out["cc_fits"] == 15 and out["cc_chain_fits"] == 5
    assert out["two_cores_h"] == round((1000 + 15 * 60) / 2 / 3600, 1)
    assert out["cluster_h"] == round(max(300, 100 + 5 * 60) / 3600, 1)
    # with no C&C the cluster time is the measured critical path
    assert mod.estimate(_config([], ["l3m"]), run, fit)["cluster_h"] == round(300 / 3600, 1)


def test_main_takes_another_fit_record(tmp_path):
    """--fit: the same estimate with C&C's fit measured on another store (e.g. the fine-type pool)."""
    mod = _load()
    fit = tmp_path / "fit.json"
    fit.write_text('{"store_dir_train": {"fit_cpu_s": 3600.0}}')
    out = tmp_path / "estimate.json"
    mod.main(["--fit", str(fit), "--out", str(out)])
    got = json.loads(out.read_text())
    assert got["cc_fit_cpu_s"] == 3600.0 and got["cc_cpu_h"] == got["cc_fits"] * 1.0
