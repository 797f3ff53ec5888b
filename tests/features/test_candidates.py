"""Candidate reach: string-matched mentions beyond the window, and the reachability ceiling."""

import numpy as np

from coreflab.decode.arcs import gold_arc_mask
from coreflab.features import extract_arc_store
from coreflab.features.candidates import candidate_arcs, reachability

from .feature_builders import C, N, P, build_corpus


def _doc():
    """Acme ... (four other mentions) ... Acme / it / the firm: names and pronoun far back.

    rows: 0 Acme (c0), 1 it (c0), 2 w2 (c2), 3 w3 (c3), 4 w4 (c4), 5 w5 (c5),
          6 Acme (c0), 7 it (c0), 8 the firm (c0), 9 a firm (c9), 10 w2 (c2)
    """
    words = ["Acme", "it", "w2", "w3", "w4", "w5", "Acme", "it", "the firm", "a firm", "w2"]
    sents = [w.split() + ["."] for w in words]
    types = [N, P, C, C, C, C, N, P, C, C, C]
    clusters = [0, 0, 2, 3, 4, 5, 0, 0, 0, 9, 2]
    ments, pos = [], 0
    for s, t, c in zip(sents, types, clusters):
        n = len(s) - 1
        ments.append(dict(start=pos, end=pos + n - 1, head=pos + n - 1, type=t, cluster=c))
        pos += len(s)
    return build_corpus([{"sentences": sents, "mentions": ments}])


def _antes(store, j):
    lo, hi = store.mention_arcs(j)
    return store.arc_ante[lo:hi].tolist()


def test_mention_beyond_window_gets_a_string_matched_gold_arc():
    c = _doc()
    plain = extract_arc_store(c, ["head_match"], window=2, reach=False)
    reach = extract_arc_store(c, ["head_match"], window=2, reach=True)
    # "Acme" (row 6): window 2 gives rows 4, 5 only; reach adds the earlier "Acme" (row 0)
    assert _antes(plain, 6) == [-1, 4, 5]
    assert _antes(reach, 6) == [-1, 0, 4, 5]
    g_plain, g_reach = gold_arc_mask(c, plain), gold_arc_mask(c, reach)
    lo, hi = plain.mention_arcs(6)
    assert g_plain[lo:hi].tolist() == [1, 0, 0]  # the window hides the link: root is "gold"
    lo, hi = reach.mention_arcs(6)
    assert g_reach[lo:hi].tolist() == [0, 1, 0, 0]  # a gold non-root arc
    # "the firm" (row 8) reaches nothing beyond (no earlier "firm"); "a firm" (row 9) reaches
    # "the firm" by head, inside the window anyway; the last "w2" reaches row 2 by full string
    assert _antes(reach, 8) == [-1, 6, 7]
    assert _antes(reach, 10) == [-1, 2, 8, 9]
    # a pronoun gets no string reach (row 7 "it" sees only its window)
    assert _antes(reach, 7) == [-1, 5, 6]
    # the string-matched arcs carry features like any other arc (head_match fires on 6 -> 0)
    lo, _ = reach.mention_arcs(6)
    assert len(reach.arc_features(lo + 1)) == 1
    # ascending antecedents, root first: the store contract
    reach.validate()
    for j in range(c.n_mentions):
        a = _antes(reach, j)
        assert a[0] == -1 and a[1:] == sorted(a[1:])
    # without a window every earlier mention is a candidate and reach adds nothing
    full = extract_arc_store(c, ["head_match"])
    assert full.n_arcs == sum(range(1, c.n_mentions + 1))
    assert np.array_equal(candidate_arcs(c, None, True)[1], full.arc_ante)


def test_reachability_on_a_hand_built_document():
    c = _doc()
    # non-first mentions: rows 1, 6, 7, 8 (cluster 0) and 10 (cluster 2) = 5
    r = reachability(c, window=2, reach=False)
    # window 2: 1 (sees 0), 6 (sees 4, 5: no), 7 (sees 5, 6: yes), 8 (sees 6, 7: yes),
    # 10 (sees 8, 9: no) -> 3 of 5
    assert (r["nonfirst"], r["reachable"]) == (5, 3)
    assert r["share"] == 3 / 5
    after = reachability(c, window=2, reach=True)
    # + 6 reaches 0 (Acme), 10 reaches 2 (w2) -> 5 of 5
    assert (after["nonfirst"], after["reachable"]) == (5, 5) and after["share"] == 1.0
    assert after["arcs"] == r["arcs"] + 2
    assert reachability(c, window=None)["share"] == 1.0


def test_overview_writes_reachability(tmp_path):
    from coreflab.commands import overview

    c = _doc()
    rows = overview.reach_rows([c], 2)
    assert rows == [
        {
            "split": "dev",
            "window": 2,
            "nonfirst": 5,
            "reachable_before": 3,
            "reachable_after": 5,
            "share_before": 0.6,
            "share_after": 1.0,
            "arcs_before": rows[0]["arcs_before"],
            "arcs_after": rows[0]["arcs_before"] + 2,
        }
    ]


def test_order_control_accepts_string_matched_candidates():
    """learn/order_control re-orders a store pair for pair; a reach store is not contiguous."""
    from coreflab.learn.base import TrainingData
    from coreflab.papers.l3m2014.order_control import shuffled_data

    c = _doc()
    store = extract_arc_store(c, ["head_match", "ana_type+ante_type"], window=2, reach=True)
    shuffled, new_to_old = shuffled_data(TrainingData(c, store), seed=3)

    def pairs(s, rows):
        out = {}
        for j in range(c.n_mentions):
            for a in range(s.m_arc_offsets[j], s.m_arc_offsets[j + 1]):
                i = int(s.arc_ante[a])
                key = (rows[j], None if i < 0 else rows[i])
                out[key if key[1] is None or key[1] < key[0] else (key[1], key[0])] = sorted(
                    s.arc_feats[s.arc_feat_offsets[a] : s.arc_feat_offsets[a + 1]].tolist()
                )
        return out

    assert pairs(shuffled.store, new_to_old.tolist()) == pairs(store, list(range(c.n_mentions)))
