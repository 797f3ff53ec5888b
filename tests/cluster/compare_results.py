"""Compare two results/ trees byte for byte, allowing only measured costs to differ.

    python tests/cluster/compare_results.py LOCAL_DIR SLURM_DIR

Both directories hold a results/ tree of the same workflow and config. Every
results/**/*.{csv,md,tex,json,conll} must exist in both and be byte-identical, except that
columns (CSV, Markdown and LaTeX tables) or keys (JSON) that hold *measured costs* — wall time
and peak memory from Snakemake benchmark files, e.g. the leaderboard's `train s` and
`peak MB` — may differ: no two runs measure the same seconds. Such files are compared with
those cells left out, and listed. Exit 0 when everything else is identical.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import re
import sys
from pathlib import Path

EXTENSIONS = (".csv", ".md", ".tex", ".json", ".conll")
# headers/keys of measured costs: seconds, time, peak memory, RSS
# (also the cross-document traces' `max_shard_seconds`, `sum_shard_cpu_seconds`, ... and the
# rates derived from them, `proposals_per_s_per_worker`)
COST = re.compile(
    r"(?i)^\s*(train(ing)?[ _]?(s|sec|seconds|time)|\w*seconds|wall[ _]?s|time[ _]?\(?s\)?"
    r"|\w*_per_s(_\w+)?|peak[ _]?(mb|mem|memory|rss)|max[ _]?rss|mem(ory)?[ _]?\(?mb\)?|rss)\s*$"
)


def result_files(root: Path) -> list[str]:
    base = root / "results"
    if not base.is_dir():
        return []
    return sorted(
        p.relative_to(root).as_posix() for p in base.rglob("*") if p.is_file() and p.name.endswith(EXTENSIONS)
    )


def _cost_columns(header: list[str]) -> list[int]:
    return [i for i, h in enumerate(header) if COST.match(h.strip().strip("\\{}$*`"))]


def _drop(cells: list[str], idx: list[int]) -> list[str]:
    return [c for i, c in enumerate(cells) if i not in idx]


def _mask_csv(text: str) -> tuple[str, list[str]]:
    rows = list(csv.reader(io.StringIO(text)))
    if not rows:
        return text, []
    idx = _cost_columns(rows[0])
    return json.dumps([_drop(r, idx) for r in rows]), [rows[0][i] for i in idx]


def _mask_table_lines(text: str, split) -> tuple[str, list[str]]:
    """Markdown (`|`) or LaTeX (`&`) tables: the first row with cells is the header."""
    out, idx, names = [], None, []
    for line in text.splitlines():
        cells = split(line)
        if cells is None:
            out.append(line)
            continue
        if idx is None:
            idx = _cost_columns(cells)
            names = [cells[i].strip() for i in idx]
        out.append("\x1f".join(_drop(cells, idx) if len(cells) > max(idx, default=-1) else cells))
    return "\n".join(out), names


def _md_cells(line: str):
    s = line.strip()
    return s.strip("|").split("|") if s.startswith("|") else None


def _tex_cells(line: str):
    s = line.strip()
    if "&" not in s:
        return None
    return re.sub(r"\\\\\s*(\\hline|\\midrule|\\bottomrule|\\toprule)?\s*$", "", s).split("&")


def _mask_json(obj):
    if isinstance(obj, dict):
        return {k: _mask_json(v) for k, v in obj.items() if not COST.match(str(k))}
    if isinstance(obj, list):
        return [_mask_json(v) for v in obj]
    return obj


def masked(path: Path) -> tuple[str, list[str]]:
    """The file's text with measured-cost cells removed, and the names of those cells."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".csv":
        return _mask_csv(text)
    if path.suffix == ".md":
        return _mask_table_lines(text, _md_cells)
    if path.suffix == ".tex":
        return _mask_table_lines(text, _tex_cells)
    if path.suffix == ".json":
        try:
            return json.dumps(_mask_json(json.loads(text)), sort_keys=True), ["(cost keys)"]
        except ValueError:
            return text, []
    return text, []


def compare(a: Path, b: Path) -> tuple[list[str], list[str], list[str], list[str]]:
    """(identical, equal up to measured costs, differing, missing on either side)."""
    fa, fb = result_files(a), result_files(b)
    missing = sorted(set(fa) ^ set(fb))
    same, costs, diff = [], [], []
    for rel in sorted(set(fa) & set(fb)):
        if (a / rel).read_bytes() == (b / rel).read_bytes():
            same.append(rel)
            continue
        (ta, names), (tb, _) = masked(a / rel), masked(b / rel)
        if names and ta == tb:
            costs.append(f"{rel} ({', '.join(names)})")
        else:
            diff.append(rel)
    return same, costs, diff, missing


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("local", type=Path)
    parser.add_argument("other", type=Path)
    args = parser.parse_args(argv)
    same, costs, diff, missing = compare(args.local, args.other)
    for rel in missing:
        print(f"only on one side: {rel}", file=sys.stderr)
    for rel in diff:
        print(f"differs: {rel}", file=sys.stderr)
    for rel in costs:
        print(f"identical except measured costs: {rel}")
    total = len(same) + len(costs) + len(diff) + len(missing)
    print(
        f"{total} result files: {len(same)} byte-identical, {len(costs)} identical except "
        f"measured costs, {len(diff)} differ, {len(missing)} on one side only"
    )
    return 0 if total and not diff and not missing else 1


if __name__ == "__main__":
    sys.exit(main())
