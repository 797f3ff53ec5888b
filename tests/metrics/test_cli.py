"""`coreflab score` / `coreflab compare` end to end on small CoNLL files."""

import json

import pytest

from coreflab.cli import main

KEY = """#begin document (d1); part 000
d1 0 0 a NN * - - - - * (0)
d1 0 1 b NN * - - - - * (0
d1 0 2 c NN * - - - - * 0)
d1 0 3 d NN * - - - - * (1)

d1 0 4 e NN * - - - - * (1)
#end document
#begin document (d2); part 000
d2 0 0 a NN * - - - - * (3)
d2 0 1 b NN * - - - - * (3)
#end document
"""

RESPONSE = """#begin document (d1); part 000
d1 0 0 a NN * - - - - * (0)
d1 0 1 b NN * - - - - * (0
d1 0 2 c NN * - - - - * 0)|(7)
d1 0 3 d NN * - - - - * (0)

d1 0 4 e NN * - - - - * -
#end document
"""


def tabs(text):
    return "\n".join(line if line.startswith("#") else line.replace(" ", "\t") for line in text.split("\n"))


@pytest.fixture
def files(tmp_path):
    k, r = tmp_path / "key.conll", tmp_path / "resp.conll"
    k.write_text(tabs(KEY))
    r.write_text(tabs(RESPONSE))
    return k, r


def test_text_output_has_v801_lines(files, capsys):
    assert main(["score", str(files[0]), str(files[1])]) == 0
    out = capsys.readouterr().out.splitlines()
    # key: d1 {a, bc} {d, e}, d2 {a, b}; response: d1 {a, bc, d} {c} (twinless), d2 missing
    assert out[1:4] == ["METRIC muc:", "", "====== TOTALS ======="]
    assert out[4] == "Identification of Mentions: Recall: (3 / 6) 50%\tPrecision: (3 / 4) 75%\tF1: 60%"
    assert out[5] == "-" * 74
    assert out[6] == "Coreference: Recall: (1 / 3) 33.33%\tPrecision: (1 / 2) 50%\tF1: 40%"
    blanc = out.index("METRIC blanc:")
    assert out[blanc + 5 : blanc + 7] == ["", "Coreference:"]
    assert out[blanc + 7].startswith("Coreference links: Recall: (1 / 3) 33.33%")
    assert out[blanc + 9] == "Non-coreference links: Recall: (0 / 4) 0%\tPrecision: (0 / 3) 0%\tF1: 0%"
    assert out[blanc + 11].startswith("BLANC: Recall: (0.166666666666667 / 1) 16.66%")
    assert out[-1].startswith("MELA (CoNLL F1): ")


def test_json_output(files, capsys):
    assert main(["score", str(files[0]), str(files[1]), "--format", "json", "--per-doc"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["muc"]["recall_num"] == 1 and data["muc"]["recall_den"] == 3
    assert data["muc"]["precision"] == pytest.approx(50)
    assert data["mentions"]["f1"] == pytest.approx(60)
    assert data["mela"] == pytest.approx((data["muc"]["f1"] + data["bcub"]["f1"] + data["ceafe"]["f1"]) / 3)
    assert [d["doc_id"] for d in data["documents"]] == ["d1", "d2"]
    assert data["documents"][1]["muc"]["recall_den"] == 1


def test_single_metric(files, capsys):
    assert main(["score", str(files[0]), str(files[1]), "--metric", "ceafm"]) == 0
    out = capsys.readouterr().out
    assert "METRIC ceafm:" in out and "METRIC muc:" not in out and "MELA" not in out


def test_bad_input_exits_2_naming_file_and_line(files, tmp_path, capsys):
    bad = tmp_path / "bad.conll"
    bad.write_text(tabs(KEY).replace("d1\t0\t2\tc\tNN\t*\t-\t-\t-\t-\t*\t0)", "d1\t0\t2\tc\tNN\t*\t-\t-\t-\t-\t*\t-"))
    assert main(["score", str(files[0]), str(bad)]) == 2
    err = capsys.readouterr().err
    assert "bad.conll:" in err and "never closed" in err


def test_compare_is_deterministic(files, capsys):
    args = ["compare", str(files[0]), str(files[1]), str(files[0]), "--samples", "300", "--seed", "7"]
    assert main(args) == 0
    first = capsys.readouterr().out
    assert main(args) == 0
    assert capsys.readouterr().out == first
    assert "difference (A - B): -" in first and "p-value (paired bootstrap, 300 samples, seed 7)" in first


def test_cell_read_like_v801_opens_before_closes():
    # v8.01 reads "0)|(0" as: open at this token, then close it -> a one-token mention,
    # and the mention opened on token 0 closes on token 4 (CorScorer.pm GetCoreference)
    from coreflab.corpus.readers.conll import parse_conll

    text = (
        "#begin document (x); part 000\n"
        + "".join(
            f"x\t0\t{t}\tw\tNN\t*\t-\t-\t-\t-\t*\t{cell}\n" for t, cell in enumerate(["(0", "-", "0)|(0", "-", "0)"])
        )
        + "#end document\n"
    )
    (doc,) = parse_conll(text)
    assert sorted(doc.clusters[0]) == [(0, 4), (2, 2)]


def test_scorer_pl_arguments_name_a_document_or_none(files, capsys):
    """scorer.pl's METRIC KEY RESPONSE [NAME]: 'none' = the totals, a document's '#begin document' rest
    (or its bare id) = that document alone, no NAME = every document and then the totals."""
    k, r = str(files[0]), str(files[1])
    assert main(["score", "muc", k, r, "none"]) == 0
    totals = capsys.readouterr().out
    assert main(["score", k, r, "--metric", "muc"]) == 0
    native = capsys.readouterr().out
    # scorer.pl's own text: the version line, and one metric's TOTALS without a `METRIC muc:` header
    assert native.startswith("\nMETRIC muc:\n\n====== TOTALS")
    assert totals == "version: 8.01 coreflab\n" + native.removeprefix("\nMETRIC muc:\n")
    assert main(["score", "muc", k, r, "(d2); part 000", "--format", "json"]) == 0
    d2 = json.loads(capsys.readouterr().out)
    assert d2["muc"]["recall_den"] == 1 and d2["muc"]["recall_num"] == 0  # d2 is missing from the response
    assert main(["score", "muc", k, r, "d1", "--format", "json"]) == 0
    d1 = json.loads(capsys.readouterr().out)
    assert d1["muc"]["recall_den"] == 2 and d1["muc"]["recall_num"] == 1
    assert main(["score", "MUC", k, r]) == 0
    every = capsys.readouterr().out
    # by hand: d1 key {a, bc} {d, e}, response {a, bc, d} {c}; d2 key {a, b}, not in the response. First the
    # entity listings v8.01 prints (tokens counted in the document, blank lines skipped; an entity's mentions
    # in the order their last token is read; a one-token mention is read before a closing bracket in the same
    # cell, so c's entity is numbered 1); a document the response lacks is listed with an empty name
    rule = "-" * 74
    assert every == "\n".join(
        [
            "version: 8.01 coreflab",
            "====> (d1); part 000:",
            "File (d1); part 000:",
            "Entity 0: (0,0) (1,2)",
            "Entity 1: (3,3) (4,4)",
            "====> (d1); part 000:",
            "File (d1); part 000:",
            "Entity 0: (0,0) (1,2) (3,3)",
            "Entity 1: (2,2)",
            "(d1); part 000:",
            "Total key mentions: 4",
            "Total response mentions: 4",
            "Strictly correct identified mentions: 3",
            "Partially correct identified mentions: 0",
            "No identified: 1",
            "Invented: 1",
            "Recall: (1 / 2) 50%\tPrecision: (1 / 2) 50%\tF1: 50%",
            rule,
            "====> (d2); part 000:",
            "File (d2); part 000:",
            "Entity 0: (0,0) (1,1)",
            "====> :",
            "File :",
            "(d2); part 000:",
            "Total key mentions: 2",
            "Total response mentions: 0",
            "Strictly correct identified mentions: 0",
            "Partially correct identified mentions: 0",
            "No identified: 2",
            "Invented: 0",
            "Recall: (0 / 1) 0%\tPrecision: (0 / 0) 0%\tF1: 0%",
            rule,
        ]
    ) + totals.removeprefix("version: 8.01 coreflab")
    assert every.count("====== TOTALS") == 1  # a script reading the first TOTALS block reads the totals
    assert main(["score", "muc", k, r, "(d1); part 000"]) == 0
    # a document named: v8.01 prints its name before reading it, so before the listings
    one = capsys.readouterr().out
    assert one.startswith("version: 8.01 coreflab\n(d1); part 000:\n====> (d1); part 000:\nFile (d1); part 000:\n")
    assert "Entity 1: (2,2)\nTotal key mentions: 4\n" in one
    assert main(["score", "blanc", k, r]) == 0
    # BLANC's loop over every document prints an empty name and no per-document figures
    blanc = capsys.readouterr().out
    assert "Entity 1: (2,2)\n:\nTotal key mentions: 4\n" in blanc and "Invented: 1\n====> (d2)" in blanc


def test_scorer_pl_all_is_its_five_metrics_in_its_order(files, capsys):
    """scorer.pl's `all`: METRIC headers for muc, bcub, ceafm, ceafe, blanc (no LEA, no MELA line), each
    block as this command prints it natively."""
    k, r = str(files[0]), str(files[1])
    assert main(["score", "all", k, r, "none"]) == 0
    out = capsys.readouterr().out
    assert main(["score", k, r]) == 0
    native = capsys.readouterr().out
    headers = [line for line in out.splitlines() if line.startswith("METRIC")]
    assert headers == ["METRIC muc:", "METRIC bcub:", "METRIC ceafm:", "METRIC ceafe:", "METRIC blanc:"]
    assert "LEA" not in out and "MELA" not in out and out.startswith("version: 8.01 coreflab\n\nMETRIC muc:\n")
    blocks = out.removeprefix("version: 8.01 coreflab\n")
    assert native.startswith(blocks)  # the native text goes on with LEA and the MELA line
    assert native[len(blocks) :].startswith("\nMETRIC lea:")


@pytest.mark.parametrize(
    "argv, message",
    [
        (["muc", "{k}", "{r}", "d9"], "no document named 'd9'"),
        (["{k}", "{r}", "extra"], "expected KEY RESPONSE, or scorer.pl's METRIC KEY RESPONSE [NAME]"),
        (["muc", "{k}", "{r}", "--metric", "bcub"], "metric 'muc' given twice"),
    ],
)
def test_scorer_pl_argument_mistakes_are_one_line_errors(files, capsys, argv, message):
    argv = [a.format(k=files[0], r=files[1]) for a in argv]
    assert main(["score", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_a_bare_id_scores_every_part_of_it_and_the_per_doc_name_works_as_name(tmp_path, capsys):
    """A document in two parts: its bare id scores both together (said on stderr), and the name --per-doc
    prints ('x; part 001') scores that part alone, as its '#begin document' rest does."""

    def part(p, cells):
        rows = "".join(f"x\t{p}\t{t}\tw\tNN\t*\t-\t-\t-\t-\t*\t{c}\n" for t, c in enumerate(cells))
        return f"#begin document (x); part {p:03d}\n{rows}\n#end document\n"

    key, response = tmp_path / "k.conll", tmp_path / "r.conll"
    key.write_text(part(0, ["(1)", "-", "(1)"]) + part(1, ["(2)", "(2)", "(2)"]))
    response.write_text(part(0, ["(1)", "-", "(1)"]) + part(1, ["(2)", "(2)", "-"]))

    def muc(name):
        assert main(["score", "muc", str(key), str(response), name, "--format", "json"]) == 0
        out = capsys.readouterr()
        m = json.loads(out.out)["muc"]
        return (m["recall_num"], m["recall_den"]), out.err

    assert muc("x") == ((2, 3), "coreflab score: 'x' names 2 parts; scoring them together\n")
    assert muc("x; part 001")[0] == muc("(x); part 001")[0] == (1, 2)
    assert muc("(x); part 000")[0] == (1, 1)
