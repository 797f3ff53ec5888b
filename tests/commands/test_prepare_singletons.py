"""One response-singletons decision per corpus: `coreflab prepare` records it in every compiled split
(from the training key, or the config's keep/drop) and every step that scores a split follows it."""

import numpy as np
import pytest

from coreflab.cli import main
from coreflab.corpus.compiled import CompiledCorpus
from coreflab.corpus.readers.conll import read_conll
from coreflab.learn.output import response_documents
from coreflab.mela.mode import resolve_keep_singletons
from tests.commands.toy_conll import ROWS_SINGLETON, conll_text, prepare


@pytest.fixture
def files(tmp_path):
    with_single, without = tmp_path / "dev.conll", tmp_path / "train.conll"
    with_single.write_text(conll_text(rows=ROWS_SINGLETON))
    without.write_text(conll_text())
    return with_single, without


def test_own_key_decides_without_a_scheme_key(tmp_path, files, capsys):
    corpus, stats = prepare(tmp_path, files[0])
    assert corpus.response_singletons is True and stats["response_singletons"] == "keep"
    out = capsys.readouterr().out
    assert "singleton policy keep: responses keep one-mention clusters (this split's key has 1 one-mention" in out
    assert "clusters of 3, so the scheme annotates singletons)" in out


def test_the_training_split_reads_its_own_key_once(tmp_path, files, capsys):
    corpus, _ = prepare(tmp_path, files[0], "--scheme-key", str(files[0]))
    assert corpus.response_singletons is True
    assert "(this split's key has 1 one-mention clusters of 3," in capsys.readouterr().out


def test_the_training_key_decides_for_every_split(tmp_path, files, capsys):
    corpus, stats = prepare(tmp_path, files[0], "--scheme-key", str(files[1]))
    assert corpus.response_singletons is False and stats["response_singletons"] == "drop"
    assert f"the key of {files[1]} has 0 one-mention clusters of 2" in capsys.readouterr().out
    corpus, _ = prepare(tmp_path, files[1], "--scheme-key", str(files[0]))
    assert corpus.response_singletons is True


@pytest.mark.parametrize("choice, expected", [("keep", True), ("drop", False)])
def test_the_config_choice_overrides_the_key(tmp_path, files, choice, expected):
    corpus, _ = prepare(tmp_path, files[0], "--singletons", choice, "--scheme-key", str(files[1]))
    assert corpus.response_singletons is expected


def test_an_empty_scheme_key_is_a_user_error(tmp_path, files, capsys):
    empty = tmp_path / "empty.conll"
    empty.write_text("")
    argv = ["prepare", "--conll", str(files[0]), "--corpus", "t", "--split", "dev", "--out", str(tmp_path / "x.npz")]
    assert main([*argv, "--scheme-key", str(empty)]) != 0
    assert "--scheme-key holds no documents" in capsys.readouterr().err
    assert not (tmp_path / "x.npz").exists()


@pytest.mark.parametrize("recorded", [None, True, False])
def test_the_record_survives_save_and_load(tmp_path, files, recorded):
    corpus, _ = prepare(tmp_path, files[0])
    corpus.response_singletons = recorded
    corpus.save(tmp_path / "again.npz")
    assert CompiledCorpus.load(tmp_path / "again.npz").response_singletons is recorded


def test_a_file_written_before_the_record_follows_its_key(tmp_path, files):
    corpus, _ = prepare(tmp_path, files[0])
    with np.load(tmp_path / "c.npz") as z:
        arrays = {k: z[k] for k in z.files if k != "_response_singletons"}
    np.savez_compressed(tmp_path / "old.npz", **arrays)
    old = CompiledCorpus.load(tmp_path / "old.npz")
    assert old.response_singletons is None
    key = read_conll(files[0])
    assert resolve_keep_singletons("auto", old, key) is True


def test_responses_follow_the_record_not_their_own_key(tmp_path, files):
    """dev's key has a singleton, but the training key (which decided) has none: dev's responses drop theirs."""
    key = read_conll(files[0])
    for recorded, expected in ((False, 2), (True, 3), (None, 3)):
        corpus, _ = prepare(tmp_path, files[0])
        corpus.response_singletons = recorded
        docs = response_documents(key, corpus, gold_antecedents(corpus), None, source="dev")
        assert len(docs[0].clusters) == expected  # {John, him}, {the dog, It}, and {Mary} if kept
        assert resolve_keep_singletons("auto", corpus, key) is (expected == 3)
        assert resolve_keep_singletons("drop", corpus, key) is False
        for choice, n in (("drop", 2), ("keep", 3), (False, 2), (True, 3)):  # a named choice is never truthy
            assert len(response_documents(key, corpus, gold_antecedents(corpus), choice)[0].clusters) == n


def gold_antecedents(corpus):
    """Each mention's closest earlier mention of its key cluster, else -1 (document-local)."""
    cluster = np.asarray(corpus.arrays["m_cluster"])
    out = np.full(cluster.shape[0], -1, dtype=np.int64)
    for j in range(cluster.shape[0]):
        earlier = np.flatnonzero(cluster[:j] == cluster[j])
        if earlier.size:
            out[j] = earlier[-1]
    return out
