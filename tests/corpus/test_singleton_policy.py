"""The singleton policy table (`coreflab.corpus.singletons`): every combination of mention mode, key
scheme and mention model, as `coreflab prepare` decides and records it, and as responses apply it; and
the `auto` decision whether responses keep singletons, read the same from a key file and a compiled split."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coreflab.corpus.compile import compile_documents
from coreflab.corpus.compiled import CompiledCorpus
from coreflab.corpus.document import Document
from coreflab.corpus.readers.conll import read_conll
from coreflab.corpus.singletons import (
    DROP,
    ENTITIES,
    KEEP,
    SINGLETON_SCHEME_SHARE,
    annotates_singletons,
    corpus_key_has_singletons,
    decide_policy,
    keeps_singletons,
    key_has_singletons,
    parse_mode,
    resolve_keep_singletons,
)
from coreflab.errors import UserError
from coreflab.learn.output import response_documents
from tests.commands.toy_conll import ROWS_SINGLETON, conll_text, prepare


@pytest.mark.parametrize(
    "mentions, annotates, has_model, expected",
    [
        ("gold", True, False, KEEP),
        ("gold", True, True, KEEP),
        ("gold", False, False, DROP),
        ("gold", False, True, DROP),
        ("predicted", True, True, ENTITIES),
        ("predicted", True, False, DROP),
        ("predicted", False, True, DROP),
        ("predicted", False, False, DROP),
    ],
)
def test_the_policy_table(mentions, annotates, has_model, expected):
    assert decide_policy(mentions, annotates, has_model) == expected
    assert keeps_singletons(expected) is (expected != DROP)


@pytest.mark.parametrize("mentions", ["gold", "predicted"])
@pytest.mark.parametrize("configured, expected", [(True, KEEP), (False, DROP)])
def test_a_configured_choice_overrides_the_table(mentions, configured, expected):
    for annotates in (True, False):
        for has_model in (True, False):
            assert decide_policy(mentions, annotates, has_model, configured) == expected


def test_an_unknown_mode_or_policy_is_a_user_error():
    with pytest.raises(UserError):
        decide_policy("auto", True, False)
    with pytest.raises(UserError):
        keeps_singletons("some")


@pytest.fixture
def keys(tmp_path):
    with_single, without = tmp_path / "single.conll", tmp_path / "plain.conll"
    with_single.write_text(conll_text(rows=ROWS_SINGLETON))
    without.write_text(conll_text())
    return {True: with_single, False: without}


@pytest.mark.parametrize("mentions", ["gold", "predicted"])
@pytest.mark.parametrize("annotates", [True, False])
def test_prepare_records_the_policy_of_each_combination(tmp_path, keys, mentions, annotates, capsys):
    corpus, stats = prepare(tmp_path, keys[annotates], "--mentions", mentions)
    expected = decide_policy(mentions, annotates, False)
    assert corpus.singleton_policy == stats["singleton_policy"] == expected
    assert corpus.mention_mode == stats["mention_mode"] == mentions
    assert corpus.parses == "gold"
    assert corpus.response_singletons is keeps_singletons(expected)
    assert f"singleton policy {expected}:" in capsys.readouterr().out


def test_predicted_mentions_without_a_model_drop_unlinked_mentions(tmp_path, keys):
    """The key annotates singletons, but nothing tells which predicted mentions are entities."""
    corpus, _ = prepare(tmp_path, keys[True], "--mentions", "predicted")
    key = read_conll(keys[True])
    alone = np.full(corpus.n_mentions, -1)
    assert response_documents(key, corpus, alone, None)[0].clusters == []


def test_the_entities_policy_keeps_the_mentions_the_classifier_calls_entities(tmp_path, keys):
    corpus, _ = prepare(tmp_path, keys[True], "--mentions", "predicted")
    key = read_conll(keys[True])
    corpus.singleton_policy = ENTITIES
    corpus.response_singletons = True
    prob = np.linspace(0.0, 1.0, corpus.n_mentions).astype(np.float32)
    corpus.arrays["m_entity"] = prob
    alone = np.full(corpus.n_mentions, -1)
    kept = response_documents(key, corpus, alone, None)[0].clusters
    spans = list(zip(corpus.m_start.tolist(), corpus.m_end.tolist()))
    assert sorted(c[0] for c in kept) == sorted(s for s, p in zip(spans, prob) if p >= 0.5)
    # a cluster of two stays whatever its mentions' probabilities
    linked = alone.copy()
    linked[1] = 0
    prob[:2] = 0.0
    clusters = response_documents(key, corpus, linked, None)[0].clusters
    assert [spans[0], spans[1]] in clusters
    # a forced keep under this policy still asks the classifier; forced drop keeps none; without
    # probabilities the policy keeps none
    assert len(response_documents(key, corpus, alone, "keep")[0].clusters) == len(kept)
    assert response_documents(key, corpus, alone, "drop")[0].clusters == []
    del corpus.arrays["m_entity"]
    assert response_documents(key, corpus, alone, None)[0].clusters == []


def test_the_policy_survives_save_and_load(tmp_path, keys):
    corpus, _ = prepare(tmp_path, keys[True])
    corpus.singleton_policy, corpus.mention_mode, corpus.parses = ENTITIES, "predicted", "auto"
    corpus.arrays["m_entity"] = np.full(corpus.n_mentions, 0.25, np.float32)
    corpus.save(tmp_path / "again.npz")
    again = CompiledCorpus.load(tmp_path / "again.npz")
    assert (again.singleton_policy, again.mention_mode, again.parses) == (ENTITIES, "predicted", "auto")
    assert again.arrays["m_entity"].dtype == np.float32 and np.all(again.arrays["m_entity"] == 0.25)


def key_doc(cluster_sizes):
    """One document: a cluster per size, its mentions one-token spans in order."""
    clusters, t = [], 0
    for size in cluster_sizes:
        clusters.append([(t + k, t + k) for k in range(size)])
        t += size
    words = [f"w{k}" for k in range(t)]
    return Document(
        doc_id="d",
        part=0,
        words=words,
        sentence_ends=[t],
        columns={},
        args=None,
        clusters=clusters,
        cluster_labels=[str(k) for k in range(len(clusters))],
    )


@pytest.mark.parametrize(
    "singletons,others,expected",
    [
        (0, 50, False),
        (2, 855, False),
        (6, 94, False),
        (14, 86, False),
        (5, 15, False),
        (6, 14, True),
        (28605, 10794, True),
    ],
)
def test_stray_singletons_do_not_make_a_singleton_scheme(singletons, others, expected):
    # (2, 855): OntoGUM dev; (6, 94): a CoNLL-2012 release's training key whose documents were cut into
    # parts (6%), (14, 86) such a test key; (28605, 10794): GUM; the boundary is more than 25% of clusters
    assert annotates_singletons(singletons, singletons + others) is expected


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(1, 4), min_size=1, max_size=40))
def test_key_file_and_compiled_split_agree(sizes):
    doc = key_doc(sizes)
    n_single = sum(1 for n in sizes if n == 1)
    expected = n_single > SINGLETON_SCHEME_SHARE * len(sizes)
    assert key_has_singletons([doc]) is expected
    assert corpus_key_has_singletons(compile_documents([doc], "t", "test")) is expected


def test_auto_follows_the_recorded_decision_then_the_key_then_the_split():
    plain, single = key_doc([2, 3]), key_doc([1, 1, 2])
    corpus = compile_documents([plain], "t", "test")
    assert resolve_keep_singletons("auto", corpus) is False
    assert resolve_keep_singletons("auto", corpus, [single]) is True  # the key file before the split
    corpus.response_singletons = True
    assert resolve_keep_singletons(None, corpus, [plain]) is True  # what prepare recorded comes first
    assert resolve_keep_singletons("drop", corpus) is False and resolve_keep_singletons(True) is True
    assert [parse_mode(v) for v in ("auto", "keep", "dropped", False)] == [None, True, False, False]
    with pytest.raises(UserError, match="keep_singletons must be"):
        parse_mode("sometimes")
    with pytest.raises(UserError, match="needs a key"):
        resolve_keep_singletons("auto")
