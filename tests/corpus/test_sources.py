"""The source registry: names, defaults, split checks and delegation to each reader."""

import sys
import types
from pathlib import Path

import pytest

from coreflab.corpus.document import Document
from coreflab.corpus.sources import SOURCES, available_sources, get_source, load_split
from coreflab.errors import UserError

sys.path.insert(0, str(Path(__file__).parent))  # fixture builders of the sibling test modules
from corpus_builders import make_gum, make_litbank, make_release, offline_fetch


def test_registry_names():
    assert available_sources() == ["conll2012", "gum", "litbank", "ontogum", "synth", "synth_hard"]
    assert set(SOURCES["litbank"].options) >= {"local_dir", "fold", "commit", "url", "splits_commit"}
    assert SOURCES["conll2012"].options["language"][0] == "english"
    with pytest.raises(UserError, match="available: conll2012, gum, litbank, ontogum, synth, synth_hard"):
        get_source("ontonotes")


def test_bad_split_is_a_user_error(tmp_path):
    with pytest.raises(UserError, match="expected one of train, dev, test"):
        load_split("litbank", "development", {"local_dir": str(tmp_path)})


def test_synth_delegates_to_generator(monkeypatch):
    calls = []
    doc = Document("d", 0, ["a"], [1])

    def generate_corpus(size=None, seed=None, knobs=None):
        calls.append((size, seed, knobs))
        return {"train": [doc], "dev": [], "test": []}

    monkeypatch.setitem(
        sys.modules, "coreflab.corpus.synthetic.generator", types.SimpleNamespace(generate_corpus=generate_corpus)
    )
    assert load_split("synth", "train", {"size": 5, "seed": 7, "knobs": {"noise": 0.1}}) == [doc]
    assert load_split("synth", "dev", {"seed": 3}) == []
    assert calls == [(5, 7, {"noise": 0.1}), (None, 3, None)]


def test_open_corpora_from_local_dir(tmp_path):
    lit = make_litbank(tmp_path / "lit")
    assert [d.doc_id for d in load_split("litbank", "test", {"local_dir": str(lit)})] == ["3_gamma_brat"]
    assert [d.doc_id for d in load_split("litbank", "test", {"local_dir": str(lit), "fold": 1})] == ["1_alpha_brat"]
    gum = make_gum(tmp_path / "gum")
    native = load_split("gum", "dev", {"local_dir": str(gum)})
    onto = load_split("ontogum", "dev", {"local_dir": str(gum), "include_reddit": "false"})
    assert [len(d.clusters) for d in native + onto] == [3, 2]
    with pytest.raises(UserError, match="include_reddit = 'maybe'"):
        load_split("gum", "dev", {"local_dir": str(gum), "include_reddit": "maybe"})


def test_conll2012_needs_a_path(tmp_path):
    with pytest.raises(UserError, match="corpora.conll2012.local_dir is not set"):
        load_split("conll2012", "train", {"local_dir": "/path/to/conll-2012"})
    root = make_release(tmp_path / "rel")
    docs = load_split("conll2012", "dev", {"local_dir": str(root), "language": "english", "annotation": "gold"})
    assert [d.doc_id for d in docs] == ["nw/wsj/24/wsj_2401"]


def test_missing_open_corpus_without_network(tmp_path, monkeypatch):
    monkeypatch.setattr("coreflab.corpus.download.fetch_url", offline_fetch)
    with pytest.raises(UserError, match="corpora.gum.local_dir .* or allow network access"):
        load_split("gum", "train", {}, resources_dir=tmp_path / "resources")
