"""Held-out tuning of b and w (Singh et al. 2011 §5.3).

The O(nnz) entity-level log p equals the dense reference; the split holds out whole entities (5%,
or more up to a minimum of mentions, never more than half) and the tuning never sees another one; with the untuned prior (b = 0.1, w = 0.8) string match
outscores the truth, and after tuning on held-out entities the run improves on string match.
"""

import json

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coreflab.cli import main
from coreflab.papers.singh2011 import tuning
from coreflab.papers.singh2011.b3 import b3_scores
from coreflab.papers.singh2011.baselines import string_match_labels
from coreflab.papers.singh2011.model import model_score
from coreflab.papers.singh2011.shard import ModelParams
from coreflab.papers.singh2011.synthetic import SynthCrossdocConfig, generate


def ambiguous_corpus(seed=2, n=800, entities=40):
    """Shared names (name_ratio 0.3) but telling contexts: string match is wrong, context is right."""
    return generate(
        SynthCrossdocConfig(
            n_mentions=n,
            n_entities=entities,
            vocab=2000,
            context_len=20,
            topic_words=12,
            topic_rate=0.6,
            name_ratio=0.3,
            alias_rate=0.2,
            seed=seed,
        )
    )


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 1000), k=st.integers(1, 6), bias=st.floats(0.0, 1.0), w=st.floats(0.0, 1.0))
def test_entity_log_score_equals_the_dense_pairwise_score(seed, k, bias, w):
    corpus = generate(SynthCrossdocConfig(n_mentions=30, n_entities=4, vocab=60, context_len=6, seed=seed % 5 + 1))
    labels = np.random.default_rng(seed).integers(0, k, len(corpus))
    n = len(corpus)
    ident = np.arange(n)
    params = ModelParams(model="flat", bias=bias, string_weight=w)
    dense = model_score(corpus.X, corpus.strings, ident, labels, np.zeros(k, dtype=np.int64), params)
    assert tuning.entity_log_score(corpus, labels, bias, w) == pytest.approx(dense, rel=1e-9, abs=1e-8)


def test_entity_log_score_hand_computed():
    """Two mentions, one entity: one pair, cos 0.6 + w·1 − b; split: its negative."""
    import scipy.sparse as sp

    from coreflab.papers.singh2011.data import CrossdocCorpus

    X = sp.csr_matrix(np.array([[1.0, 0.0], [0.6, 0.8]]))
    c = CrossdocCorpus(X, np.array([0, 0]), np.array([0, 0]), np.arange(2), np.zeros(2, dtype=np.int64))
    assert tuning.entity_log_score(c, np.array([0, 0]), 0.1, 0.8) == pytest.approx(0.6 + 0.8 - 0.1)
    assert tuning.entity_log_score(c, np.array([0, 1]), 0.1, 0.8) == pytest.approx(-(0.6 + 0.8 - 0.1))


def skewed_gold(sizes, seed):
    """Mentions of entities with the given sizes, shuffled, under scattered entity ids."""
    ids = np.random.default_rng(seed).permutation(len(sizes)) * 3 + 7
    return np.random.default_rng(seed + 1).permutation(np.repeat(ids, sizes))


entity_sizes = st.lists(st.integers(1, 300), min_size=2, max_size=120)


@settings(max_examples=40, deadline=None)
@given(sizes=entity_sizes, frac=st.floats(0.01, 0.9), seed=st.integers(0, 100), minimum=st.integers(0, 3000))
def test_heldout_split_holds_out_whole_entities_deterministically(sizes, frac, seed, minimum):
    gold = skewed_gold(sizes, seed)
    mask, dev = tuning.heldout_split(gold, frac, seed, min_mentions=minimum)
    mask2, dev2 = tuning.heldout_split(gold, frac, seed, min_mentions=minimum)
    np.testing.assert_array_equal(dev, dev2)
    np.testing.assert_array_equal(mask, mask2)
    np.testing.assert_array_equal(mask, np.isin(gold, dev))  # every mention of a held-out entity, no other
    assert 1 <= len(dev) < len(sizes)
    assert mask.sum() <= len(gold) // 2  # never more than half the mentions


@settings(max_examples=40, deadline=None)
@given(sizes=entity_sizes, frac=st.floats(0.01, 0.3), seed=st.integers(0, 100), minimum=st.integers(0, 3000))
def test_heldout_split_meets_the_minimum_when_the_corpus_allows(sizes, frac, seed, minimum):
    """While the held-out mentions are below the minimum every entity still fits under half the
    mentions when minimum + the largest entity <= half: then the minimum is always reached."""
    gold = skewed_gold(sizes, seed)
    mask, dev = tuning.heldout_split(gold, frac, seed, min_mentions=minimum)
    if minimum + max(sizes) <= len(gold) // 2:
        assert mask.sum() >= minimum
    assert len(dev) >= 1


@settings(max_examples=40, deadline=None)
@given(n_entities=st.integers(3, 200), size=st.integers(1, 40), frac=st.floats(0.01, 0.4), seed=st.integers(0, 100))
def test_heldout_split_keeps_ceil_frac_entities_when_they_have_the_minimum(n_entities, size, frac, seed):
    """Equal entities: the first ceil(frac · entities) (at least 2) are held out when they hold the
    minimum already; a lower minimum, or none, changes nothing, a higher one only adds entities."""
    gold = skewed_gold([size] * n_entities, seed)
    k = min(max(int(np.ceil(frac * n_entities)), 2), n_entities - 1)
    if k * size > len(gold) // 2:
        return
    mask, dev = tuning.heldout_split(gold, frac, seed, min_mentions=0)
    assert len(dev) == k
    for minimum in (1, k * size // 2, k * size):
        np.testing.assert_array_equal(tuning.heldout_split(gold, frac, seed, min_mentions=minimum)[1], dev)
    more = tuning.heldout_split(gold, frac, seed, min_mentions=k * size + 1)[1]
    if (k + 1) * size <= len(gold) // 2:  # room for one more entity under half the mentions
        assert set(dev.tolist()) < set(more.tolist()) and len(more) == k + 1
    else:
        np.testing.assert_array_equal(more, dev)


def test_default_split_of_the_large_small_corpus_has_the_minimum():
    """large_small (300 entities with skewed sizes): 5% of the entities hold a few hundred
    mentions or fewer, so the default split adds entities up to HELDOUT_MIN_MENTIONS, whole."""
    from coreflab.papers.singh2011.synthetic import config_for

    gold = generate(config_for("large_small", seed=1)).gold
    mask, dev = tuning.heldout_split(gold)
    assert tuning.HELDOUT_MIN_MENTIONS <= mask.sum() <= len(gold) // 2
    assert len(dev) > np.ceil(0.05 * len(np.unique(gold)))
    np.testing.assert_array_equal(mask, np.isin(gold, dev))


def test_untuned_prior_prefers_string_match_to_the_truth():
    """The issue's measurement in miniature: at b = 0.1, w = 0.8 the string-match state scores
    higher than gold, so a chain started there cannot improve (the finding the tuning addresses)."""
    corpus = ambiguous_corpus()
    s = tuning.state_scores(corpus, 0.1, 0.8)
    assert s["log_p_string"] > s["log_p_gold"]


def test_tuning_only_ever_runs_on_heldout_entities(tmp_path, monkeypatch):
    corpus = ambiguous_corpus()
    path = tmp_path / "c.npz"
    corpus.save(path)
    seen = []
    real = tuning.run_inference

    def spy(c, *a, **k):
        seen.append(np.unique(c.gold))
        return real(c, *a, **k)

    monkeypatch.setattr(tuning, "run_inference", spy)
    out = tmp_path / "prior.json"
    assert (
        main(
            [
                "singh2011",
                "calibrate",
                "--corpus",
                str(path),
                "--bias-grid",
                "0.05",
                "0.2",
                "--weight-grid",
                "0",
                "0.8",
                "--init",
                "string",
                "--rounds",
                "2",
                "--eval-samples-per-round",
                "2000",
                "--heldout-min-mentions",
                "150",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    prior = json.loads(out.read_text())
    dev = set(prior["dev_entities"])
    held = int(np.isin(corpus.gold, list(dev)).sum())
    assert prior["heldout_entities"] == len(dev) and prior["heldout_mentions"] == prior["dev_mentions"] == held
    assert 150 <= held <= len(corpus) // 2 and prior["heldout_min_mentions"] == 150
    assert seen and all(set(g.tolist()) <= dev for g in seen)
    assert {(t["bias"], t["string_weight"]) for t in prior["tries"]} >= {(prior["bias"], prior["string_weight"])}
    best = max(t["dev_b3_f1"] for t in prior["tries"])
    chosen = [t for t in prior["tries"] if (t["bias"], t["string_weight"]) == (prior["bias"], prior["string_weight"])]
    assert chosen[0]["dev_b3_f1"] == best


def test_tuned_run_improves_on_string_match_and_scores_the_truth_higher(tmp_path):
    """End to end: tune on held-out entities, run from string match on the others. The tuned
    prior prefers gold to string match, and the chain beats the string-match initialisation;
    the held-out entities are absent from the run and from the baselines."""
    corpus = ambiguous_corpus()
    path = tmp_path / "c.npz"
    corpus.save(path)
    prior = tmp_path / "prior.json"
    assert (
        main(
            [
                "singh2011",
                "calibrate",
                "--corpus",
                str(path),
                "--model",
                "flat",
                "--string-weight",
                "0.8",
                "--bias-grid",
                "0.02",
                "0.05",
                "0.1",
                "0.2",
                "--weight-grid",
                "0",
                "0.1",
                "0.2",
                "0.4",
                "0.8",
                "--heldout-frac",
                "0.2",
                "--init",
                "string",
                "--rounds",
                "4",
                "--eval-samples-per-round",
                "20000",
                "--sweeps",
                "2",
                "--out",
                str(prior),
            ]
        )
        == 0
    )
    trace_path = tmp_path / "t.csv"
    assert (
        main(
            [
                "singh2011",
                "run",
                "--corpus",
                str(path),
                "--prior-from",
                str(prior),
                "--init",
                "string",
                "--scheduler",
                "serial",
                "--workers",
                "1",
                "--rounds",
                "4",
                "--samples-per-round",
                "20000",
                "--trace",
                str(trace_path),
            ]
        )
        == 0
    )
    trace = pd.read_csv(trace_path)
    dev = json.loads(prior.read_text())["dev_entities"]
    test = tuning.split_corpus(corpus, dev)[1]
    assert int(trace["mentions"].iloc[-1]) == len(test) < len(corpus)
    assert (trace["heldout_entities"] == len(dev)).all()
    assert (trace["heldout_mentions"] == len(corpus) - len(test)).all()
    string_f1 = b3_scores(string_match_labels(test), test.gold)[2]
    assert trace["b3_f1"].iloc[0] == pytest.approx(string_f1)
    assert trace["b3_f1"].iloc[-1] > string_f1 + 0.02
    last = trace.iloc[-1]
    assert last["log_p_gold"] > last["log_p_string"]
    base = tmp_path / "b.csv"
    assert (
        main(
            [
                "singh2011",
                "baselines",
                "--corpus",
                str(path),
                "--corpus-name",
                "c",
                "--prior-from",
                str(prior),
                "--out",
                str(base),
            ]
        )
        == 0
    )
    rows = pd.read_csv(base)
    assert (rows["mentions"] == len(test)).all()
    sm = rows[rows["system"] == "string_match"].iloc[0]
    assert sm["log_p"] == pytest.approx(sm["log_p_string"])


@settings(max_examples=40, deadline=None)
@given(sizes=entity_sizes, seed=st.integers(0, 100), min_entities=st.integers(1, 80))
def test_heldout_split_holds_out_the_minimum_entity_count_when_half_the_mentions_allow(sizes, seed, min_entities):
    """One huge entity can meet the mention minimum alone; the entity minimum still asks for more
    entities, up to what fits under half the mentions (and never all of them)."""
    gold = skewed_gold(sizes, seed)
    mask, dev = tuning.heldout_split(gold, 0.01, seed, min_entities=min_entities, min_mentions=0)
    wanted = min(min_entities, len(sizes) - 1)
    largest = sorted(sizes, reverse=True)
    if sum(largest[: wanted - 1]) + largest[0] <= len(gold) // 2:  # no entity is ever skipped
        assert len(dev) >= wanted
    assert mask.sum() <= len(gold) // 2 and len(dev) < len(sizes)
