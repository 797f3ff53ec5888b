"""Distributed rounds on a real Dask LocalCluster (2 worker processes) equal the serial chain."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from coreflab.crossdoc.distributed import (DaskExecutor, InferenceConfig, SerialExecutor, partition,
                                           run_inference)
from coreflab.crossdoc.shard import ModelParams
from coreflab.crossdoc.synthetic import SynthCrossdocConfig, generate


@pytest.fixture(scope="module")
def client():
    distributed = pytest.importorskip("dask.distributed")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=":0", memory_limit=0)
    c = distributed.Client(cluster)
    yield c
    c.close()
    cluster.close()


@pytest.fixture(scope="module")
def corpus():
    return generate(SynthCrossdocConfig(n_mentions=400, n_entities=10, vocab=500, context_len=15, seed=4))


@pytest.mark.parametrize("model,shards,init", [("flat", 1, "singletons"), ("hier", 2, "string")])
def test_dask_run_equals_serial_chain(client, corpus, model, shards, init):
    """K = 1 on Dask is the single-machine chain; K = 2 equals the serial run of the same shards."""
    cfg = InferenceConfig(params=ModelParams(model=model, bias=0.04, string_weight=0.3), rounds=3,
                          samples_per_round=3000, init=init, seed=11)
    data = corpus.features()
    serial_labels, serial_trace = run_inference(corpus, cfg, SerialExecutor(data), shards=shards)
    dask_labels, dask_trace = run_inference(corpus, cfg, DaskExecutor(client, data), shards=shards)
    np.testing.assert_array_equal(serial_labels, dask_labels)
    np.testing.assert_array_equal(serial_trace["b3_f1"], dask_trace["b3_f1"])
    np.testing.assert_array_equal(serial_trace["accepted"], dask_trace["accepted"])
    assert serial_trace["accepted"].iloc[1:].sum() > 0


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 1000), shards=st.integers(1, 4), model=st.sampled_from(["flat", "sub", "super", "hier"]))
def test_rounds_keep_every_mention_in_one_entity(seed, shards, model):
    corpus = generate(SynthCrossdocConfig(n_mentions=80, n_entities=5, vocab=200, context_len=10, seed=seed % 5 + 1))
    cfg = InferenceConfig(params=ModelParams(model=model, bias=0.03, p_new=0.2), rounds=3, samples_per_round=400,
                          seed=seed)
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
