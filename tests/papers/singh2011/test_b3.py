"""Per-mention B3 and the paired bootstrap over documents of Table 2."""

import numpy as np

from coreflab.papers.singh2011.b3 import b3_scores


def test_per_mention_b3_averages_to_b3_and_is_hand_computed():
    from coreflab.papers.singh2011.b3 import b3_per_mention

    gold = np.array([0, 0, 0, 1, 1])
    pred = np.array([0, 0, 1, 1, 1])
    p, r = b3_per_mention(pred, gold)
    # mention 0: C = {0,1}, G = {0,1,2}: |C∩G| = 2 → P 1, R 2/3; mention 2: C = {2,3,4}, G = {0,1,2}: 1/3, 1/3
    np.testing.assert_allclose(p, [1, 1, 1 / 3, 2 / 3, 2 / 3])
    np.testing.assert_allclose(r, [2 / 3, 2 / 3, 1 / 3, 1, 1])
    assert np.isclose(p.mean(), b3_scores(pred, gold)[0]) and np.isclose(r.mean(), b3_scores(pred, gold)[1])


def test_paired_bootstrap_b3_same_system_is_p_one_and_a_better_one_is_significant():
    from coreflab.papers.singh2011.b3 import paired_bootstrap_b3

    rng = np.random.default_rng(0)
    doc = np.repeat(np.arange(40), 10)
    gold = doc * 3 + rng.integers(0, 3, size=doc.size)  # three entities a document
    good = gold.copy()
    bad = doc.copy()  # one cluster a document: precision falls in every document
    delta, low, high, p = paired_bootstrap_b3(good, good, gold, doc, samples=500)
    assert delta == 0.0 and p == 1.0
    delta, low, high, p = paired_bootstrap_b3(good, bad, gold, doc, samples=500, seed=1)
    assert delta > 0 and low > 0 and p < 0.01
    assert paired_bootstrap_b3(good, bad, gold, doc, samples=500, seed=1) == (delta, low, high, p)  # seeded


def test_significance_command_tests_every_baseline_of_the_models_setting(tmp_path):
    import argparse

    import pandas as pd
    import pytest

    from coreflab.errors import UserError
    from coreflab.papers.singh2011.commands import significance

    doc = np.repeat(np.arange(20), 5)
    gold = doc * 2 + (np.arange(doc.size) % 2)
    np.savez(
        tmp_path / "b.npz",
        gold=gold,
        doc=doc,
        **{"string_match|whole corpus": doc, "label_propagation|whole corpus": gold, "string_match|within topic": doc},
    )
    np.save(tmp_path / "m.npy", gold)
    p = argparse.ArgumentParser()
    significance.add_arguments(p)
    args = p.parse_args(
        ["--baseline-labels", str(tmp_path / "b.npz"), "--model", f"whole_corpus={tmp_path / 'm.npy'}"]
        + ["--corpus-name", "ecbplus", "--samples", "300", "--out", str(tmp_path / "s.csv")]
    )
    assert significance.run(args) == 0
    out = pd.read_csv(tmp_path / "s.csv").set_index("system")
    assert list(out.index) == ["string_match", "label_propagation"]  # the whole-corpus rows only
    assert out.loc["label_propagation", "p (bootstrap)"] == 1.0  # the same labels as the model
    assert out.loc["string_match", "p (bootstrap)"] < 0.01
    args.model = [f"nowhere={tmp_path / 'm.npy'}"]
    with pytest.raises(UserError, match="SETTING"):
        significance.run(args)
