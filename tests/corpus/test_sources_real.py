"""The real open corpora, when a copy of `shared/data` sits beside the repository.

Counts are those of each copy's SOURCE.txt. GUM is read without the 18 reddit documents
(their words are masked in the release): 177/30/30 documents instead of 191/32/32, and the
SOURCE.txt totals minus the reddit documents (16,364 tokens, 4,544 native mentions).
"""

from pathlib import Path

import pytest

from coreflab.corpus.readers.gum import load_gum
from coreflab.corpus.sources import load_split
from coreflab.errors import InputFormatError

DATA = Path(__file__).resolve().parents[2] / ".." / "shared" / "data"
pytestmark = [
    pytest.mark.skipif(not DATA.is_dir(), reason="no shared/data beside the repository"),
    pytest.mark.slow,  # reads whole corpora
]


def _counts(docs):
    return (len(docs), sum(len(d.words) for d in docs), sum(len(c) for d in docs for c in d.clusters))


def test_litbank_fold0():
    opts = {"local_dir": str(DATA / "litbank"), "fold": 0}
    got = {s: _counts(load_split("litbank", s, opts)) for s in ("train", "dev", "test")}
    assert got == {"train": (80, 169456, 23218), "dev": (10, 20438, 3053), "test": (10, 20638, 2832)}


def test_gum_official_split_without_reddit():
    docs = load_gum(DATA / "gum", ["train", "dev", "test"], scheme="gum")
    got = {s: _counts(v) for s, v in docs.items()}
    assert got == {"train": (177, 177410, 49649), "dev": (30, 28119, 7897), "test": (30, 28397, 7927)}
    # with the reddit documents these are SOURCE.txt's 190,161 + 29,874 + 30,255 tokens and 70,017 mentions
    assert sum(t for _, t, _ in got.values()) + 16364 == 190161 + 29874 + 30255
    assert sum(m for _, _, m in got.values()) + 4544 == 53199 + 8412 + 8406
    assert not any(d.doc_id.startswith(("GUM_reddit_", "GENTLE_")) for v in docs.values() for d in v)
    assert sum(len(d.sentence_ends) for v in docs.values() for d in v) > 12000
    assert all(d.columns["parse"][0].startswith("(TOP") for v in docs.values() for d in v)


def test_ontogum_dev_has_an_empty_word_in_the_release():
    # GUM_news_iodine token 379 is '|' in the native file and CoNLL-U but an empty cell in
    # OntoGUM at the pinned commit: the strict reader reports it; apply_errata repairs it.
    opts = {"local_dir": str(DATA / "gum")}
    with pytest.raises(InputFormatError, match="apply_errata") as err:
        load_split("ontogum", "dev", opts)
    assert err.value.path.endswith("GUM_news_iodine.conll") and err.value.line == 381
    docs = load_split("ontogum", "dev", {**opts, "apply_errata": True})
    assert _counts(docs) == (30, 28119, 3818) and sum(len(d.clusters) for d in docs) == 857
