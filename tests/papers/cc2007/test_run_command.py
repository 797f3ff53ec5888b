"""`coreflab cc2007 run` with several learners in one job: the same rows as one job per learner
(they share iteration 1, the same fit on y*), and one-line errors for unpaired options."""

import pytest

from coreflab import cli
from coreflab.corpus.compile import compile_documents
from coreflab.corpus.readers.conll import write_conll
from coreflab.corpus.synthetic.generator import generate_corpus
from coreflab.features.extract import extract_arc_store

FEATURES = ["bias", "ana_type", "ana_type+ante_type", "sent_dist", "exact_match", "head_match"]
LEARNERS = ("cc_base", "cc_slt_closest", "cc_slt_preserving")


@pytest.fixture(scope="module")
def split_args(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("cc2007")
    docs = generate_corpus("tiny", seed=0)
    args = []
    for split in ("train", "test"):
        corpus = compile_documents(docs[split], "synth", split)
        corpus.save(tmp / f"{split}.npz")
        extract_arc_store(corpus, FEATURES, n_bits=16).save(tmp / f"{split}_arcs.npz")
        write_conll(docs[split], tmp / f"{split}.conll")
        args += [f"--{split}-compiled", str(tmp / f"{split}.npz"), f"--{split}-arcs", str(tmp / f"{split}_arcs.npz")]
        args += [f"--{split}-conll", str(tmp / f"{split}.conll")]
    return args


def _run(split_args, learners, outs, extra=()):
    argv = ["cc2007", "run", "--bias", "pa", "--bias-weight", "3", "--em-iterations", "3", *split_args, *extra]
    for learner, out in zip(learners, outs):
        argv += ["--learner", learner, "--out", str(out)]
    return cli.main(argv)


def test_one_job_for_three_learners_writes_the_rows_of_three_jobs(split_args, tmp_path):
    together = [tmp_path / f"together_{k}.csv" for k in LEARNERS]
    assert _run(split_args, LEARNERS, together) == 0
    for learner, path in zip(LEARNERS, together):
        alone = tmp_path / f"alone_{learner}.csv"
        assert _run(split_args, [learner], [alone]) == 0
        assert path.read_bytes() == alone.read_bytes()
        assert f"{learner},pa,3.0" in path.read_text()


def test_unpaired_learner_and_out_is_a_one_line_error(split_args, tmp_path, capsys):
    argv = ["cc2007", "run", *split_args, "--learner", "cc_base", "--learner", "cc_slt_closest"]
    assert cli.main(argv + ["--out", str(tmp_path / "a.csv")]) == 2
    assert "2 --learner but 1 --out" in capsys.readouterr().err


def test_max_iter_is_the_solver_budget_of_every_fit(split_args, tmp_path):
    """--max-iter reaches the pair model (config/gum.yaml lowers it for run time)."""
    from coreflab.learn.base import Learner

    model = tmp_path / "m.npz"
    argv = ["cc2007", "run", *split_args, "--learner", "cc_base", "--out", str(tmp_path / "a.csv")]
    assert cli.main(argv + ["--max-iter", "2", "--model", str(model)]) == 0
    assert Learner.load(model).max_iter == 2
    assert cli.main(argv[:-1] + [str(tmp_path / "b.csv"), "--max-iter", "300"]) == 0
    assert (tmp_path / "a.csv").read_bytes() != (tmp_path / "b.csv").read_bytes()


def _train(split_args, learner, params, out):
    """`coreflab train` of a C&C learner on the split_args training split (as the leaderboard does)."""
    import json

    named = dict(zip(split_args[::2], split_args[1::2]))
    argv = ["train", "--learner", learner, "--compiled", named["--train-compiled"], "--arcs", named["--train-arcs"]]
    return cli.main(argv + ["--params", json.dumps(params), "--out", str(out)])


def test_a_fitted_model_stands_in_for_its_fit_with_the_same_rows(split_args, tmp_path):
    """The unbiased job scores the leaderboard's models instead of fitting them again: same rows."""
    models = {k: tmp_path / f"{k}.npz" for k in LEARNERS[:2]}
    assert _train(split_args, "cc_base", {"bias_weight": 1.5}, models["cc_base"]) == 0
    assert _train(split_args, "cc_slt_closest", {"em_iterations": 3}, models["cc_slt_closest"]) == 0
    fitted = [f"--fitted={k}={p}" for k, p in models.items()]
    for tag, extra in (("fit", []), ("stand_in", fitted)):
        outs = [tmp_path / f"{tag}_{k}.csv" for k in LEARNERS]
        assert _run(split_args, LEARNERS, outs, ["--bias", "none", *extra]) == 0
    for learner in LEARNERS:
        assert (tmp_path / f"fit_{learner}.csv").read_bytes() == (tmp_path / f"stand_in_{learner}.csv").read_bytes()


def test_a_fitted_model_of_other_settings_is_a_one_line_error(split_args, tmp_path, capsys):
    model = tmp_path / "m.npz"
    assert _train(split_args, "cc_base", {"max_iter": 5}, model) == 0
    argv = ["cc2007", "run", *split_args, "--learner", "cc_base", "--out", str(tmp_path / "a.csv")]
    assert cli.main(argv + ["--fitted", f"cc_base={model}"]) == 2
    assert "m.npz: fitted as cc_base" in capsys.readouterr().err
    assert cli.main(argv + ["--fitted", f"cc_slt_closest={model}"]) == 2
    assert "not one of this job's --learner" in capsys.readouterr().err


def test_every_iteration_prints_its_test_muc_and_seconds(split_args, tmp_path, capsys):
    """A line per EM iteration (`<learner> bias=pa λ=3: iteration t/T: test MUC F1 x, a s fit + b s
    scoring`), its MUC F1 the test row of the CSV written."""
    import re

    import pandas as pd

    outs = [tmp_path / f"{k}.csv" for k in LEARNERS]
    assert _run(split_args, LEARNERS, outs) == 0
    line = re.compile(
        r"^(\w+) bias=pa λ=3: iteration (\d)/(\d): test MUC F1 (\d+\.\d\d), \d+\.\d s fit \+ \d+\.\d s scoring$"
    )
    found = [m.groups() for m in map(line.match, capsys.readouterr().out.splitlines()) if m]
    expected = [("cc_base", 1, 1)] + [(k, t, 3) for k in LEARNERS[1:] for t in (1, 2, 3)]
    assert [(k, int(t), int(n)) for k, t, n, _ in found] == expected
    for learner, t, _, muc in found:
        df = pd.read_csv(tmp_path / f"{learner}.csv")
        row = df[(df.iteration == int(t)) & (df.split == "test") & (df.measure == "muc_f1")]
        assert float(muc) == pytest.approx(float(row.value.iloc[0]), abs=0.005)


def test_every_fit_records_its_convergence_and_every_table_states_it(split_args, tmp_path, capsys):
    """Issue 43 item 7: each EM iteration's rows include how its fit converged (split "fit"), and the
    tables' captions say that every fit met the solver's tolerance (or which did not)."""
    import pandas as pd

    from coreflab.learn.pairwise.pair_logistic import TOL

    outs = [tmp_path / f"{k}.csv" for k in LEARNERS]
    assert _run(split_args, LEARNERS, outs) == 0
    assert "solver: newton, " in capsys.readouterr().out
    unbiased = [tmp_path / f"{k}-none.csv" for k in LEARNERS]
    assert _run(split_args, LEARNERS, unbiased, ["--bias", "none"]) == 0
    for learner, out in zip(LEARNERS, outs):
        fits = (
            pd.read_csv(out).query("split == 'fit'").pivot_table(index="iteration", columns="measure", values="value")
        )
        assert list(fits.index) == ([1] if learner == "cc_base" else [1, 2, 3])
        assert (fits.converged == 1).all() and (fits.grad_norm_rel <= TOL).all() and (fits.tol == TOL).all()
    tables = tmp_path / "tables"
    argv = ["cc2007", "tables", "--runs", *map(str, outs + unbiased), "--corpus", "synth", "--out-dir", str(tables)]
    assert cli.main(argv) == 0
    for name, n_fits in (("table1", 7), ("table2", 2), ("table3", 12)):
        caption = (tables / f"{name}.md").read_text().splitlines()[0]
        assert f"Solver: all {n_fits} fits converged: ‖∇f‖ ≤ {TOL:g}·‖∇f(0)‖" in caption, caption


def test_the_leaderboard_slt_takes_base_as_its_first_fit_bit_for_bit(split_args, tmp_path):
    """`coreflab train --first-fit`: SLT's iteration 1 is BASE's model, the same coefficients as fitting it."""
    from coreflab.learn.base import Learner

    base, alone, shared = (tmp_path / f"{k}.npz" for k in ("base", "alone", "shared"))
    assert _train(split_args, "cc_base", {"max_iter": 50}, base) == 0
    params = {"em_iterations": 3, "max_iter": 50}
    assert _train(split_args, "cc_slt_closest", params, alone) == 0
    named = dict(zip(split_args[::2], split_args[1::2]))
    argv = ["train", "--learner", "cc_slt_closest", "--compiled", named["--train-compiled"]]
    argv += ["--arcs", named["--train-arcs"], "--params", '{"em_iterations": 3, "max_iter": 50}']
    assert cli.main(argv + ["--first-fit", str(base), "--out", str(shared)]) == 0
    assert Learner.load(alone).coef_.tolist() == Learner.load(shared).coef_.tolist()


def test_a_first_fit_of_other_settings_is_a_one_line_error(split_args, tmp_path, capsys):
    base = tmp_path / "base.npz"
    assert _train(split_args, "cc_base", {"max_iter": 5}, base) == 0
    named = dict(zip(split_args[::2], split_args[1::2]))
    argv = ["train", "--learner", "cc_slt_closest", "--compiled", named["--train-compiled"]]
    argv += ["--arcs", named["--train-arcs"], "--first-fit", str(base), "--out", str(tmp_path / "m.npz")]
    assert cli.main(argv) == 2
    assert "other settings" in capsys.readouterr().err


def test_a_job_warm_started_from_base_converges_to_its_rows(split_args, tmp_path, capsys):
    """--warm-start: the biased job's first fit starts from the unbiased BASE model, converges by the
    same criterion (its rows say so), and its pair decisions are those of the cold job but where the
    optimum is not pinned down by the tolerance (here: none)."""
    import pandas as pd

    base = tmp_path / "base.npz"
    assert _train(split_args, "cc_base", {}, base) == 0
    cold = [tmp_path / f"cold_{k}.csv" for k in LEARNERS]
    warm = [tmp_path / f"warm_{k}.csv" for k in LEARNERS]
    assert _run(split_args, LEARNERS, cold) == 0
    capsys.readouterr()
    assert _run(split_args, LEARNERS, warm, ["--warm-start", str(base)]) == 0
    assert "converged, warm-started" in capsys.readouterr().out
    for c, w in zip(cold, warm):
        a, b = pd.read_csv(c), pd.read_csv(w)
        fits = b.query("split == 'fit'").pivot_table(index="iteration", columns="measure", values="value")
        assert (fits.converged == 1).all()
        scores = ["split != 'fit'"]
        pd.testing.assert_frame_equal(
            a.query(scores[0]).reset_index(drop=True), b.query(scores[0]).reset_index(drop=True)
        )


def test_a_warm_start_from_other_features_is_a_one_line_error(split_args, tmp_path, capsys):
    import numpy as np

    from coreflab.learn.base import Learner

    base = tmp_path / "base.npz"
    assert _train(split_args, "cc_base", {}, base) == 0
    model = Learner.load(base)
    model.feature_ids_ = [i + 1 for i in model.feature_ids_]
    model.coef_ = np.asarray(model.coef_)
    model.save(tmp_path / "other.npz")
    argv = ["cc2007", "run", *split_args, "--learner", "cc_base", "--out", str(tmp_path / "a.csv")]
    assert cli.main(argv + ["--warm-start", str(tmp_path / "other.npz")]) == 2
    assert "other training features" in capsys.readouterr().err
