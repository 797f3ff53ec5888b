"""Optional data: which experiments are skipped, why, and the announcement."""

import argparse
import copy
from pathlib import Path

import yaml

from coreflab.config import check_config
from coreflab.optional_data import announcement
from coreflab.papers.l3m2014.optional_data import NEWSGROUPS
from coreflab.papers.registry import skipped_experiments
from coreflab.papers.singh2011.optional_data import ECBPLUS

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = ROOT / "workflow" / "schemas" / "config.schema.yaml"


def _config(tmp_path, news=None, ecb=None, enabled="auto"):
    cfg = check_config(yaml.safe_load((ROOT / "config" / "config.yaml").read_text()), SCHEMA)
    cfg = copy.deepcopy(cfg)
    cfg["doccluster"].update(local_dir=news, enabled=enabled)
    cfg["crossdoc"]["ecbplus_dir"] = ecb
    return cfg


def test_nothing_skipped_when_both_folders_exist(tmp_path):
    assert skipped_experiments(_config(tmp_path, str(tmp_path), str(tmp_path))) == []
    assert announcement([]) == []


def test_missing_folders_are_named_with_the_ways_to_enable(tmp_path):
    gone = str(tmp_path / "gone")
    skipped = skipped_experiments(_config(tmp_path, gone, gone))
    assert [s[0] for s in skipped] == [NEWSGROUPS, ECBPLUS]
    assert gone in skipped[0][1] and "doccluster.local_dir" in skipped[0][2] and "enabled: true" in skipped[0][2]
    assert "crossdoc.ecbplus_dir" in skipped[1][2]
    lines = announcement(skipped)
    assert lines[0].startswith("coreflab: 2 experiment(s) skipped") and len(lines) == 3


def test_an_experiment_of_a_paper_not_run_is_not_reported(tmp_path):
    cfg = _config(tmp_path)
    cfg["run"]["papers"] = ["bk2014"]
    assert skipped_experiments(cfg) == []


def test_disabled_says_so(tmp_path):
    skipped = skipped_experiments(_config(tmp_path, str(tmp_path), str(tmp_path), enabled=False))
    assert skipped == [(NEWSGROUPS, "doccluster.enabled is false", skipped[0][2])]


def test_the_command_writes_markdown_and_html(tmp_path):
    import json

    from coreflab.commands import skipped

    p = argparse.ArgumentParser()
    skipped.add_arguments(p)
    rows = skipped_experiments(_config(tmp_path, None, None))
    args = p.parse_args(
        ["--skipped-json", json.dumps(rows), "--out-md", str(tmp_path / "s.md"), "--out-html", str(tmp_path / "s.html")]
    )
    assert skipped.run(args) == 0
    md = (tmp_path / "s.md").read_text()
    assert "20 Newsgroups" in md and "ECB+" in md and "doccluster.local_dir is not set" in md
    assert "<table" in (tmp_path / "s.html").read_text()
