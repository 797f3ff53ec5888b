"""Per-rule SLURM requests from measured Snakemake benchmark files.

    python profiles/slurm/suggest_resources.py results/<corpus>/benchmarks [more dirs]

Every rule of the workflow writes `benchmark:` files (one TSV per job: `s` wall seconds,
`max_rss` peak resident memory in MB). This script finds the rule each file belongs to by
matching the file against the rules' benchmark patterns in workflow/rules/**/*.smk, takes the
worst job of each rule, and prints a `set-resources:` block for profiles/slurm/config.yaml:
memory = peak RSS times a headroom factor, rounded up to 500 MB (at least 1000 MB); runtime
= wall time times the factor, in whole minutes (at least 5). A SLURM job that exceeds
either is killed, so the headroom errs on the large side; scale it with --factor when the
measured corpus is smaller than the one you will run.
"""

from __future__ import annotations

import argparse
import csv
import math
import re
import sys
from pathlib import Path

_RULE = re.compile(r"^rule\s+(\w+)\s*:", re.M)
_BENCH = re.compile(r"^\s+benchmark:\s*\n\s+(?:benchmark\()?\"([^\"]+)\"", re.M)


def benchmark_patterns(rules_dir: Path) -> dict[str, re.Pattern[str]]:
    """Rule name -> regex of its benchmark path (wildcards match one path component)."""
    patterns: dict[str, re.Pattern[str]] = {}
    for smk in sorted(rules_dir.rglob("*.smk")):
        text = smk.read_text(encoding="utf-8")
        starts = [(m.start(), m.group(1)) for m in _RULE.finditer(text)] + [(len(text), "")]
        for (begin, name), (end, _) in zip(starts, starts[1:]):
            m = _BENCH.search(text, begin, end)
            if m:
                parts = re.split(r"(\{[^}]+\})", m.group(1))
                regex = "".join("[^/]+" if p.startswith("{") else re.escape(p) for p in parts)
                patterns[name] = re.compile(f"(?:.*/)?{regex}$")
    return patterns


def read_benchmark(path: Path) -> tuple[float, float]:
    """(worst wall seconds, worst peak RSS in MB) over the rows of one benchmark TSV."""
    seconds, rss = 0.0, 0.0
    with path.open(newline="", encoding="utf-8") as fh:
        for row in csv.DictReader(fh, delimiter="\t"):
            seconds = max(seconds, _number(row.get("s")))
            rss = max(rss, _number(row.get("max_rss")))
    return seconds, rss


def _number(text: str | None) -> float:
    try:
        value = float(text)  # "NA" for jobs too short to sample
    except (TypeError, ValueError):
        return 0.0
    return value if math.isfinite(value) else 0.0


def suggest(seconds: float, rss_mb: float, factor: float) -> tuple[int, int]:
    """(mem_mb, runtime in minutes) for a measured job."""
    mem = max(1000, math.ceil(rss_mb * factor / 500.0) * 500)
    runtime = max(5, math.ceil(seconds * factor / 60.0))
    return mem, runtime


def collect(dirs: list[Path], patterns: dict[str, re.Pattern[str]]) -> dict[str, tuple[float, float]]:
    """Rule -> (worst seconds, worst RSS) over every benchmark file under dirs."""
    worst: dict[str, tuple[float, float]] = {}
    for d in dirs:
        for path in sorted(d.rglob("*.tsv")):
            posix = path.as_posix()
            # longest pattern first: `score_{system}_{split}` must not be taken for `score_{x}`
            for name, pat in sorted(patterns.items(), key=lambda kv: -len(kv[1].pattern)):
                if pat.match(posix):
                    s, r = read_benchmark(path)
                    old = worst.get(name, (0.0, 0.0))
                    worst[name] = (max(old[0], s), max(old[1], r))
                    break
    return worst


def render(worst: dict[str, tuple[float, float]], factor: float) -> str:
    lines = ["set-resources:"]
    for name in sorted(worst):
        s, r = worst[name]
        mem, runtime = suggest(s, r, factor)
        lines += [f"  {name}:  # measured {s:.1f} s, {r:.0f} MB", f"    mem_mb: {mem}", f"    runtime: {runtime}"]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dirs", nargs="+", type=Path, help="benchmark directories")
    parser.add_argument("--rules", type=Path, default=Path("workflow/rules"))
    parser.add_argument("--factor", type=float, default=4.0, help="headroom factor (4)")
    args = parser.parse_args(argv)
    patterns = benchmark_patterns(args.rules)
    if not patterns:
        print(f"suggest_resources: no rule with a benchmark in {args.rules}", file=sys.stderr)
        return 2
    worst = collect(args.dirs, patterns)
    if not worst:
        print("suggest_resources: no benchmark file matched a rule", file=sys.stderr)
        return 2
    sys.stdout.write(render(worst, args.factor))
    return 0


if __name__ == "__main__":
    sys.exit(main())
