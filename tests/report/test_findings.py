"""The findings scorecard: verdict functions on hand-made tables, reading the snapshot, and the committed page."""

import re
from pathlib import Path

import pytest

from coreflab.errors import UserError
from coreflab.report import findings as f
from coreflab.report.docs import references, render

ROOT = Path(__file__).resolve().parents[2]
NUMBERS = ROOT / "docs" / "numbers"


def table(header, *rows):
    """Rows as read_table gives them: dicts of text."""
    cols = header.split(",")
    return [dict(zip(cols, (str(v) for v in r))) for r in rows]


def bk_table1(local, nonlocal_, p, seeds=3, mean=None, sd=0.5, se=None):
    header = "features,MELA,p (bootstrap),seeds,MELA seed mean,MELA seed sd,MELA seed se,non-local ahead"
    return {
        "paper/bk2014/table1": table(
            header,
            ("local", local, "", seeds, "", "", "", ""),
            ("nonlocal", nonlocal_, "", seeds, "", "", "", ""),
            (
                "difference",
                nonlocal_ - local,
                p,
                seeds,
                "" if mean is None else mean,
                sd,
                "" if se is None else se,
                "2 of 3",
            ),
        )
    }


@pytest.mark.parametrize(
    "tables, verdict",
    [
        (bk_table1(73.8, 75.8, 0.015), f.HELD),  # no seeds: the bootstrap says so
        (bk_table1(73.8, 75.8, 0.015, mean=0.75, se=0.63), f.PARTLY),  # the bootstrap says so, the seeds do not
        (bk_table1(76.5, 77.0, 0.46, mean=0.77, se=0.20), f.HELD),  # the seeds say so
        (bk_table1(79.15, 79.41, "0.361", mean=0.19, se=0.11), f.PARTLY),  # ahead, within the noise
        (bk_table1(66.42, 66.37, 0.85, mean=0.05, se=0.10), f.NOT_HELD),  # behind for the reported seed
        (bk_table1(72.0, 72.5, 0.3, mean=-0.2, se=0.1), f.NOT_HELD),  # ahead once, behind over the seeds
    ],
)
def test_non_local_features_verdict(tables, verdict):
    assert f.bk_nonlocal(tables).verdict == verdict


def test_non_local_evidence_names_the_bootstrap_and_the_seed_spread():
    v = f.bk_nonlocal(bk_table1(73.8, 75.8, "< 0.001", mean=0.75, se=0.63))
    assert v.ours == "75.80 vs 73.80 (+2.00)"
    assert v.evidence == "p < 0.001; 3 seeds +0.75 (sd 0.50, se 0.63; 2 of 3 ahead)"


def test_non_local_runs_that_are_the_same_say_selection_kept_no_non_local_template():
    header = "features,MUC F,B3 F,CEAFe F,MELA,p (bootstrap),seeds,MELA seed mean,MELA seed sd,MELA seed se"
    rows = [(f, 70.0, 60.0, 50.0, 58.45, "", 3, "", "", "") for f in ("local", "nonlocal")]
    same = {"paper/bk2014/table1": table(header, *rows, ("difference", 0.0, 0.0, 0.0, 0.0, 1.0, 3, 0.0, 0.0, 0.0))}
    v = f.bk_nonlocal(same)
    assert v.verdict == f.NOT_HELD and "kept no non-local template" in v.evidence
    # one metric apart: an ordinary, if tiny, difference
    moved = {"paper/bk2014/table1": table(header, *rows, ("difference", 0.1, 0.0, 0.0, 0.0, 1.0, 3, 0.0, 0.1, 0.05))}
    assert "kept no" not in f.bk_nonlocal(moved).evidence


def cc_table1(base, slt):
    rows = [
        (name, when, e)
        for name, (before, after) in (("BASE", base), ("SLT (closest)", slt))
        for when, e in (("before", before), ("after", after))
    ]
    return {"paper/cc2007/table1": table("system,clustering,e%", *rows)}


@pytest.mark.parametrize(
    "base, slt, verdict",
    [
        ((6.9, 21.2), (6.7, 5.9), f.HELD),  # BASE up, SLT down and below BASE
        ((6.9, 21.2), (6.7, 11.1), f.PARTLY),  # SLT up too, but below BASE
        ((2.1, 4.7), (2.0, 4.8), f.NOT_HELD),  # SLT not below BASE after clustering
    ],
)
def test_clustering_error_verdict(base, slt, verdict):
    assert f.cc_error(cc_table1(base, slt)).verdict == verdict


@pytest.mark.parametrize(
    "drops, verdict",
    [((3.0, 2.5, 4.0), f.HELD), ((17.0, 6.1, 0.16), f.PARTLY), ((0.1, -3.6, 0.5), f.NOT_HELD)],
)
def test_order_control_verdict(drops, verdict):
    rows = table("technique,drop (AVG)", *zip(("L3M", "Sum-Link", "Bin-Left-Link"), drops))
    assert f.l3m_order({"paper/l3m2014/order_control": rows}).verdict == verdict


@pytest.mark.parametrize(
    "gains, verdict",
    [
        ({"All": 0.3, "1000": 0.9}, f.HELD),
        ({"All": 0.14, "19,568": 0.03}, f.NOT_HELD),
        ({"All": -0.5, "1000": -0.1}, f.PARTLY),
    ],
)
def test_fewer_features_verdict(gains, verdict):
    rows = []
    for n, gain in gains.items():
        rows += [("LSP_F", n, 70.0), ("LSP_ρ", n, 70.0 + gain)]
    assert f.hm_fewer_features({"paper/hm2017/table3": table("Model,N,MELA", *rows)}).verdict == verdict


def leaderboard(*rows):
    return {"leaderboard": table("rank,system,MELA,p (bootstrap)", *rows)}


def test_best_system_held_tied_and_below():
    held = leaderboard(
        (1, "delayed LaSO", 80.5, ""), (2, "B&K baseline", 77.4, 0.003), (3, "string match", 57.3, 0.0001)
    )
    tied = leaderboard((1, "B&K baseline", 79.72, ""), (2, "delayed LaSO", 79.72, 0.992))
    below = leaderboard((1, "B&K baseline", 79.0, ""), (2, "delayed LaSO", 77.0, 0.01))
    assert f.bk_best_system(held) == f.Verdict(f.HELD, "80.50, first", "every other system p ≤ 0.003")
    assert f.bk_best_system(tied).verdict == f.PARTLY
    assert f.bk_best_system(below).verdict == f.NOT_HELD
    assert f.learned_beats_rules(held).verdict == f.HELD
    assert f.learned_beats_rules(leaderboard((1, "L3M", 70.0, ""), (2, "string match", 69.5, 0.2))).verdict == f.PARTLY


def test_a_missing_table_or_row_is_not_run_and_markdown_stands_in_for_csv(tmp_path):
    claim = next(c for c in f.CLAIMS["cc2007"] if c.decide is f.cc_error)
    assert claim.evaluate(tmp_path, "gum") == f.Verdict(f.NOT_RUN)
    folder = tmp_path / "gum" / "paper" / "cc2007"
    folder.mkdir(parents=True)
    (folder / "table1.md").write_text(
        "Caption line\n\n| system | clustering | e% |\n|:--|:--|--:|\n| BASE | before | 2.10 |\n| BASE | after | 4.73 |\n"
    )
    assert claim.evaluate(tmp_path, "gum").verdict == f.NOT_RUN  # no SLT rows
    (folder / "table1.md").write_text(
        "| system | clustering | e% |\n|:--|:--|--:|\n| BASE | before | 2.10 |\n| BASE | after | 4.73 |\n"
        "| SLT (closest) | before | 2.08 |\n| SLT (closest) | after | 2.52 |\n"
    )
    assert claim.evaluate(tmp_path, "gum") == f.Verdict(f.PARTLY, "e% BASE 2.10 → 4.73, SLT 2.08 → 2.52")
    (folder / "table1.csv").write_text(  # the CSV wins over the Markdown copy
        "system,clustering,e%\nBASE,before,2.1\nBASE,after,4.7\nSLT (closest),before,2.0\nSLT (closest),after,1.9\n"
    )
    assert claim.evaluate(tmp_path, "gum").verdict == f.HELD


def test_csv_system_keys_read_as_the_papers_names(tmp_path):
    (tmp_path / "leaderboard.csv").write_text("rank,system,MELA\n1,bk_delayed_laso,80.0\n")
    assert f.read_table(tmp_path / "leaderboard")[0]["system"] == "delayed LaSO"


def test_the_directive_cites_no_file_and_names_a_bad_paper(tmp_path):
    text = "# Scorecard\n{{ findings bk2014 }}\n{{ synth/t.csv | a=b | c | .1f }}\n"
    assert references(text) == ["synth/t.csv"]
    (tmp_path / "synth").mkdir()
    (tmp_path / "synth" / "leaderboard.csv").write_text("rank,system,MELA,p (bootstrap)\n1,bk_delayed_laso,80.0,\n")
    out = render("{{ findings bk2014 }}", tmp_path)
    assert "| claim | paper | [synth](results-synth.md) |" in out and "*not run*" in out
    with pytest.raises(UserError, match=r"page.md:1: no findings for 'nope'"):
        render("{{ findings nope }}", tmp_path, name="page.md")


def test_the_committed_scorecard_is_its_template_rendered_from_the_snapshot():
    template = ROOT / "docs" / "templates" / "findings.md"
    page = ROOT / "docs" / "findings.md"
    assert render(template.read_text(), NUMBERS, name="findings.md") == page.read_text()


def test_the_scorecard_has_every_claim_and_every_corpus_and_stays_short():
    page = (ROOT / "docs" / "findings.md").read_text()
    for claims in f.CLAIMS.values():
        for claim in claims:
            assert claim.statement in page
    for corpus in f.corpora(NUMBERS):
        assert f.CORPUS_LABELS.get(corpus, corpus) in page
    assert len(page.encode("utf-8")) <= 15_000
    prose = [p for p in re.split(r"\n\s*\n", page) if not p.lstrip().startswith("|")]
    assert max(len(p) for p in prose) <= 1_000


def test_the_l3m_studies_read_the_tables_of_the_current_report_code_too():
    cccp = table(
        "method,draws,train VI,train VI std,VI vs SGD (%),objective,seconds,× SGD time",
        ("SGD", 10, 70.2, 0.5, 0.0, 300.0, 0.5, 1.0),
        ("CCCP", 10, 70.1, 0.5, -0.14, 120.0, 50.0, 100.0),
    )
    assert f.l3m_cccp({"paper/l3m2014/cccp_vs_sgd": cccp}) == f.Verdict(
        f.HELD, "VI 70.10 vs 70.20; 50.00 s vs 0.50 s", "SGD 100× faster"
    )
    # CCCP better by 2.8%, far more than the paper's 0.2%: partly; worse and slower: not held
    wide = table(
        "method,train VI,seconds",
        ("SGD", 39.97, 0.01),
        ("CCCP", 38.86, 3.55),
    )
    assert f.l3m_cccp({"paper/l3m2014/cccp_vs_sgd": wide}).verdict == f.PARTLY
    slower_worse = table("method,train VI,seconds", ("SGD", 39.0, 5.0), ("CCCP", 41.0, 3.0))
    assert f.l3m_cccp({"paper/l3m2014/cccp_vs_sgd": slower_worse}).verdict == f.NOT_HELD
    # a page's table prints SGD's few milliseconds as 0.00 s: the ratio column still says how much faster
    rounded = table("method,train VI,seconds,× SGD time", ("SGD", 48.47, 0.0, 1.0), ("CCCP", 45.98, 0.67, 248.48))
    assert f.l3m_cccp({"paper/l3m2014/cccp_vs_sgd": rounded}) == f.Verdict(
        f.PARTLY, "VI 45.98 vs 48.47; 0.67 s vs 0.00 s", "SGD 248× faster"
    )
    vi = table(
        "technique,passes,author VI,author VI (1 pass),thread VI,thread VI (1 pass)",
        ("every post alone (reference)", "", 50.0, "", 50.0, ""),
        ("Corr-Clustering", "10", 66.5, "", 91.3, ""),
        ("Sum-Link", "5 (and 1)", 72.2, 72.8, 132.5, 156.6),
        ("L3M (tuned γ)", "5 (and 1)", 63.6, 61.7, 92.0, 60.6),
    )
    v = f.l3m_newsgroups({"paper/l3m2014/table2_vi": vi})
    assert (v.verdict, v.evidence) == (f.PARTLY, "lowest in 3 of 4 columns")
