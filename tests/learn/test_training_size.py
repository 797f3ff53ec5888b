"""Training-size curves (`coreflab.learn.training_size`, `coreflab training-size` and
`training-size-report`): seeded, distinct draws; a size at or above the split's is the whole split;
a row for every learner, size and draw on the tiny corpus, the same on a second run; and the
"all" point of draw 0 is what `coreflab train` fits with the same seed, scored as the leaderboard does."""

import json

import numpy as np
import pandas as pd
import pytest

from coreflab.commands import predict as predict_cmd
from coreflab.commands import score as score_cmd
from coreflab.commands import train as train_cmd
from coreflab.commands import training_size as curve_cmd
from coreflab.commands import training_size_report as report_cmd
from coreflab.corpus.compile import compile_documents
from coreflab.corpus.readers.conll import write_conll
from coreflab.corpus.synthetic.generator import generate_corpus
from coreflab.errors import UserError
from coreflab.features.extract import extract_arc_store
from coreflab.learn.training_size import draw_documents, plan_sizes
from tests.command_runner import run_command

FEATURES = ["bias", "ana_type", "ana_type+ante_type", "sent_dist", "exact_match", "head_match"]
# l3m: its passes are tuned on dev (best dev epoch), as `coreflab train` keeps them
LEARNERS = {"bk_baseline": '{"n_iter": 2}', "l3m": '{"epochs": 2, "gamma": 0.2}'}


def test_sizes_at_or_above_the_split_are_all():
    assert plan_sizes([5, 10, 20, 40, 80], 12) == [("5", 5), ("10", 10), ("all", 12)]
    assert plan_sizes([80, 5, 12, 5], 12) == [("5", 5), ("all", 12)]
    assert plan_sizes([5, 10], 200) == [("5", 5), ("10", 10), ("all", 200)]
    with pytest.raises(UserError, match="at least 1"):
        plan_sizes([0, 5], 12)


def test_draws_are_seeded_distinct_and_do_not_change_when_more_are_asked():
    a = draw_documents(200, 20, 3, seed=1)
    b = draw_documents(200, 20, 3, seed=1)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    assert len({x.tobytes() for x in a}) == 3  # distinct document sets
    for x in a:
        assert x.size == 20 and np.array_equal(x, np.unique(x)) and x.min() >= 0 and x.max() < 200
    more = draw_documents(200, 20, 5, seed=1)
    assert all(np.array_equal(x, y) for x, y in zip(a, more[:3]))
    other = draw_documents(200, 20, 3, seed=2)
    assert not any(np.array_equal(x, y) for x, y in zip(a, other))
    # draws of another size are their own (not the first documents of this size's)
    assert not np.array_equal(draw_documents(200, 10, 1, seed=1)[0], a[0][:10])


def test_a_size_with_fewer_distinct_sets_than_draws_has_them_all_and_all_is_the_whole_split():
    few = draw_documents(6, 5, 10, seed=1)
    assert len(few) == 6 and len({x.tobytes() for x in few}) == 6
    whole = draw_documents(12, 12, 3, seed=1) + draw_documents(12, 40, 3, seed=1)
    assert len(whole) == 6 and all(np.array_equal(x, np.arange(12)) for x in whole)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("training_size")
    docs = generate_corpus("tiny", seed=0)
    out = {"tmp": tmp}
    for split in ("train", "dev", "test"):
        corpus = compile_documents(docs[split], "synth", split)
        corpus.save(tmp / f"{split}.npz")
        extract_arc_store(corpus, FEATURES, n_bits=16).save(tmp / f"{split}_arcs.npz")
        write_conll(docs[split], tmp / f"{split}.conll")
        out[split] = [str(tmp / f"{split}.npz"), str(tmp / f"{split}_arcs.npz"), str(tmp / f"{split}.conll")]
    return out


def _curve_argv(files, learner, out):
    tr, dv, te = files["train"], files["dev"], files["test"]
    return [
        "--learner", learner, "--params", LEARNERS[learner],
        "--train-compiled", tr[0], "--train-arcs", tr[1],
        "--dev-compiled", dv[0], "--dev-arcs", dv[1], "--dev-conll", dv[2],
        "--test-compiled", te[0], "--test-arcs", te[1], "--test-conll", te[2],
        "--sizes", "5", "10", "20", "--draws", "3", "--seed", "4", "--out", str(out),
    ]  # fmt: skip


@pytest.fixture(scope="module")
def curves(files):
    out = {}
    for learner in LEARNERS:
        path = files["tmp"] / f"{learner}.csv"
        assert run_command(curve_cmd, _curve_argv(files, learner, path)) == 0
        out[learner] = path
    return out


def test_a_row_for_every_learner_size_and_draw(curves):
    for learner, path in curves.items():
        df = pd.read_csv(path, dtype={"size": str})
        # 12 training documents: 5, 10 and all (20 is above the split)
        got = sorted(zip(df["size"], df["train_docs"], df["draw"], df["seed"]))
        want = sorted((s, n, d, 4 + d) for s, n in (("5", 5), ("10", 10), ("all", 12)) for d in range(3))
        assert got == want, learner
        assert set(df["learner"]) == {learner}
        assert df["mela"].between(0, 100).all() and (df["epochs"] >= 1).all()
        assert np.allclose(df["mela"], df[["muc", "bcub", "ceafe"]].mean(axis=1))


def test_the_curve_is_the_same_on_a_second_run(files, curves, tmp_path):
    again = tmp_path / "again.csv"
    assert run_command(curve_cmd, _curve_argv(files, "l3m", again)) == 0
    a, b = pd.read_csv(curves["l3m"]), pd.read_csv(again)
    pd.testing.assert_frame_equal(a.drop(columns="seconds"), b.drop(columns="seconds"))


@pytest.mark.parametrize("learner", sorted(LEARNERS))
def test_all_draw_0_is_what_coreflab_train_fits_with_that_seed(files, curves, learner, tmp_path, capsys):
    tr, dv, te = files["train"], files["dev"], files["test"]
    model, pred = tmp_path / "model.npz", tmp_path / "pred.conll"
    train = ["--learner", learner, "--compiled", tr[0], "--arcs", tr[1], "--params", LEARNERS[learner]]
    train += ["--dev-compiled", dv[0], "--dev-arcs", dv[1], "--dev-conll", dv[2], "--seed", "4", "--out", model]
    assert run_command(train_cmd, train) == 0
    predict = ["--model", model, "--compiled", te[0], "--arcs", te[1], "--conll", te[2], "--out", pred]
    assert run_command(predict_cmd, predict) == 0
    capsys.readouterr()
    assert run_command(score_cmd, [te[2], pred, "--format", "json"]) == 0
    mela = json.loads(capsys.readouterr().out)["mela"]
    df = pd.read_csv(curves[learner], dtype={"size": str})
    assert df[(df["size"] == "all") & (df["draw"] == 0)]["mela"].item() == pytest.approx(mela, abs=1e-6)


def test_the_report_reads_the_curves_against_the_rules(files, curves, tmp_path):
    sieve, string_match = tmp_path / "sieve.json", tmp_path / "string_match.json"
    sieve.write_text(json.dumps({"mela": 30.0}))
    string_match.write_text(json.dumps({"mela": 20.0}))
    out = tmp_path / "report"
    argv = [arg for path in curves.values() for arg in ("--curve", path)]
    argv += ["--rule", f"sieve={sieve}", "--rule", f"string_match={string_match}", "--left-out", "lsp_rho"]
    argv += ["--run", "synth, gold mentions", "--out", out]
    assert run_command(report_cmd, argv) == 0
    for name in ("curve.csv", "curve.md", "crossover.json", "figure.png", "figure.pdf"):
        assert (out / name).stat().st_size > 0, name
    record = json.loads((out / "crossover.json").read_text())
    assert set(record["by_learner"]) == set(LEARNERS) and record["largest"] == 12
    assert record["statement"].startswith(("Learning overtakes the sieve from", "Learning does not overtake"))
    assert "LSP_ρ is left out: this config does not configure it" in (out / "curve.md").read_text()
    with pytest.raises(UserError, match="--rule sieve=JSON is required"):
        run_command(report_cmd, ["--curve", curves["l3m"], "--rule", f"string_match={string_match}", "--out", out])
