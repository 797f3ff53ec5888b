"""Distributed rounds on a real Dask LocalCluster (2 worker processes) equal the serial chain."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coreflab.papers.singh2011.baselines import label_propagation_labels, string_match_labels
from coreflab.papers.singh2011.data import CrossdocCorpus
from coreflab.papers.singh2011.distributed import (
    DaskExecutor,
    InferenceConfig,
    SerialExecutor,
    pack_calls,
    partition,
    run_inference,
    shard_calls,
)
from coreflab.papers.singh2011.shard import ModelParams
from coreflab.papers.singh2011.synthetic import SynthCrossdocConfig, generate


@pytest.fixture(scope="module")
def client():
    distributed = pytest.importorskip("dask.distributed")
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0", memory_limit=0
    )
    c = distributed.Client(cluster)
    yield c
    c.close()
    cluster.close()


@pytest.fixture(scope="module")
def corpus():
    return generate(SynthCrossdocConfig(n_mentions=400, n_entities=10, vocab=500, context_len=15, seed=4))


@pytest.mark.slow
@pytest.mark.parametrize(
    "model,shards,init,context",
    [("flat", 1, "singletons", "pairwise"), ("hier", 2, "string", "pairwise"), ("hier", 2, "string", "union")],
)
def test_dask_run_equals_serial_chain(client, corpus, model, shards, init, context):
    """K = 1 on Dask is the single-machine chain; K = 2 equals the serial run of the same shards
    (with node-level factors too: every shard gets the same start-of-round Z_all either way)."""
    cfg = InferenceConfig(
        params=ModelParams(model=model, context=context, bias=0.04, string_weight=0.3),
        rounds=3,
        samples_per_round=3000,
        init=init,
        seed=11,
    )
    data = corpus.features()
    serial_labels, serial_trace = run_inference(corpus, cfg, SerialExecutor(data), shards=shards)
    dask_labels, dask_trace = run_inference(corpus, cfg, DaskExecutor(client, data), shards=shards)
    np.testing.assert_array_equal(serial_labels, dask_labels)
    np.testing.assert_array_equal(serial_trace["b3_f1"], dask_trace["b3_f1"])
    np.testing.assert_array_equal(serial_trace["accepted"], dask_trace["accepted"])
    assert serial_trace["accepted"].iloc[1:].sum() > 0


@pytest.mark.slow
def test_dask_k1_round_is_the_plain_single_machine_chain(client, corpus):
    """One round with K = 1 on Dask = one ShardChain over the whole corpus run in this process
    with the round's seed and temperatures (no executor, no redistribution code involved)."""
    from coreflab.papers.singh2011.distributed import _seed, initial_groups
    from coreflab.papers.singh2011.shard import ShardChain

    params = ModelParams(model="flat", bias=0.04, string_weight=0.3)
    cfg = InferenceConfig(
        params=params, rounds=1, samples_per_round=5000, init="string", seed=5, t_start=0.05, t_stop=0.001
    )
    labels, trace = run_inference(corpus, cfg, DaskExecutor(client, corpus.features()), shards=1)
    X, strf, nfeat = corpus.features()
    chain = ShardChain(X, strf, nfeat, *initial_groups(corpus, "string"), params)
    accepted = chain.run(5000, 0.05, 0.001, _seed(5, 0, 1))
    m_sub, sub_ent, _ = chain.groups()
    np.testing.assert_array_equal(labels, sub_ent[m_sub])
    assert int(trace["accepted"].iloc[1]) == accepted > 0


def with_topics(corpus, n_topics, seed):
    """The corpus with random topics (gold entities may span topics: blocking must still hold)."""
    topic = np.random.default_rng(seed).integers(0, n_topics, len(corpus)) * 7 + 3
    return CrossdocCorpus(corpus.X, corpus.strings, corpus.gold, corpus.doc, topic, corpus.string_names, corpus.name)


@pytest.mark.slow
def test_dask_within_topic_equals_serial_and_pins_one_task_per_worker(client, corpus):
    """Within-topic on Dask (topic chains packed onto the 2 workers) equals the serial run; and
    a round's shards run on distinct workers (pinned), never queued behind each other."""
    c = with_topics(corpus, 5, 1)
    cfg = InferenceConfig(
        params=ModelParams(model="sub", bias=0.02, string_weight=0.3),
        rounds=2,
        samples_per_round=2000,
        init="string",
        seed=3,
        within_topic=True,
    )
    data = c.features()
    serial_labels, serial_trace = run_inference(c, cfg, SerialExecutor(data), shards=2)
    ex = DaskExecutor(client, data)
    dask_labels, dask_trace = run_inference(c, cfg, ex, shards=2)
    np.testing.assert_array_equal(serial_labels, dask_labels)
    assert (dask_trace["chains"].iloc[1:] == 5).all()
    assert dask_trace["proposals"].iloc[1:].tolist() == [4000, 4000]
    # the two shards of a whole-corpus round run in the two worker processes, not queued on one
    ids = np.arange(len(c))
    groups = (np.arange(200), np.arange(200), np.arange(200))
    calls = [(ids[:200], *groups, cfg.params, 500, 1.0, 0.5, 1), (ids[200:400], *groups, cfg.params, 500, 1.0, 0.5, 2)]
    for _ in range(5):
        pids = [r["pid"] for r in ex.map_shards(calls)]
        assert len(set(pids)) == 2


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 1000),
    shards=st.integers(1, 3),
    n_topics=st.integers(2, 6),
    model=st.sampled_from(["flat", "sub", "super", "hier"]),
    init=st.sampled_from(["singletons", "string"]),
)
def test_within_topic_never_merges_across_topics(seed, shards, n_topics, model, init):
    """Within-topic: after every round no entity (nor sub-/super-entity) holds two topics, at a
    bias low enough that the whole-corpus chain does merge across topics."""
    base = generate(SynthCrossdocConfig(n_mentions=90, n_entities=4, vocab=150, context_len=10, seed=seed % 5 + 1))
    c = with_topics(base, n_topics, seed)
    params = ModelParams(model=model, bias=0.005, sub_bias=0.01, super_bias=0.001, string_weight=0.5, p_new=0.2)
    cfg = InferenceConfig(params=params, rounds=3, samples_per_round=600, init=init, seed=seed, within_topic=True)
    rows = []
    labels, trace = run_inference(c, cfg, SerialExecutor(c.features()), shards=shards, callback=rows.append)
    topics_per_entity = [len(np.unique(c.topic[labels == e])) for e in np.unique(labels)]
    assert max(topics_per_entity) == 1
    assert [r["proposals"] for r in rows] == [shards * 600] * 3
    assert len(np.unique(labels)) < len(c)  # it did merge, within topics
    whole, _ = run_inference(
        c,
        InferenceConfig(params=params, rounds=3, samples_per_round=600, init=init, seed=seed),
        SerialExecutor(c.features()),
        shards=1,
    )
    assert max(len(np.unique(c.topic[whole == e])) for e in np.unique(whole)) > 1


def test_shard_calls_within_topic_split_proposals_by_topic_size():
    topic = np.array([5, 5, 9, 5, 9, 2, 5, 5, 9, 5])  # sizes: topic 2 -> 1, 5 -> 6, 9 -> 3
    calls = shard_calls(2, None, None, blocks=topic, samples=5)
    assert [sorted(ids.tolist()) for ids, _ in calls] == [[5], [0, 1, 3, 6, 7, 9], [2, 4, 8]]
    assert [s for _, s in calls] == [1, 6, 3]  # 10 proposals in proportion 1:6:3
    calls = shard_calls(3, None, None, blocks=topic, samples=1)  # 3 proposals: 0.3, 1.8, 0.9 -> 0, 2, 1
    assert [s for _, s in calls] == [0, 2, 1]


def test_pack_calls_one_per_worker_and_balanced():
    assert pack_calls([10, 10], 2) == [[0], [1]]
    assert pack_calls([10], 2) == [[0], []]
    assert pack_calls([1, 5, 2, 4, 3], 2) == [[0, 1, 2], [3, 4]]  # LPT: 5+2+1 vs 4+3
    batches = pack_calls([7, 1, 1, 1, 1, 1, 1, 1], 3)
    assert sorted(i for b in batches for i in b) == list(range(8))


def test_baselines_within_topic_respect_topics():
    base = generate(SynthCrossdocConfig(n_mentions=120, n_entities=5, vocab=150, context_len=10, seed=2))
    c = with_topics(base, 3, 0)
    for labels in (
        string_match_labels(c, blocks=c.topic),
        label_propagation_labels(c, 0.01, 0.8, k=5, seed=1, blocks=c.topic),
    ):
        assert max(len(np.unique(c.topic[labels == e])) for e in np.unique(labels)) == 1
    whole = string_match_labels(c)
    assert max(len(np.unique(c.topic[whole == e])) for e in np.unique(whole)) > 1
    # within-topic string match = one cluster per (topic, string) pair
    assert len(np.unique(string_match_labels(c, blocks=c.topic))) == len({(t, s) for t, s in zip(c.topic, c.strings)})


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 1000), shards=st.integers(1, 4), model=st.sampled_from(["flat", "sub", "super", "hier"]))
def test_rounds_keep_every_mention_in_one_entity(seed, shards, model):
    corpus = generate(SynthCrossdocConfig(n_mentions=80, n_entities=5, vocab=200, context_len=10, seed=seed % 5 + 1))
    cfg = InferenceConfig(
        params=ModelParams(model=model, bias=0.03, p_new=0.2), rounds=3, samples_per_round=400, seed=seed
    )
    rows = []
    labels, trace = run_inference(corpus, cfg, SerialExecutor(corpus.features()), shards=shards, callback=rows.append)
    assert labels.shape == (len(corpus),)
    assert int(trace["entities"].iloc[-1]) == len(np.unique(labels))
    assert len(rows) == 3 and all(r["proposals"] == shards * 400 or r["proposals"] < shards * 400 for r in rows)


@settings(max_examples=30, deadline=None)
@given(sizes=st.lists(st.integers(1, 50), min_size=1, max_size=40), k=st.integers(1, 5), seed=st.integers(0, 99))
def test_partition_balances_units(sizes, k, seed):
    """Every unit goes to one shard; greedy-to-lightest keeps loads within one unit of each other."""
    sizes = np.array(sizes)
    shard = partition(sizes, k, np.random.default_rng(seed))
    assert shard.shape == sizes.shape and shard.min() >= 0 and shard.max() < k
    load = np.bincount(shard, weights=sizes, minlength=k)
    assert load.sum() == sizes.sum()
    assert load.max() - load.min() <= sizes.max()
