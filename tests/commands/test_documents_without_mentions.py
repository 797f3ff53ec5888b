"""Document parts with no coreference at all (some OntoNotes parts have none; with gold mentions and
no singletons they hold no mention) and parts with one mention: every leaderboard learner trains,
predicts and is scored through the CLI without a traceback, and leaves such parts empty.
"""

import dataclasses

import pytest

from coreflab import cli
from coreflab.corpus.compile import compile_documents
from coreflab.corpus.readers.conll import read_conll_path, write_conll
from coreflab.corpus.synthetic.generator import generate_corpus
from coreflab.features.extract import extract_arc_store

from .learner_runs import FEATURES, LEARNERS


def _strip(docs):
    """The split with its first part emptied of coreference and its second left with one mention."""
    first = dataclasses.replace(docs[0], clusters=[], cluster_labels=[])
    one = [docs[1].clusters[0][:1]]
    second = dataclasses.replace(docs[1], clusters=one, cluster_labels=docs[1].cluster_labels[:1])
    return [first, second, *docs[2:]]


@pytest.fixture(scope="module")
def sparse_files(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("sparse")
    docs = generate_corpus("tiny", seed=1)
    out = {"tmp": tmp}
    for split in ("train", "dev"):
        part = _strip(docs[split])
        corpus = compile_documents(part, "synth", split)
        corpus.save(tmp / f"{split}.npz")
        extract_arc_store(corpus, FEATURES, n_bits=16).save(tmp / f"{split}_arcs.npz")
        write_conll(part, tmp / f"{split}.conll")
        out[split] = [str(tmp / f"{split}.npz"), str(tmp / f"{split}_arcs.npz"), str(tmp / f"{split}.conll")]
    return out


@pytest.mark.parametrize("learner,params,epochs", LEARNERS, ids=[x[0] for x in LEARNERS])
def test_every_learner_trains_predicts_and_scores_around_empty_parts(sparse_files, capsys, learner, params, epochs):
    tmp, tr, dv = sparse_files["tmp"], sparse_files["train"], sparse_files["dev"]
    model, response = tmp / f"{learner}.npz", tmp / f"{learner}.conll"
    train = ["train", "--learner", learner, "--compiled", tr[0], "--arcs", tr[1]]
    dev = ["--dev-compiled", dv[0], "--dev-arcs", dv[1], "--dev-conll", dv[2]]
    assert cli.main([*train, *dev, "--params", params, "--out", str(model)]) == 0
    argv = ["predict", "--model", str(model), "--compiled", dv[0], "--arcs", dv[1], "--conll", dv[2]]
    assert cli.main([*argv, "--out", str(response)]) == 0
    predicted = read_conll_path(response)
    assert predicted[0].clusters == []  # no mention, nothing to link
    assert all(len(c) >= 1 for d in predicted for c in d.clusters)
    capsys.readouterr()
    assert cli.main(["score", dv[2], str(response), "--metric", "muc"]) == 0
    assert "MUC" in capsys.readouterr().out.upper()
