import json

import numpy as np

from coreflab.cli import main
from coreflab.corpus.compiled import CompiledCorpus
from coreflab.corpus.readers.conll import parse_conll, read_conll
from tests.commands.toy_conll import conll_text


def test_prepare_gold_and_predicted(tmp_path, capsys):
    src = tmp_path / "train.conll"
    src.write_text(conll_text())
    out, stats = tmp_path / "out" / "train.npz", tmp_path / "out" / "train.json"
    assert (
        main(
            [
                "prepare",
                "--conll",
                str(src),
                "--corpus",
                "toy",
                "--split",
                "train",
                "--out",
                str(out),
                "--stats",
                str(stats),
            ]
        )
        == 0
    )
    line = capsys.readouterr().out.splitlines()[0]
    assert line == "toy/train: 1 documents, 13 tokens, 4 gold mentions, 2 clusters, 0 singletons"
    c = CompiledCorpus.load(out)
    assert (c.name, c.split, c.n_mentions) == ("toy", "train", 4)
    s = json.loads(stats.read_text())
    assert (s["documents"], s["tokens"], s["gold_mentions"], s["clusters"], s["singletons"]) == (1, 13, 4, 2, 0)

    out_p = tmp_path / "out" / "train_pred.npz"
    assert (
        main(
            [
                "prepare",
                "--conll",
                str(src),
                "--corpus",
                "toy",
                "--split",
                "train",
                "--mentions",
                "predicted",
                "--out",
                str(out_p),
            ]
        )
        == 0
    )
    line = capsys.readouterr().out.splitlines()[0]
    # predicted: John, the dog, It, him, Mary -> 4 of 5 in the key
    assert line.endswith("5 predicted mentions, recall 100.00%, precision 80.00%, F1 88.89%")
    c = CompiledCorpus.load(out_p)
    assert c.m_in_key.tolist() == [1, 1, 1, 1, 0]
    assert c.m_cluster.tolist() == [0, 1, 1, 0, 2]


def test_prepare_empty_split_is_an_error(tmp_path, capsys):
    src = tmp_path / "empty.conll"
    src.write_text("")
    out = tmp_path / "empty.npz"
    assert main(["prepare", "--conll", str(src), "--corpus", "toy", "--split", "dev", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "holds no documents" in err and err.count("\n") == 1
    assert not out.exists()


def test_prepare_malformed_input_leaves_nothing(tmp_path, capsys):
    src = tmp_path / "bad.conll"
    src.write_text(conll_text().replace("(2)", "(2"))
    out = tmp_path / "bad.npz"
    assert main(["prepare", "--conll", str(src), "--corpus", "toy", "--split", "dev", "--out", str(out)]) == 2
    assert "bad.conll:" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == [src]


def test_baseline_writes_response(tmp_path, capsys):
    src = tmp_path / "test.conll"
    src.write_text(conll_text())
    npz, pred = tmp_path / "test.npz", tmp_path / "pred.conll"
    assert (
        main(
            [
                "prepare",
                "--conll",
                str(src),
                "--corpus",
                "toy",
                "--split",
                "test",
                "--mentions",
                "predicted",
                "--out",
                str(npz),
            ]
        )
        == 0
    )
    assert main(["baseline", "--compiled", str(npz), "--conll", str(src), "--out", str(pred)]) == 0
    (resp,) = read_conll(pred)
    # John <- him (male, 1 sentence back); the dog <- It (neuter; 'John' is male);
    # Mary is a singleton, dropped because the key has no singletons
    assert sorted(sorted(c) for c in resp.clusters) == [[(0, 0), (8, 8)], [(2, 3), (5, 5)]]
    assert resp.words == parse_conll(conll_text())[0].words
    pred2 = tmp_path / "pred_keep.conll"
    assert (
        main(["baseline", "--compiled", str(npz), "--conll", str(src), "--out", str(pred2), "--singletons", "keep"])
        == 0
    )
    assert [(10, 10)] in read_conll(pred2)[0].clusters


def test_baseline_keeps_singletons_when_the_key_has_them(tmp_path):
    src = tmp_path / "test.conll"
    text = conll_text()
    lines = text.split("\n")
    lines = [l[:-1] + "(3)" if l.startswith("nw/a/00/a_0000\t0\t0\tMary") else l for l in lines]
    src.write_text("\n".join(lines))
    npz, pred = tmp_path / "test.npz", tmp_path / "pred.conll"
    assert main(["prepare", "--conll", str(src), "--corpus", "toy", "--split", "test", "--out", str(npz)]) == 0
    assert main(["baseline", "--compiled", str(npz), "--conll", str(src), "--out", str(pred)]) == 0
    assert [(10, 10)] in read_conll(pred)[0].clusters
    assert np.sum(CompiledCorpus.load(npz).m_in_key) == 5


def test_baseline_unknown_document_is_an_error(tmp_path, capsys):
    src = tmp_path / "test.conll"
    src.write_text(conll_text())
    other = tmp_path / "other.conll"
    other.write_text(conll_text(doc_id="nw/b/00/b_0000"))
    npz = tmp_path / "test.npz"
    assert main(["prepare", "--conll", str(src), "--corpus", "toy", "--split", "test", "--out", str(npz)]) == 0
    assert main(["baseline", "--compiled", str(npz), "--conll", str(other), "--out", str(tmp_path / "p.conll")]) == 2
    assert "compiled document(s) not in the key" in capsys.readouterr().err
    assert not (tmp_path / "p.conll").exists()
    assert (
        main(
            [
                "baseline",
                "--compiled",
                str(tmp_path / "nope.npz"),
                "--conll",
                str(src),
                "--out",
                str(tmp_path / "p.conll"),
            ]
        )
        == 2
    )


def test_a_span_in_two_clusters_is_counted_and_said(tmp_path, capsys):
    """OntoNotes-derived keys can put one span in two entities; it becomes one gold mention of the
    first cluster, and the log and stats say how many did (they differ from the import's count)."""
    rows = [("Ann", "(0)|(1)"), ("met", "-"), ("her", "(0)"), ("friend", "(1)"), ("Bo", "(2)"), (".", "-")]
    src = tmp_path / "k.conll"
    src.write_text(conll_text("t/x", [(w, "-", "-", "*", c) for w, c in rows]))
    out, stats = tmp_path / "k.npz", tmp_path / "k.json"
    argv = ["prepare", "--conll", str(src), "--corpus", "t", "--split", "dev", "--out", str(out)]
    assert main([*argv, "--stats", str(stats)]) == 0
    line = capsys.readouterr().out.splitlines()[0]
    assert line.startswith(
        "t/dev: 1 documents, 6 tokens, 4 gold mentions, 3 clusters, 1 singletons; "
        "1 span(s) in more than one cluster of the key, each one mention of the first cluster"
    )
    assert json.loads(stats.read_text())["spans_in_two_clusters"] == 1
    assert CompiledCorpus.load(out).m_cluster.tolist() == [0, 0, 1, 2]
