"""Docs whose numbers come from results: placeholders, snapshot, and the committed pages."""

import json
import re
from pathlib import Path

import pytest

from coreflab.errors import UserError
from coreflab.papers import registry  # noqa: F401  (its import hands the report the papers' system names, as the CLI does)
from coreflab.report.docs import references, render, snapshot
from coreflab.report.findings import parse_markdown_table
from coreflab.report.performance import HEADLINE_COLUMNS

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = """# Results
{{ include synth/t.md }}

Non-local: {{ synth/t.csv | features=non-local | dev MELA | .2f }} (beam {{ synth/t.csv | features=non-local | beam | .0f }}).
Speed: {{ bench/b.json | epoch.seconds | .1f }} s.
"""


@pytest.fixture
def results(tmp_path):
    (tmp_path / "results" / "synth").mkdir(parents=True)
    (tmp_path / "results" / "synth" / "t.md").write_text("| a |\n|---|\n| 1 |\n")
    (tmp_path / "results" / "synth" / "t.csv").write_text(
        "features,beam,dev MELA\nlocal,5,56.514\nnon-local,5,59.4749\n"
    )
    (tmp_path / "bench").mkdir()
    (tmp_path / "bench" / "b.json").write_text(json.dumps({"epoch": {"seconds": 1.25}}))
    return tmp_path


def test_references_in_order(results):
    assert references(TEMPLATE) == ["synth/t.md", "synth/t.csv", "bench/b.json"]


def test_render_fills_tables_cells_and_json_values_from_the_snapshot(results):
    snap = results / "snap"
    snapshot(TEMPLATE, results / "results", results / "bench", snap)
    (results / "results" / "synth" / "t.csv").write_text("features,beam,dev MELA\nnon-local,5,1.0\n")  # later runs
    out = render(TEMPLATE, snap)
    assert "| a |\n|---|\n| 1 |\n\nNon-local: 59.47 (beam 5)." in out
    assert "Speed: 1.2 s." in out


def test_integer_and_grouped_formats(results):
    text = (
        "{{ bench/b.json | count | d }} / {{ bench/b.json | count | ,.0f }} / {{ bench/b.json | epoch.seconds | s }}\n"
    )
    (results / "bench" / "b.json").write_text(json.dumps({"count": 12345, "epoch": {"seconds": 1.25}}))
    snapshot(text, results / "results", results / "bench", results / "snap")
    assert render(text, results / "snap") == "12345 / 12,345 / 1.25\n"


def test_the_name_format_prints_a_system_key_as_the_papers_name_it(results):
    (results / "results" / "synth" / "board.csv").write_text("rank,system\n1,lsp_rho\n2,bk_delayed_laso\n3,mine\n")
    text = "{{ synth/board.csv | rank=1 | system | name }}, {{ synth/board.csv | rank=2 | system | name }}, "
    text += "{{ synth/board.csv | rank=3 | system | name }}\n"
    snapshot(text, results / "results", results / "bench", results / "snap")
    assert render(text, results / "snap") == "LSP_ρ, delayed LaSO, mine\n"


def test_a_compact_include_drops_the_tables_padding_only(results):
    (results / "results" / "synth" / "t.md").write_text(
        "Caption  with  spaces\n\n|   rank | system   |\n|-------:|:---------|\n|      1 | a  b     |\n"
    )
    text = "{{ include synth/t.md | compact }}\n"
    snapshot(text, results / "results", results / "bench", results / "snap")
    assert references(text) == ["synth/t.md"]
    assert render(text, results / "snap") == "Caption  with  spaces\n\n|rank|system|\n|---:|:---|\n|1|a  b|\n"
    with pytest.raises(UserError, match="unknown include option 'tight'"):
        render("{{ include synth/t.md | tight }}", results / "snap")


def test_a_figure_is_copied_into_the_snapshot_and_linked_from_beside_it(results):
    (results / "results" / "synth" / "f.png").write_bytes(b"\x89PNG fake")
    text = "{{ figure synth/f.png | Test MELA by training size }}\n"
    snap = results / "numbers"
    snapshot(text, results / "results", results / "bench", snap)
    assert references(text) == ["synth/f.png"]
    assert (snap / "synth" / "f.png").read_bytes() == b"\x89PNG fake"
    assert render(text, snap) == "![Test MELA by training size](numbers/synth/f.png)\n"
    with pytest.raises(UserError, match="a figure is"):
        render("{{ figure synth/f.png }}", snap, name="page.md")


def test_a_missing_result_file_is_one_error_naming_it(results):
    with pytest.raises(UserError, match=r"missing, e.g. .*nope.csv"):
        snapshot("{{ synth/nope.csv | a=b | c | .1f }}", results / "results", results / "bench", results / "snap")


@pytest.mark.parametrize(
    "expr, message",
    [
        ("synth/t.csv | beam=5 | dev MELA | .1f", "2 rows of t.csv match"),
        ("synth/t.csv | features=local | MELA | .1f", "no column 'MELA'"),
        ("synth/t.csv | features | dev MELA | .1f", "not column=value"),
        ("bench/b.json | epoch.minutes | .1f", "no key 'epoch.minutes'"),
    ],
)
def test_a_bad_placeholder_names_template_line_and_problem(results, expr, message):
    text = "line one\n{{ " + expr + " }}\n"
    snapshot(text, results / "results", results / "bench", results / "snap")
    with pytest.raises(UserError, match=message) as err:
        render(text, results / "snap", name="page.md")
    assert str(err.value).startswith("page.md:2:")


@pytest.mark.parametrize("template", sorted((ROOT / "docs" / "templates").glob("*.md")), ids=lambda p: p.name)
def test_the_committed_docs_are_their_templates_rendered_from_the_committed_numbers(template, scorecard):
    page = ROOT / "docs" / template.name
    assert page.is_file(), f"{page} not rendered (snakemake docs)"
    rendered = render(template.read_text(), ROOT / "docs" / "numbers", name=template.name, scorecard=scorecard)
    assert rendered == page.read_text()


def _md_rows(path):
    """{system: MELA} of a committed leaderboard-shaped Markdown table."""
    return {r["system"]: r["MELA"] for r in parse_markdown_table(path.read_text())}


@pytest.mark.parametrize(
    "corpus", sorted(p.parents[2].name for p in (ROOT / "docs" / "numbers").glob("*/paper/bk2014/table2.md"))
)
def test_a_snapshots_bk_table2_is_its_leaderboard(corpus):
    """B&K's Table 2 is the leaderboard of the same run (rule bk2014_table2 reads the leaderboard's inputs): a
    snapshot whose two tables disagree has one of them left from an older run."""
    numbers = ROOT / "docs" / "numbers" / corpus
    assert _md_rows(numbers / "paper" / "bk2014" / "table2.md") == _md_rows(numbers / "leaderboard.md")


def test_every_snapshot_file_is_cited_by_a_template():
    """A file no template cites any more is a stale copy of an old result (and a reader comparing runs against
    the snapshot would take it for a current one)."""
    cited = {r for t in (ROOT / "docs" / "templates").glob("*.md") for r in references(t.read_text())}
    numbers = ROOT / "docs" / "numbers"
    stale = sorted(p.relative_to(numbers).as_posix() for p in numbers.rglob("*") if p.is_file())
    assert [f for f in stale if f not in cited] == []


def test_the_performance_page_is_short_and_its_table_is_the_report_s():
    """At most 30 KB, no paragraph over 1,000 characters, no commit hash; its benchmark table in the
    form `coreflab bench-report` writes it (one row per benchmark)."""
    page = render((ROOT / "docs" / "templates" / "performance.md").read_text(), ROOT / "docs" / "numbers")
    assert len(page.encode("utf-8")) <= 30_000
    prose = [p for p in page.split("\n\n") if not p.lstrip().startswith(("|", "<!--"))]
    assert max(len(p) for p in prose) <= 1000
    assert not re.search(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\b", page)
    table = (ROOT / "docs" / "numbers" / "bench" / "scaling.md").read_text().splitlines()
    assert re.fullmatch(r"\d+ of \d+ targets met\. .*", table[0])
    assert table[2] == "| " + " | ".join(HEADLINE_COLUMNS) + " |"
