"""Passive-aggressive update with weight averaging (Crammer et al. 2006).

Björkelund & Kuhn (2014, Alg. 1 lines 7-9; docs/methods.md, "Björkelund & Kuhn 2014"): Δ = Φ(ỹ) − Φ(ŷ),
τ = (w·Φ(ŷ) − w·Φ(ỹ) + L) / ‖Δ‖², w ← w + τΔ; τ = 1 is the plain perceptron.
τ is clipped at 0 (no update when the loss-augmented margin is already satisfied —
a choice the paper leaves open; it never triggers after a genuine violation) and there
is no update when ‖Δ‖ = 0 (prediction and latent gold have the same features).
An optional cap C gives PA-I, τ = min(C, ·) (Crammer et al. 2006), the usual guard against
large steps on noisy data; the papers' PA is C = ∞.

Averaging (Daumé's trick, "standard averaged-perceptron bookkeeping"): the averaged
vector is the mean of the weights after every training document, (1/T) Σ_t w_t. Keep
w and u, where an update Δw made while processing the document with 0-based counter c
adds c·Δw to u; after T documents the average is w − u/T (`averaged_weights`).

Sums over Δ run in ascending feature-id order, so two learners that reach the same Δ
by different routes (delayed LaSO vs. baseline) produce bit-identical weights.
"""

from collections import namedtuple

import numpy as np
from numba import njit

from coreflab.decode.featvec import Acc, acc_clear

PA = namedtuple("PA", ["w", "u", "perceptron", "tau_cap"])
PA.__doc__ = """The weights a PA update changes (w, and u for averaging) and its rule (perceptron: τ = 1;
tau_cap: the PA-I cap C, np.inf for the papers' PA)."""


@njit(cache=True)
def pa_update(w, u, c, acc, touched, nt, loss, perceptron, tau_cap):
    """Apply the update for the accumulated Δ (acc over touched[:nt]); returns τ.

    tau_cap bounds τ (PA-I, Crammer et al. 2006, with C = tau_cap); np.inf is the papers' PA."""
    ids = np.sort(touched[:nt])
    margin = 0.0
    norm = 0.0
    for f in ids:
        d = acc[f]
        if d != 0.0:
            margin += w[f] * d
            norm += d * d
    if norm == 0.0:
        return 0.0
    if perceptron:
        tau = 1.0
    else:
        tau = min((loss - margin) / norm, tau_cap)
        if tau <= 0.0:
            return 0.0
    for f in ids:
        d = acc[f]
        if d != 0.0:
            w[f] += tau * d
            u[f] += c * tau * d
    return tau


@njit(cache=True)
def pa_step(pa, c, acc, nt, loss):
    """`pa_update` with the Δ accumulated in acc over touched[:nt], then the accumulator cleared."""
    pa_update(pa.w, pa.u, c, acc.acc, acc.touched, nt, loss, pa.perceptron, pa.tau_cap)
    acc_clear(acc, nt)


def averaged_weights(w, u, n_seen):
    """The averaged weight vector after n_seen documents (w itself when n_seen == 0)."""
    if n_seen == 0:
        return w.copy()
    return w - u / float(n_seen)


class Accumulator:
    """Dense Δ accumulator arrays for a weight space of 2**n_bits (see decode.featvec)."""

    def __init__(self, n_bits):
        size = 1 << int(n_bits)
        self.acc = np.zeros(size, dtype=np.float64)
        self.mark = np.zeros(size, dtype=np.int8)
        self.touched = np.zeros(size, dtype=np.int32)

    def arrays(self):
        """The arrays as the kernels take them (`Acc`)."""
        return Acc(self.acc, self.mark, self.touched)
