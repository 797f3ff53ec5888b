"""Documentation whose numbers come from result files, never from a hand copy.

A template (docs/templates/*.md) is Markdown with placeholders:

    {{ include synth/paper/<paper>/table1.md }}                 a whole result table
    {{ synth/paper/<paper>/table1.csv | features=non-local | dev MELA | .2f }}
                                                                one cell: file | row filters | column | format
    {{ bench/l3m.json | l3m_pass.cpu_s | .2f }}                 one value of a JSON file (dotted key path)
    {{ synth/leaderboard.csv | rank=1 | system | name }}         a system key as the papers name it (LSP_ρ)
    {{ findings <paper> }}                                      a paper's findings scorecard (or `summary`;
                                                                `papers`: every registered paper's, under its title)
    {{ verdict <paper> nonlocal synth }}                        one claim's verdict word on one corpus
    {{ include synth/leaderboard.md | compact }}               a table without its alignment padding
    {{ figure synth/training_size/figure.png | caption }}       an image, linked from the snapshot

`compact` strips the spaces that pad a Markdown table's cells to one width (and shortens its rule
row to three dashes a cell): the same table once rendered, in about two thirds of the bytes.

Paths are relative to the results directory, or start with `bench/`, which stands for the
benchmark JSON directory (`--bench`, default bench/results). `render` first copies every
referenced file into a snapshot folder committed beside the docs (docs/numbers/), then fills
the template from the snapshot only; so the committed page can be re-rendered and compared
byte for byte without any results (a test does), and a hand edit of a number shows up as a
difference. `snakemake docs` re-collects from fresh results. A verdict word in a page's prose comes
from a `verdict` directive (paper, claim key, corpus folder[, cross-document corpus]), decided by the
scorecard's rule, never typed. A findings or verdict directive cites no file:
coreflab.report.findings decides it from every corpus already in the snapshot, so a page using it
is rendered after the pages that collect those corpora.
"""

import csv
import json
import re
import shutil
from pathlib import Path

from coreflab.errors import UserError

PLACEHOLDER = re.compile(r"\{\{\s*(.*?)\s*\}\}")
FINDINGS = re.compile(r"^findings(?:\s+(\S+))?$")
VERDICT = re.compile(r"^verdict\s+(\S+)\s+(\S+)\s+(\S+)(?:\s+(\S+))?$")
FIGURE = re.compile(r"^figure\s+(\S+\.(?:png|svg|jpg))\s*\|\s*(\S.*)$")


def references(template_text):
    """Every file a template refers to, in order of first use."""
    out = []
    for expr in PLACEHOLDER.findall(template_text):
        if FINDINGS.match(expr.strip()) or VERDICT.match(expr.strip()):
            continue
        path = _path_of(expr)
        if path not in out:
            out.append(path)
    return out


def _path_of(expr):
    expr = expr.strip()
    for directive in ("include ", "figure "):
        if expr.startswith(directive):
            expr = expr[len(directive) :]
    return expr.split("|", 1)[0].strip()


INCLUDE_OPTIONS = ("compact",)
_RULE_CELL = re.compile(r":?-+:?")


def compact_tables(text):
    """`text` with every Markdown table row's cell padding removed (`|a|1|`) and its rule row
    reduced to three dashes and the alignment marks (`|:---|---:|`); other lines unchanged."""
    out = []
    for line in text.split("\n"):
        if line.startswith("|") and line.rstrip().endswith("|"):
            cells = [c.strip() for c in line.strip()[1:-1].split("|")]
            if all(_RULE_CELL.fullmatch(c) for c in cells):
                cells = [(":" if c.startswith(":") else "") + "---" + (":" if c.endswith(":") else "") for c in cells]
            line = "|" + "|".join(cells) + "|"
        out.append(line)
    return "\n".join(out)


def source_path(ref, results_dir, bench_dir):
    """Where a reference lives before it is snapshotted."""
    if ref.startswith("bench/"):
        return Path(bench_dir) / ref[len("bench/") :]
    return Path(results_dir) / ref


def snapshot(template_text, results_dir, bench_dir, snapshot_dir):
    """Copy the referenced files into snapshot_dir (same relative paths); a missing one is an error."""
    missing = [r for r in references(template_text) if not source_path(r, results_dir, bench_dir).is_file()]
    if missing:
        raise UserError(
            f"{len(missing)} result file(s) the docs cite are missing, e.g. "
            f"{source_path(missing[0], results_dir, bench_dir)}: run the workflow that makes them first"
        )
    for ref in references(template_text):
        dest = Path(snapshot_dir) / ref
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source_path(ref, results_dir, bench_dir), dest)


def _cell(path, parts, where):
    *filters, column, fmt = parts
    with open(path, newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    want = {}
    for f in filters:
        if "=" not in f:
            raise UserError(f"{where}: row filter {f!r} is not column=value")
        k, v = f.split("=", 1)
        want[k.strip()] = v.strip()
    hits = [r for r in rows if all(str(r.get(k, "")).strip() == v for k, v in want.items())]
    if len(hits) != 1:
        raise UserError(f"{where}: {len(hits)} rows of {path.name} match {want} (expected exactly one)")
    if column not in hits[0]:
        raise UserError(f"{where}: {path.name} has no column {column!r}; columns: {', '.join(hits[0])}")
    return _format(hits[0][column], fmt, where)


def _json_value(path, parts, where):
    key, fmt = parts
    value = json.loads(path.read_text(encoding="utf-8"))
    for k in key.split("."):
        if isinstance(value, list) and k.isdigit():
            value = value[int(k)]
        elif isinstance(value, dict) and k in value:
            value = value[k]
        else:
            raise UserError(f"{where}: {path.name} has no key {key!r}")
    return _format(value, fmt, where)


def _format(value, fmt, where):
    if fmt in ("", "s"):
        return str(value)
    if fmt == "name":
        from coreflab.report.style_names import system_name

        return system_name(value)
    try:
        return format(int(value) if fmt.endswith("d") else float(value), fmt)
    except ValueError:
        raise UserError(f"{where}: {value!r} is not a number (format {fmt!r})") from None


def render(template_text, snapshot_dir, name="template", scorecard=None):
    """The template with every placeholder filled from the snapshot; `findings` and `verdict` directives
    read the claims of `scorecard` (a coreflab.report.findings.Scorecard: the `docs` verb builds it from
    the paper registry)."""
    snapshot_dir = Path(snapshot_dir)

    def fill(match):
        expr = match.group(1)
        line = template_text.count("\n", 0, match.start()) + 1
        where = f"{name}:{line}"
        findings = FINDINGS.match(expr.strip())
        verdict = VERDICT.match(expr.strip())
        if (findings or verdict) and scorecard is None:
            raise UserError(f"{where}: a findings or verdict directive needs the claims (render's scorecard)")
        if findings:
            from coreflab.report import findings as card

            paper = findings.group(1)
            if paper not in (None, "summary", card.PAPERS, *scorecard.claims):
                known = ", ".join(scorecard.claims)
                raise UserError(
                    f"{where}: no findings for {paper!r}; papers: {known} (or summary, or papers: all of them)"
                )
            return card.render(snapshot_dir, scorecard, paper)
        if verdict:
            from coreflab.report import findings as card

            try:
                return card.verdict_word(snapshot_dir, scorecard, *verdict.groups())
            except KeyError as err:
                raise UserError(f"{where}: {err.args[0]}") from None
        path = snapshot_dir / _path_of(expr)
        if not path.is_file():
            raise UserError(f"{where}: {path} is not in the snapshot (run `snakemake docs`)")
        figure = FIGURE.match(expr.strip())
        if figure:  # the page sits beside the snapshot folder (docs/ and docs/numbers/)
            return f"![{figure.group(2).strip()}]({Path(snapshot_dir).name}/{figure.group(1)})"
        if expr.strip().startswith("figure "):
            raise UserError(f"{where}: a figure is {{{{ figure file.png | caption }}}}")
        if expr.strip().startswith("include "):
            options = [p.strip() for p in expr.split("|")[1:]]
            unknown = [o for o in options if o not in INCLUDE_OPTIONS]
            if unknown:
                raise UserError(f"{where}: unknown include option {unknown[0]!r} (known: {', '.join(INCLUDE_OPTIONS)})")
            text = path.read_text(encoding="utf-8").rstrip("\n")
            return compact_tables(text) if "compact" in options else text
        parts = [p.strip() for p in expr.split("|")[1:]]
        if path.suffix == ".json":
            if len(parts) != 2:
                raise UserError(f"{where}: a JSON value is {{{{ file.json | key.path | format }}}}")
            return _json_value(path, parts, where)
        if len(parts) < 2:
            raise UserError(f"{where}: a table cell is {{{{ file.csv | col=value ... | column | format }}}}")
        return _cell(path, parts, where)

    return PLACEHOLDER.sub(fill, template_text)


__all__ = ["references", "snapshot", "render", "source_path", "compact_tables"]
