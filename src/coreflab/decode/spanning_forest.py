"""Maximum spanning forest decoding (Yu & Joachims 2009, a baseline of Samdani et al. 2014): the
edges of positive weight chosen by Kruskal, heaviest first."""

import numpy as np

from coreflab.decode.single_link import kruskal


def max_spanning_forest(n_items, ante, ana, weight):
    """Edges chosen by Kruskal among those of positive weight, heaviest first (ties by index)."""
    idx = np.flatnonzero(weight > 0)
    order = idx[np.lexsort((idx, -weight[idx]))]
    return kruskal(n_items, ante, ana, np.zeros(ante.shape[0], dtype=np.bool_), order)
