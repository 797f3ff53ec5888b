"""Single-link clustering and the two Viterbi E-steps of structured local training.

Choi & Cardie (2007), Sec. 3, Figs. 1 and 2 (lost in extraction; reconstructed in
docs/methods.md, "Choi & Cardie 2007"). Both E-steps return hidden pair labels h whose single-link closure
reproduces the gold clustering exactly (within the pair set: pairs beyond a window are
absent, so a cluster that cannot be connected through the available pairs stays split —
the only case where h cannot reach y):

- `estep_closest` (Fig. 1): h = the model's decisions with every cross-cluster positive
  removed; each gold cluster still split is connected with its highest-probability pairs
  (Kruskal, seeded with the already-positive pairs). It changes no pair the model already
  gets right.
- `estep_preserving` (Fig. 2, "closer to y* by preserving all of …"; the rest of the
  sentence is lost in the paper's text): h = the model's predicted-positive intra-cluster
  pairs PLUS every closest-antecedent pair of y* (each mention linked to its nearest
  preceding cluster mate), so h keeps y*'s chains even where the model's own positives
  already connect the cluster. If a window drops a mention's nearest mate from the pair
  set, the cluster is completed as in Fig. 1 (highest-probability intra-cluster pairs).

Why this reconstruction (docs/methods.md, "Choi & Cardie 2007"): an earlier one, "all
intra-cluster pairs minus predicted negatives off the maximum spanning tree", reduces to
Fig. 1 exactly (Kruskal by descending P meets every predicted positive before any
negative), so the two SLT variants trained identical models. The paper says Fig. 2 yields
an h closer to y* than Fig. 1; adding y*'s closest-antecedent chain does that, and it
differs from Fig. 1 whenever a cluster is already connected by the model's positives but
some chain pair is predicted negative.
"""

import numpy as np

from coreflab.decode.single_link import kruskal


def _descending(prob, mask):
    idx = np.flatnonzero(mask)
    # stable order: by probability descending, then pair index (deterministic ties)
    return idx[np.lexsort((idx, -prob[idx]))]


def estep_closest(pairs, prob, threshold=0.5):
    """Fig. 1: the labelling closest to the model's argmax that single-links to gold."""
    pred = prob >= threshold
    seeded = pred & pairs.gold
    order = _descending(prob, pairs.gold & ~pred)
    return kruskal(pairs.n_mentions, pairs.ante, pairs.ana, seeded, order)


def estep_preserving(pairs, prob, threshold=0.5):
    """Fig. 2: predicted-positive intra-cluster pairs plus y*'s closest-antecedent pairs."""
    seeded = pairs.gold & ((prob >= threshold) | closest_positive_pairs(pairs, pairs.gold))
    order = _descending(prob, pairs.gold & ~seeded)
    return kruskal(pairs.n_mentions, pairs.ante, pairs.ana, seeded, order)


def closest_positive_pairs(pairs, labels):
    """For each anaphor, its closest earlier mention among its positive pairs (the P1 predicate)."""
    pos = np.flatnonzero(labels)
    if pos.size == 0:
        return np.zeros(len(pairs), dtype=bool)
    # among positive pairs of one anaphor, the closest has the largest antecedent row
    order = pos[np.lexsort((-pairs.ante[pos], pairs.ana[pos]))]
    first = np.ones(order.size, dtype=bool)
    first[1:] = pairs.ana[order[1:]] != pairs.ana[order[:-1]]
    out = np.zeros(len(pairs), dtype=bool)
    out[order[first]] = True
    return out
