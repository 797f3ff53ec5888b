"""bench/gum_as_conll2012.py: (Onto)GUM written in the official CoNLL-2012 layout, every column
filled as the release fills it, read back by the reader a user's release goes through."""

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "corpus"))
from corpus_builders import make_gum  # noqa: E402

from coreflab.corpus.readers.conll2012_release import load_conll2012_release  # noqa: E402
from coreflab.corpus.readers.gum import load_gum  # noqa: E402

spec = importlib.util.spec_from_file_location("bench_gum_as_conll2012", ROOT / "bench" / "gum_as_conll2012.py")
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)


def test_release_layout_and_all_fourteen_columns(tmp_path):
    gum = make_gum(tmp_path / "gum")
    counts = mod.write_release(gum, tmp_path / "release", scheme="ontogum")
    assert counts == {"train": 1, "dev": 1, "test": 1}
    path = tmp_path / "release/data/train/data/english/annotations/gum/news/GUM_news_a.v4_gold_conll"
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
    mod.write_release(gum, tmp_path / "release", scheme="gum", drop_singletons=True)
    (doc,) = load_conll2012_release(tmp_path / "release", "train")
    assert doc.clusters == [c for c in source.clusters if len(c) > 1]
    assert doc.words == source.words
