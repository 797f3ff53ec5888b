"""Pinned corpus downloads: the local path, the atomic unpack, and the offline error.
No test touches the network: `fetch` is replaced by a function that copies a local tarball."""

import json
import shutil
import urllib.error

import pytest
from corpus_builders import codeload_tarball, offline_fetch

from coreflab.corpus import download
from coreflab.corpus.download import ARCHIVES, corpus_root, download_corpus, pinned_archives
from coreflab.errors import UserError


def test_offline_error_names_both_ways(tmp_path):
    with pytest.raises(UserError) as err:
        corpus_root("litbank", {}, resources_dir=tmp_path / "resources", fetch=offline_fetch)
    msg = str(err.value)
    assert "\n" not in msg
    assert "corpora.litbank.local_dir" in msg and "allow network access" in msg
    assert ARCHIVES["litbank"][0].commit in msg and "Name or service not known" in msg
    assert not (tmp_path / "resources" / "litbank").exists()
    assert [p.name for p in (tmp_path / "resources").iterdir()] == []  # no temporary left behind


def test_ontogum_shares_the_gum_archive(tmp_path):
    with pytest.raises(UserError, match=r"corpora\.ontogum\.local_dir .*shared/data/gum\).*resources/gum/"):
        corpus_root("ontogum", {}, resources_dir=tmp_path / "resources", fetch=offline_fetch)


def test_local_dir_is_used_without_network(tmp_path):
    (tmp_path / "copy").mkdir()
    assert corpus_root("gum", {"local_dir": str(tmp_path / "copy")}, fetch=offline_fetch) == tmp_path / "copy"
    with pytest.raises(UserError, match="no such directory.*remove it to download"):
        corpus_root("gum", {"local_dir": str(tmp_path / "missing")}, fetch=offline_fetch)


def test_download_unpacks_into_reader_layout_once(tmp_path):
    lit, splits = ARCHIVES["litbank"]
    tarballs = {
        lit.url: codeload_tarball(
            tmp_path / "a.tgz",
            f"litbank-{lit.commit}",
            {"coref/conll/1_a_brat.conll": "A", "coref/conll/2_b_brat.conll": "B", "README.md": "skip"},
        ),
        splits.url: codeload_tarball(
            tmp_path / "b.tgz",
            f"lrec2020-coref-{splits.commit}",
            {"data/litbank_tenfold_splits/0/train.ids": "1_a_brat.tsv\n", "code/x.py": "skip"},
        ),
    }
    calls = []

    def fetch(url, dest):
        calls.append(url)
        shutil.copy(tarballs[url], dest)

    target = corpus_root("litbank", {}, resources_dir=tmp_path / "res", fetch=fetch)
    assert target == tmp_path / "res" / "litbank"
    files = sorted(str(p.relative_to(target)) for p in target.rglob("*") if p.is_file())
    assert files == [".complete", "conll/1_a_brat.conll", "conll/2_b_brat.conll", "splits_tenfold/0/train.ids"]
    assert json.loads((target / ".complete").read_text())[0] == ["dbamman/litbank", lit.commit, lit.url]
    assert calls == [lit.url, splits.url]
    corpus_root("litbank", {}, resources_dir=tmp_path / "res", fetch=fetch)
    assert len(calls) == 2  # complete copy with the same pins: reused


def test_archive_lacking_a_path_leaves_nothing(tmp_path):
    gum = ARCHIVES["gum"][0]
    bad = codeload_tarball(tmp_path / "g.tgz", f"gum-{gum.commit}", {"coref/gum/conll/x.conll": "x"})
    with pytest.raises(UserError, match="archive lacks coref/ontogum/conll/"):
        download_corpus("gum", tmp_path / "res" / "gum", {}, fetch=lambda url, dest: shutil.copy(bad, dest))
    assert list((tmp_path / "res").iterdir()) == []


def test_pin_overrides():
    (a, url_a), (b, url_b) = pinned_archives("litbank", {"commit": "abc", "splits_commit": "def"})
    assert (a.commit, b.commit) == ("abc", "def") and url_a.endswith("/dbamman/litbank/tar.gz/abc")
    [(g, url)] = pinned_archives("gum", {"url": "https://mirror.example/gum.tgz"})
    assert url == "https://mirror.example/gum.tgz" and g.commit == "72ce5ac14978a324c2fd18d49484e65292cbe316"


def test_fetch_url_errors_are_caught(tmp_path, monkeypatch):
    def urlopen(url, timeout):
        raise urllib.error.URLError("network is unreachable")

    monkeypatch.setattr(download.urllib.request, "urlopen", urlopen)
    with pytest.raises(UserError, match="network is unreachable"):
        corpus_root("gum", {}, resources_dir=tmp_path)
