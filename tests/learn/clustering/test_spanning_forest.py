"""Spanning Forest (Yu & Joachims 2009 as an L3M baseline): the hinge carries Δ_YJ's n − k.

Hand-computed cases: the issue-15 document (four mentions, gold {0,1,2},{3}) and
documents whose mentions all corefer (where a hinge without n − k is never positive, so
the old learner could not learn to link anything).
"""

from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from coreflab.decode.spanning_forest import max_spanning_forest
from coreflab.learn.base import TrainingData
from coreflab.learn.clustering.spanning_forest import SpanningForest, hinge, loss_constants
from coreflab.learn.leftlink.baselines import gold_representatives


def chain_store(docs_clusters, arc_features):
    """Documents where mention i's only candidate is i − 1, with the given feature ids per non-root arc."""
    offsets, clusters, ante, arc_off, foff, feats = [0], [], [], [0], [0], []
    it = iter(arc_features)
    for cl in docs_clusters:
        clusters += cl
        offsets.append(len(clusters))
        for i in range(len(cl)):
            for a in [-1] if i == 0 else [-1, i - 1]:
                ante.append(a)
                if a >= 0:
                    feats += list(next(it))
                foff.append(len(feats))
            arc_off.append(len(ante))
    store = SimpleNamespace(
        n_bits=4,
        doc_mention_offsets=np.array(offsets),
        m_arc_offsets=np.array(arc_off),
        arc_ante=np.array(ante, np.int32),
        arc_feat_offsets=np.array(foff),
        arc_feats=np.array(feats, np.int32),
    )
    corpus = SimpleNamespace(m_cluster=np.array(clusters, np.int32), arrays={"doc_mention_offsets": np.array(offsets)})
    return TrainingData(corpus, store)


def test_issue_example_violation_is_positive_and_forest_links_mention_3():
    # arcs (0,1) (1,2) (2,3) scored 1.2, 1.2, 0.3; gold {0,1,2}, {3}: n − k = 4 − 2 = 2
    score = np.array([1.2, 1.2, 0.3])
    same = np.array([True, True, False])
    loss = np.where(same, -1.0, 1.0)
    ante, ana = np.array([0, 1, 2]), np.array([1, 2, 3])
    violation, gold_tree, pred = hinge(score, same, loss, ante, ana, 4, 2)
    # ĥ = all three arcs (0.2, 0.2, 1.3 after the loss); Δ_YJ(ĥ) = 2 − 1 − 1 + 1 = 1
    assert pred.tolist() == [True, True, True] and gold_tree.tolist() == [True, True, False]
    assert violation == pytest.approx(2.7 + 1.0 - 2.4)  # 1.3 > 0; without n − k it would be −0.7
    # the model's own forest links mention 3 to the cluster: the update is needed
    assert max_spanning_forest(4, ante, ana, score).tolist() == [True, True, True]


def test_loss_constants_count_mentions_minus_clusters():
    offsets = np.array([0, 4, 7, 8])
    rep = gold_representatives(offsets, np.array([5, 5, 5, 6, 1, 2, 1, -1], np.int64))
    assert loss_constants(offsets, rep).tolist() == [2, 1, 0]


def test_all_coreferent_documents_are_learnt():
    # every document one gold cluster, feature 1 on every arc: without n − k the hinge
    # (best forest minus best gold tree, loss −1 per kept arc) is never positive, so w stays 0
    data = chain_store([[0, 0], [0, 0, 0], [0, 0]], [[1]] * 4)
    model = SpanningForest(epochs=2, eta0=0.5, seed=0).fit(data)
    assert model.updates_ > 0 and model.coef_[1] > 0
    assert model.predict_labels(data).tolist() == [0, 0, 0, 0, 0, 0, 0]


def test_issue_document_is_learnt_from_a_shared_feature():
    # issue document with arc features: (0,1) {1}, (1,2) {1}, (2,3) {1, 2}: the model must
    # link 0-1-2 through feature 1 yet keep 3 apart (feature 2 negative enough)
    data = chain_store([[0, 0, 0, 1]] * 3, [[1], [1], [1, 2]] * 3)
    model = SpanningForest(epochs=5, eta0=0.3, seed=0).fit(data)
    assert model.coef_[1] > 0 > model.coef_[1] + model.coef_[2]
    assert model.predict_labels(data).tolist() == [0, 0, 0, 3] * 3  # document-local ids


DATA = Path(__file__).resolve().parents[3] / ".." / "shared" / "data" / "litbank"


@pytest.mark.slow
@pytest.mark.skipif(not DATA.is_dir(), reason="no shared/data/litbank beside the repository")
def test_one_pass_on_litbank_links_some_but_not_all_mentions():
    from coreflab.corpus.compile import compile_documents
    from coreflab.corpus.sources import load_split
    from coreflab.features import extract_arc_store, load_featureset

    opts = {"local_dir": str(DATA), "fold": 0}
    fs = load_featureset("local")
    data = {}
    for split, n in (("train", 4), ("test", 2)):
        corpus = compile_documents(load_split("litbank", split, opts)[:n], "litbank", split)
        data[split] = TrainingData(corpus, extract_arc_store(corpus, fs, n_bits=18))
    model = SpanningForest(epochs=1, seed=1).fit(data["train"])
    labels = model.predict_labels(data["test"])
    off = np.asarray(data["test"].store.doc_mention_offsets)
    gold = np.asarray(data["test"].corpus.m_cluster)
    for d in range(len(off) - 1):
        lab, g = labels[off[d] : off[d + 1]], gold[off[d] : off[d + 1]]
        n_clusters = np.unique(lab).size
        assert 1 < n_clusters < lab.size  # links some, not all
        # no cluster far beyond the largest gold one (a collapse puts most mentions together)
        assert np.bincount(lab).max() <= 2 * np.bincount(g[g >= 0]).max()
