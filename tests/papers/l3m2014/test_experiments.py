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
    assert len(df) == 2 * 3 + 1 and {"AVG", "test AVG", "init sd", "learned RMS"} <= set(df.columns)
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
    at_one = df[(df["run"].astype(str) == "0") & (df["init sd"] == 1.0)]
    assert at_one.iloc[0]["AVG"] == pytest.approx(again["AVG"], abs=1e-5)


def _splits(files):
    train = as_training_data(load_split(files["train"][0], files["train"][1]))
    test = as_training_data(load_split(files["test"][0], files["test"][1]))
    return train, test, read_conll_path(files["train"][2]), read_conll_path(files["test"][2])


def test_robustness_runs_at_the_configured_sd_and_at_the_learned_rms(files):
    from coreflab.papers.l3m2014 import report
    from coreflab.papers.l3m2014.experiments import RobustnessSettings, learned_rms, robustness, used_slots

    train, test, train_key, key = _splits(files)
    lines = []
    df = robustness(RobustnessSettings(runs=3, seed=2, init_sd=2.0), train, test, key, train_key, log=lines.append)
    zero = L3M(gamma=1.0, lam=1e-4, eta0=0.1, epochs=1, seed=2).fit(train)
    rms = learned_rms(zero.coef_, used_slots(train))
    assert 0 < rms < 2.0 and np.allclose(df["learned RMS"], rms)
    runs = df[df["run"].astype(str) != "zero-init"]
    assert sorted(runs["init sd"].round(9).unique()) == sorted([round(rms, 9), 2.0]) and len(runs) == 6
    assert df[df["run"].astype(str) == "zero-init"]["init sd"].tolist() == [0.0]
    # a start at the learned scale is the same draw, scaled: L3M with init_scale = the RMS
    first = L3M(gamma=1.0, lam=1e-4, eta0=0.1, epochs=1, seed=2, init="normal", init_scale=rms, init_seed=1002)
    again = avg_row(score_model(first.fit(train), train.corpus, train.store, train_key))
    learned = runs[np.isclose(runs["init sd"], rms)].set_index("run")
    assert learned.loc[0, "AVG"] == pytest.approx(again["AVG"], abs=1e-5)
    assert "3 random starts at each of init sd 2" in lines[0]
    table = report.robustness(df).set_index("split")
    assert table.loc["train", "runs"] == 3 and table.loc["train", "init sd"] == 2.0
    assert table.loc["train", "learned RMS"] == pytest.approx(rms)
    at_two = runs[runs["init sd"] == 2.0]
    assert table.loc["train", "AVG std"] == pytest.approx(at_two["AVG"].std(ddof=1))
    assert table.loc["train", "AVG std (learned scale)"] == pytest.approx(learned["AVG"].std(ddof=1))
    assert table.loc["test", "AVG std (learned scale)"] == pytest.approx(learned["test AVG"].std(ddof=1))
    # two jobs: the same rows; a budget of 6 passes over the training split fits fewer runs
    assert robustness(RobustnessSettings(runs=3, seed=2, init_sd=2.0, jobs=2), train, test, key, train_key).equals(df)
    small = robustness(RobustnessSettings(runs=30, seed=2, max_passes=6), train, test, key, train_key, log=lines.append)
    per_run = 2 * int(train.store.m_arc_offsets[-1]) + int(test.store.m_arc_offsets[-1])
    expected = max(2, (6 * int(train.store.m_arc_offsets[-1]) // per_run - 1) // 2)
    assert (small["run"].astype(str) != "zero-init").sum() == 2 * expected and f"{expected} random starts" in lines[-1]


def test_cccp_vs_sgd_cuts_documents_to_their_first_mentions(files):
    out = files["tmp"] / "cccp_cut.csv"
    argv = ["cccp_vs_sgd", "--docs", "4", "--draws", "2", "--max-outer", "20", "--max-mentions", "5", "--jobs", "2"]
    assert _run(_argv(files, *argv, "--out", str(out))) == 0
    df = pd.read_csv(out)
    assert set(df["max mentions"]) == {5} and df["largest set"].max() <= 5 and set(df["items"]) == {20}
    assert df["quality"].notna().all()


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


def _write_curves(path, learner, params, settings):
    """A curves CSV as `coreflab l3m2014 curves` writes it; settings: {(λ, η0): [dev AVG per pass]}
    (test AVG = dev AVG − 10)."""
    rows = []
    for (lam, eta0), avgs in settings.items():
        for epoch, avg in enumerate(avgs, start=1):
            for split, value in (("dev", avg), ("test", avg - 10)):
                rows.append(
                    {
                        "learner": learner,
                        "params": params,
                        "lam": lam,
                        "eta0": eta0,
                        "epoch": epoch,
                        "split": split,
                        **{m: value for m in ("MUC", "B3", "CEAFe", "AVG")},
                    }
                )
    pd.DataFrame(rows).to_csv(path, index=False)
    return str(path)


def test_robustness_uses_the_lambda_and_eta0_tuned_on_dev(files):
    # λ and η0 were --lam / --eta0 (1e-4, 0.1 by default): now L3M at γ = 1's best one-pass dev setting
    tmp = files["tmp"]
    curves = [
        _write_curves(
            tmp / "rob_g1.csv",
            "l3m",
            '{"gamma": 1.0}',
            {(1e-4, 0.1): [50, 70], (1e-2, 0.3): [55, 52], (1e-3, 0.3): [54, 60]},  # 1 pass: λ 1e-2, η0 0.3
        ),
        _write_curves(tmp / "rob_g05.csv", "l3m", '{"gamma": 0.5}', {(1e-3, 1.0): [90, 90]}),  # another γ
    ]
    out = tmp / "robustness_tuned.csv"
    assert _run(_argv(files, "robustness", "--runs", "2", "--seed", "2", "--curves", *curves, "--out", str(out))) == 0
    df = pd.read_csv(out)
    assert set(df["lam"]) == {1e-2} and set(df["eta0"]) == {0.3} and set(df["gamma"]) == {1.0}
    train = as_training_data(load_split(files["train"][0], files["train"][1]))
    zero = L3M(gamma=1.0, lam=1e-2, eta0=0.3, epochs=1, seed=2).fit(train)
    on_train = avg_row(score_model(zero, train.corpus, train.store, read_conll_path(files["train"][2])))
    assert df[df["run"].astype(str) == "zero-init"].iloc[0]["AVG"] == pytest.approx(on_train["AVG"], abs=1e-5)


def _table1_curves(tmp):
    """Curves whose dev-tuned systems are known: (technique, learner, γ, λ, η0, passes)."""
    paths = [
        _write_curves(tmp / "oc_sumlink.csv", "sumlink", "{}", {(1e-4, 0.1): [40, 41], (1e-2, 0.3): [42, 45]}),
        _write_curves(tmp / "oc_bin.csv", "binleftlink", "{}", {(1e-3, 0.1): [48, 40], (1e-4, 0.1): [45, 47]}),
        _write_curves(tmp / "oc_g0.csv", "l3m", '{"gamma": 0.0}', {(1e-4, 0.3): [50, 51], (1e-3, 0.1): [49, 52]}),
        _write_curves(tmp / "oc_g05.csv", "l3m", '{"gamma": 0.5}', {(1e-3, 0.3): [53, 55], (1e-4, 0.1): [54, 54]}),
    ]
    expected = {
        "sumlink": ("sumlink", None, 1e-2, 0.3, 2),
        "binleftlink": ("binleftlink", None, 1e-3, 0.1, 1),
        "l3m_gamma0": ("l3m", 0.0, 1e-3, 0.1, 2),
        "l3m": ("l3m", 0.5, 1e-3, 0.3, 2),
    }
    return paths, expected


def test_order_control_runs_table1s_online_systems_as_tuned_on_dev(files):
    # it ran L3M at γ = 0 (not the tuned γ), Sum-Link and Bin-Left-Link with their default λ and η0 for one
    # pass; §5.4 uses "the same set-up as before": Table 1's tuned systems, every online technique
    from coreflab.learn.registry import make_learner

    tmp = files["tmp"]
    curves, expected = _table1_curves(tmp)
    out = tmp / "order_tuned.csv"
    assert _run(_argv(files, "order_control", "--seed", "3", "--curves", *curves, "--out", str(out))) == 0
    df = pd.read_csv(out)
    assert sorted(set(df["technique"])) == sorted(expected) and len(df) == 2 * len(expected)
    test = as_training_data(load_split(files["test"][0], files["test"][1]))
    train = as_training_data(load_split(files["train"][0], files["train"][1]))
    key = read_conll_path(files["test"][2])
    for technique, (learner, gamma, lam, eta0, passes) in expected.items():
        rows = df[df.technique == technique]
        assert set(rows["passes"]) == {passes} and set(rows["lam"]) == {lam} and set(rows["eta0"]) == {eta0}
        params = {"lam": lam, "eta0": eta0, "epochs": passes, "seed": 3}
        if gamma is not None:
            assert set(rows["gamma"]) == {gamma}
            params["gamma"] = gamma
        natural = make_learner(learner, params).fit(train)
        avg = avg_row(score_model(natural, test.corpus, test.store, key))["AVG"]
        assert rows[rows.order == "natural"].iloc[0]["AVG"] == pytest.approx(avg, abs=1e-5)


def test_order_control_needs_the_tuned_systems(files):
    out = files["tmp"] / "order_none.csv"
    assert _run(_argv(files, "order_control", "--out", str(out))) == 2


def test_cccp_vs_sgd_compares_training_clustering_quality_with_cccp_run_to_convergence(files):
    # it compared the training objective after 5 CCCP steps on the first documents; the paper (§5.3)
    # compares the clustering quality on the training data of random subsets, CCCP run to convergence
    from coreflab.learn.leftlink.l3m_cccp import train_cccp
    from coreflab.learn.output import response_documents
    from coreflab.metrics.scorer import score_documents
    from coreflab.papers.l3m2014.experiments import documents, random_subsets

    out = files["tmp"] / "cccp.csv"
    argv = ["cccp_vs_sgd", "--docs", "4", "--draws", "2", "--max-outer", "60", "--tol", "1e-6", "--corpus", "tiny"]
    assert _run(_argv(files, *argv, "--out", str(out))) == 0
    df = pd.read_csv(out)
    assert set(df["metric"]) == {"MELA"} and sorted(set(df["draw"])) == [0, 1]
    assert sorted(df["method"]) == ["CCCP", "CCCP", "SGD", "SGD"] and set(df["sets"]) == {4}
    cccp = df[df.method == "CCCP"].set_index("draw")
    assert cccp["converged"].all() and (cccp["iterations"] < 60).all() and (cccp["inner iterations"] > 0).all()

    train = as_training_data(load_split(files["train"][0], files["train"][1]))
    key = read_conll_path(files["train"][2])
    n_docs = len(train.store.doc_mention_offsets) - 1
    subsets = random_subsets(n_docs, 4, 2, seed=1)
    assert len({tuple(s) for s in subsets}) == 2 and all(len(set(s)) == 4 for s in subsets)
    idx = subsets[0]
    data = documents(train, idx)
    w, history = train_cccp(data, gamma=1.0, lam=1e-4, outer=60, tol=1e-6)
    objectives = [h[1] for h in history]
    assert len(history) - 1 == cccp.loc[0, "iterations"]
    assert objectives[-2] - objectives[-1] < 1e-6 * abs(objectives[-1])  # stopped because it stopped changing
    assert cccp.loc[0, "objective"] == pytest.approx(objectives[-1], abs=1e-5)

    def training_mela(model):
        response = response_documents(key, train.corpus, model.predict(train.corpus, train.store))
        wanted = {(train.corpus.doc_ids[d], 0) for d in idx}
        pairs = [(k, r) for k, r in zip(key, response) if k.key in wanted]
        assert len(pairs) == 4
        return score_documents([k for k, _ in pairs], [r for _, r in pairs], metrics=("muc", "bcub", "ceafe")).mela

    by_cccp = L3M(gamma=1.0)
    by_cccp.coef_ = w
    assert cccp.loc[0, "quality"] == pytest.approx(training_mela(by_cccp), abs=1e-5)
    by_sgd = L3M(gamma=1.0, lam=1e-4, eta0=0.1, epochs=1, seed=1).fit(data)
    sgd = df[df.method == "SGD"].set_index("draw")
    assert sgd.loc[0, "quality"] == pytest.approx(training_mela(by_sgd), abs=1e-5)
    assert sgd.loc[0, "iterations"] == 1


def test_cccp_vs_sgd_on_20_newsgroups_measures_author_clustering_vi(tmp_path):
    from coreflab.learn.leftlink.l3m_cccp import train_cccp
    from coreflab.papers.l3m2014.doccluster import _data, mean_vi
    from coreflab.papers.l3m2014.experiments import random_subsets
    from coreflab.papers.l3m2014.newsgroups import cluster_ids
    from coreflab.papers.l3m2014.pair_features import fit_vectorizer, item_set_arcs
    from tests.papers.l3m2014.l3m_data import synthetic_author_sets, write_bydate

    sets = synthetic_author_sets(n_sets=5, size=20)
    write_bydate(sets, tmp_path / "ng")
    out = tmp_path / "cccp_ng.csv"
    argv = ["cccp_vs_sgd", "--newsgroups", "--local-dir", str(tmp_path / "ng"), "--resources", str(tmp_path / "r")]
    argv += ["--set-size", "20", "--docs", "3", "--draws", "2", "--max-outer", "50", "--out", str(out)]
    assert _run(argv) == 0
    df = pd.read_csv(out)
    assert set(df["metric"]) == {"VI"} and set(df["sets"]) == {3} and set(df["items"]) == {60}
    assert df[df.method == "CCCP"]["converged"].all()
    chosen = [sets[k] for k in random_subsets(len(sets), 3, 2, seed=1)[1]]
    vectorizer = fit_vectorizer(chosen)
    data, sizes = _data(
        [item_set_arcs(s, vectorizer) for s in chosen], [cluster_ids(s, "author") for s in chosen], range(3)
    )
    rows = df[df.draw == 1].set_index("method")
    sgd = L3M(gamma=1.0, lam=1e-4, eta0=0.1, epochs=1, seed=1).fit(data)
    assert rows.loc["SGD", "quality"] == pytest.approx(mean_vi(sgd, data, sizes), abs=1e-5)
    w, history = train_cccp(data, gamma=1.0, lam=1e-4, outer=50, tol=1e-6)
    by_cccp = L3M(gamma=1.0)
    by_cccp.coef_ = w
    assert rows.loc["CCCP", "quality"] == pytest.approx(mean_vi(by_cccp, data, sizes), abs=1e-5)
    assert rows.loc["CCCP", "iterations"] == len(history) - 1
