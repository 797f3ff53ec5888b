"""Tidy score rows, the leaderboard ordering, and the atomic table writers."""

import json

import numpy as np
import pandas as pd
import pytest

from coreflab.cli import main
from coreflab.report.io import write_table
from coreflab.report.leaderboard import leaderboard_frame
from coreflab.report.scores import tidy_table


def _score(tmp_path, name, muc, bcub, ceafe):
    obj = {}
    for metric, f in (("muc", muc), ("bcub", bcub), ("ceafe", ceafe)):
        obj[metric] = {"recall": f + 1, "precision": f - 1, "f1": f}
    obj["mela"] = (muc + bcub + ceafe) / 3
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(obj))
    return path


def test_tidy_table_rows_and_order(tmp_path):
    a = _score(tmp_path, "a", 60.0, 50.0, 40.0)
    df = tidy_table([("synth", "test", "sysA", a)])
    assert list(df["metric"]) == ["muc", "bcub", "ceafe", "mela"]
    assert df.loc[df.metric == "mela", "f1"].item() == pytest.approx(50.0)
    assert np.isnan(df.loc[df.metric == "mela", "recall"].item())
    assert df.loc[df.metric == "muc", "recall"].item() == 61.0


def test_leaderboard_sorts_by_mela_and_ranks(tmp_path):
    entries = [
        ("synth", "test", "low", _score(tmp_path, "low", 30, 30, 30)),
        ("synth", "test", "high", _score(tmp_path, "high", 70, 60, 50)),
    ]
    board = leaderboard_frame(tidy_table(entries), "test")
    assert list(board["system"]) == ["high", "low"]
    assert list(board["rank"]) == [1, 2]
    assert board.loc[0, "MELA"] == pytest.approx(60.0)
    assert board.loc[0, "MUC R"] == 71.0 and board.loc[1, "CEAFe P"] == 29.0


def test_cli_scores_table_and_leaderboard(tmp_path, capsys):
    a = _score(tmp_path, "a", 70, 60, 50)
    b = _score(tmp_path, "b", 40, 40, 40)
    csv = tmp_path / "scores.csv"
    assert (
        main(
            [
                "scores-table",
                "--corpus",
                "c",
                "--split",
                "test",
                "--score",
                f"a={a}",
                "--score",
                f"b={b}",
                "--out",
                str(csv),
            ]
        )
        == 0
    )
    assert main(["leaderboard", "--scores", str(csv), "--out-prefix", str(tmp_path / "lb")]) == 0
    md = (tmp_path / "lb.md").read_text()
    assert md.index("| a ") < md.index("| b ")
    assert "\\toprule" in (tmp_path / "lb.tex").read_text()
    assert pd.read_csv(tmp_path / "lb.csv")["MELA"].round(6).tolist() == [60.0, 40.0]
    assert "one-mention clusters" not in md  # no compiled split, nothing to say


@pytest.mark.parametrize("recorded, note", [(True, "; responses keep"), (False, "; responses without"), (None, None)])
def test_the_caption_says_whether_responses_keep_singletons(tmp_path, recorded, note):
    """As the test split's compiled corpus records it (`coreflab prepare`); nothing when it records nothing."""
    from coreflab.corpus.compiled import CompiledCorpus

    a = _score(tmp_path, "a", 70, 60, 50)
    csv = tmp_path / "scores.csv"
    assert main(["scores-table", "--corpus", "c", "--split", "test", "--score", f"a={a}", "--out", str(csv)]) == 0
    compiled = tmp_path / "test.npz"
    CompiledCorpus("c", "test", [], [], response_singletons=recorded).save(compiled)
    argv = ["leaderboard", "--scores", str(csv), "--compiled", str(compiled), "--out-prefix", str(tmp_path / "lb")]
    assert main(argv) == 0
    caption = (tmp_path / "lb.md").read_text().splitlines()[0]
    assert ("one-mention clusters" in caption) is (note is not None)
    if note:
        assert caption.startswith(f"Leaderboard: c, test split, {note[2:]} one-mention clusters (F1 in %")
    assert main([*argv, "--mentions", "predicted"]) == 0
    setting = "predicted mentions" + (f";{note[1:]} one-mention clusters" if note else "")
    assert (tmp_path / "lb.md").read_text().startswith(f"Leaderboard: c, test split, {setting} (F1 in %")


def test_bad_score_argument_is_a_user_error(tmp_path, capsys):
    assert (
        main(["scores-table", "--corpus", "c", "--split", "test", "--score", "nope", "--out", str(tmp_path / "x.csv")])
        == 2
    )
    assert "expected SYSTEM=PATH" in capsys.readouterr().err
    assert not (tmp_path / "x.csv").exists()
    bad = tmp_path / "bad.json"
    bad.write_text("{\n oops")
    assert (
        main(
            [
                "scores-table",
                "--corpus",
                "c",
                "--split",
                "test",
                "--score",
                f"s={bad}",
                "--out",
                str(tmp_path / "x.csv"),
            ]
        )
        == 2
    )
    assert "bad.json:2" in capsys.readouterr().err


def test_write_table_writes_four_formats(tmp_path):
    df = pd.DataFrame({"system": ["x_y"], "F": [12.3456]})
    paths = write_table(df, tmp_path / "t", caption="A <b> & c")
    assert [p.name for p in paths] == ["t.csv", "t.md", "t.tex", "t.html"]
    assert "12.35" in (tmp_path / "t.md").read_text()
    assert "x\\_y & 12.35" in (tmp_path / "t.tex").read_text()
    page = (tmp_path / "t.html").read_text()  # the report's view: a table, the caption escaped
    assert "<td>x_y</td>" in page and "<td>12.35</td>" in page
    assert "<caption>A &lt;b&gt; &amp; c</caption>" in page


def test_missing_cells_are_blank_in_every_format(tmp_path):
    df = pd.DataFrame(
        {"row": ["a", "difference"], "iteration": pd.Series([50, None], dtype=object), "F": [12.3456, float("nan")]}
    )
    write_table(df, tmp_path / "t")
    md = (tmp_path / "t.md").read_text().splitlines()
    assert md[2].split("|")[1:4] == [" a          ", "          50 ", " 12.35 "]
    assert [c.strip() for c in md[3].split("|")[1:4]] == ["difference", "", ""]
    assert "nan" not in (tmp_path / "t.tex").read_text() and "difference &  &  \\\\" in (tmp_path / "t.tex").read_text()
    assert (tmp_path / "t.csv").read_text() == "row,iteration,F\na,50,12.3456\ndifference,,\n"


def _benchmark(path, secs, rss):
    path.write_text(f"s\th:m:s\tmax_rss\tcpu_time\n{secs}\t0:00:00\t{rss}\t{secs}\n")
    return str(path)


def test_costs_of_a_system_trained_from_another_fit_add_up(tmp_path):
    from coreflab.errors import UserError
    from coreflab.report.leaderboard import add_costs

    base = _benchmark(tmp_path / "base.tsv", 120.5, 3000.0)
    slt = _benchmark(tmp_path / "slt.tsv", 80.25, 3100.0)
    old = _benchmark(tmp_path / "old.tsv", 7.0, "-")  # Snakemake writes '-' where it measured nothing
    board = pd.DataFrame({"system": ["cc_base", "cc_slt_closest", "l3m", "string_match"]})
    costs = add_costs(board, {"cc_base": base, "cc_slt_closest": f"{slt},{base}", "l3m": old})
    assert costs["train s"].tolist()[:3] == [120.5, 200.75, 7.0]  # BASE's fit counted in SLT's cost
    assert costs["peak MB"].tolist()[:2] == [3000.0, 3100.0]  # the larger peak
    assert costs["peak MB"].isna().tolist()[2:] == [True, True]
    assert np.isnan(costs["train s"].iloc[3])  # no training job
    with pytest.raises(UserError, match="no benchmark file .*missing.tsv"):
        add_costs(board, {"l3m": str(tmp_path / "missing.tsv")})
