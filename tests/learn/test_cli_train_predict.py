"""`coreflab train` / `coreflab predict` end to end on the tiny synthetic corpus (the commands are
driven through their own add_arguments/run)."""

import csv

import numpy as np
import pytest

from coreflab.commands import predict as predict_cmd
from coreflab.commands import train as train_cmd
from coreflab.corpus.compile import compile_documents
from coreflab.corpus.readers.conll import read_conll, write_conll
from coreflab.corpus.synthetic.generator import generate_corpus
from coreflab.errors import UserError
from coreflab.features.extract import extract_arc_store
from coreflab.learn.base import Learner
from coreflab.metrics.scorer import score_documents
from tests.command_runner import run_command

FEATURES = ["bias", "ana_type", "ana_type+ante_type", "sent_dist", "exact_match", "head_match"]


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("bk")
    docs = generate_corpus("tiny", seed=0)
    out = {}
    for split in ("train", "dev"):
        corpus = compile_documents(docs[split], "synth", split)
        corpus.save(tmp / f"{split}.npz")
        extract_arc_store(corpus, FEATURES, n_bits=16).save(tmp / f"{split}_arcs.npz")
        write_conll(docs[split], tmp / f"{split}.conll")
        out[split] = (tmp / f"{split}.npz", tmp / f"{split}_arcs.npz", tmp / f"{split}.conll")
    out["tmp"] = tmp
    return out


def test_train_with_curve_then_predict(files):
    tmp = files["tmp"]
    tr, dv = files["train"], files["dev"]
    model = tmp / "model.npz"
    curve = tmp / "curve.csv"
    assert (
        run_command(
            train_cmd,
            [
                "--learner",
                "bk_delayed_laso",
                "--compiled",
                str(tr[0]),
                "--arcs",
                str(tr[1]),
                "--dev-compiled",
                str(dv[0]),
                "--dev-arcs",
                str(dv[1]),
                "--dev-conll",
                str(dv[2]),
                "--curve",
                str(curve),
                "--params",
                '{"n_iter": 3, "beam": 4, "nonlocal_templates": ["cluster_size", "cluster_shape"]}',
                "--seed",
                "5",
                "--out",
                str(model),
            ],
        )
        == 0
    )
    rows = list(csv.DictReader(open(curve)))
    assert [int(r["epoch"]) for r in rows if r["metric"] == "mela"] == [1, 2, 3]
    assert {r["metric"] for r in rows} == {"muc", "bcub", "ceafm", "ceafe", "mela"}
    m = Learner.load(model)
    assert m.name == "bk_delayed_laso" and m.seed == 5 and m.n_epochs_ == 3
    pred = tmp / "pred.conll"
    assert (
        run_command(
            predict_cmd,
            [
                "--model",
                str(model),
                "--compiled",
                str(dv[0]),
                "--arcs",
                str(dv[1]),
                "--conll",
                str(dv[2]),
                "--out",
                str(pred),
            ],
        )
        == 0
    )
    key, resp = read_conll(dv[2]), read_conll(pred)
    assert [d.key for d in resp] == [d.key for d in key]
    assert all(r.words == k.words for r, k in zip(resp, key))
    scores = score_documents(key, resp)
    last = [float(r["f1"]) for r in rows if r["metric"] == "mela"][-1]
    assert np.isclose(scores.mela, last)
    assert scores.mela > 30.0


def test_user_errors(files):
    tr, dv = files["train"], files["dev"]
    out = str(files["tmp"] / "x.npz")
    base = ["--compiled", str(tr[0]), "--arcs", str(tr[1]), "--out", out]
    with pytest.raises(UserError, match="unknown learner"):
        run_command(train_cmd, ["--learner", "nope"] + base)
    with pytest.raises(UserError, match="invalid JSON"):
        run_command(train_cmd, ["--learner", "bk_early", "--params", "{n_iter: 3}"] + base)
    with pytest.raises(UserError, match="does not belong"):
        run_command(train_cmd, ["--learner", "bk_early", "--compiled", str(tr[0]), "--arcs", str(dv[1]), "--out", out])
    with pytest.raises(UserError, match="dev curve needs"):
        run_command(train_cmd, ["--learner", "bk_early", "--curve", "c.csv"] + base)
    with pytest.raises(UserError, match="not a coreflab model"):
        run_command(
            predict_cmd,
            [
                "--model",
                str(tr[1]),
                "--compiled",
                str(dv[0]),
                "--arcs",
                str(dv[1]),
                "--conll",
                str(dv[2]),
                "--out",
                out,
            ],
        )


def test_predict_writes_singletons_iff_the_key_annotates_them(files):
    tmp = files["tmp"]
    tr, dv = files["train"], files["dev"]
    model = tmp / "model_singletons.npz"
    assert (
        run_command(
            train_cmd,
            [
                "--learner",
                "bk_baseline",
                "--compiled",
                str(tr[0]),
                "--arcs",
                str(tr[1]),
                "--params",
                '{"n_iter": 1}',
                "--out",
                str(model),
            ],
        )
        == 0
    )
    plain = read_conll(dv[2])
    assert not any(len(c) == 1 for d in plain for c in d.clusters)  # CoNLL-2012 style: no singletons
    # a singleton-annotating key: as many one-mention entities as there are clusters (half of the key's)
    with_one = [d.with_clusters(d.clusters + lone_tokens(d, len(d.clusters))) for d in plain]
    annotated = tmp / "dev_singletons.conll"
    write_conll(with_one, annotated)

    def singletons(key, *flags):
        out = tmp / "pred_singletons.conll"
        assert (
            run_command(
                predict_cmd,
                [
                    "--model",
                    str(model),
                    "--compiled",
                    str(dv[0]),
                    "--arcs",
                    str(dv[1]),
                    "--conll",
                    str(key),
                    *flags,
                    "--out",
                    str(out),
                ],
            )
            == 0
        )
        return sum(len(c) == 1 for d in read_conll(out) for c in d.clusters)

    assert singletons(dv[2]) == 0
    assert singletons(annotated) > 0  # the key annotates singletons, so the response keeps its own
    assert singletons(annotated, "--drop-singletons") == 0
    assert singletons(dv[2], "--keep-singletons") == singletons(annotated)


def lone_tokens(doc, n):
    """n one-mention clusters on tokens that no mention of the key covers."""
    used = {t for c in doc.clusters for s, e in c for t in range(s, e + 1)}
    return [[(t, t)] for t in range(len(doc.words)) if t not in used][:n]
