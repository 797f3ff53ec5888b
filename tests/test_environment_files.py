"""environment.yml and the rules' conda env must list the same packages as pyproject.toml."""

import re
import tomllib
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def _names(specs):
    return {re.split(r"[<>=!~\[ ]", s, maxsplit=1)[0].strip().lower() for s in specs if isinstance(s, str)}


def test_conda_files_match_pyproject():
    deps = _names(tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"])
    for path in (ROOT / "environment.yml", ROOT / "workflow" / "envs" / "coreflab.yaml"):
        listed = _names(yaml.safe_load(path.read_text())["dependencies"]) - {"python", "pip"}
        assert listed == deps, f"{path.name}: {sorted(listed ^ deps)}"
