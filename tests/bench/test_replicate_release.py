"""bench/replicate_release.py: copies of a release whose documents the reader keeps apart."""

from coreflab.corpus.readers.conll import parse_conll
from tests.bench.bench_script import load_bench_script

DOC = (
    "#begin document (gum/bio/doc_a); part 000\n"
    "gum/bio/doc_a\t0\t0\tNida\tNNP\t(TOP(S(NP*)\tNida\t-\t-\t-\t*\t*\t*\t(1)\n"
    "gum/bio/doc_a\t0\t1\tspoke\tVBD\t(VP*)))\tspeak\t-\t-\t-\t*\t*\t*\t-\n"
    "\n"
    "#end document\n"
)


def test_copies_rename_every_document_id_and_keep_the_rest(tmp_path):
    rr = load_bench_script("replicate_release")
    text = rr.copy_text(DOC, 3)
    assert text.splitlines()[0] == "#begin document (gum/bio/doc_a_copy3); part 000"
    assert [line.split("\t")[0] for line in text.splitlines()[1:3]] == ["gum/bio/doc_a_copy3"] * 2
    assert [line.split("\t")[1:] for line in text.splitlines()[1:3]] == [
        line.split("\t")[1:] for line in DOC.splitlines()[1:3]
    ]
    release = tmp_path / "release"
    for split in rr.SPLITS:
        f = release / "data" / split / "data" / "english" / "annotations" / "gum" / "bio" / "doc_a.v4_gold_conll"
        f.parent.mkdir(parents=True)
        f.write_text(DOC)
    assert rr.replicate(release, tmp_path / "big", (3, 1, 2), folds=1) == 6
    train = sorted((tmp_path / "big" / "data" / "train").rglob("*_conll"))
    assert [f.name for f in train] == [f"doc_a_copy{k}.v4_gold_conll" for k in range(3)]
    assert [f.parents[2].name for f in train] == ["copy00", "copy01", "copy02"]  # annotations/copyKK/gum/bio
    docs = [d for f in train for d in parse_conll(f.read_text())]
    assert sorted(d.doc_id for d in docs) == [f"gum/bio/doc_a_copy{k}" for k in range(3)]


def test_copies_are_read_copy_by_copy_and_keep_each_document_in_one_fold(tmp_path):
    """Document i of copy k is read at index k·N + i with N a multiple of the folds: fold i mod folds."""
    rr = load_bench_script("replicate_release")
    release = tmp_path / "release"
    names = ["doc_a", "doc_b", "doc_c", "doc_d"]
    for split in rr.SPLITS:
        for name in names:
            f = release / "data" / split / "data" / "english" / "annotations" / "gum" / "bio" / f"{name}.v4_gold_conll"
            f.parent.mkdir(parents=True, exist_ok=True)
            f.write_text(DOC.replace("doc_a", name))
    rr.replicate(release, tmp_path / "big", (3, 1, 1), folds=3)
    train = sorted((tmp_path / "big" / "data" / "train").rglob("*_conll"))
    ids = [d.doc_id for f in train for d in parse_conll(f.read_text())]
    assert len(ids) == 9  # 4 documents cut to 3, a multiple of the folds, times 3 copies
    fold_of = {}
    for index, doc_id in enumerate(ids):
        original = doc_id.rsplit("_copy", 1)[0]
        assert fold_of.setdefault(original, index % 3) == index % 3
    assert len(set(fold_of.values())) == 3
    dev = sorted((tmp_path / "big" / "data" / "development").rglob("*_conll"))
    assert len(dev) == 4  # only the training split is cut
