"""Feature-set files: a YAML list of template names, conjunctions written `a+b` or `a+b+c`.

    # config/featuresets/small.yaml
    - ana_type
    - head_match
    - ana_type+sent_dist

`load_featureset("small")` looks for `config/featuresets/small.yaml` in the working
directory, then in the source checkout; a path is read as given. Entries are checked
against the local registry (`templates.REGISTRY`) and, for the non-local templates that
the beam decoder computes, against the names exported by
`coreflab.features.nonlocal_templates` (if that module exists); any other name is a
`UserError` naming the file and the entry.
"""

import importlib
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from coreflab.errors import InputFormatError, UserError
from coreflab.features.templates import MAX_PARTS, REGISTRY, split_entry

_REPO_ROOT = Path(__file__).resolve().parents[3]
FEATURESET_DIRS = (Path("config") / "featuresets", _REPO_ROOT / "config" / "featuresets")


@dataclass
class FeatureSet:
    name: str
    local: list  # entries computed into the arc store
    nonlocal_: list = field(default_factory=list)  # entries read from the decoder state
    path: str | None = None

    @property
    def entries(self):
        return self.local + self.nonlocal_


def nonlocal_names():
    """Names of the non-local templates, if `features/nonlocal_templates.py` exports them
    (as NONLOCAL_TEMPLATES, TEMPLATES or NAMES: a dict or a list of names)."""
    try:
        mod = importlib.import_module("coreflab.features.nonlocal_templates")
    except ImportError:
        return set()
    for attr in ("NONLOCAL_TEMPLATES", "TEMPLATES", "NAMES", "NONLOCAL_NAMES"):
        names = getattr(mod, attr, None)
        if names is not None:
            return set(names)
    return set()


def find_featureset(path_or_name):
    p = Path(path_or_name)
    if p.suffix in (".yaml", ".yml") or p.exists():
        if not p.is_file():
            raise UserError(f"feature-set file {p} not found")
        return p
    for folder in FEATURESET_DIRS:
        cand = folder / f"{path_or_name}.yaml"
        if cand.is_file():
            return cand
    raise UserError(f"feature set {path_or_name!r}: no file {path_or_name}.yaml in config/featuresets/")


def _entry_lines(text):
    """Line number of each list item (for error messages)."""
    return [k + 1 for k, line in enumerate(text.splitlines()) if line.lstrip().startswith("- ")]


def parse_featureset(text, path="<featureset>", name=None):
    """Validate a feature-set YAML text and split it into local and non-local entries."""
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as err:
        line = getattr(getattr(err, "problem_mark", None), "line", None)
        problem = getattr(err, "problem", None) or str(err).splitlines()[0]  # YAML's own text spans several lines
        raise InputFormatError(path, None if line is None else line + 1, f"not valid YAML ({problem})") from None
    if isinstance(data, dict) and "templates" in data:
        data = data["templates"]
    if not isinstance(data, list) or not data:
        raise InputFormatError(path, None, "expected a non-empty YAML list of template names")
    lines = _entry_lines(text)
    nl = None
    local, nonlocal_, seen = [], [], set()
    for k, entry in enumerate(data):
        line = lines[k] if k < len(lines) else None
        if not isinstance(entry, str) or not entry.strip():
            raise InputFormatError(path, line, f"entry {entry!r}: expected a template name or a+b")
        entry = "+".join(split_entry(entry))
        parts = split_entry(entry)
        if len(parts) > MAX_PARTS or not all(parts):
            raise InputFormatError(path, line, f"entry {entry!r}: a conjunction joins at most three templates (a+b+c)")
        if entry in seen:
            raise InputFormatError(path, line, f"entry {entry!r} listed twice")
        seen.add(entry)
        if all(p in REGISTRY for p in parts):
            local.append(entry)
            continue
        nl = nonlocal_names() if nl is None else nl
        if entry in nl or all(p in REGISTRY or p in nl for p in parts):
            nonlocal_.append(entry)
            continue
        bad = [p for p in parts if p not in REGISTRY and p not in nl]
        raise InputFormatError(path, line, f"unknown feature template {bad[0]!r} in entry {entry!r}")
    return FeatureSet(name or Path(str(path)).stem, local, nonlocal_, str(path))


def load_featureset(path_or_name):
    """Load and validate a feature set by name (config/featuresets/NAME.yaml) or path."""
    if isinstance(path_or_name, FeatureSet):
        return path_or_name
    path = find_featureset(path_or_name)
    return parse_featureset(path.read_text(encoding="utf-8"), path, path.stem)


__all__ = ["FeatureSet", "load_featureset", "parse_featureset", "find_featureset", "nonlocal_names"]
