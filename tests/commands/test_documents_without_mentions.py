"""Document parts with no coreference at all (some OntoNotes parts have none; with gold mentions and
no singletons they hold no mention) and parts with one mention: every leaderboard learner trains,
predicts and is scored through the CLI without a traceback, and leaves such parts empty.
"""

import dataclasses

import pytest

from coreflab import cli
from coreflab.corpus.readers.conll import read_conll_path
from coreflab.corpus.synthetic.generator import generate_corpus

from .learner_runs import LEARNERS, train_argv, write_split_files


def _strip(docs):
    """The split with its first part emptied of coreference and its second left with one mention."""
    first = dataclasses.replace(docs[0], clusters=[], cluster_labels=[])
    one = [docs[1].clusters[0][:1]]
    second = dataclasses.replace(docs[1], clusters=one, cluster_labels=docs[1].cluster_labels[:1])
    return [first, second, *docs[2:]]


@pytest.fixture(scope="module")
def sparse_files(tmp_path_factory):
    docs = generate_corpus("tiny", seed=1)
    return write_split_files(tmp_path_factory.mktemp("sparse"), {s: _strip(docs[s]) for s in ("train", "dev")})


@pytest.mark.parametrize("learner,params", [x[:2] for x in LEARNERS], ids=[x[0] for x in LEARNERS])
def test_every_learner_trains_predicts_and_scores_around_empty_parts(sparse_files, capsys, learner, params):
    tmp, dv = sparse_files["tmp"], sparse_files["dev"]
    model, response = tmp / f"{learner}.npz", tmp / f"{learner}.conll"
    assert cli.main(train_argv(sparse_files, learner, params, model)) == 0
    argv = ["predict", "--model", str(model), "--compiled", dv[0], "--arcs", dv[1], "--conll", dv[2]]
    assert cli.main([*argv, "--out", str(response)]) == 0
    predicted = read_conll_path(response)
    assert predicted[0].clusters == []  # no mention, nothing to link
    assert all(len(c) >= 1 for d in predicted for c in d.clusters)
    capsys.readouterr()
    assert cli.main(["score", dv[2], str(response), "--metric", "muc"]) == 0
    assert "MUC" in capsys.readouterr().out.upper()
