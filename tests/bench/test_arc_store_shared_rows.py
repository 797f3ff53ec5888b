"""bench/arc_store_shared_rows.py: it measures the shared-row store `coreflab features` writes against
the flat one, finds every arc's ids unchanged, and its check catches an arc whose ids differ."""

import numpy as np
import pytest

from coreflab.features.extract import extract_tagged_arc_store
from coreflab.features.featureset import load_featureset
from coreflab.features.random_corpus import random_compiled_corpus
from tests.bench.bench_script import load_bench_script

mod = load_bench_script("arc_store_shared_rows")
pytestmark = pytest.mark.slow  # the bench script's kernels are not cached: each run compiles them


@pytest.fixture(scope="module")
def store_and_tags():
    corpus = random_compiled_corpus(12, mean_mentions=30, seed=3)
    return extract_tagged_arc_store(corpus, load_featureset("local_fine"), n_bits=18, window=10)


def test_the_shared_store_reads_every_arcs_ids_for_fewer_bytes(store_and_tags):
    store, tags = store_and_tags
    r = mod.measure(store, tags)
    assert r["arcs_differing_after_expansion"] == 0
    assert r["largest_score_difference"] < 1e-9
    assert sum(c["features_per_arc"] for c in r["classes"].values()) == pytest.approx(r["features_per_arc"])
    shared = r["shared"]
    assert shared["arc_part_bytes_per_arc"] + shared["row_part_bytes_per_arc"] == pytest.approx(shared["bytes_per_arc"])
    assert 0 < shared["rows"] and shared["bytes_per_arc"] < r["flat"]["bytes_per_arc"]
    assert shared["own_ids_per_arc"] == pytest.approx(r["classes"]["own"]["features_per_arc"])


def test_the_check_catches_an_arc_whose_ids_differ(store_and_tags):
    store, _ = store_and_tags
    off, feats = store.arc_feat_offsets, store.arc_feats.copy()
    assert mod._mismatches(off, store.arc_feats, off, feats) == 0
    a = int(np.argmax(np.diff(off)))
    feats[off[a]] += 1
    assert mod._mismatches(off, store.arc_feats, off, feats) == 1
