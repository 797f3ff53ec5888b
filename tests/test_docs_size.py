"""The docs are a reference a reader can take in, not a lab notebook of earlier runs.

Every page under docs/ (but the benchmark page, which has its own budget) and the config key
reference (config/README.md) is at most 15 KB with no prose paragraph over 1,000 characters, and no
row of the config reference's tables is over 1,000 characters either; the README is at most 6 KB, and
no commit hash is quoted in the docs, in config comments or in a docstring: run history belongs to
git, not to the pages. Nor does the code tell its story: no "issue N" in a docstring or comment of
src/, in a rule file of workflow/ or in a config comment (the why stays, the story goes to git).
"""

import ast
import io
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
KB = 1000  # the stricter reading of "15 KB": a page meets it whichever a reader means
PAGE_LIMIT = 15 * KB
README_LIMIT = 6 * KB
PARAGRAPH_LIMIT = 1000
ROW_LIMIT = 1000  # a Markdown table row of the config reference
NOT_A_PAGE_LIMIT = {"performance.md"}  # the benchmark table, with its own budget

# 7 to 40 hex digits with at least one digit and one letter: an abbreviated or full commit hash.
# Pure numbers and words (a 7-figure count, "defaced") are not taken for one.
COMMIT_HASH = re.compile(r"\b(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b")
ALLOWED_HEX = set()  # hex that is no commit hash, quoted on purpose (none so far)

LIST_ITEM = re.compile(r"^ {0,3}([-*+]|\d+[.)]) ")

PAGES = sorted((ROOT / "docs").glob("*.md"))
CONFIG_README = ROOT / "config" / "README.md"  # the reference of every config key
SIZED_PAGES = [p for p in PAGES if p.name not in NOT_A_PAGE_LIMIT] + [CONFIG_README]


def page_id(page):
    return str(page.relative_to(ROOT))


def paragraphs(text):
    """The prose paragraphs of a Markdown text: runs of non-blank lines outside fenced code, where a
    heading or a table row ends one and a list item starts a new one (tables and code are not prose)."""
    out, current, fenced = [], [], False

    def close():
        if current:
            out.append(" ".join(current))
            current.clear()

    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("```"):
            close()
            fenced = not fenced
            continue
        if fenced:
            continue
        if not stripped or stripped.startswith(("|", "#")):
            close()
            continue
        if LIST_ITEM.match(line):
            close()
        current.append(stripped)
    close()
    return out


def commit_hashes(text):
    return [h for h in COMMIT_HASH.findall(text) if h not in ALLOWED_HEX]


def config_comments(path):
    """The comments of a YAML file (what follows the first `#` of each line)."""
    return "\n".join(line[line.index("#") :] for line in path.read_text(encoding="utf-8").splitlines() if "#" in line)


def docstrings(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = [
        n for n in ast.walk(tree) if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
    ]
    return "\n".join(d for d in (ast.get_docstring(n, clean=False) for n in nodes) if d)


def test_the_paragraph_reader_skips_code_and_tables_and_splits_lists():
    text = "# Title\n\nOne\ntwo.\n\n| a | b |\n|---|---|\n\n```\ncode line\n```\n- item one\n  goes on\n- item two\n"
    assert paragraphs(text) == ["One two.", "- item one goes on", "- item two"]


def test_a_commit_hash_is_found_and_numbers_and_words_are_not():
    assert commit_hashes("on 572319e, see 1f3e2d4c5b6a79801f3e2d4c5b6a79801f3e2d4c") == [
        "572319e",
        "1f3e2d4c5b6a79801f3e2d4c5b6a79801f3e2d4c",
    ]
    assert commit_hashes("1500000 mentions, a defaced page, 0.6195 and 6,195 MB, sha 'abc12'") == []


def table_rows(text):
    """The table rows of a Markdown text: the lines starting with `|`."""
    return [line for line in text.splitlines() if line.startswith("|")]


def test_the_row_reader_takes_the_lines_starting_with_a_bar():
    assert table_rows("# T\n\n| a | b |\n|---|---|\n| `k` | 1 |\ntext | not a row\n") == [
        "| a | b |",
        "|---|---|",
        "| `k` | 1 |",
    ]


@pytest.mark.parametrize("page", SIZED_PAGES, ids=page_id)
def test_a_docs_page_is_at_most_15_kb(page):
    size = len(page.read_bytes())
    assert size <= PAGE_LIMIT, f"{page_id(page)}: {size:,} bytes, over {PAGE_LIMIT:,}"


@pytest.mark.parametrize("page", SIZED_PAGES + [ROOT / "README.md"], ids=page_id)
def test_no_paragraph_is_over_1000_characters(page):
    long = [p[:80] + "…" for p in paragraphs(page.read_text(encoding="utf-8")) if len(p) > PARAGRAPH_LIMIT]
    assert long == [], f"{page_id(page)}: paragraphs over {PARAGRAPH_LIMIT} characters"


def test_no_row_of_the_config_reference_is_over_1000_characters():
    rows = table_rows(CONFIG_README.read_text(encoding="utf-8"))
    long = [f"{len(row)}: {row[:80]}…" for row in rows if len(row) > ROW_LIMIT]
    assert long == [], f"config/README.md: table rows over {ROW_LIMIT} characters"


def test_the_readme_is_at_most_6_kb():
    size = len((ROOT / "README.md").read_bytes())
    assert size <= README_LIMIT, f"README.md: {size:,} bytes, over {README_LIMIT:,}"


def test_no_commit_hash_in_the_docs_the_config_comments_or_the_docstrings():
    texts = {p: p.read_text(encoding="utf-8") for p in PAGES + sorted((ROOT / "docs" / "templates").glob("*.md"))}
    texts[ROOT / "README.md"] = (ROOT / "README.md").read_text(encoding="utf-8")
    texts[CONFIG_README] = CONFIG_README.read_text(encoding="utf-8")  # also read below, named here on purpose
    for path in sorted((ROOT / "config").rglob("*")):
        if path.suffix == ".yaml":
            texts[path] = config_comments(path)
        elif path.suffix == ".md":
            texts[path] = path.read_text(encoding="utf-8")
    for path in sorted((ROOT / "src").rglob("*.py")):
        texts[path] = docstrings(path)
    found = {str(p.relative_to(ROOT)): h for p, t in texts.items() if (h := commit_hashes(t))}
    assert found == {}


ISSUE_REFERENCE = re.compile(r"\bissues? #?\d+", re.I)


def python_comments(path):
    """The comments of a Python file."""
    tokens = tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline)
    return "\n".join(t.string for t in tokens if t.type == tokenize.COMMENT)


def test_an_issue_reference_is_found_in_a_comment_and_a_docstring(tmp_path):
    code = tmp_path / "m.py"
    code.write_text('"""Fast (issue 3)."""\nx = "issue 4"  # see issue #5\n')
    found = ISSUE_REFERENCE.findall(docstrings(code) + "\n" + python_comments(code))
    assert found == ["issue 3", "issue #5"]  # a string of the code is data, not a comment


def test_no_issue_reference_in_the_code_the_rules_or_the_config():
    texts = {}
    for path in sorted((ROOT / "src").rglob("*.py")):
        texts[path] = docstrings(path) + "\n" + python_comments(path)
    for path in sorted((ROOT / "workflow").rglob("*")):
        if path.suffix in (".smk", ".yaml", ".rst") or path.name == "Snakefile":
            texts[path] = path.read_text(encoding="utf-8")
    for path in sorted((ROOT / "config").rglob("*.yaml")):
        texts[path] = config_comments(path)
    found = {str(p.relative_to(ROOT)): hits for p, t in texts.items() if (hits := ISSUE_REFERENCE.findall(t))}
    assert found == {}
