"""Documentation whose numbers come from result files, never from a hand copy.

A template (docs/templates/*.md) is Markdown with placeholders:

    {{ include synth/paper/bk2014/table1.md }}                  a whole result table
    {{ synth/paper/bk2014/table1.csv | features=non-local | dev MELA | .2f }}
                                                                one cell: file | row filters | column | format
    {{ bench/l3m.json | l3m_pass.cpu_s | .2f }}                 one value of a JSON file (dotted key path)

Paths are relative to the results directory, or start with `bench/`, which stands for the
benchmark JSON directory (`--bench`, default bench/results). `render` first copies every
referenced file into a snapshot folder committed beside the docs (docs/numbers/), then fills
the template from the snapshot only; so the committed page can be re-rendered and compared
byte for byte without any results (a test does), and a hand edit of a number shows up as a
difference. `snakemake docs` re-collects from fresh results.
"""

import csv
import json
import re
import shutil
from pathlib import Path

from coreflab.errors import UserError

PLACEHOLDER = re.compile(r"\{\{\s*(.*?)\s*\}\}")


def references(template_text):
    """Every file a template refers to, in order of first use."""
    out = []
    for expr in PLACEHOLDER.findall(template_text):
        path = _path_of(expr)
        if path not in out:
            out.append(path)
    return out


def _path_of(expr):
    expr = expr.strip()
    if expr.startswith("include "):
        return expr[len("include ") :].strip()
    return expr.split("|", 1)[0].strip()


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
    try:
        return format(int(value) if fmt.endswith("d") else float(value), fmt)
    except ValueError:
        raise UserError(f"{where}: {value!r} is not a number (format {fmt!r})") from None


def render(template_text, snapshot_dir, name="template"):
    """The template with every placeholder filled from the snapshot."""
    snapshot_dir = Path(snapshot_dir)

    def fill(match):
        expr = match.group(1)
        line = template_text.count("\n", 0, match.start()) + 1
        where = f"{name}:{line}"
        path = snapshot_dir / _path_of(expr)
        if not path.is_file():
            raise UserError(f"{where}: {path} is not in the snapshot (run `snakemake docs`)")
        if expr.strip().startswith("include "):
            return path.read_text(encoding="utf-8").rstrip("\n")
        parts = [p.strip() for p in expr.split("|")[1:]]
        if path.suffix == ".json":
            if len(parts) != 2:
                raise UserError(f"{where}: a JSON value is {{{{ file.json | key.path | format }}}}")
            return _json_value(path, parts, where)
        if len(parts) < 2:
            raise UserError(f"{where}: a table cell is {{{{ file.csv | col=value ... | column | format }}}}")
        return _cell(path, parts, where)

    return PLACEHOLDER.sub(fill, template_text)


__all__ = ["references", "snapshot", "render", "source_path"]
