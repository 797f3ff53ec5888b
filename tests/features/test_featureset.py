"""Feature-set files: shipped sets load; mistakes name the file, line and entry."""

import pytest

from coreflab.errors import UserError
from coreflab.features import load_featureset
from coreflab.features.featureset import parse_featureset
from coreflab.features.templates import REGISTRY, split_entry


@pytest.mark.parametrize("name", ["local", "local_fine", "small"])
def test_shipped_sets_are_valid(name):
    fs = load_featureset(name)
    assert fs.name == name and fs.local and not fs.nonlocal_
    assert all(p in REGISTRY for e in fs.local for p in split_entry(e))


def test_local_set_size_and_anaphor_type_conjunctions():
    fs = load_featureset("local")
    assert 40 <= len(fs.local) <= 80
    conj = [e for e in fs.local if "+" in e]
    assert len(conj) >= 10 and sum(e.startswith("ana_type+") for e in conj) >= 8


def test_local_pool_holds_lexicalised_pair_families():
    """The pool selection draws from has B&K's lexicalised pair families (issue 14)."""
    local = set(load_featureset("local").local)
    for entry in [
        "ana_head+ante_head",
        "ana_short_full+ante_short_full",
        "ana_first+ante_head",
        "ana_prev+ante_head",
        "ana_pronoun+ante_pronoun+same_speaker",
        "ana_pronoun+sent_paths",
        "ana_type+ante_type+match_kind",
        "substring_match+ana_head+ante_head",
        "ana_head+ante_type",
    ]:
        assert entry in local, entry
    assert any(e.count("+") == 2 for e in local)
    assert any("coord" in e for e in local) and any("quote" in e for e in local)


def test_fine_pool_is_the_local_pool_plus_fine_type_conjunctions():
    """local_fine (config/gum.yaml) keeps every local template and adds cort's conjunctions with both fine types."""
    local, fine = load_featureset("local").local, load_featureset("local_fine").local
    assert fine[: len(local)] == local
    added = fine[len(local) :]
    assert all("fine_type" in e or e.count("+") == 1 for e in added)
    pairs = [e for e in added if e.endswith("+ana_fine_type+ante_fine_type")]
    assert {"head_match+ana_fine_type+ante_fine_type", "sent_dist+ana_fine_type+ante_fine_type"} <= set(pairs)


def test_load_by_path(tmp_path):
    p = tmp_path / "mine.yaml"
    p.write_text("- ana_type\n- ana_type + head_match\n")
    fs = load_featureset(p)
    assert fs.local == ["ana_type", "ana_type+head_match"] and fs.name == "mine"


@pytest.mark.parametrize(
    "text,pattern",
    [
        ("- ana_type\n- head_mtch\n", r"bad.yaml:2: unknown feature template 'head_mtch'"),
        ("- ana_type\n- ana_type+nope\n", r"bad.yaml:2: .*'nope' in entry 'ana_type\+nope'"),
        ("- a+b+c+d\n", "at most three"),
        ("- ana_type\n- ana_type\n", "listed twice"),
        ("ana_type: 1\n", "expected a non-empty YAML list"),
        ("- [unclosed\n", "not valid YAML"),
        ("- 3\n", "expected a template name"),
    ],
)
def test_mistakes_name_file_and_entry(text, pattern):
    with pytest.raises(UserError, match=pattern):
        parse_featureset(text, "bad.yaml")


def test_unknown_name_or_missing_file(tmp_path):
    with pytest.raises(UserError, match="no-such-set"):
        load_featureset("no-such-set")
    with pytest.raises(UserError, match="not found"):
        load_featureset(tmp_path / "missing.yaml")


def test_nonlocal_set_splits_local_and_decoder_entries():
    fs = load_featureset("nonlocal")
    assert fs.local == load_featureset("local").local
    assert "cluster_shape" in fs.nonlocal_ and "cluster_size" in fs.nonlocal_
    assert fs.entries == fs.local + fs.nonlocal_
