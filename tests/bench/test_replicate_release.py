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
    assert rr.replicate(release, tmp_path / "big", (3, 1, 2)) == 6
    train = sorted((tmp_path / "big" / "data" / "train").rglob("*_conll"))
    assert [f.name for f in train] == [f"doc_a_copy{k}.v4_gold_conll" for k in range(3)]
    docs = [d for f in train for d in parse_conll(f.read_text())]
    assert sorted(d.doc_id for d in docs) == [f"gum/bio/doc_a_copy{k}" for k in range(3)]
