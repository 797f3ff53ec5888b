"""Per-epoch dev scores from one training run (B&K 2014, Fig. 3-4 learning curves).

`DevCurve` is the `callback(epoch, model)` of `fit`: it predicts the dev split with the
current averaged weights, scores the response against the dev key with the project's
scorer (`coreflab.metrics.scorer.score_documents`) and rewrites a tidy CSV after every
epoch (atomically), so a curve of 50 epochs is one job and a killed job leaves the
epochs it finished.

`EpochProgress` is the one per-epoch callback of `coreflab train` for every learner: it
counts the epochs (the closing "N epoch(s)" line), prints one line per epoch — epoch,
dev MELA when a dev split is given, seconds — and drives a tqdm bar over the epochs when
stderr is a terminal (a log file gets the plain lines only). `DevCurve` is an
`EpochProgress` that also scores the dev split.
"""

import sys
import time

from coreflab.corpus.readers.conll import atomic_write_text
from coreflab.errors import UserError
from coreflab.learn.evaluation import score_model

CURVE_METRICS = ("muc", "bcub", "ceafm", "ceafe")
CURVE_COLUMNS = ("learner", "seed", "epoch", "metric", "recall", "precision", "f1", "seconds")


def expected_epochs(model):
    """Epochs (or EM iterations) the learner's parameters ask for; None when unknown."""
    planned = getattr(model, "planned_epochs", None)
    if planned is not None:
        return int(planned)
    params = model.get_params()
    for key in ("n_iter", "epochs", "em_iterations"):
        value = params.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return None


class EpochProgress:
    """callback(epoch, model): count, time and report each epoch (one line each, or a tqdm bar); an
    epoch out of turn (not 1, 2, 3, ... once each) is a UserError naming the learner."""

    def __init__(self, learner="", stream=None, total=None, bar=None):
        self.learner = learner
        self.stream = sys.stderr if stream is None else stream
        self.total = total
        self.epochs = 0
        self.train_seconds = 0.0
        self._t0 = time.perf_counter()
        self._last = self._t0
        isatty = getattr(self.stream, "isatty", None)
        self.bar_enabled = bool(isatty and isatty()) if bar is None else bool(bar)
        self._bar = None

    def mela(self, epoch, model):
        """Dev MELA after this epoch (None: no dev split)."""
        return None

    def line(self, epoch, mela, train_secs, dev_secs):
        of = f"/{self.total}" if self.total else ""
        dev = f"dev MELA {mela:.2f}" if mela is not None else "dev MELA n/a (no dev split)"
        timing = f"{train_secs:.1f} s" + (f" + {dev_secs:.1f} s dev scoring" if mela is not None else "")
        return f"{self.learner}: epoch {epoch}{of}: {dev}, {timing}"

    def __call__(self, epoch, model):
        if epoch != self.epochs + 1:  # a curve with an epoch 0 or an epoch twice would be read as if right
            raise UserError(
                f"{self.learner}: callback(epoch, model) called with epoch {epoch!r} after "
                f"{self.epochs if self.epochs else 'none'}; call it once per epoch, counting from 1 "
                "(docs/adding-a-learner.md)"
            )
        start = time.perf_counter()
        train_secs = start - self._last
        self.train_seconds += train_secs
        mela = self.mela(epoch, model)
        end = time.perf_counter()
        self.epochs += 1
        self._report(self.line(epoch, mela, train_secs, end - start))
        self._last = time.perf_counter()

    def _report(self, text):
        if not self.bar_enabled:
            print(text, file=self.stream, flush=True)
            return
        from tqdm import tqdm

        if self._bar is None:
            self._bar = tqdm(total=self.total, desc=self.learner, unit="epoch", file=self.stream, leave=False)
        self._bar.write(text, file=self.stream)
        self._bar.update(1)

    def close(self):
        """End the bar (if any); returns the wall seconds since the callback was made."""
        if self._bar is not None:
            self._bar.close()
            self._bar = None
        return time.perf_counter() - self._t0


class DevCurve(EpochProgress):
    """EpochProgress that scores the dev split after every epoch and keeps the curve CSV."""

    def __init__(
        self,
        corpus,
        store,
        key_docs,
        path=None,
        learner="",
        seed=0,
        keep_singletons=None,
        stream=None,
        total=None,
        bar=None,
        quiet=False,
    ):
        super().__init__(learner=learner, stream=stream, total=total, bar=bar)
        self.corpus, self.store, self.key_docs = corpus, store, key_docs
        self.path, self.seed = path, seed
        self.keep_singletons = keep_singletons
        self.quiet = quiet
        self.rows = []
        self.last_mela = None

    def score(self, model):
        """Scores object of the model on the dev split."""
        return score_model(model, self.corpus, self.store, self.key_docs, CURVE_METRICS, self.keep_singletons)

    def mela(self, epoch, model):
        scores = self.score(model)
        secs = round(time.perf_counter() - self._t0, 3)
        for m in CURVE_METRICS:
            r, p, f = scores.prf(m)
            self.rows.append((self.learner, self.seed, epoch, m, 100 * r, 100 * p, 100 * f, secs))
        self.rows.append((self.learner, self.seed, epoch, "mela", "", "", scores.mela, secs))
        self.last_mela = scores.mela
        if self.path is not None:
            self.write(self.path)
        return scores.mela

    def _report(self, text):
        if not self.quiet:
            super()._report(text)

    def write(self, path):
        lines = [",".join(CURVE_COLUMNS)]
        for row in self.rows:
            lines.append(",".join(f"{v:.6f}" if isinstance(v, float) else str(v) for v in row))
        atomic_write_text(path, "\n".join(lines) + "\n")
