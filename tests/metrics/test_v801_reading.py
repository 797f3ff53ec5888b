"""Input the reference scorer v8.01 reads without complaint, read the same way by `coreflab score`.

- a line of blanks only inside a document is an empty line, not a token (`s/^\\s+$//`);
- a token line whose last column is not a coreference cell (TC24.response of the reference
  scorer's own tests has one: a space-separated line with no coreference column) is read by
  v8.01's patterns, `(N)`, then `(N`, then `N)`, each removed leftmost first; one warning per file;
- more than 10 repeats of key-matched spans: v8.01 refuses to score, we score and say so;
- documents are matched on (id, part), v8.01 matches the `#begin document` line's text as written:
  where the two differ (a trailing blank, `part 0` for `part 000`) we say so.
"""

import json

import pytest

from coreflab.cli import main
from coreflab.metrics.coref_file import v801_items

KEY = [
    "#begin document (nw/x/00/doc_0009); part 000",
    "nw/x/00/doc_0009 -",
    "nw/x/00/doc_0009 (1)",
    "nw/x/00/doc_0009 -",
    "nw/x/00/doc_0009 (1)",
    "nw/x/00/doc_0009 (2",
    "nw/x/00/doc_0009 2)",
    "",
    "nw/x/00/doc_0009 (2)",
    "#end document",
]


def _write(path, lines):
    path.write_text("\n".join(lines) + "\n")
    return path


def _score(capsys, key, response):
    code = main(["score", str(key), str(response), "--format", "json"])
    out = capsys.readouterr()
    return code, (json.loads(out.out) if code == 0 else None), out.err


@pytest.mark.parametrize(
    "cell,items",
    [
        ("(12)", ["(12)"]),
        ("x(12)y", ["(12)"]),
        ("(1(2))", ["(2)", "(1)"]),  # removing '(2)' leaves '(1)'
        ("(1+2)|(3", ["(3"]),  # a "double antecedent" is discarded
        ("(7|7)", ["(7", "7)"]),
        ("12)", ["12)"]),
        ("nw/xinhua/00/chtb_0009", []),
        ("-", []),
    ],
)
def test_v801_pattern_scan_by_hand(cell, items):
    assert v801_items(cell) == items


def test_a_line_of_blanks_is_an_empty_line_not_a_token(tmp_path, capsys):
    key = _write(tmp_path / "key.conll", KEY)
    response = _write(tmp_path / "response.conll", KEY[:4] + [" \t  "] + KEY[4:])
    code, scores, err = _score(capsys, key, response)
    assert code == 0 and err == ""
    assert all(scores[m]["f1"] == 100.0 for m in ("muc", "bcub", "ceafe", "lea"))


def test_a_line_without_coreference_column_reads_as_no_mention_with_one_warning(tmp_path, capsys):
    key = _write(tmp_path / "key.conll", KEY)
    loose = KEY[:3] + ["nw/x/00/doc_0009 ", "nw/x/00/doc_0009"] + KEY[5:]  # TC24's shape, twice
    response = _write(tmp_path / "response.conll", loose)
    code, scores, err = _score(capsys, key, response)
    assert code == 0
    warned = err.strip().splitlines()
    assert len(warned) == 1 and warned[0].startswith(f"coreflab score: warning: {response}:4: last column "), err
    assert "2 such line(s)" in warned[0]
    same = _write(tmp_path / "dashes.conll", KEY[:3] + ["nw/x/00/doc_0009 -", "nw/x/00/doc_0009 -"] + KEY[5:])
    assert _score(capsys, key, same)[1] == scores
    assert scores["muc"]["recall"] == pytest.approx(100 * 1 / 2)  # the second (1) is gone: 1 of 2 key links


def test_a_stray_word_with_v801_patterns_is_read_as_v801_reads_it(tmp_path, capsys):
    key = _write(tmp_path / "key.conll", KEY)
    response = _write(tmp_path / "response.conll", KEY[:4] + ["nw/x/00/doc_0009 see(1)"] + KEY[5:])
    code, scores, err = _score(capsys, key, response)
    assert code == 0 and "see(1)" in err
    assert scores["muc"]["f1"] == 100.0


def test_more_than_ten_repeats_warn_that_v801_refuses(tmp_path, capsys):
    key = _write(tmp_path / "key.conll", KEY)
    many = KEY[:2] + ["nw/x/00/doc_0009 " + "|".join(["(1)"] * 12)] + KEY[3:]
    response = _write(tmp_path / "response.conll", many)
    code, _, err = _score(capsys, key, response)
    assert code == 0 and "refuses to score" in err and "(here 11)" in err
    few = _write(tmp_path / "few.conll", KEY[:2] + ["nw/x/00/doc_0009 (1)|(1)"] + KEY[3:])
    code, _, err = _score(capsys, key, few)
    assert code == 0 and "repeated mentions" in err and "refuses" not in err


@pytest.mark.parametrize(
    "header", ["#begin document (nw/x/00/doc_0009); part 000 ", "#begin document (nw/x/00/doc_0009);part 0"]
)
def test_headers_that_v801_would_not_match_are_scored_with_a_warning(tmp_path, capsys, header):
    key = _write(tmp_path / "key.conll", KEY)
    response = _write(tmp_path / "response.conll", [header] + KEY[1:])
    code, scores, err = _score(capsys, key, response)
    assert code == 0 and scores["muc"]["f1"] == 100.0
    assert "1 document(s) matched on (id, part) whose '#begin document' lines differ" in err
    assert f"key '(nw/x/00/doc_0009); part 000', response {header.removeprefix('#begin document ')!r}" in err


def test_a_folder_keeps_each_documents_header(tmp_path, capsys):
    """Files of a folder are read as one: every document keeps its own v8.01 name."""
    second = [line.replace("doc_0009", "doc_0010") for line in KEY]
    for side in ("key", "response"):
        (tmp_path / side).mkdir()
        _write(tmp_path / side / "a.conll", KEY)
        _write(tmp_path / side / "b.conll", second)
    code, scores, err = _score(capsys, tmp_path / "key", tmp_path / "response")
    assert code == 0 and err == "" and scores["muc"]["f1"] == 100.0
    from coreflab.metrics.coref_file import read_coref_path

    assert read_coref_path(tmp_path / "key").headers == ["(nw/x/00/doc_0009); part 000", "(nw/x/00/doc_0010); part 000"]
