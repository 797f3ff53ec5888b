"""B3 over label arrays (hand-computed), corpus round trip, synthetic generator, ECB+ reader."""

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coreflab.errors import UserError
from coreflab.papers.singh2011.b3 import b3_scores
from coreflab.papers.singh2011.data import CrossdocCorpus
from coreflab.papers.singh2011.ecbplus import parse_document, read_ecbplus
from coreflab.papers.singh2011.synthetic import SynthCrossdocConfig, generate

ECBPLUS = Path(__file__).resolve().parents[3] / ".." / "shared" / "data" / "ecbplus"


def test_b3_hand_computed():
    # gold {a,b,c} {d,e}; response {a,b} {c,d,e}
    gold = np.array([0, 0, 0, 1, 1])
    pred = np.array([7, 7, 3, 3, 3])
    p, r, f = b3_scores(pred, gold)
    # precision: a,b: 2/2; c: 1/3; d,e: 2/3 each -> (1+1+1/3+2/3+2/3)/5
    assert p == pytest.approx((2 + 1 / 3 + 4 / 3) / 5)
    # recall: a,b: 2/3; c: 1/3; d,e: 2/2 -> (2/3+2/3+1/3+1+1)/5
    assert r == pytest.approx((5 / 3 + 2) / 5)
    assert f == pytest.approx(2 * p * r / (p + r))
    assert b3_scores(gold, gold) == (1.0, 1.0, 1.0)


def test_corpus_round_trip_and_person_x(tmp_path):
    c = generate(SynthCrossdocConfig(n_mentions=300, n_entities=20, vocab=400, seed=2))
    assert len(c) == 300 and len(np.unique(c.gold)) == 20
    np.testing.assert_allclose(np.asarray(c.X.multiply(c.X).sum(axis=1)).ravel(), 1.0)
    c.save(tmp_path / "c.npz")
    d = CrossdocCorpus.load(tmp_path / "c.npz")
    assert (d.X != c.X).nnz == 0 and (d.strings == c.strings).all() and d.string_names == c.string_names
    px = c.person_x()
    assert set(px.strings.tolist()) == {0} and (px.gold == c.gold).all()
    # ambiguity and aliases: some string names several entities, some entity has several strings
    pairs = np.unique(np.stack([c.strings, c.gold]), axis=1)
    assert np.bincount(pairs[0]).max() > 1 and np.bincount(pairs[1]).max() > 1


def test_generator_is_deterministic():
    a = generate(SynthCrossdocConfig(n_mentions=200, n_entities=8, vocab=300, seed=5))
    b = generate(SynthCrossdocConfig(n_mentions=200, n_entities=8, vocab=300, seed=5))
    assert (a.X != b.X).nnz == 0 and (a.gold == b.gold).all() and (a.strings == b.strings).all()


DOC = """<Document doc_name="1_1ecb.xml">
<token t_id="1" sentence="0" number="0">Lindsay</token><token t_id="2" sentence="0" number="1">Lohan</token>
<token t_id="3" sentence="0" number="2">enters</token><token t_id="4" sentence="0" number="3">rehab</token>
<token t_id="5" sentence="1" number="0">She</token><token t_id="6" sentence="1" number="1">left</token>
<Markables>
<HUMAN_PART_PER m_id="10"><token_anchor t_id="1"/><token_anchor t_id="2"/></HUMAN_PART_PER>
<ACTION_OCCURRENCE m_id="11"><token_anchor t_id="3"/></ACTION_OCCURRENCE>
<HUMAN_PART_PER m_id="12"><token_anchor t_id="5"/></HUMAN_PART_PER>
<HUMAN_PART_PER m_id="20" TAG_DESCRIPTOR="lohan" instance_id="HUM1"/>
</Markables>
<Relations>
<CROSS_DOC_COREF r_id="1" note="HUM1"><source m_id="10"/><target m_id="20"/></CROSS_DOC_COREF>
<CROSS_DOC_COREF r_id="2" note="ACT1"><source m_id="11"/><target m_id="21"/></CROSS_DOC_COREF>
</Relations></Document>"""


def test_parse_document_keeps_linked_entity_mentions_with_their_context():
    assert parse_document(DOC, "1_1ecb.xml", window=None) == [("Lindsay Lohan", 0, "enters rehab", "HUM1")]
    # the default: a window of tokens around the mention, across the sentence boundary
    assert parse_document(DOC, "1_1ecb.xml") == [("Lindsay Lohan", 0, "enters rehab She left", "HUM1")]


def test_missing_ecbplus_names_both_ways(tmp_path):
    with pytest.raises(UserError, match="crossdoc.ecbplus_dir.*download"):
        read_ecbplus(tmp_path)
    with pytest.raises(UserError, match="download"):
        read_ecbplus(None)


@pytest.mark.slow
@pytest.mark.skipif(not (ECBPLUS / "ECBplus_xml.tar.xz").exists(), reason="shared ECB+ copy not present")
def test_read_ecbplus_counts():
    c = read_ecbplus(ECBPLUS)
    assert len(c) == 6899 and len(np.unique(c.gold)) == 901 and len(np.unique(c.topic)) == 43


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 6)), min_size=1, max_size=40))
def test_b3_equals_the_reference_scorer(pairs):
    """The label-array fast path equals coreflab.metrics' transcription of the v8.01 BCUBED."""
    from coreflab.metrics.reference import bcubed

    gold = np.array([g for g, _ in pairs])
    pred = np.array([p for _, p in pairs])
    keys = [list(np.flatnonzero(gold == g)) for g in np.unique(gold)]
    response = [list(np.flatnonzero(pred == p)) for p in np.unique(pred)]
    acc_r, nk, acc_p, nr = bcubed(keys, response)
    p, r, _ = b3_scores(pred, gold)
    assert p == pytest.approx(acc_p / nr) and r == pytest.approx(acc_r / nk)
