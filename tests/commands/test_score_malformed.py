"""Malformed 5-column input: `FILE:LINE: what was expected`, exit status 2, no traceback.

One test per class the scoring reader checks (the only checks scoring needs): unbalanced
bracket, closing id never opened, missing '#begin', missing '#end', duplicate document,
non-UTF-8 bytes, non-integer id. Each malformed file is a valid 5-column file (the official
scorer's layout) with one line changed. (A line of blanks only is an empty line, as for v8.01:
tests/metrics/test_v801_reading.py.)
"""

import subprocess
import sys

import pytest

from coreflab.cli import main

GOOD = [
    "#begin document (doc); part 000",  # line 1
    "s\t0\t0\ta\t(1",  # 2
    "s\t0\t1\tb\t1)",  # 3
    "s\t0\t2\tc\t(2)|(3",  # 4
    "",  # 5
    "s\t0\t0\td\t(2)|3)",  # 6
    "#end document",  # 7
]

# class -> (lines of the malformed file, line the error must name, words the message must hold)
CASES = {
    "unbalanced_bracket": ({3: "s\t0\t1\tb\t-"}, 2, "never closed"),
    "closing_id_never_opened": ({6: "s\t0\t0\td\t(3)|4)"}, 6, "not open"),
    "missing_begin": ({1: None}, 1, "#begin document"),
    "missing_end": ({7: None}, 1, "#end document"),
    "duplicate_document": (
        {8: "#begin document (doc); part 000", 9: "s\t0\t0\ta\t(1)", 10: "#end document"},
        8,
        "duplicate document",
    ),
    "non_integer_id": ({4: "s\t0\t2\tc\t(x1)|(3"}, 4, "not an integer"),
}


def write_case(path, changes):
    lines = list(GOOD)
    for number, text in sorted(changes.items()):
        if number > len(lines):
            lines.append(text)
        else:
            lines[number - 1] = text
    path.write_text("\n".join(line for line in lines if line is not None) + "\n")


def run_score(capsys, key, response):
    code = main(["score", str(key), str(response)])
    captured = capsys.readouterr()
    return code, captured.err


@pytest.fixture
def good(tmp_path):
    path = tmp_path / "good.conll"
    write_case(path, {})
    return path


def test_the_unchanged_file_scores(good, capsys):
    code, err = run_score(capsys, good, good)
    assert code == 0 and err == ""


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("side", ["key", "response"])
def test_malformed_class_names_file_and_line(name, side, good, tmp_path, capsys):
    changes, line, words = CASES[name]
    bad = tmp_path / "bad.conll"
    write_case(bad, changes)
    code, err = run_score(capsys, bad if side == "key" else good, good if side == "key" else bad)
    assert code == 2
    assert err.startswith(f"coreflab score: error: {bad}:{line}: "), err
    assert words in err and "expected" in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_non_utf8_names_the_line(good, tmp_path, capsys):
    bad = tmp_path / "bad.conll"
    bad.write_bytes("\n".join(GOOD[:3]).encode() + b"\n\xff\xfe\tbroken\n" + "\n".join(GOOD[3:]).encode() + b"\n")
    code, err = run_score(capsys, good, bad)
    assert code == 2 and err.startswith(f"coreflab score: error: {bad}:4: not UTF-8"), err


def test_compare_reports_the_same_errors(good, tmp_path, capsys):
    bad = tmp_path / "bad.conll"
    write_case(bad, CASES["non_integer_id"][0])
    assert main(["compare", str(good), str(good), str(bad), "--samples", "10"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"coreflab compare: error: {bad}:4: ") and "Traceback" not in err


@pytest.mark.slow
def test_the_process_exits_2_without_traceback(good, tmp_path):
    bad = tmp_path / "bad.conll"
    write_case(bad, CASES["closing_id_never_opened"][0])
    proc = subprocess.run(
        [sys.executable, "-m", "coreflab.cli", "score", str(good), str(bad)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 2
    assert proc.stderr.startswith(f"coreflab score: error: {bad}:6: ") and "Traceback" not in proc.stderr
