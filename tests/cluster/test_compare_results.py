"""tests/cluster/compare_results.py: byte equality except measured-cost cells."""

from __future__ import annotations

import importlib.util
from pathlib import Path

_spec = importlib.util.spec_from_file_location(
    "compare_results", Path(__file__).resolve().parent / "compare_results.py"
)
cr = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cr)

CSV = "rank,system,MUC F,MELA,train s,peak MB\n1,a,70.00,60.00,{t},{m}\n"
MD = (
    "Leaderboard: synth\n\n|   rank | system |   MELA |   train s |   peak MB |\n"
    "|-------:|:-------|-------:|----------:|----------:|\n|      1 | a      |  {mela} |      {t} |     {m} |\n"
)
TEX = (
    "\\begin{{tabular}}{{rlrrr}}\n rank & system & MELA & train s & peak MB \\\\\n\\midrule\n"
    " 1 & a & {mela} & {t} & {m} \\\\\n\\end{{tabular}}\n"
)


def _tree(root: Path, t: str, m: str, mela: str = "60.00", conll: str = "x\n") -> Path:
    r = root / "results" / "synth"
    r.mkdir(parents=True)
    (r / "leaderboard.csv").write_text(CSV.format(t=t, m=m))
    (r / "leaderboard.md").write_text(MD.format(t=t, m=m, mela=mela))
    (r / "leaderboard.tex").write_text(TEX.format(t=t, m=m, mela=mela))
    (r / "stats.json").write_text(f'{{"documents": 4, "seconds": {t}}}')
    (r / "test.conll").write_text(conll)
    (r / "ignored.log").write_text(t)
    return root


def test_identical_trees(tmp_path):
    a, b = _tree(tmp_path / "a", "1.0", "100"), _tree(tmp_path / "b", "1.0", "100")
    same, costs, diff, missing = cr.compare(a, b)
    assert (len(same), costs, diff, missing) == (5, [], [], [])
    assert cr.main([str(a), str(b)]) == 0


def test_costs_may_differ_nothing_else(tmp_path):
    a, b = _tree(tmp_path / "a", "1.0", "100"), _tree(tmp_path / "b", "2.5", "130")
    same, costs, diff, missing = cr.compare(a, b)
    assert same == ["results/synth/test.conll"]
    assert [c.split(" ")[0] for c in costs] == [
        "results/synth/leaderboard.csv",
        "results/synth/leaderboard.md",
        "results/synth/leaderboard.tex",
        "results/synth/stats.json",
    ]
    assert "train s, peak MB" in costs[0]
    assert diff == [] and missing == []
    assert cr.main([str(a), str(b)]) == 0


def test_a_score_or_a_token_differs(tmp_path):
    a = _tree(tmp_path / "a", "1.0", "100")
    b = _tree(tmp_path / "b", "2.0", "100", mela="61.00", conll="y\n")
    _, _, diff, _ = cr.compare(a, b)
    assert diff == ["results/synth/leaderboard.md", "results/synth/leaderboard.tex", "results/synth/test.conll"]
    assert cr.main([str(a), str(b)]) == 1


def test_missing_file_and_empty(tmp_path):
    a, b = _tree(tmp_path / "a", "1", "1"), _tree(tmp_path / "b", "1", "1")
    (b / "results" / "synth" / "extra.csv").write_text("x\n")
    assert cr.compare(a, b)[3] == ["results/synth/extra.csv"]
    assert cr.main([str(a), str(b)]) == 1
    (tmp_path / "e1").mkdir()
    (tmp_path / "e2").mkdir()
    assert cr.main([str(tmp_path / "e1"), str(tmp_path / "e2")]) == 1


def test_cost_header_names():
    for h in ["train s", "peak MB", "seconds", "max_rss", "training time", "Memory (MB)", "time (s)"]:
        assert cr.COST.match(h), h
    for h in ["system", "MELA", "MUC F", "p (bootstrap)", "sig.", "beam", "iterations", "split"]:
        assert not cr.COST.match(h), h


def test_crossdoc_trace_timings_are_costs_but_scores_are_not():
    for h in [
        "max_shard_seconds",
        "sum_shard_cpu_seconds",
        "roundtrip_seconds",
        "proposals_per_s_per_worker",
        "proposals_per_s",
    ]:
        assert cr.COST.match(h), h
    for h in ["b3_f1", "entities", "proposals", "accepted", "round", "workers", "bias"]:
        assert not cr.COST.match(h), h
