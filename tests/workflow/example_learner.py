"""A tiny example learner, registered from outside the package (docs/adding-a-learner.md).

Scores an arc by how often its features fire on gold-consistent arcs minus how often they
fire on other arcs in training (one counting pass, no iterations), then decodes best-first.
"""

import numpy as np

from coreflab.decode.arcs import arc_scores, gold_arc_mask
from coreflab.decode.best_first import best_first_antecedents
from coreflab.learn.base import Learner, as_training_data
from coreflab.learn.registry import register


@register("example_counts")
class ExampleCounts(Learner):
    def __init__(self, seed=0):
        self.seed = seed

    def fit(self, train, dev=None, callback=None):
        data = as_training_data(train)
        store = data.store
        gold = gold_arc_mask(data.corpus, store).astype(np.float64) * 2 - 1  # +1 gold arc, -1 other
        per_entry = np.repeat(gold, np.diff(np.asarray(store.arc_feat_offsets)))
        self.coef_ = np.bincount(np.asarray(store.arc_feats), weights=per_entry, minlength=1 << int(store.n_bits))
        if callback is not None:
            callback(1, self)
        return self

    def predict(self, corpus, store):
        return best_first_antecedents(arc_scores(self.coef_, store), store)
