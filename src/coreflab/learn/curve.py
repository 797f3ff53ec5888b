"""Per-epoch dev scores from one training run (B&K 2014, Fig. 3-4 learning curves).

`DevCurve` is the `callback(epoch, model)` of `fit`: it predicts the dev split with the
current averaged weights, scores the response against the dev key with the project's
scorer (`coreflab.metrics.scorer.score_documents`) and rewrites a tidy CSV after every
epoch (atomically), so a curve of 50 epochs is one job and a killed job leaves the
epochs it finished.
"""

import time

from coreflab.corpus.conll import atomic_write_text
from coreflab.learn.evaluation import score_model

CURVE_METRICS = ("muc", "bcub", "ceafm", "ceafe")
CURVE_COLUMNS = ("learner", "seed", "epoch", "metric", "recall", "precision", "f1", "seconds")


class DevCurve:
    def __init__(self, corpus, store, key_docs, path=None, learner="", seed=0, keep_singletons=None):
        self.corpus, self.store, self.key_docs = corpus, store, key_docs
        self.path, self.learner, self.seed = path, learner, seed
        self.keep_singletons = keep_singletons
        self.rows = []
        self._t0 = time.perf_counter()

    def score(self, model):
        """Scores object of the model on the dev split."""
        return score_model(model, self.corpus, self.store, self.key_docs, CURVE_METRICS, self.keep_singletons)

    def __call__(self, epoch, model):
        scores = self.score(model)
        secs = round(time.perf_counter() - self._t0, 3)
        for m in CURVE_METRICS:
            r, p, f = scores.prf(m)
            self.rows.append((self.learner, self.seed, epoch, m, 100 * r, 100 * p, 100 * f, secs))
        self.rows.append((self.learner, self.seed, epoch, "mela", "", "", scores.mela, secs))
        if self.path is not None:
            self.write(self.path)

    def write(self, path):
        lines = [",".join(CURVE_COLUMNS)]
        for row in self.rows:
            lines.append(",".join(f"{v:.6f}" if isinstance(v, float) else str(v) for v in row))
        atomic_write_text(path, "\n".join(lines) + "\n")
