"""Where learning overtakes rules: a learner's test MELA by the number of training documents.

For each size (5, 10, 20, 40, 80 documents by default, and the whole training split, "all") a
learner is trained on seeded draws of that many training documents and scored on the whole test
split, as the leaderboard scores it (`coreflab.learn.evaluation.score_model`: antecedents →
response documents → the project's scorer). A size at or above the split's is "all": the whole split.

Draws: draw d of a size is the d-th distinct sample of a generator seeded by (seed, size), so the
draws of a size are distinct document sets, a draw does not change when more are asked for, and no
draw depends on another size's. A size has fewer draws only when fewer distinct sets exist (5 of
6 documents: 6). Draw d trains with seed `seed + d` at every size, so at "all" the draws differ in
the training order alone and draw 0 is the leaderboard's own training (the workflow's `seed`).

Each training is `coreflab train`'s: the config's parameters, the values the learner takes from
tuning (`--tuned`: tuned once, on the whole training split), the draw's seed, and for a learner
whose passes are tuned on dev (`epochs_tuned_on_dev`) the epoch with the best dev MELA on the whole
dev split. Feature templates (template selection) were chosen on the whole training split too:
only the documents the weights are learned from vary.
"""

import io
import math
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from coreflab.errors import UserError
from coreflab.features.document_subsets import document_subset
from coreflab.learn.base import Learner, TrainingData, check_param_types
from coreflab.learn.curve import DevCurve, EpochProgress, expected_epochs
from coreflab.learn.evaluation import AVG_METRICS, score_model
from coreflab.learn.registry import get_learner, make_learner

ALL = "all"
DEFAULT_SIZES = (5, 10, 20, 40, 80)
DEFAULT_DRAWS = 3
CURVE_COLUMNS = ("learner", "size", "train_docs", "draw", "seed", "mela", "muc", "bcub", "ceafe", "epochs", "seconds")


def plan_sizes(sizes, n_train):
    """[(label, documents)] of a curve: the sizes below the split's size, ascending, then ("all", n_train)."""
    if n_train < 1:
        raise UserError("the training split has no documents")
    bad = [s for s in sizes if int(s) < 1]
    if bad:
        raise UserError(f"training sizes must be at least 1 document, got {bad}")
    below = sorted({int(s) for s in sizes if int(s) < n_train})
    return [(str(n), n) for n in below] + [(ALL, int(n_train))]


def draw_documents(n_train, size, n_draws, seed):
    """The draws of one size: up to n_draws distinct ascending arrays of `size` of the n_train document
    indices (the whole split, n_draws times, when size >= n_train), from a generator seeded by (seed, size)."""
    if size >= n_train:
        return [np.arange(n_train, dtype=np.int64) for _ in range(n_draws)]
    rng = np.random.default_rng([int(seed), int(size)])
    n_draws = min(n_draws, math.comb(n_train, size))
    draws, seen = [], set()
    while len(draws) < n_draws:
        docs = np.sort(rng.permutation(n_train)[:size]).astype(np.int64)
        if docs.tobytes() not in seen:
            seen.add(docs.tobytes())
            draws.append(docs)
    return draws


class _KeepBest:
    """callback(epoch, model) of a learner whose passes are tuned on dev: the dev curve, and a copy
    of the model at the epoch of the best dev MELA (ties keep the earlier epoch), as `coreflab train`
    keeps it."""

    def __init__(self, inner, folder):
        self.inner, self.path = inner, Path(folder) / "best.npz"
        self.best = None

    def __call__(self, epoch, model):
        self.inner(epoch, model)
        mela = self.inner.last_mela
        if self.best is None or mela > self.best:
            self.best = mela
            model.save(self.path)

    @property
    def epochs(self):
        return self.inner.epochs

    def close(self):
        return self.inner.close()


def fit_learner(learner, params, train, dev=None, dev_key=None, seed=None):
    """A learner fitted as `coreflab train` fits it: `params` (the config's and the tuned values),
    `seed`, the hashing size recorded; a learner whose passes are tuned on dev (with a dev split
    and its key) keeps its best dev epoch. Returns (model, epochs trained)."""
    params = dict(params)
    if seed is not None:
        params["seed"] = int(seed)
    model = make_learner(learner, check_param_types(get_learner(learner), params))
    quiet = io.StringIO()  # one line per training (the caller's), not one per epoch
    total = expected_epochs(model)
    if getattr(model, "n_bits_", None) is None:
        model.n_bits_ = int(train.store.n_bits)
    tuned_on_dev = dev is not None and dev_key is not None and getattr(model, "epochs_tuned_on_dev", False)
    with tempfile.TemporaryDirectory(prefix="coreflab-training-size-") as folder:
        if tuned_on_dev:
            curve = DevCurve(dev.corpus, dev.store, dev_key, learner=learner, total=total, stream=quiet, quiet=True)
            callback = _KeepBest(curve, folder)
        else:
            callback = EpochProgress(learner=learner, total=total, stream=quiet, bar=False)
        fitted = model.fit(train, callback=callback)
        callback.close()
        if fitted is not model:
            raise UserError(f"{learner}: fit returned {type(fitted).__name__}, not the learner itself")
        if callback.epochs == 0:
            raise UserError(f"{learner}: fit returned without calling callback(epoch, model)")
        if tuned_on_dev:
            model = Learner.load(callback.path)
    return model, callback.epochs


def learning_curve(
    learner,
    params,
    train,
    test,
    test_key,
    sizes=DEFAULT_SIZES,
    draws=DEFAULT_DRAWS,
    seed=1,
    dev=None,
    dev_key=None,
    keep_singletons=None,
    system=None,
    stream=None,
):
    """Rows (dicts of CURVE_COLUMNS) of one learner: every size of `plan_sizes` × its draws, trained
    by `fit_learner` and scored on the test split (test MELA and its three F1s, in percent); one
    progress line per training to `stream` (stderr): what it scored, what is done and what remains."""
    stream = sys.stderr if stream is None else stream
    system = system or learner
    n_train = train.store.n_docs
    plan = [
        (label, n, d, docs)
        for label, n in plan_sizes(sizes, n_train)
        for d, docs in enumerate(draw_documents(n_train, n, draws, seed))
    ]
    total_docs = sum(n for _, n, _, _ in plan)
    rows, done_docs, start = [], 0, time.perf_counter()
    for k, (label, n, d, docs) in enumerate(plan):
        t0 = time.perf_counter()
        data = train if n >= n_train else TrainingData(*document_subset(train.corpus, train.store, docs))
        model, epochs = fit_learner(learner, params, data, dev, dev_key, seed=seed + d)
        scores = score_model(model, test.corpus, test.store, test_key, AVG_METRICS, keep_singletons)
        secs = time.perf_counter() - t0
        rows.append(
            {
                "learner": system,
                "size": label,
                "train_docs": n,
                "draw": d,
                "seed": seed + d,
                "mela": scores.mela,
                **{m: 100 * scores.f1(m) for m in AVG_METRICS},
                "epochs": epochs,
                "seconds": round(secs, 3),
            }
        )
        done_docs += n
        elapsed = time.perf_counter() - start
        left = len(plan) - k - 1
        eta = f" (about {elapsed / done_docs * (total_docs - done_docs):.0f} s left)" if left else ""
        print(
            f"training-size: {system}: {label} documents, draw {d + 1}: test MELA {scores.mela:.2f}, {secs:.1f} s; "
            f"{k + 1}/{len(plan)} trainings done, {left} to go, {elapsed:.0f} s{eta}",
            file=stream,
            flush=True,
        )
    return rows


__all__ = ["ALL", "CURVE_COLUMNS", "DEFAULT_SIZES", "DEFAULT_DRAWS", "plan_sizes", "draw_documents"]
__all__ += ["fit_learner", "learning_curve"]
