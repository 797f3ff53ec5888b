"""`coreflab import` (commands/import_corpus.py): a split through its source into CoNLL-2012."""

import argparse
import sys
from pathlib import Path

import pytest

from coreflab.commands import import_corpus
from coreflab.corpus.readers.conll import read_conll
from coreflab.errors import UserError

sys.path.insert(0, str(Path(__file__).parent))  # fixture builders of the sibling test modules
from corpus_builders import WORDS, make_gum, offline_fetch


def _run(argv):
    parser = argparse.ArgumentParser()
    import_corpus.add_arguments(parser)
    return import_corpus.run(parser.parse_args(argv))


def test_import_writes_conll_and_prints_summary(tmp_path, capsys):
    gum = make_gum(tmp_path / "gum")
    out = tmp_path / "out" / "dev.conll"
    assert _run(["--corpus", "gum", "--split", "dev", "--out", str(out), "--option", f"local_dir={gum}"]) == 0
    assert capsys.readouterr().out == f"gum dev: 1 documents, 10 tokens, 5 mentions, 3 clusters -> {out}\n"
    [doc] = read_conll(out)
    assert doc.doc_id == "GUM_bio_c" and doc.words == WORDS and doc.sentence_ends == [8, 10]
    assert doc.columns["pos"][3] == "-LRB-" and doc.columns["speaker"][0] == "Dr_Who"
    assert [p.name for p in out.parent.iterdir()] == ["dev.conll"]  # no temporary left


def test_configfile_options_and_override(tmp_path, capsys):
    gum = make_gum(tmp_path / "gum")
    cfg = tmp_path / "c.yaml"
    cfg.write_text(f"corpora:\n  ontogum:\n    local_dir: {tmp_path / 'nowhere'}\n    include_reddit: false\n")
    out = tmp_path / "o.conll"
    argv = ["--corpus", "ontogum", "--split", "test", "--out", str(out), "--configfile", str(cfg)]
    with pytest.raises(UserError, match="no such directory"):
        _run(argv)
    assert _run(argv + ["--option", f"local_dir={gum}"]) == 0
    assert "ontogum test: 1 documents, 10 tokens, 4 mentions, 2 clusters" in capsys.readouterr().out


def test_parse_options():
    assert import_corpus.parse_options(["fold=3", "local_dir=../x", "include_reddit=true", "url="], {"fold": 0}) == {
        "fold": 3,
        "local_dir": "../x",
        "include_reddit": True,
        "url": None,
    }
    with pytest.raises(UserError, match="KEY=VALUE"):
        import_corpus.parse_options(["fold"])


def test_cli_offline_error_is_one_line_exit_2(tmp_path, monkeypatch, capsys):
    from coreflab import cli

    monkeypatch.setitem(cli.VERBS, "import", ("coreflab.commands.import_corpus", "import a corpus split as CoNLL-2012"))
    monkeypatch.setattr("coreflab.corpus.download.fetch_url", offline_fetch)
    argv = [
        "import",
        "--corpus",
        "litbank",
        "--split",
        "train",
        "--out",
        str(tmp_path / "t.conll"),
        "--resources",
        str(tmp_path / "resources"),
    ]
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("coreflab import: error: corpus 'litbank' is not available")
    assert not (tmp_path / "t.conll").exists()
