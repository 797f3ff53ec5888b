"""profiles/slurm/suggest_resources.py and profiles/slurm/config.yaml.

The SLURM check itself (slurm_check.sh) needs root and daemons; it is a separate command.
These tests pin down what can be checked without SLURM: the profile parses and names only
rules that exist, and per-rule requests come out of benchmark files as documented.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
PROFILE = ROOT / "profiles" / "slurm" / "config.yaml"


def _load_module():
    spec = importlib.util.spec_from_file_location(
        "suggest_resources", ROOT / "profiles" / "slurm" / "suggest_resources.py"
    )
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


sr = _load_module()

RULES = """
rule string_match:
    input:
        x="a",
    log:
        "results/{corpus}/logs/string_match_{split}.log",
    benchmark:
        "results/{corpus}/benchmarks/string_match_{split}.tsv"
    shell:
        "true"


rule score:
    benchmark:
        "results/{corpus}/benchmarks/score_{system}_{split}.tsv"
    shell:
        "true"


rule leaderboard:
    benchmark:
        "results/{corpus}/benchmarks/leaderboard.tsv"
    shell:
        "true"


rule nobench:
    shell:
        "true"
"""

HEADER = "s\th:m:s\tmax_rss\tmax_vms\tmax_uss\tmax_pss\tio_in\tio_out\tmean_load\tcpu_time\n"


def _bench(path: Path, seconds: str, rss: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(HEADER + f"{seconds}\t0:00:01\t{rss}\t1\t1\t1\t0\t0\t0\t0\n")


def test_suggest_rounds_up_with_floors():
    assert sr.suggest(0.0, 0.0, 4.0) == (1000, 5)
    assert sr.suggest(100.0, 300.0, 4.0) == (1500, 7)  # 1200 MB -> 1500; 400 s -> 7 min
    assert sr.suggest(3600.0, 2000.0, 4.0) == (8000, 240)
    assert sr.suggest(60.0, 250.0, 2.0) == (1000, 5)


def test_patterns_and_collect(tmp_path):
    rules = tmp_path / "workflow" / "rules"
    rules.mkdir(parents=True)
    (rules / "x.smk").write_text(RULES)
    pats = sr.benchmark_patterns(rules)
    assert sorted(pats) == ["leaderboard", "score", "string_match"]

    b = tmp_path / "results" / "synth" / "benchmarks"
    _bench(b / "string_match_test.tsv", "2.0", "100.5")
    _bench(b / "string_match_dev.tsv", "3.0", "90")
    _bench(b / "score_string_match_test.tsv", "1.0", "NA")  # must go to `score`
    _bench(b / "leaderboard.tsv", "0.5", "50")
    _bench(b / "unrelated.tsv", "99", "99")
    worst = sr.collect([b], pats)
    assert worst == {
        "string_match": (3.0, 100.5),
        "score": (1.0, 0.0),
        "leaderboard": (0.5, 50.0),
    }
    text = sr.render(worst, 4.0)
    assert yaml.safe_load(text) == {
        "set-resources": {
            "leaderboard": {"mem_mb": 1000, "runtime": 5},
            "score": {"mem_mb": 1000, "runtime": 5},
            "string_match": {"mem_mb": 1000, "runtime": 5},
        }
    }
    assert sr.main([str(b), "--rules", str(rules)]) == 0
    assert sr.main([str(tmp_path / "nothing"), "--rules", str(rules)]) == 2


def test_profile_parses_and_names_existing_rules():
    prof = yaml.safe_load(PROFILE.read_text())
    assert prof["executor"] == "slurm"
    assert isinstance(prof["jobs"], int) and prof["jobs"] > 0
    assert prof["default-resources"]["mem_mb"] > 0
    assert prof["default-resources"]["runtime"] > 0
    rule_names = set()
    for smk in (ROOT / "workflow" / "rules").rglob("*.smk"):
        rule_names |= set(re.findall(r"^rule\s+(\w+)\s*:", smk.read_text(), re.M))
    if not rule_names:
        pytest.skip("no workflow rules yet")
    unknown = set(prof.get("set-resources", {})) - rule_names
    assert not unknown, f"profiles/slurm names rules that do not exist: {sorted(unknown)}"
    for name, res in prof.get("set-resources", {}).items():
        assert set(res) <= {"mem_mb", "runtime", "cpus_per_task", "slurm_partition", "slurm_extra", "nodes", "tasks"}, (
            name
        )
