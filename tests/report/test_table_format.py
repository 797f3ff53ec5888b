"""Tables as readers see them: the papers' system names, p-values as '< 0.001', the corpus in
every caption, no Python dicts, and the CCCP-vs-SGD table with the seconds it promises.

The CSV beside each table keeps internal keys and full precision (other steps read it);
the Markdown/LaTeX/HTML copies are for people.
"""

import argparse
import json
import os
import re
import stat

import numpy as np
import pandas as pd
import pytest

from coreflab.papers.cc2007 import report as cc2007
from coreflab.papers.hm2017.commands import report as hm2017_cmd
from coreflab.papers.l3m2014 import report as l3m2014
from coreflab.report.io import format_p, write_table


def _write(tmp_path, df, **kw):
    write_table(df, tmp_path / "t", **kw)
    return {ext: (tmp_path / f"t.{ext}").read_text(encoding="utf-8") for ext in ("csv", "md", "tex", "html")}


def test_p_values_print_as_less_than_one_in_a_thousand(tmp_path):
    df = pd.DataFrame(
        {
            "system": ["l3m", "sumlink", "binleftlink"],
            "MELA": [60.0, 55.0, 54.0],
            "p (bootstrap)": [float("nan"), 0.0002, 0.0421],
        }
    )
    out = _write(tmp_path, df, caption="Leaderboard: synth, test split")
    for ext in ("md", "tex", "html"):
        assert "< 0.001" in out[ext].replace("&lt;", "<").replace("$<$", "<"), ext
        assert "0.042" in out[ext]
        assert not re.search(r"(?<![\d.])0\.00(?!\d)", out[ext]), ext  # no p printed as "0.00"
    assert "0.0002" in out["csv"]  # the data keeps full precision
    assert format_p(0.001) == "0.001" and format_p(0.0009999) == "< 0.001" and format_p(float("nan")) is None


def test_precision_column_P_is_not_taken_for_a_p_value(tmp_path):
    df = pd.DataFrame({"system": ["l3m"], "B3 P": [0.0001], "P": [0.0001]})
    out = _write(tmp_path, df)
    assert "< 0.001" not in out["md"]


def test_readers_formats_use_the_papers_system_names_csv_keeps_the_keys(tmp_path):
    df = pd.DataFrame(
        {
            "rank": [1, 2, 3, 4],
            "system": ["binleftlink", "corr_clustering", "cc_slt_closest", "string_match"],
            "MELA": [1.0, 2.0, 3.0, 4.0],
        }
    )
    out = _write(tmp_path, df)
    for ext in ("md", "tex", "html"):
        for name in ("Bin-Left-Link", "Corr-Clustering", "SLT (closest)", "string match"):
            assert name in out[ext], (ext, name)
        assert "binleftlink" not in out[ext] and "corr" + "_clustering" not in out[ext].replace("\\_", "_")
    assert "binleftlink" in out["csv"]


def test_tables_are_written_0644(tmp_path):
    write_table(pd.DataFrame({"a": [1.0]}), tmp_path / "t")
    umask = os.umask(0)
    os.umask(umask)
    for ext in ("csv", "md", "tex", "html"):
        assert stat.S_IMODE((tmp_path / f"t.{ext}").stat().st_mode) == 0o666 & ~umask


def test_cccp_table_has_the_seconds_its_caption_promises():
    df = pd.DataFrame(
        [
            {"method": m, "step": s, "seconds": 0.5 * s + (m == "SGD"), "objective": 10.0 - s}
            for m in ("CCCP", "SGD")
            for s in (0, 1, 2)
        ]
    )
    table, times = l3m2014.cccp_vs_sgd(df)
    assert list(table.columns) == ["method", "steps", "start objective", "objective", "seconds"]
    assert table.set_index("method").loc["SGD", "seconds"] == 2.0
    assert table.set_index("method").loc["CCCP", "seconds"] == 1.0


def test_cc2007_system_names_follow_the_papers():
    assert cc2007.system_name("cc_slt_closest", "none", 1.5) == "SLT (closest)"
    assert cc2007.system_name("cc_base", "pa", 3.0) == "BASE, Pa λ = 3"


def _hm_run_csv(path, learners=("lsp_f", "lsp_rho"), ns=(5, 0)):
    rows = []
    for learner in learners:
        for n in ns:
            for epoch in (1, 2):
                for split in ("dev", "test"):
                    rows.append(
                        {
                            "learner": learner,
                            "n_features": n,
                            "split": split,
                            "epoch": epoch,
                            "mela": 50.0 + epoch + n,
                            "muc": 60.0,
                            "bcub": 50.0,
                            "ceafe": 40.0,
                        }
                    )
    pd.DataFrame(rows).to_csv(path, index=False)
    return path


@pytest.fixture
def hm_outputs(tmp_path):
    out = tmp_path / "results" / "gum" / "paper" / "hm2017"
    runs = _hm_run_csv(tmp_path / "runs.csv")
    second_dir = tmp_path / "results" / "ontogum" / "paper" / "hm2017" / "runs"
    second_dir.mkdir(parents=True)
    second = _hm_run_csv(second_dir / "x.csv", learners=("lsp_f", "lsp_rho", "lsp_rho_from_gum"), ns=(0,))
    ranking = tmp_path / "ranking.npz"
    tuned = tmp_path / "tuned.json"
    tuned.write_text(json.dumps({"learner": "lsp_rho", "best": {"params": {"C": 100.0, "r": 0.5}}}))
    p = argparse.ArgumentParser()
    hm2017_cmd.add_arguments(p)
    np.savez(ranking, ranked=np.arange(10), root_only=np.zeros(10, dtype=bool))  # hm2017 select's format
    args = p.parse_args(
        [
            "--runs",
            str(runs),
            "--second-runs",
            str(second),
            "--ranking",
            str(ranking),
            "--tuned",
            str(tuned),
            "--out-dir",
            str(out),
        ]
    )
    assert hm2017_cmd.run(args) == 0
    return out


def test_hm2017_tables_name_the_corpus_and_print_no_dicts(hm_outputs):
    t2 = (hm_outputs / "table2.md").read_text(encoding="utf-8")
    t3 = (hm_outputs / "table3.md").read_text(encoding="utf-8")
    t4 = (hm_outputs / "table4.md").read_text(encoding="utf-8")
    assert t2.startswith("H&M 2017 Table 2 on gum") and t3.startswith("H&M 2017 Table 3 on gum")
    assert t4.startswith("H&M 2017 Table 4 on ontogum")
    for text in (t2, t3, t4):
        assert "{" not in text and "}" not in text and "LSP_rho" not in text
    assert "LSP_ρ: C = 100, r = 0.5" in t2
    assert "LSP_ρ (regressor of gum)" in t4
    assert "T_best (epoch of the best dev MELA)" in t2
