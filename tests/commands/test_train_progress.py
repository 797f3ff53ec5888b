"""`coreflab train` talks: a line per epoch with dev MELA for every leaderboard learner, the
right closing epoch count, and one-line errors (exit 2) for a mistyped parameter or a file
of the wrong kind; `--tuned` fills the parameters a learner takes from tuning (`tuned_params`).
Runs the CLI entry (`cli.main`) on the tiny synthetic corpus, i.e. the
corpus of `coreflab synth --size tiny`.
"""

import re

import numpy as np
import pytest

from coreflab import cli
from coreflab.corpus.synthetic.generator import generate_corpus
from coreflab.learn.base import Learner

from .learner_runs import LEARNERS, train_argv, write_split_files

EPOCH_LINE = re.compile(
    r"^(?P<learner>\w+): epoch (?P<epoch>\d+)/(?P<total>\d+): dev MELA (?P<mela>\d+\.\d\d), "
    r"\d+\.\d s \+ \d+\.\d s dev scoring$"
)


def _tiered(learner, *values, id):
    """A parameter set; corr_clustering's exact search takes seconds an epoch even at the configs' budget,
    so its runs are in the slow tier (`pytest -m slow`)."""
    return pytest.param(learner, *values, id=id, marks=pytest.mark.slow if learner == "corr_clustering" else ())


@pytest.fixture(scope="module")
def split_files(tmp_path_factory):
    return write_split_files(tmp_path_factory.mktemp("progress"), generate_corpus("tiny", seed=0))


@pytest.mark.parametrize("learner,params,epochs", [_tiered(*x, id=x[0]) for x in LEARNERS])
def test_train_prints_a_line_per_epoch_with_dev_mela(split_files, capsys, learner, params, epochs):
    out = split_files["tmp"] / f"{learner}.npz"
    assert cli.main(train_argv(split_files, learner, params, out)) == 0
    err = capsys.readouterr().err.splitlines()
    lines = [m for m in map(EPOCH_LINE.match, err) if m]
    assert [int(m["epoch"]) for m in lines] == list(range(1, epochs + 1)), err
    assert {m["learner"] for m in lines} == {learner}
    assert {int(m["total"]) for m in lines} == {epochs}
    assert all(0.0 <= float(m["mela"]) <= 100.0 for m in lines)
    closing = [line for line in err if line.startswith("coreflab train:")]
    assert len(closing) == 1 and f"{learner}: {epochs} epoch(s) in " in closing[0], err
    assert out.is_file()


def test_train_without_dev_split_still_counts_epochs(split_files, capsys):
    tr = split_files["train"]
    out = split_files["tmp"] / "nodev.npz"
    assert (
        cli.main(
            [
                "train",
                "--learner",
                "sumlink",
                "--compiled",
                tr[0],
                "--arcs",
                tr[1],
                "--params",
                '{"epochs": 3}',
                "--out",
                str(out),
            ]
        )
        == 0
    )
    err = capsys.readouterr().err
    assert err.count("dev MELA n/a (no dev split)") == 3
    assert "sumlink: 3 epoch(s) in " in err


def _one_line_error(capsys, argv):
    code = cli.main(argv)
    err = capsys.readouterr().err
    assert code == 2
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


@pytest.mark.parametrize(
    "params,name,kind",
    [
        ('{"n_iter": "ten"}', "n_iter", "an integer"),
        ('{"beam": 2.5}', "beam", "an integer"),
        ('{"average": "yes"}', "average", "true or false"),
        ('{"root_loss": [1]}', "root_loss", "a number"),
    ],
)
def test_parameter_type_error_is_one_line_naming_the_parameter(split_files, capsys, params, name, kind):
    tr = split_files["train"]
    line = _one_line_error(
        capsys,
        [
            "train",
            "--learner",
            "bk_baseline",
            "--compiled",
            tr[0],
            "--arcs",
            tr[1],
            "--params",
            params,
            "--out",
            str(split_files["tmp"] / "bad.npz"),
        ],
    )
    assert f"parameter {name!r} must be {kind}" in line
    assert line.startswith("coreflab train: error: bk_baseline:")


def test_integral_float_is_accepted_for_an_integer_parameter(split_files, capsys):
    tr = split_files["train"]
    assert (
        cli.main(
            [
                "train",
                "--learner",
                "bk_baseline",
                "--compiled",
                tr[0],
                "--arcs",
                tr[1],
                "--params",
                '{"n_iter": 1.0}',
                "--out",
                str(split_files["tmp"] / "float.npz"),
            ]
        )
        == 0
    )
    assert "bk_baseline: 1 epoch(s)" in capsys.readouterr().err


@pytest.mark.parametrize("slot", ["--compiled", "--arcs"])
def test_conll_file_given_as_npz_is_one_line_naming_the_file(split_files, capsys, slot):
    tr = split_files["train"]
    files = {"--compiled": tr[0], "--arcs": tr[1], slot: tr[2]}
    line = _one_line_error(
        capsys,
        [
            "train",
            "--learner",
            "bk_baseline",
            "--compiled",
            files["--compiled"],
            "--arcs",
            files["--arcs"],
            "--out",
            str(split_files["tmp"] / "bad.npz"),
        ],
    )
    assert tr[2] in line and "CoNLL-2012 text file" in line
    assert "allow_pickle" not in line


def test_predict_with_a_conll_file_as_model_is_one_line(split_files, capsys):
    dv = split_files["dev"]
    line = _one_line_error(
        capsys,
        [
            "predict",
            "--model",
            dv[2],
            "--compiled",
            dv[0],
            "--arcs",
            dv[1],
            "--conll",
            dv[2],
            "--out",
            str(split_files["tmp"] / "x.conll"),
        ],
    )
    assert dv[2] in line and "not a coreflab model file" in line


def test_npz_of_the_wrong_kind_names_what_it_is(split_files, capsys):
    tr = split_files["train"]
    line = _one_line_error(
        capsys,
        [
            "train",
            "--learner",
            "bk_baseline",
            "--compiled",
            tr[1],
            "--arcs",
            tr[1],
            "--out",
            str(split_files["tmp"] / "bad.npz"),
        ],
    )
    assert line.endswith(
        f"{tr[1]}: not a compiled corpus (the .npz written by `coreflab prepare`); "
        "it is an arc store from `coreflab features`"
    )


# ---- --tuned ----------------------------------------------------------------------------------


def _train(files, learner, params, out, *extra):
    return cli.main(train_argv(files, learner, params, out) + [str(x) for x in extra])


def test_tuned_fills_the_parameters_the_learner_takes_from_tuning(split_files):
    tmp = split_files["tmp"]
    tuned = tmp / "tuned.json"
    tuned.write_text('{"root_loss": 0.5, "reason": "test"}')
    assert _train(split_files, "bk_baseline", '{"n_iter": 1}', tmp / "tuned.npz", "--tuned", tuned) == 0
    assert Learner.load(tmp / "tuned.npz").root_loss == 0.5
    # a value of the params' own wins
    params = '{"n_iter": 1, "root_loss": 1.0}'
    assert _train(split_files, "bk_baseline", params, tmp / "own.npz", "--tuned", tuned) == 0
    assert Learner.load(tmp / "own.npz").root_loss == 1.0


def test_tuned_for_a_learner_taking_nothing_from_tuning_is_refused(split_files, capsys):
    tmp = split_files["tmp"]
    tuned = tmp / "tuned2.json"
    tuned.write_text('{"root_loss": 0.5}')
    code = _train(split_files, "l3m", '{"epochs": 1}', tmp / "y.npz", "--tuned", tuned)
    err = capsys.readouterr().err
    assert code == 2 and "l3m takes no parameter from tuning" in err and "Traceback" not in err
    assert not (tmp / "y.npz").exists()


def test_tuned_reads_a_grid_searchs_best_setting_for_the_parameters_params_leave(split_files, capsys):
    """H&M's tuning writes {"best": {"params": ...}}: the LSPs take C and r from it, unless params set them;
    a file holding none of them, or a parameter no --tuned gives, is a one-line error."""
    tmp = split_files["tmp"]
    grid = tmp / "lsp_f.json"
    grid.write_text('{"best": {"epoch": 3, "mela": 50.0, "params": {"C": 100.0, "r": 0.5}}, "learner": "lsp_f"}')
    assert _train(split_files, "lsp_f", '{"n_iter": 1}', tmp / "lsp.npz", "--tuned", grid) == 0
    model = Learner.load(tmp / "lsp.npz")
    assert (model.C, model.r) == (100.0, 0.5)
    assert _train(split_files, "lsp_f", '{"n_iter": 1, "C": 2.0}', tmp / "lsp2.npz", "--tuned", grid) == 0
    assert (Learner.load(tmp / "lsp2.npz").C, Learner.load(tmp / "lsp2.npz").r) == (2.0, 0.5)
    capsys.readouterr()
    root = tmp / "root.json"
    root.write_text('{"root_loss": 0.5}')
    assert _train(split_files, "lsp_f", '{"n_iter": 1}', tmp / "lsp3.npz", "--tuned", root) == 2
    err = capsys.readouterr().err
    assert f"--tuned {root}: holds none of the tuned parameters C, r" in err and "Traceback" not in err
    half = tmp / "half.json"
    half.write_text('{"best": {"params": {"C": 10.0}}}')
    assert _train(split_files, "lsp_f", '{"n_iter": 1}', tmp / "lsp4.npz", "--tuned", half) == 2
    assert "--tuned gives no r (tuned parameters: C, r)" in capsys.readouterr().err
    assert not (tmp / "lsp3.npz").exists() and not (tmp / "lsp4.npz").exists()


def test_read_tuned_args_takes_a_fitted_files_path_as_its_value(tmp_path):
    from coreflab.learn.tuned import read_tuned_args

    grid = tmp_path / "lsp_rho.json"
    grid.write_text('{"best": {"params": {"C": 1000.0}}}')
    got = read_tuned_args([str(grid), "regressor=results/x/regressor.json"], ["C", "regressor"])
    assert got == {"C": 1000.0, "regressor": "results/x/regressor.json"}


@pytest.mark.slow
def test_a_warning_is_one_line_naming_the_verb_not_our_source(split_files, tmp_path):
    """A fit that stops at its iteration cap warns; the log gets `coreflab train: warning: ...`
    alone, without Python's file, line number and code line."""
    import subprocess
    import sys

    argv = train_argv(split_files, "cc_base", '{"max_iter": 1}', tmp_path / "capped.npz")
    done = subprocess.run([sys.executable, "-m", "coreflab.cli", *argv], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    warned = [line for line in done.stderr.splitlines() if "warning" in line.split(" -> ")[0].lower()]
    assert warned == [
        "coreflab train: warning: newton failed to converge after 1 iteration(s) (status=1): STOP: ITERATION CAP"
    ], done.stderr
    assert ".py:" not in done.stderr and "fit_logistic(" not in done.stderr


@pytest.mark.parametrize(
    "learner, key, extra",
    [
        ("bk_baseline", "n_iter", ""),
        ("bk_delayed_laso", "n_iter", ', "beam": 4'),
        ("sumlink", "epochs", ""),
        ("cc_slt_closest", "em_iterations", ', "max_iter": 30'),
    ],
)
def test_out_epoch_writes_that_epochs_model_while_the_curve_goes_on(split_files, capsys, learner, key, extra):
    """`--out-epoch 2` of a 3-epoch run writes the model a 2-epoch run ends with (same seed: the
    epochs shuffle alike), and the curve still has all 3 epochs."""
    short, snap = split_files["tmp"] / f"{learner}-2.npz", split_files["tmp"] / f"{learner}-3at2.npz"
    assert cli.main(train_argv(split_files, learner, f'{{"{key}": 2{extra}}}', short)) == 0
    argv = train_argv(split_files, learner, f'{{"{key}": 3{extra}}}', snap) + ["--out-epoch", "2"]
    assert cli.main(argv) == 0
    err = capsys.readouterr().err.splitlines()
    assert [int(m["epoch"]) for m in map(EPOCH_LINE.match, err) if m][-3:] == [1, 2, 3]
    assert any(f"{learner}: 3 epoch(s) in " in line and "-> epoch 2 " in line for line in err), err
    np.testing.assert_array_equal(Learner.load(snap).coef_, Learner.load(short).coef_)
    assert Learner.load(snap).coef_.any()


def test_out_epoch_beyond_the_run_is_refused_before_training(split_files, capsys):
    out = split_files["tmp"] / "beyond.npz"
    line = _one_line_error(capsys, train_argv(split_files, "bk_baseline", '{"n_iter": 2}', out) + ["--out-epoch", "3"])
    assert "--out-epoch 3: the learner trains 2 epoch(s)" in line
    assert not out.exists()


@pytest.mark.parametrize(
    "learner, extra", [_tiered(x[0], x[1][1:-1].replace('"epochs": 2', ""), id=x[0]) for x in LEARNERS[4:]]
)
def test_clustering_learners_keep_the_epoch_of_the_best_dev_mela(split_files, capsys, learner, extra):
    """Samdani et al.'s passes are tuned on dev: a 4-epoch run of a clustering learner writes the model
    of its best dev epoch (the first of equals), which is what a run of that many epochs ends with
    (same seed: the epochs shuffle alike); the curve still has all 4 epochs."""
    import pandas as pd

    tmp = split_files["tmp"]
    curve, out = tmp / f"{learner}-best.csv", tmp / f"{learner}-best.npz"
    params = "{" + ", ".join(p for p in ('"epochs": 4', extra.strip(", ")) if p) + "}"
    assert cli.main(train_argv(split_files, learner, params, out) + ["--curve", str(curve)]) == 0
    mela = pd.read_csv(curve).query("metric == 'mela'").set_index("epoch")["f1"]
    assert list(mela.index) == [1, 2, 3, 4]
    best = int(mela.idxmax())
    assert best == int(mela[mela == mela.max()].index.min())
    closing = [line for line in capsys.readouterr().err.splitlines() if line.startswith("coreflab train:")]
    assert "4 epoch(s) in " in closing[0] and f"-> epoch {best} (best dev MELA {mela[best]:.2f}) " in closing[0]
    short = tmp / f"{learner}-{best}.npz"
    params_short = params.replace('"epochs": 4', f'"epochs": {best}')
    assert cli.main(train_argv(split_files, learner, params_short, short)) == 0
    np.testing.assert_array_equal(Learner.load(out).coef_, Learner.load(short).coef_)
    assert Learner.load(out).epochs_done_ == best


def test_learners_without_dev_tuned_epochs_keep_their_last_epoch(split_files, capsys):
    """B&K's learners report their last iteration (the papers' fixed iteration counts)."""
    out = split_files["tmp"] / "bk-last.npz"
    assert cli.main(train_argv(split_files, "bk_baseline", '{"n_iter": 3}', out)) == 0
    closing = [line for line in capsys.readouterr().err.splitlines() if line.startswith("coreflab train:")]
    assert closing[0].endswith(f"-> {out}") and "best dev" not in closing[0]
