"""Passive-aggressive step and weight averaging, hand-computed."""

import numpy as np

from coreflab.learn.pa import averaged_weights, pa_update


def _delta(size, entries):
    acc = np.zeros(size)
    touched = np.zeros(size, dtype=np.int32)
    for i, (f, v) in enumerate(entries.items()):
        acc[f] = v
        touched[i] = f
    return acc, touched, len(entries)


def test_pa_step_hand_computed():
    w = np.array([0.5, -1.0, 0.0, 2.0])
    u = np.zeros(4)
    acc, touched, nt = _delta(4, {3: 2.0, 0: 1.0, 1: -1.0})
    # margin w·Δ = 0.5 + 1 + 4 = 5.5 ; ‖Δ‖² = 6 ; loss 7.5 → τ = (7.5 − 5.5) / 6 = 1/3
    tau = pa_update(w, u, 2, acc, touched, nt, 7.5, False, np.inf)
    assert np.isclose(tau, 1 / 3)
    np.testing.assert_allclose(w, [0.5 + 1 / 3, -1 - 1 / 3, 0.0, 2 + 2 / 3])
    np.testing.assert_allclose(u, [2 / 3, -2 / 3, 0.0, 4 / 3])


def test_pa_no_update_when_margin_satisfied_and_perceptron_always():
    w = np.array([3.0, 0.0])
    u = np.zeros(2)
    acc, touched, nt = _delta(2, {0: 1.0})
    assert pa_update(w, u, 0, acc, touched, nt, 1.0, False, np.inf) == 0.0  # τ = (1 − 3)/1 < 0
    assert w.tolist() == [3.0, 0.0]
    assert pa_update(w, u, 0, acc, touched, nt, 1.0, True, np.inf) == 1.0
    assert w.tolist() == [4.0, 0.0]
    zero, t0, n0 = _delta(2, {1: 0.0})
    assert pa_update(w, u, 0, zero, t0, n0, 5.0, False, np.inf) == 0.0  # ‖Δ‖ = 0: nothing to do


def test_averaging_hand_computed():
    # three documents: update Δ1 on doc 0, none on doc 1, Δ2 on doc 2 (perceptron steps)
    w = np.zeros(2)
    u = np.zeros(2)
    d1 = _delta(2, {0: 1.0})
    d2 = _delta(2, {1: 3.0, 0: -1.0})
    pa_update(w, u, 0, *d1, 1.0, True, np.inf)
    pa_update(w, u, 2, *d2, 1.0, True, np.inf)
    # weights after each document: (1,0), (1,0), (0,3) → mean (2/3, 1)
    np.testing.assert_allclose(averaged_weights(w, u, 3), [2 / 3, 1.0])
    np.testing.assert_allclose(averaged_weights(w, u, 0), w)


def test_pa_i_caps_the_step():
    w = np.array([0.5, -1.0, 0.0, 2.0])
    u = np.zeros(4)
    acc, touched, nt = _delta(4, {3: 2.0, 0: 1.0, 1: -1.0})
    # uncapped τ = (19.5 − 5.5) / 6 = 7/3; C = 0.25 takes 0.25
    assert pa_update(w.copy(), u.copy(), 0, acc, touched, nt, 19.5, False, np.inf) == 7 / 3
    assert pa_update(w, u, 0, acc, touched, nt, 19.5, False, 0.25) == 0.25
    np.testing.assert_allclose(w, [0.75, -1.25, 0.0, 2.5])
    # the perceptron ignores the cap (τ = 1 is not a PA step)
    assert pa_update(w, u, 0, acc, touched, nt, 19.5, True, 0.25) == 1.0
