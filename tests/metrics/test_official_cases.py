"""The reference scorer's own test cases, scored unchanged (5 columns) by `coreflab score`.

Every recall and precision the reference configuration lists (MUC, B3, CEAFm, CEAFe, BLANC;
LEA from its TestCases.README) must agree at 1e-4. The files and the expected values are
in official_cases/ (see its README for their source).
"""

import json
import re
from pathlib import Path

import pytest

from coreflab.cli import main

CASES_DIR = Path(__file__).parent / "official_cases"
CASES = json.loads((CASES_DIR / "expected.json").read_text())


def test_the_case_files_keep_the_reference_layout():
    for name in {c["key"] for c in CASES.values()} | {c["response"] for c in CASES.values()}:
        lines = (CASES_DIR / name).read_text().splitlines()
        assert lines[0] == "#begin document (LuoTestCase);" and lines[-1] == "#end document"
        assert {len(line.split("\t")) for line in lines[1:-1] if line} == {5}


@pytest.mark.parametrize("case_id", sorted(CASES))
def test_official_case_agrees_on_every_listed_recall_and_precision(case_id, capsys):
    case = CASES[case_id]
    code = main(["score", str(CASES_DIR / case["key"]), str(CASES_DIR / case["response"]), "--format", "json"])
    assert code == 0
    got = json.loads(capsys.readouterr().out)
    for metric, (recall, precision) in case["expected"].items():
        assert got[metric]["recall"] / 100 == pytest.approx(recall, abs=1e-4), (case_id, metric, "recall")
        assert got[metric]["precision"] / 100 == pytest.approx(precision, abs=1e-4), (case_id, metric, "precision")


COREF_LINE = re.compile(r"^Coreference: Recall: \((\S+) / (\S+)\) \S+%\tPrecision: \((\S+) / (\S+)\) \S+%", re.M)


@pytest.mark.parametrize("case_id", sorted(CASES))
def test_official_case_through_scorer_pl_arguments(case_id, capsys):
    """`coreflab score METRIC KEY RESPONSE none`, scorer.pl's own arguments: the same totals, in the
    text scorer.pl prints (its version line, then the TOTALS block of `--metric`'s text without the
    METRIC header), read as a script written for scorer.pl reads it ("Coreference: Recall: (n / d)")."""
    case = CASES[case_id]
    key, response = str(CASES_DIR / case["key"]), str(CASES_DIR / case["response"])
    for metric in ("muc", "bcub", "ceafm", "ceafe"):
        if metric not in case["expected"]:
            continue
        assert main(["score", metric, key, response, "none"]) == 0
        text = capsys.readouterr().out
        assert main(["score", key, response, "--metric", metric]) == 0
        assert text == "version: 8.01 coreflab\n" + capsys.readouterr().out.removeprefix(f"\nMETRIC {metric}:\n")
        ((rn, rd, pn, pd),) = COREF_LINE.findall(text)
        recall, precision = case["expected"][metric]
        assert (float(rn) / float(rd) if float(rd) else 0.0) == pytest.approx(recall, abs=1e-4), (case_id, metric)
        assert (float(pn) / float(pd) if float(pd) else 0.0) == pytest.approx(precision, abs=1e-4), (case_id, metric)
