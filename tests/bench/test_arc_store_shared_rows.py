"""bench/arc_store_shared_rows.py: the layout with shared rows holds every arc's ids (expanding it
gives the flat store back), its rows are shared, and the check catches a row that differs."""

import numpy as np
import pytest

from coreflab.features.extract import extract_tagged_arc_store
from coreflab.features.featureset import load_featureset
from coreflab.features.random_corpus import random_compiled_corpus
from tests.bench.bench_script import load_bench_script

mod = load_bench_script("arc_store_shared_rows")


@pytest.mark.parametrize(
    "entry, part",
    [
        ("bias", "own"),  # root arcs only
        ("ana_head+ante_head", "own"),  # words of both mentions
        ("ana_fine_type+sent_paths", "own"),  # the tree path between them
        ("ante_head", "antecedent"),
        ("ante_head+ana_fine_type+ante_fine_type", "antecedent"),
        ("ana_pronoun+ante_head", "own"),  # the anaphor's pronoun form would multiply the antecedent's rows
        ("ana_pronoun+ante_gender", "anaphor"),
        ("ana_head+ante_type", "anaphor"),
        ("sent_dist+ana_fine_type+ante_fine_type", "relation"),
        ("match_kind+ana_head", "own"),
    ],
)
def test_template_classes(entry, part):
    assert mod.CLASS_NAMES[mod.template_class(entry)] == part


@pytest.fixture(scope="module")
def store_and_tags():
    corpus = random_compiled_corpus(12, mean_mentions=30, seed=3)
    return extract_tagged_arc_store(corpus, load_featureset("local_fine"), n_bits=18, window=10)


def test_expanding_the_shared_layout_gives_every_arcs_ids_back(store_and_tags):
    store, tags = store_and_tags
    r = mod.measure(store, tags)
    assert r["arcs_differing_after_expansion"] == 0
    assert r["largest_score_difference"] < 1e-9
    assert sum(c["features_per_arc"] for c in r["classes"].values()) == pytest.approx(r["features_per_arc"])
    # rows are shared: fewer rows than arcs in every shared part, so fewer bytes than the flat store
    assert all(c["rows"] < r["arcs"] for name, c in r["classes"].items() if name != "own")
    assert r["shared"]["bytes_per_arc"] < r["flat"]["bytes_per_arc"]


def test_the_check_catches_a_row_that_differs(store_and_tags):
    store, tags = store_and_tags
    own_off, own_feats, arc_rows, row_off, row_feats, cls = mod.shared_layout(store, tags)
    args = (store.arc_feat_offsets, store.arc_feats, cls, own_off, own_feats, arc_rows, row_off, row_feats)
    assert mod._mismatches(*args) == 0
    r = int(np.argmax(np.diff(row_off)))  # a non-empty row, read by at least one arc
    row_feats[row_off[r]] += 1
    assert mod._mismatches(*args) == int((arc_rows == r).any(axis=1).sum()) > 0
