"""L3M 2014 tables: order control per Table 1 system, CCCP vs SGD, Table 2."""

import numpy as np
import pandas as pd
import pytest

from coreflab.papers.l3m2014 import report


def _doc_rows(technique, key, passes, natural, shuffled):
    return [
        {"technique": technique, "key": key, "passes": passes, "shuffled": flag, "vi": vi}
        for flag, vi in ((False, natural), (True, shuffled))
    ]


def test_order_control_pairs_each_table1_system_with_its_own_clustering_run():
    # the coreference study ran L3M at γ = 0 only, under the name `l3m`; now both L3M systems run as
    # tuned, each paired with its own 20 Newsgroups run, and the table says which setting ran
    coref = pd.DataFrame(
        {
            "technique": ["l3m", "l3m", "l3m_gamma0", "l3m_gamma0", "sumlink", "sumlink"],
            "order": ["natural", "shuffled"] * 3,
            "passes": [2, 2, 1, 1, 5, 5],
            "gamma": [0.4, 0.4, 0.0, 0.0, np.nan, np.nan],
            "lam": [1e-3, 1e-3, 1e-4, 1e-4, 1e-4, 1e-4],
            "eta0": [0.3, 0.3, 0.1, 0.1, 0.1, 0.1],
            "AVG": [60.0, 55.0, 58.0, 57.0, 50.0, 51.0],
        }
    )
    rows = []
    for technique, natural, shuffled in (("l3m_gamma0", 40.0, 43.0), ("l3m", 30.0, 70.0), ("sumlink", 20.0, 21.5)):
        rows += _doc_rows(technique, "author", 1, natural, shuffled)
        rows += _doc_rows(technique, "author", 5, 999.0, 0.0)
        rows += _doc_rows(technique, "thread", 5, natural, natural + 10)
    rows += _doc_rows("spanning_forest", "author", 10, 1.0, 2.0)  # a batch technique: not in the order control
    table = report.order_control(coref, pd.DataFrame(rows)).set_index("technique")
    assert list(table.index) == ["Sum-Link", "L3M (γ = 0)", "L3M (tuned γ)"]
    assert table.loc["L3M (tuned γ)", "drop (AVG)"] == 5.0 and table.loc["Sum-Link", "drop (AVG)"] == -1.0
    assert table.loc["L3M (tuned γ)", ["passes", "gamma", "λ", "η0"]].tolist() == [2, 0.4, "10^-3", 0.3]
    author = "author VI increase (shuffled, 1 pass)"
    assert table.loc["L3M (γ = 0)", author] == 3.0 and table.loc["L3M (tuned γ)", author] == 40.0
    assert table.loc["Sum-Link", author] == 1.5
    assert (table["thread VI increase (shuffled, 5 passes)"] == 10.0).all()


def _cccp_runs(metric="VI"):
    rows = []
    for draw, (cccp, sgd) in enumerate([(99.0, 100.0), (49.5, 50.0)]):
        for method, quality, secs, its, inner in (("CCCP", cccp, 100.0, 12, 300), ("SGD", sgd, 0.01, 1, 0)):
            rows.append(
                {
                    "draw": draw,
                    "data": "20 Newsgroups author clustering",
                    "metric": metric,
                    "method": method,
                    "sets": 100,
                    "items": 3480,
                    "iterations": its,
                    "inner iterations": inner,
                    "converged": True,
                    "seconds": secs,
                    "objective": 10.0,
                    "quality": quality,
                    "gamma": 1.0,
                    "lam": 1e-4,
                    "eta0": 0.1,
                    "tol": 1e-6,
                    "max outer": 100,
                    "max inner": 100,
                    "sgd passes": 1,
                    "tuning": "fixed, not tuned",
                }
            )
    return pd.DataFrame(rows)


def test_cccp_table_has_training_clustering_quality_iterations_and_time_side_by_side():
    # the table showed the training objective only
    df = _cccp_runs()
    table, times = report.cccp_vs_sgd(df)
    t = table.set_index("method")
    assert list(t.index) == ["SGD", "CCCP"]
    assert t.loc["CCCP", "train VI"] == pytest.approx(74.25) and t.loc["SGD", "train VI"] == pytest.approx(75.0)
    assert t.loc["CCCP", "VI vs SGD (%)"] == pytest.approx(-1.0)  # (148.5 − 150) / 150
    assert t.loc["CCCP", "iterations"] == 12 and t.loc["CCCP", "inner iterations"] == 300
    assert t.loc["CCCP", "converged"] == "2/2"
    assert t.loc["CCCP", "× SGD time"] == pytest.approx(10000.0)
    assert set(times["method"]) == {"CCCP", "SGD"}
    caption = report.cccp_caption(df, "synth")
    assert "20 Newsgroups author clustering" in caption and "1e-06" in caption and "100 outer × 100" in caption
    mela = report.cccp_caption(_cccp_runs("MELA").assign(data="synth training documents"), "synth")
    assert "MELA" in mela and "the paper's VI is of document clustering" in mela
    assert "train MELA" in report.cccp_vs_sgd(_cccp_runs("MELA"))[0].columns
    assert "cut to" not in mela


def test_cccp_caption_says_how_far_the_budget_cut_the_documents():
    cut = report.cccp_caption(_cccp_runs("MELA").assign(data="gum training documents", **{"max mentions": 53}), "gum")
    assert "cut to their first 53 mentions" in cut and "study_max_passes" in cut
    whole = report.cccp_caption(_cccp_runs("MELA").assign(data="gum training documents", **{"max mentions": 0}), "gum")
    assert "cut to" not in whole


def test_table2_shows_batch_techniques_at_their_passes_and_the_every_post_alone_reference():
    rows = [{"technique": "singletons", "key": "author", "passes": 0, "fold": f, "vi": 50.0} for f in (0, 1)]
    for f in (0, 1):
        rows.append({"technique": "spanning_forest", "key": "author", "passes": 10, "fold": f, "vi": 40.0 + f})
        rows.append({"technique": "l3m", "key": "author", "passes": 1, "fold": f, "vi": 30.0})
        rows.append({"technique": "l3m", "key": "author", "passes": 5, "fold": f, "vi": 20.0})
    table = report.table2_vi(pd.DataFrame(rows).assign(shuffled=False)).set_index("technique")
    assert list(table.index) == ["every post alone (reference)", "Spanning Forest", "L3M (tuned γ)"]
    assert table.loc["Spanning Forest", "author VI"] == 40.5 and table.loc["Spanning Forest", "passes"] == "10"
    assert np.isnan(table.loc["Spanning Forest", "author VI (1 pass)"])
    assert table.loc["L3M (tuned γ)", ["author VI", "author VI (1 pass)"]].tolist() == [20.0, 30.0]
    assert table.loc["every post alone (reference)", "author VI"] == 50.0
