"""Best-first decoding over latent antecedent trees (Ng & Cardie 2002).

Björkelund & Kuhn (2014, Sec. 4; docs/methods.md, "Björkelund & Kuhn 2014"): with local features, picking for
each mention the highest-scoring antecedent is the exact argmax over trees (all arcs
point left, so Chu-Liu-Edmonds reduces to it). Three variants share one kernel:
plain (over A_j), constrained to gold-consistent arcs Ã_j (the latent gold tree), and
loss-augmented (score + C·loss per arc; Haponchyk & Moschitti 2017 reuse it for
their factorizable losses).

Ties go to the first candidate in store order (root first, then ascending antecedent
index), so decoding is deterministic.
"""

import numpy as np
from numba import njit


@njit(cache=True)
def best_first_doc(scores, s_off, m_arc_offsets, r_lo, r_hi, allowed, use_allowed, loss, loss_scale, use_loss, out_arc):
    """Best arc per mention row in [r_lo, r_hi); writes global arc indices to out_arc.

    scores[a - s_off] is the score of arc a; `allowed` (int8 per arc, global index)
    restricts candidates when use_allowed; `loss` (per arc, global) is added times
    loss_scale when use_loss. Returns the summed score of the chosen arcs.
    """
    total = 0.0
    for r in range(r_lo, r_hi):
        best = -np.inf
        best_a = -1
        for a in range(m_arc_offsets[r], m_arc_offsets[r + 1]):
            if use_allowed and allowed[a] == 0:
                continue
            s = scores[a - s_off]
            if use_loss:
                s += loss_scale * loss[a]
            if best_a < 0 or s > best:
                best = s
                best_a = a
        out_arc[r - r_lo] = best_a
        total += best
    return total


@njit(cache=True)
def _best_first_corpus(
    scores, doc_mention_offsets, m_arc_offsets, arc_ante, allowed, use_allowed, loss, loss_scale, use_loss, out_ante
):
    n_docs = doc_mention_offsets.shape[0] - 1
    for d in range(n_docs):
        lo, hi = doc_mention_offsets[d], doc_mention_offsets[d + 1]
        arcs = np.empty(hi - lo, dtype=np.int64)
        best_first_doc(scores, 0, m_arc_offsets, lo, hi, allowed, use_allowed, loss, loss_scale, use_loss, arcs)
        for i in range(hi - lo):
            out_ante[lo + i] = arc_ante[arcs[i]]


def best_first_antecedents(scores, store, allowed=None, loss=None, loss_scale=1.0):
    """Antecedent (index within the document, -1 root) of every mention row.

    scores: float64 per arc (`coreflab.decode.arcs.arc_scores`); allowed: optional int8
    mask (gold-consistent arcs → constrained decoding); loss: optional float per arc
    (loss-augmented decoding, score + loss_scale·loss).
    """
    n_m = int(store.m_arc_offsets.shape[0] - 1)
    out = np.empty(n_m, dtype=np.int32)
    dummy_i8 = np.zeros(1, dtype=np.int8)
    dummy_f = np.zeros(1, dtype=np.float64)
    _best_first_corpus(
        np.asarray(scores, dtype=np.float64),
        np.asarray(store.doc_mention_offsets, dtype=np.int64),
        np.asarray(store.m_arc_offsets, dtype=np.int64),
        np.asarray(store.arc_ante, dtype=np.int32),
        dummy_i8 if allowed is None else np.asarray(allowed, dtype=np.int8),
        allowed is not None,
        dummy_f if loss is None else np.asarray(loss, dtype=np.float64),
        float(loss_scale),
        loss is not None,
        out,
    )
    return out
