"""`coreflab l3m2014` studies and the L3M tables on the tiny synthetic corpus."""

import numpy as np
import pandas as pd
import pytest

from coreflab.cli import main
from coreflab.corpus.compile import compile_documents
from coreflab.corpus.readers.conll import read_conll_path, write_conll
from coreflab.corpus.synthetic.generator import generate_corpus
from coreflab.features.extract import extract_arc_store
from coreflab.learn.base import as_training_data
from coreflab.learn.evaluation import avg_row, score_model
from coreflab.learn.io import load_split
from coreflab.learn.leftlink.l3m import L3M

FEATURES = ["bias", "ana_type", "ana_type+ante_type", "sent_dist", "exact_match", "head_match"]


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("l3m")
    docs = generate_corpus("tiny", seed=0)
    out = {}
    for split in ("train", "dev", "test"):
        corpus = compile_documents(docs[split], "synth", split)
        corpus.save(tmp / f"{split}.npz")
        extract_arc_store(corpus, FEATURES, n_bits=14).save(tmp / f"{split}_arcs.npz")
        write_conll(docs[split], tmp / f"{split}.conll")
        out[split] = [str(tmp / f"{split}.npz"), str(tmp / f"{split}_arcs.npz"), str(tmp / f"{split}.conll")]
    out["tmp"] = tmp
    return out


def _argv(files, *extra):
    argv = list(extra)
    for split in ("train", "dev", "test"):
        argv += [
            f"--{split}-compiled",
            files[split][0],
            f"--{split}-arcs",
            files[split][1],
            f"--{split}-conll",
            files[split][2],
        ]
    return argv


def _run(argv):
    """`coreflab l3m2014 <study> ...` (the study is the first word of argv)."""
    return main(["l3m2014", *argv])


def test_robustness_scores_the_training_split_and_reports_test_too(files):
    out = files["tmp"] / "robustness.csv"
    assert _run(_argv(files, "robustness", "--runs", "3", "--seed", "2", "--out", str(out))) == 0
    df = pd.read_csv(out)
    assert len(df) == 4 and {"AVG", "test AVG"} <= set(df.columns)
    train = as_training_data(load_split(files["train"][0], files["train"][1]))
    test = as_training_data(load_split(files["test"][0], files["test"][1]))
    zero = L3M(gamma=1.0, lam=1e-4, eta0=0.1, epochs=1, seed=2).fit(train)
    on_train = avg_row(score_model(zero, train.corpus, train.store, read_conll_path(files["train"][2])))
    on_test = avg_row(score_model(zero, test.corpus, test.store, read_conll_path(files["test"][2])))
    row = df[df["run"].astype(str) == "zero-init"].iloc[0]
    assert row["AVG"] == pytest.approx(on_train["AVG"], abs=1e-5)
    assert row["test AVG"] == pytest.approx(on_test["AVG"], abs=1e-5)
    # the runs differ only in their initialisation: run k is L3M with init_seed = seed + 1000 + k
    first = L3M(gamma=1.0, lam=1e-4, eta0=0.1, epochs=1, seed=2, init="normal", init_seed=1002).fit(train)
    again = avg_row(score_model(first, train.corpus, train.store, read_conll_path(files["train"][2])))
    assert df[df["run"].astype(str) == "0"].iloc[0]["AVG"] == pytest.approx(again["AVG"], abs=1e-5)


def _curve_rows(learner, gamma, lam, eta0, dev_avgs, test_avgs, exact=None):
    rows = []
    for epoch, (d, t) in enumerate(zip(dev_avgs, test_avgs), start=1):
        for split, avg in (("dev", d), ("test", t)):
            row = {
                "learner": learner,
                "gamma": gamma,
                "lam": lam,
                "eta0": eta0,
                "epoch": epoch,
                "split": split,
                "MUC": avg,
                "B3": avg,
                "CEAFe": avg,
                "AVG": avg,
            }
            if exact is not None:
                row["exact"], row["fallback"] = exact
            rows.append(row)
    return rows


def test_table1_tunes_lambda_and_eta0_on_dev_and_reports_the_exact_share():
    from coreflab.papers.l3m2014.report import table1

    curves = pd.DataFrame(
        _curve_rows("sumlink", np.nan, 1e-4, 0.1, [50, 52], [40, 41])
        + _curve_rows("sumlink", np.nan, 1e-3, 0.1, [51, 49], [45, 30])  # best 1-pass dev: λ = 1e-3
        + _curve_rows("sumlink", np.nan, 1e-3, 0.3, [20, 53], [10, 20])  # best dev overall: 2 passes, η0 = 0.3
        + _curve_rows("corr_clustering", np.nan, 1e-4, 0.1, [30], [31], exact=(3, 1))
        + _curve_rows("l3m", 0.0, 1e-4, 0.1, [60], [61])
        + _curve_rows("l3m", 0.5, 1e-3, 0.1, [62], [58])
    )
    t = table1(curves).set_index(["technique", "setting"])
    assert t.loc[("Sum-Link", "1 pass"), ["λ", "η0", "AVG", "passes"]].tolist() == ["10^-3", 0.1, 45, 1]
    assert t.loc[("Sum-Link", "tuned"), ["λ", "η0", "AVG", "passes"]].tolist() == ["10^-3", 0.3, 20, 2]
    assert t.loc[("Corr-Clustering", "1 pass"), "exact %"] == pytest.approx(75.0)
    assert t.loc[("L3M (tuned γ)", "1 pass"), ["gamma", "λ", "AVG"]].tolist() == [0.5, "10^-3", 58]
    assert t.loc[("L3M (γ = 0)", "1 pass"), ["gamma", "λ", "AVG"]].tolist() == [0.0, "10^-4", 61]


def test_power_of_ten():
    from coreflab.papers.l3m2014.report import power_of_ten

    assert [power_of_ten(x) for x in (1e-4, 3e-5, 0.1, 1.0)] == ["10^-4", "3×10^-5", "10^-1", "10^0"]


def test_curves_train_every_grid_point(files):
    out = files["tmp"] / "curves.csv"
    assert (
        _run(
            _argv(
                files,
                "curves",
                "--learner",
                "sumlink",
                "--passes",
                "2",
                "--grid",
                '{"lam": [1e-4, 1e-2], "eta0": [0.5]}',
                "--out",
                str(out),
            )
        )
        == 0
    )
    df = pd.read_csv(out)
    assert sorted(set(zip(df["lam"], df["eta0"]))) == [(1e-4, 0.5), (1e-2, 0.5)]
    assert len(df) == 2 * 2 * 2  # grid points × passes × (dev, test)
    assert _run(_argv(files, "curves", "--learner", "sumlink", "--grid", '{"gamma": [1]}', "--out", str(out))) == 2
