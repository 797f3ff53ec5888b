"""Root-loss tuning: papers' loss kept without singletons, the grid tried with them, and the
per-iteration share at the root next to the key's (what shows over-linking)."""

import json

import numpy as np
import pytest

from coreflab.corpus.compile import compile_documents
from coreflab.corpus.synthetic.generator import generate_corpus
from coreflab.features.extract import extract_arc_store
from coreflab.learn.trees.root_loss import PAPERS_ROOT_LOSS, key_root_share, root_share, tune_root_loss

FEATURES = ["bias", "ana_type", "ana_type+ante_type", "sent_dist", "exact_match", "head_match"]


@pytest.fixture(scope="module")
def splits():
    docs = generate_corpus("tiny", seed=0)
    out = {}
    for split in ("train", "dev"):
        corpus = compile_documents(docs[split], "synth", split)
        out[split] = (corpus, extract_arc_store(corpus, FEATURES, n_bits=14), docs[split])
    return out


def test_key_root_share_counts_the_first_mention_of_every_cluster(splits):
    corpus = splits["dev"][0]
    cluster, offs = corpus.arrays["m_cluster"], corpus.doc_mention_offsets
    firsts = sum(len(set(cluster[offs[d] : offs[d + 1]].tolist())) for d in range(len(offs) - 1))
    assert key_root_share(corpus) == pytest.approx(firsts / offs[-1])
    assert 0 < key_root_share(corpus) < 1


def test_a_key_without_singletons_keeps_the_papers_loss_untrained(splits):
    train, dev = splits["train"], splits["dev"]
    assert not any(len(c) == 1 for d in dev[2] for c in d.clusters)  # the synthetic key has none
    out = tune_root_loss(train[:2], dev[:2], dev[2], [0.5, 1.0, 1.5], n_iter=1, log=lambda *_: None)
    assert out["root_loss"] == PAPERS_ROOT_LOSS and out["runs"] == []


def test_with_singletons_every_value_is_trained_and_the_best_dev_mela_chosen(splits, with_singletons):
    train = splits["train"]
    docs = generate_corpus("tiny", seed=0)
    key = with_singletons(docs["dev"])
    dev_corpus = compile_documents(key, "synth", "dev")
    dev = (dev_corpus, extract_arc_store(dev_corpus, FEATURES, n_bits=14))
    out = tune_root_loss(train[:2], dev, key, [0.5, 1.5], n_iter=2, log=lambda *_: None)
    runs = out["runs"]
    assert [(r["root_loss"], r["epoch"]) for r in runs] == [(0.5, 1), (0.5, 2), (1.5, 1), (1.5, 2)]
    last = {r["root_loss"]: r["dev_mela"] for r in runs if r["epoch"] == 2}
    assert out["root_loss"] == max(last, key=last.get)
    assert all(0 <= r["root_share"] <= 1 for r in runs)
    json.dumps(out)  # what the command writes


def test_root_share_is_the_share_of_root_antecedents(splits):
    class Fixed:
        def predict(self, corpus, store):
            return np.array([-1, 0, -1, 2])

    assert root_share(Fixed(), None, None) == 0.5


def test_a_tuned_file_without_a_root_loss_is_one_line_error(tmp_path):
    from coreflab.errors import UserError
    from coreflab.learn.trees.root_loss import read_tuned_root_loss

    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text('{"root_loss": 0.5}')
    bad.write_text('{"grid": [0.5]}')
    assert read_tuned_root_loss(good) == 0.5
    with pytest.raises(UserError, match="bad.json: expected a JSON object with a root_loss"):
        read_tuned_root_loss(bad)
