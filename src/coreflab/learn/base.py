"""Common base of the learners: scikit-learn-style parameters, save/load, clusters.

DESIGN.md "Learners": `__init__` stores parameters only; `fit(train, dev=None,
callback=None)` returns self and calls `callback(epoch, model)` after every epoch (so
one training job yields the whole learning curve); learned attributes end in `_`;
randomness only through `seed`. A model file is one .npz: the weight vector `coef_`
plus JSON strings of the learner name, its parameters and its learned metadata,
written atomically (temporary file + rename).
"""

import inspect
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from coreflab.errors import UserError


@dataclass
class TrainingData:
    """A compiled split with its arc store (the learners' `train`/`dev` argument)."""

    corpus: object  # coreflab.corpus.compiled.CompiledCorpus
    store: object  # coreflab.features.store.ArcStore


def as_training_data(data):
    """Accept TrainingData or a (corpus, store) pair; check they describe the same mentions."""
    if isinstance(data, TrainingData):
        corpus, store = data.corpus, data.store
    else:
        corpus, store = data
    a = np.asarray(corpus.arrays["doc_mention_offsets"])
    b = np.asarray(store.doc_mention_offsets)
    if a.shape != b.shape or not np.array_equal(a, b):
        raise UserError("the arc store does not belong to this compiled corpus "
                        "(different documents or mentions)")
    return TrainingData(corpus, store)


class Learner:
    """Base class: parameters, save/load; subclasses implement fit/predict."""

    name = None
    _meta_fields = ()  # learned attributes (JSON-able) saved beside coef_

    @classmethod
    def _param_names(cls):
        sig = inspect.signature(cls.__init__)
        return [p for p in sig.parameters if p != "self"]

    def get_params(self):
        out = {}
        for p in self._param_names():
            v = getattr(self, p)
            out[p] = list(v) if isinstance(v, tuple) else v
        return out

    def set_params(self, **params):
        for k, v in params.items():
            if k not in self._param_names():
                raise UserError(f"{self.name}: unknown parameter {k!r}")
            setattr(self, k, v)
        return self

    def __repr__(self):
        args = ", ".join(f"{k}={v!r}" for k, v in self.get_params().items())
        return f"{type(self).__name__}({args})"

    def _checked_data(self, corpus, store):
        """TrainingData for predict, after checking the model is fitted and hashed like the store."""
        if not hasattr(self, "coef_"):
            raise UserError(f"{self.name}: predict before fit/load")
        data = as_training_data((corpus, store))
        n_bits = getattr(self, "n_bits_", None)
        if n_bits is not None and int(data.store.n_bits) != int(n_bits):
            raise UserError(f"{self.name}: model has 2**{n_bits} weights but the arc store "
                            f"was hashed into 2**{data.store.n_bits}")
        return data

    def save(self, path):
        """Write coef_ + JSON (learner, params, learned metadata) to one .npz, atomically."""
        if not hasattr(self, "coef_"):
            raise UserError(f"{self.name}: cannot save an unfitted model")
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        meta = {k: getattr(self, k) for k in self._meta_fields if hasattr(self, k)}
        tmp = path.with_name(f".{path.name}.tmp.npz")
        np.savez(tmp, coef_=self.coef_, _learner=np.array(self.name),
                 _params=np.array(json.dumps(self.get_params(), sort_keys=True)),
                 _meta=np.array(json.dumps(meta, sort_keys=True)))
        tmp.replace(path)
        return path

    @staticmethod
    def load(path):
        """Rebuild the learner saved at path (any registered learner)."""
        from coreflab.learn.registry import make_learner

        try:
            with np.load(path, allow_pickle=False) as z:
                name = str(z["_learner"])
                params = json.loads(str(z["_params"]))
                meta = json.loads(str(z["_meta"]))
                coef = z["coef_"]
        except (OSError, KeyError, ValueError) as err:
            raise UserError(f"{path}: not a coreflab model file ({err})") from None
        model = make_learner(name, params)
        model.coef_ = coef
        for k, v in meta.items():
            setattr(model, k, v)
        return model
