"""A user's CoNLL-2012 release, on a tiny fixture in the official directory layout."""

import pytest
from corpus_builders import make_release

from coreflab.corpus.readers.conll2012_release import is_placeholder, load_conll2012_release
from coreflab.errors import InputFormatError, UserError


def test_splits_languages_and_annotation(tmp_path):
    root = make_release(tmp_path / "conll-2012")
    train = load_conll2012_release(root, "train")
    assert [d.key for d in train] == [("bc/cnn/00/cnn_0002", 0), ("nw/wsj/00/wsj_0001", 0), ("nw/wsj/00/wsj_0001", 1)]
    doc = train[0]
    assert doc.words == ["John", "left", "."] and doc.clusters == [[(0, 0)]]
    assert doc.columns["pos"] == ["NNP", "VBD", "."] and doc.columns["speaker"] == ["spk1"] * 3
    assert [d.doc_id for d in load_conll2012_release(root, "dev")] == ["nw/wsj/24/wsj_2401"]
    assert [d.doc_id for d in load_conll2012_release(root / "data", "test")] == ["nw/wsj/23/wsj_2301"]
    assert [d.doc_id for d in load_conll2012_release(root, "train", language="chinese")] == ["nw/xinhua/00/chtb_0001"]
    auto = load_conll2012_release(root, "train", annotation="auto")
    assert len(auto) == 3 and auto[0].columns["speaker"] == ["-"] * 3


@pytest.mark.parametrize("value", [None, "", "/path/to/conll-2012", "<your CoNLL-2012 release>", "PLACEHOLDER"])
def test_placeholder_is_a_clear_error(value):
    assert is_placeholder(value)
    with pytest.raises(UserError, match="corpora.conll2012.local_dir is not set"):
        load_conll2012_release(value, "train")


def test_real_paths_are_not_placeholders():
    assert not is_placeholder("../data/conll-2012") and not is_placeholder("/data/ontonotes")


def test_missing_language_folder_and_bad_options(tmp_path):
    root = make_release(tmp_path / "r")
    with pytest.raises(UserError, match="arabic/annotations"):
        load_conll2012_release(root, "train", language="arabic")
    with pytest.raises(UserError, match="language"):
        load_conll2012_release(root, "train", language="german")
    with pytest.raises(UserError, match="annotation"):
        load_conll2012_release(root, "train", annotation="silver")
    with pytest.raises(UserError, match="no such directory"):
        load_conll2012_release(tmp_path / "nope", "train")


def test_malformed_file_names_file_and_line(tmp_path):
    root = make_release(tmp_path / "r")
    path = root / "data/test/data/english/annotations/nw/wsj/23/wsj_2301.v4_gold_conll"
    path.write_text(path.read_text().replace("(VP*)", "(VP*"))
    with pytest.raises(InputFormatError) as err:
        load_conll2012_release(root, "test")
    assert err.value.path == str(path) and err.value.line == 2


def test_release_below_the_shared_tasks_v4_folder(tmp_path):
    """The shared task's archive unpacks to conll-2012/v4/data/...: its top folder is enough."""
    import shutil

    made = make_release(tmp_path / "made")
    top = tmp_path / "conll-2012"
    shutil.copytree(made / "data", top / "v4" / "data")
    assert [d.doc_id for d in load_conll2012_release(top, "dev")] == ["nw/wsj/24/wsj_2401"]
    assert [d.doc_id for d in load_conll2012_release(tmp_path, "dev")] == ["nw/wsj/24/wsj_2401"]


def test_one_file_per_split(tmp_path):
    """{train,dev,test}.<language>.v4_<annotation>_conll, the release concatenated per split as
    coreference systems prepare it, reads the same documents as the release folder."""
    root = make_release(tmp_path / "r")
    flat = tmp_path / "flat"
    flat.mkdir()
    for split, folder in (("train", "train"), ("dev", "development"), ("test", "test")):
        files = sorted((root / "data" / folder / "data" / "english" / "annotations").rglob("*_gold_conll"))
        (flat / f"{split}.english.v4_gold_conll").write_text("".join(p.read_text() for p in files))
    for split in ("train", "dev", "test"):
        got = load_conll2012_release(flat, split)
        want = load_conll2012_release(root, split)
        assert [d.key for d in got] == [d.key for d in want] and [d.clusters for d in got] == [d.clusters for d in want]
    with pytest.warns(UserWarning, match="no \\*_auto_conll files for split 'train'"):  # gold files only: read them
        auto = load_conll2012_release(flat, "train", annotation="auto")
    assert [d.key for d in auto] == [d.key for d in load_conll2012_release(root, "train")]


def test_an_empty_file_is_named_in_a_warning_and_a_file_for_a_folder_says_so(tmp_path):
    root = make_release(tmp_path / "r")
    n = len(load_conll2012_release(root, "test"))
    empty = root / "data/test/data/english/annotations/nw/wsj/23/wsj_2399.v4_gold_conll"
    empty.write_text("")
    with pytest.warns(UserWarning, match=r"wsj_2399.v4_gold_conll: no document in the file"):
        assert len(load_conll2012_release(root, "test")) == n
    with pytest.raises(UserError, match=r"wsj_2399.v4_gold_conll: a file, not a directory"):
        load_conll2012_release(empty, "test")


def test_auto_falls_back_to_gold_files_where_a_split_has_no_auto_files(tmp_path):
    """B&K's setting reads the auto columns; a release shipped with gold files only is still read, and the
    workflow's captions say gold parses (`read_annotation`)."""
    from coreflab.corpus.readers.conll2012_release import read_annotation

    root = make_release(tmp_path / "r")
    assert read_annotation(root, "train", annotation="auto") == "auto"
    assert read_annotation(root, "dev", annotation="gold") == "gold"
    for path in (root / "data/test").rglob("*_auto_conll"):
        path.unlink()
    assert read_annotation(root, "test", annotation="auto") == "gold"
    with pytest.warns(UserWarning, match="no \\*_auto_conll files for split 'test'"):
        docs = load_conll2012_release(root, "test", annotation="auto")
    assert [d.doc_id for d in docs] == ["nw/wsj/23/wsj_2301"]
    for path in (root / "data/test").rglob("*_gold_conll"):
        path.unlink()
    with pytest.raises(UserError, match="_gold_conll"):
        read_annotation(root, "test", annotation="auto")
