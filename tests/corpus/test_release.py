"""CoNLL-2012 releases written from open data (coreflab.corpus.release): (Onto)GUM in the official
layout with every column filled as the release fills it, and a release cut into parts of N
sentences, each read back as the reader and the scorer see them; and the verbs that write them."""

import pytest
from corpus_builders import make_gum

from coreflab import cli
from coreflab.commands import convert_gum, cut_parts
from coreflab.corpus.readers.conll import parse_conll
from coreflab.corpus.readers.conll2012_release import load_conll2012_release
from coreflab.corpus.readers.gum import load_gum
from coreflab.corpus.release import cut_release, cut_text, write_gum_release
from coreflab.errors import UserError
from coreflab.learn.output import key_singleton_counts
from tests.command_runner import run_command

TRAIN_FILE = "data/train/data/english/annotations/gum/news/GUM_news_a.v4_gold_conll"


def test_release_layout_and_all_fourteen_columns(tmp_path):
    gum = make_gum(tmp_path / "gum")
    counts = write_gum_release(gum, tmp_path / "release", scheme="ontogum")
    assert counts == {"train": 1, "dev": 1, "test": 1}
    path = tmp_path / "release" / TRAIN_FILE
    rows = [line.split("\t") for line in path.read_text().splitlines() if line and not line.startswith("#")]
    assert {len(r) for r in rows} == {14}  # 11 fixed columns, two predicate-argument columns, coreference
    back = load_conll2012_release(tmp_path / "release", "train")
    source = load_gum(gum, ["train"], scheme="ontogum")["train"][0]
    (doc,) = back
    assert doc.doc_id == "gum/news/GUM_news_a" and doc.words == source.words
    assert doc.clusters == source.clusters and doc.sentence_ends == source.sentence_ends
    for name in ("pos", "parse", "lemma"):
        assert doc.columns[name] == source.columns[name]
    assert doc.columns["ne"] == ["*"] * len(doc.words) and doc.columns["sense"] == ["-"] * len(doc.words)
    assert doc.columns["speaker"] == [s if s not in ("", "_") else "-" for s in source.columns["speaker"]]


def test_drop_singletons_keeps_every_cluster_of_two_or_more_mentions(tmp_path):
    gum = make_gum(tmp_path / "gum")
    source = load_gum(gum, ["train"], scheme="gum")["train"][0]
    assert any(len(c) == 1 for c in source.clusters) and any(len(c) > 1 for c in source.clusters)
    write_gum_release(gum, tmp_path / "release", scheme="gum", drop_singletons=True)
    (doc,) = load_conll2012_release(tmp_path / "release", "train")
    assert doc.clusters == [c for c in source.clusters if len(c) > 1]
    assert doc.words == source.words


def sentence(doc_id, words_coref):
    return [f"{doc_id}\t0\t{i}\t{w}\tNN\t*\t-\t-\t-\t-\t*\t{c}" for i, (w, c) in enumerate(words_coref)]


DOC = "nw/x/00/x_0000"
TEXT = "\n".join(
    [f"#begin document ({DOC}); part 000"]
    + [
        "\n".join(s) + "\n"
        for s in (
            sentence(DOC, [("Ann", "(1)"), ("ran", "-")]),
            sentence(DOC, [("She", "(1)"), ("won", "-")]),
            sentence(DOC, [("Bob", "(2)"), ("sat", "-")]),
            sentence(DOC, [("He", "(2)"), ("saw", "-"), ("Ann", "(1)")]),
        )
    ]
    + ["#end document"]
)


def test_a_cut_between_two_mentions_leaves_a_one_mention_cluster_in_each_part():
    assert key_singleton_counts(parse_conll(TEXT)) == (0, 2)
    parts = parse_conll(cut_text(TEXT, 2))
    assert [(d.doc_id, d.part, len(d.words)) for d in parts] == [(DOC, 0, 4), (DOC, 1, 5)]
    # part 000: {Ann, She}; part 001: {Bob, He} and {Ann}, the entity's one mention on this side of the cut
    assert key_singleton_counts(parts) == (1, 3)
    lines = [line for line in cut_text(TEXT, 2).splitlines() if line.startswith(DOC)]
    assert [line.split("\t")[1] for line in lines] == ["0"] * 4 + ["1"] * 5  # the part column follows
    assert parse_conll(cut_text(TEXT, 4))[0].clusters == parse_conll(TEXT)[0].clusters  # one part: unchanged


def _release(root):
    for split in ("train", "test"):
        path = root / "data" / split / "data" / "english" / "annotations" / "nw" / f"{split}.v4_gold_conll"
        path.parent.mkdir(parents=True)
        path.write_text(TEXT + "\n")
    return root


def test_cut_release_cuts_the_named_splits_and_links_the_others(tmp_path):
    src = _release(tmp_path / "release")
    assert cut_release(src, tmp_path / "cut", ["test"], 2) == {"test": 1}
    cut = tmp_path / "cut" / "data"
    train = cut / "train/data/english/annotations/nw/train.v4_gold_conll"
    assert train.is_symlink() and train.read_text() == TEXT + "\n"
    assert len(load_conll2012_release(tmp_path / "cut", "test")) == 2
    with pytest.raises(UserError, match="not an empty folder"):
        cut_release(src, tmp_path / "cut", ["test"], 2)
    with pytest.raises(UserError, match="unknown split 'tst'"):
        cut_release(src, tmp_path / "other", ["tst"], 2)


def test_the_verbs_on_a_tiny_input(tmp_path, capsys):
    gum = make_gum(tmp_path / "gum")
    assert run_command(convert_gum, ["--gum", gum, "--out", tmp_path / "release"]) == 0
    assert "train 1 documents" in capsys.readouterr().out
    assert (tmp_path / "release" / TRAIN_FILE).is_file()
    argv = ["--release", tmp_path / "release", "--out", tmp_path / "cut", "--splits", "train,test", "--sentences", "1"]
    assert run_command(cut_parts, argv) == 0
    assert "development" not in capsys.readouterr().out
    (doc,) = load_conll2012_release(tmp_path / "release", "train")
    parts = load_conll2012_release(tmp_path / "cut", "train")
    assert len(parts) == len(doc.sentence_ends) > 1 and sum(len(p.words) for p in parts) == len(doc.words)
    assert (tmp_path / "cut/data/development").is_dir()  # linked, not cut
    # through the command line: --out is a folder, and a bad option is one line with status 2
    assert cli.main(["cut-parts", "--release", str(tmp_path / "release"), "--out", str(tmp_path / "c2")]) == 0
    assert cli.main(["cut-parts", "--release", str(tmp_path / "release"), "--out", str(tmp_path / "c2")]) == 2
    assert "not an empty folder" in capsys.readouterr().err
