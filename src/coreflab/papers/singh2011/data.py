"""The cross-document corpus: one row per mention, a TF-IDF context vector and a string id.

Singh et al. (2011) §2.1 represent a mention by the bag of words of its context and score
pairs by cosine similarity; §5.3 adds exact string match. A `CrossdocCorpus` holds exactly
that, as flat arrays (scipy CSR rows L2-normalised, so cos(m, n) = m̂·n̂), plus the gold
entity id, document and topic of each mention for evaluation and blocking.
"""

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import scipy.sparse as sp
from sklearn.feature_extraction.text import TfidfTransformer

from coreflab.errors import InputFormatError, UserError


@dataclass
class CrossdocCorpus:
    """Mentions as rows: X (CSR, L2-normalised TF-IDF), strings, gold entity, document, topic."""

    X: sp.csr_matrix
    strings: np.ndarray  # int64 string id per mention (exact mention string)
    gold: np.ndarray  # int64 gold entity id per mention
    doc: np.ndarray  # int64 document id per mention
    topic: np.ndarray  # int64 topic id per mention (0 when the corpus has none)
    string_names: list = field(default_factory=list)
    name: str = "crossdoc"

    def __len__(self):
        return self.X.shape[0]

    @property
    def n_strings(self):
        return int(self.strings.max()) + 1 if len(self.strings) else 0

    def features(self):
        """(X, per-mention string feature index, number of features) for the sampler."""
        nvocab = self.X.shape[1]
        return self.X, nvocab + self.strings.astype(np.int64), nvocab + self.n_strings

    def person_x(self):
        """The Person-X protocol (Gooi & Allan 2004; Singh et al. §5.2): every string becomes "X"."""
        return CrossdocCorpus(
            self.X, np.zeros(len(self), dtype=np.int64), self.gold, self.doc, self.topic, ["X"], self.name + "_personx"
        )

    def subset(self, rows):
        rows = np.asarray(rows)
        strings, inverse = np.unique(self.strings[rows], return_inverse=True)
        names = [self.string_names[s] for s in strings] if self.string_names else []
        return CrossdocCorpus(
            self.X[rows], inverse.astype(np.int64), self.gold[rows], self.doc[rows], self.topic[rows], names, self.name
        )

    def save(self, path):
        """Write the corpus as one .npz (atomic: temp file + rename)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.tmp.npz")
        X = self.X.tocsr()
        np.savez(
            tmp,
            indptr=X.indptr,
            indices=X.indices,
            data=X.data,
            shape=np.array(X.shape),
            strings=self.strings,
            gold=self.gold,
            doc=self.doc,
            topic=self.topic,
            string_names=np.array(self.string_names, dtype=str),
            name=np.array(self.name),
        )
        tmp.replace(path)

    @classmethod
    def load(cls, path):
        path = Path(path)
        if not path.exists():
            raise UserError(f"{path}: no such cross-document corpus file")
        try:
            z = np.load(path, allow_pickle=False)
            X = sp.csr_matrix((z["data"], z["indices"], z["indptr"]), shape=tuple(z["shape"]))
            return cls(
                X,
                z["strings"].astype(np.int64),
                z["gold"].astype(np.int64),
                z["doc"].astype(np.int64),
                z["topic"].astype(np.int64),
                [str(s) for s in z["string_names"]],
                str(z["name"]),
            )
        except (KeyError, ValueError, OSError) as err:
            raise InputFormatError(path, None, f"expected a cross-document corpus .npz ({err})") from None


def tfidf_rows(counts):
    """Sublinear TF-IDF, L2-normalised rows (float64 CSR): cos(m, n) = row_m · row_n."""
    tf = TfidfTransformer(sublinear_tf=True, norm="l2")
    X = tf.fit_transform(sp.csr_matrix(counts, dtype=np.float64)).tocsr()
    X.sort_indices()
    return X
