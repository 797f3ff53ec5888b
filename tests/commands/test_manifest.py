"""coreflab manifest: config hash and seed, and the commit of the workflow that made the results."""

from __future__ import annotations

import json
from types import SimpleNamespace

from coreflab.commands import manifest


def _write(tmp_path, config):
    out = tmp_path / "manifest.json"
    manifest.run(SimpleNamespace(config_json=json.dumps(config), out=str(out)))
    return json.loads(out.read_text())


def test_hash_is_of_the_canonical_config(tmp_path):
    a = _write(tmp_path, {"seed": 3, "b": [1, 2], "a": {"x": 1}})
    b = _write(tmp_path, {"a": {"x": 1}, "b": [1, 2], "seed": 3})
    c = _write(tmp_path, {"a": {"x": 2}, "b": [1, 2], "seed": 3})
    assert a["seed"] == 3 and a["config_sha256"] == b["config_sha256"] != c["config_sha256"]


def test_a_copy_without_git_takes_the_commit_it_is_given(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no .git here
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))
    monkeypatch.delenv("COREFLAB_GIT_COMMIT", raising=False)
    assert _write(tmp_path, {"seed": 1})["git_commit"] is None
    monkeypatch.setenv("COREFLAB_GIT_COMMIT", "0123abc")
    assert _write(tmp_path, {"seed": 1})["git_commit"] == "0123abc"
