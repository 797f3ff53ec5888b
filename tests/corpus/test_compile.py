from pathlib import Path

import numpy as np
import pytest

from coreflab.corpus.compile import compile_documents
from coreflab.corpus.compiled import ARRAY_FIELDS, CompiledCorpus
from coreflab.corpus.readers.conll import parse_conll, read_conll_path
from coreflab.errors import UserError

DATA = Path(__file__).resolve().parents[2] / ".." / "shared" / "data"


def conll_doc(rows, doc_id="bc/x/00/x_0000", part=0):
    lines = [f"#begin document ({doc_id}); part {part:03d}"]
    for i, (w, p, b, n, c) in enumerate(rows):
        lines.append(f"{doc_id}\t{part}\t{i}\t{w}\t{p}\t{b}\t-\t-\t-\tSpk{i % 2}\t{n}\t-\t{c}")
    lines += ["", "#end document", ""]
    return parse_conll("\n".join(lines))[0]


# John saw the dog . It barked at him .   (two sentences: one document row list each)
S1 = [
    ("John", "NNP", "(TOP(S(NP*)", "(PERSON)", "(1)"),
    ("saw", "VBD", "(VP*", "*", "-"),
    ("the", "DT", "(NP*", "*", "(2"),
    ("dog", "NN", "*))", "*", "2)"),
    (".", ".", "*))", "*", "-"),
]
S2 = [
    ("It", "PRP", "(TOP(S(NP*)", "*", "(2)"),
    ("barked", "VBD", "(VP*", "*", "-"),
    ("at", "IN", "(PP*", "*", "-"),
    ("him", "PRP", "(NP*)))", "*", "(1)"),
    (".", ".", "*))", "*", "-"),
]


def two_docs():
    d1 = conll_doc(S1 + S2)
    d1.sentence_ends = [5, 10]
    d2 = conll_doc(S2, doc_id="nw/y/00/y_0001", part=1)
    return [d1, d2]


def test_offsets_and_clusters_gold():
    c = compile_documents(two_docs(), "toy", "train")
    assert set(c.arrays) == set(ARRAY_FIELDS)
    assert all(c.arrays[k].dtype == dt for k, dt in ARRAY_FIELDS.items())
    assert c.doc_token_offsets.tolist() == [0, 10, 15]
    assert c.doc_mention_offsets.tolist() == [0, 4, 6]
    assert c.doc_sentence_offsets.tolist() == [0, 2, 3]
    assert c.sent_end.tolist() == [5, 10, 5]
    assert c.tok_sentence.tolist() == [0] * 5 + [1] * 5 + [0] * 5
    assert c.m_doc.tolist() == [0, 0, 0, 0, 1, 1]
    assert c.m_start.tolist() == [0, 2, 5, 8, 0, 3]
    assert c.m_sentence.tolist() == [0, 0, 1, 1, 0, 0]
    assert c.m_cluster.tolist() == [0, 1, 1, 0, 0, 1]
    assert c.m_in_key.tolist() == [1] * 6
    assert [c.string(g) for g in c.doc_genre] == ["bc", "nw"]
    assert c.doc_parts.tolist() == [0, 1]
    assert c.string(c.tok_pos[0]) == "NNP" and c.string(c.tok_speaker[1]) == "Spk1"
    assert c.string(c.tok_word[5]) == "It" and c.string(c.tok_lower[5]) == "it"
    assert c.missing == []


def test_predicted_mentions_get_fresh_singleton_ids():
    docs = two_docs()
    docs[0].clusters = [[(0, 0), (8, 8)]]  # 'the dog' and 'It' are not in this key
    c = compile_documents(docs[:1], "toy", "dev", mentions="predicted")
    assert list(zip(c.m_start.tolist(), c.m_end.tolist())) == [(0, 0), (2, 3), (5, 5), (8, 8)]
    assert c.m_cluster.tolist() == [0, 1, 2, 0]
    assert c.m_in_key.tolist() == [1, 0, 0, 1]


def test_no_key_and_missing_columns():
    docs = two_docs()
    for d in docs:
        d.clusters, d.cluster_labels = [], []
        d.columns["speaker"] = None
    c = compile_documents(docs, "toy", "test", mentions="predicted")
    assert (c.m_cluster == -1).all() and (c.m_in_key == 0).all()
    assert (c.tok_speaker == -1).all()
    assert set(c.missing) == {"speaker", "key"}
    with pytest.raises(UserError):
        compile_documents(docs, "toy", "test", mentions="oracle")


def test_save_load_round_trip(tmp_path):
    c = compile_documents(two_docs(), "toy", "train", mentions="predicted")
    path = tmp_path / "sub" / "train.npz"
    c.save(path)
    d = CompiledCorpus.load(path)
    assert (d.name, d.split, d.doc_ids, d.vocab, d.missing) == (c.name, c.split, c.doc_ids, c.vocab, c.missing)
    for k in ARRAY_FIELDS:
        np.testing.assert_array_equal(d.arrays[k], c.arrays[k])
        assert d.arrays[k].dtype == ARRAY_FIELDS[k]
    assert [p.name for p in path.parent.iterdir()] == ["train.npz"]


def test_compile_is_deterministic():
    a = compile_documents(two_docs(), "toy", "train")
    b = compile_documents(two_docs(), "toy", "train")
    assert a.vocab == b.vocab
    assert all(np.array_equal(a.arrays[k], b.arrays[k]) for k in ARRAY_FIELDS)


@pytest.mark.slow
def test_litbank_gold_compiles():
    path = DATA / "litbank" / "conll"
    if not path.exists():
        pytest.skip("shared LitBank data not present")
    docs = read_conll_path(path)[:5]
    c = compile_documents(docs, "litbank", "train")
    assert c.n_mentions == sum(len({s for cl in d.clusters for s in cl}) for d in docs)
    assert (c.m_in_key == 1).all()
    assert set(c.missing) >= {"pos", "parse", "ne"}
    assert ((c.m_head >= c.m_start) & (c.m_head <= c.m_end)).all()
