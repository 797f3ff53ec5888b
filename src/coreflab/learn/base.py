"""Common base of the learners: scikit-learn-style parameters, save/load, clusters.

The learner contract (docs/adding-a-learner.md): `__init__` stores parameters only; `fit(train, dev=None,
callback=None)` returns self and calls `callback(epoch, model)` after every epoch (so
one training job yields the whole learning curve); learned attributes end in `_`;
randomness only through `seed`. A model file is one .npz: the weight vector `coef_`
plus JSON strings of the learner name, its parameters and its learned metadata,
written atomically (temporary file + rename). `coreflab.learn.checks` checks a learner
against this contract.
"""

import inspect
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from coreflab.errors import UserError
from coreflab.learn.registry import check_param_types as check_param_types  # re-exported
from coreflab.learn.registry import make_learner


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
        raise UserError("the arc store does not belong to this compiled corpus (different documents or mentions)")
    return TrainingData(corpus, store)


_ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")


_NPZ_KINDS = (
    ("_name.npy", ("compiled corpus", "prepare")),
    ("_header.npy", ("arc store", "features")),
    ("_learner.npy", ("coreflab model file", "train")),
)


def npz_kind(path):
    """(what, verb) of a coreflab .npz by the arrays it holds; None if not recognised."""
    import zipfile

    try:
        names = set(zipfile.ZipFile(path).namelist())
    except (OSError, zipfile.BadZipFile):
        return None
    return next((kind for member, kind in _NPZ_KINDS if member in names), None)


def require_npz(path, what, made_by):
    """UserError naming the file unless path is a .npz archive (checked before numpy reads it,
    whose message for a text file is about allow_pickle, which tells a user nothing)."""
    path = Path(path)
    try:
        with open(path, "rb") as fh:
            head = fh.read(256)
    except OSError as err:
        raise UserError(f"{path}: cannot read the {what} ({err.strerror or err})") from None
    if head[:4] in _ZIP_MAGIC:
        other = npz_kind(path)
        if other is not None and other[0] != what:
            raise UserError(
                f"{path}: not {_a(what)} (the .npz written by `coreflab {made_by}`); "
                f"it is {_a(other[0])} from `coreflab {other[1]}`"
            )
        return path
    text = head.decode("utf-8", "replace").lstrip()
    if text.startswith("#begin document"):
        found = "it is a CoNLL-2012 text file"
    elif head.startswith(b"\x93NUMPY"):
        found = "it is a single .npy array"
    elif text[:1] in "{[":
        found = "it looks like JSON"
    elif head and all(32 <= b < 127 or b in (9, 10, 13) for b in head[:64]):
        found = "it is a text file"
    else:
        found = "it is not a .npz archive"
    raise UserError(f"{path}: not {_a(what)} (the .npz written by `coreflab {made_by}`); {found}")


def _a(noun):
    return f"an {noun}" if noun[:1] in "aeiou" else f"a {noun}"


class Learner:
    """Base class: parameters, save/load; subclasses implement fit/predict."""

    name = None
    _meta_fields = ()  # learned attributes (JSON-able) saved beside coef_

    # Epochs (or EM iterations) a fit runs where the parameters alone do not say it (None: `n_iter`,
    # `epochs` or `em_iterations`); the training verbs' progress and checks count on it.
    planned_epochs = None

    @classmethod
    def check_inputs(cls, data, folder):
        """Parameters the contract checks must supply for a fit on `data` (files written under `folder`),
        such as a file the learner reads: none by default."""
        return {}

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
        self.check_hashing(data.store)
        return data

    def check_hashing(self, store):
        """UserError unless the model was trained on a store hashed like this one: `n_bits_`, which
        `coreflab train` records for every learner; ids hashed into another size are other features."""
        n_bits = getattr(self, "n_bits_", None)
        if n_bits is not None and int(store.n_bits) != int(n_bits):
            raise UserError(
                f"{self.name}: model has 2**{n_bits} weights but the arc store was hashed into 2**{store.n_bits}"
            )

    def save(self, path):
        """Write coef_ + JSON (learner, params, learned metadata) to one .npz, atomically."""
        if not hasattr(self, "coef_"):
            raise UserError(f"{self.name}: cannot save an unfitted model")
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        fields = dict.fromkeys((*self._meta_fields, "n_bits_"))  # n_bits_: what `check_hashing` reads
        meta = {k: getattr(self, k) for k in fields if hasattr(self, k)}
        for k, v in meta.items():
            try:
                json.dumps(v)
            except (TypeError, ValueError) as err:
                raise UserError(
                    f"{self.name}: _meta_fields attribute {k!r} is not JSON-able ({err}); keep it a number, "
                    "string, list or dict (a numpy array as a list, docs/adding-a-learner.md); model not written"
                ) from None
        tmp = path.with_name(f".{path.name}.tmp.npz")
        np.savez(
            tmp,
            coef_=self.coef_,
            _learner=np.array(self.name),
            _params=np.array(json.dumps(self.get_params(), sort_keys=True)),
            _meta=np.array(json.dumps(meta, sort_keys=True)),
        )
        tmp.replace(path)
        return path

    @staticmethod
    def load(path):
        """Rebuild the learner saved at path (any registered learner)."""
        require_npz(path, "coreflab model file", "train")
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
