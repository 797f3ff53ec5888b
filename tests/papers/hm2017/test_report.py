"""H&M 2017 report (issue 43): N_selected is not picked by one learner's score, and Fig. 2 / Table 1
name SCC for what `mse_scc` computes (the squared Pearson correlation, not Spearman's)."""

import numpy as np
import pandas as pd
import pytest

from coreflab.mela.features import FEATURE_NAMES
from coreflab.mela.regressor import mse_scc
from coreflab.papers.hm2017 import report as R
from coreflab.papers.hm2017.commands import report as hm2017_report
from coreflab.papers.hm2017.commands import table1 as hm2017_table1
from tests.command_runner import run_command

N_ALL = 5000

# best dev MELA per (learner, N); N = 0 is All. LSP_ρ alone is best at N = 100, the mean of the
# three learners at N = 1000: (60 + 60 + 70) / 3 = 63.33 at 100, (66 + 66 + 69) / 3 = 67 at 1000.
DEV = {
    "lsp_f": {100: 60.0, 1000: 66.0, 3000: 62.0, 0: 70.0},
    "lsp_yj": {100: 60.0, 1000: 66.0, 3000: 63.0, 0: 71.0},
    "lsp_rho": {100: 70.0, 1000: 69.0, 3000: 64.0, 0: 72.0},
}


def _best(dev=DEV):
    rows = []
    for learner, per_n in dev.items():
        for n, v in per_n.items():
            rows.append(
                {
                    "learner": learner,
                    "n_features": n,
                    "T_best": 3,
                    "dev_mela": v,
                    "test_muc": v,
                    "test_bcub": v,
                    "test_ceafe": v,
                    "test_mela": v - 1,
                }
            )
    return pd.DataFrame(rows)


def test_n_selected_is_the_best_mean_over_learners_not_lsp_rhos_best():
    best = _best()
    rho = best[(best.learner == "lsp_rho") & (best.n_features.between(1, N_ALL - 1))]
    assert int(rho.sort_values("dev_mela", ascending=False).iloc[0]["n_features"]) == 100  # the old rule's pick
    assert R.select_n(best, N_ALL) == 1000
    assert "N=1,000 dev" in R.table2(best, N_ALL, R.select_n(best, N_ALL)).columns
    assert set(R.table3(best, N_ALL, 1000)["N"]) == {"1,000", "All"}


def test_n_selected_ties_go_to_the_smaller_n_and_all_never_competes():
    tie = {k: dict(v) for k, v in DEV.items()}
    tie["lsp_rho"][3000] = 76.0  # mean at 3000: (62 + 63 + 76) / 3 = 67 = the mean at 1000
    assert R.select_n(_best(tie), N_ALL) == 1000
    assert R.select_n(_best(), N_ALL) != 0  # All (N = 0) has the best mean but is not a reduced space
    assert R.select_n(_best({"lsp_f": {0: 70.0}}), N_ALL) == 0  # no reduced N


def test_n_selected_counts_only_the_n_every_learner_ran():
    dev = {k: dict(v) for k, v in DEV.items()}
    dev["lsp_f"][50] = 99.0  # only LSP_F ran N = 50: one learner's score does not pick it
    assert R.select_n(_best(dev), N_ALL) == 1000


def _runs():
    rows = []
    for learner, per_n in DEV.items():
        for n, v in per_n.items():
            for epoch in (1, 2, 3):
                for split in ("dev", "test"):
                    m = v - abs(epoch - 2)
                    rows.append(
                        {
                            "learner": learner,
                            "n_features": n,
                            "n_fraction": 1.0 if n == 0 else n / N_ALL,
                            "epoch": epoch,
                            "split": split,
                            "muc": m,
                            "bcub": m,
                            "ceafe": m,
                            "mela": m,
                        }
                    )
    return pd.DataFrame(rows)


@pytest.mark.slow
def test_report_tables_use_the_mean_rule_and_say_so(tmp_path):
    _runs().to_csv(tmp_path / "runs.csv", index=False)
    np.savez(tmp_path / "rank.npz", ranked=np.arange(N_ALL), root_only=np.array([], dtype=int))
    out = tmp_path / "hm"
    argv = ["--runs", tmp_path / "runs.csv", "--ranking", tmp_path / "rank.npz", "--corpus", "synth", "--out-dir", out]
    assert run_command(hm2017_report, argv) == 0
    t2 = pd.read_csv(out / "table2.csv")
    assert "N=1,000 dev" in t2.columns and "N=100 dev" not in t2.columns
    for table in ("table2", "table3"):
        caption = (out / f"{table}.md").read_text(encoding="utf-8").split("\n\n")[0]
        assert "N_selected = 1,000" in caption
        assert "mean over the learners" in caption and "ties: the smaller N" in caption


def test_scc_is_pearson_r_squared_and_fig2_and_table1_say_so(tmp_path):
    y = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
    pred = np.array([1.0, 4.0, 9.0, 16.0, 25.0])  # monotone: Spearman = 1, Pearson r² < 1
    assert np.isclose(mse_scc(y, pred)[1], 100 * np.corrcoef(y, pred)[0, 1] ** 2) and mse_scc(y, pred)[1] < 99
    points = pd.DataFrame(
        [
            {"train": f"S{a}", "test": f"S{3 - a}", "n_examples": n, "MSE": 10 / n + a, "SCC": 50 + n / 10}
            for a in (1, 2)
            for n in (10, 30, 100)
        ]
    )
    fig = R.fig2(points, corpus="synth")
    texts = [fig.axes[1].get_ylabel(), fig.axes[1].get_title()]
    assert fig.axes[1].get_ylabel() == "SCC (Pearson r², %)"
    assert not any("Spearman" in t or "rank" in t for t in texts)
    assert any("Pearson" in t for t in texts)

    rng = np.random.default_rng(0)
    n = 40
    data = pd.DataFrame(rng.random((n, len(FEATURE_NAMES))), columns=list(FEATURE_NAMES))
    data["mela"] = 100 * data[list(FEATURE_NAMES)].mean(axis=1) + rng.normal(0, 2, n)
    data["sample"] = np.repeat([1, 2], n // 2)
    data["doc"] = data["doc_id"] = np.arange(n)
    data["epoch"], data["n_mentions"], data["keep_singletons"] = 1, 5, 1
    data["muc"] = data["bcub"] = data["ceafe"] = data["mela"]
    data.to_csv(tmp_path / "data.csv", index=False)
    assert "Pearson r²" in R.SCC_CAPTION and "Spearman" not in R.SCC_CAPTION
    assert run_command(hm2017_table1, ["--data", tmp_path / "data.csv", "--out-dir", tmp_path / "t1"]) == 0
    head = (tmp_path / "t1" / "table1.md").read_text(encoding="utf-8").split("\n\n")[0]
    assert "Pearson r²" in head and "Spearman" not in head
