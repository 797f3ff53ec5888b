"""The arc store: local features of every candidate arc of one compiled split, as CSR.

Contract with the decoders and learners (see the issue's "arc-store contract"):

    n_bits                 weights live in a vector of size 2**n_bits
    doc_mention_offsets    int64[n_docs+1], as in CompiledCorpus (global mention rows)
    m_arc_offsets          int64[n_mentions+1]: arcs of mention row j are
                           [m_arc_offsets[j], m_arc_offsets[j+1])
    arc_ante               int32[n_arcs]: antecedent as index within the document,
                           -1 = root m0; per mention the root arc first, then candidates
                           in ascending order (all earlier mentions, or the last `window`
                           plus, by default, the string-matched ones beyond it: not
                           necessarily contiguous; meta["reach"] says which)
    arc_feat_offsets       int64[n_arcs+n_rows+1]; arc_feats int32[n_entries]: hashed ids of
                           segment a (arc a, or a row shared between arcs after the arcs);
                           a negative entry -1-r in an arc's segment refers to row segment r
                           (`shared_rows.py`: n_rows = 0 in a flat store)
    templates              entries used; unavailable: entry -> reason

Why CSR of int32 ids: cort keeps a Python object per arc (2.2 KB); here an arc costs
4 (antecedent) + 8 (offset) + 4 per own feature or row reference bytes, plus its share of
the rows, and a score w·Φ is a gather-sum (`shared_rows.arc_dot`, `decode.arcs.score_arcs`).
"""

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from coreflab.errors import UserError

_ARRAYS = {
    "doc_mention_offsets": np.int64,
    "m_arc_offsets": np.int64,
    "arc_ante": np.int32,
    "arc_feat_offsets": np.int64,
    "arc_feats": np.int32,
}


@dataclass
class ArcStore:
    n_bits: int
    doc_mention_offsets: np.ndarray
    m_arc_offsets: np.ndarray
    arc_ante: np.ndarray
    arc_feat_offsets: np.ndarray
    arc_feats: np.ndarray
    templates: list = field(default_factory=list)
    unavailable: dict = field(default_factory=dict)
    window: int | None = None
    meta: dict = field(default_factory=dict)  # corpus name, split, feature set, ...

    @property
    def n_docs(self):
        return int(self.doc_mention_offsets.shape[0] - 1)

    @property
    def n_mentions(self):
        return int(self.m_arc_offsets.shape[0] - 1)

    @property
    def n_arcs(self):
        return int(self.arc_ante.shape[0])

    @property
    def n_entries(self):
        return int(self.arc_feats.shape[0])

    @property
    def n_rows(self):
        """Rows of features shared between arcs (`shared_rows.py`); 0 in a flat store."""
        return int(self.arc_feat_offsets.shape[0] - 1 - self.arc_ante.shape[0])

    @property
    def nbytes(self):
        return int(sum(getattr(self, k).nbytes for k in _ARRAYS))

    def arc_features(self, a):
        """Feature ids of arc a (a view of a flat store's; its rows' ids expanded in a shared-row store)."""
        seg = self.arc_feats[self.arc_feat_offsets[a] : self.arc_feat_offsets[a + 1]]
        if not self.n_rows:
            return seg
        parts = [self.arc_features(-1 - int(f)) if f < 0 else seg[i : i + 1] for i, f in enumerate(seg)]
        return np.concatenate(parts) if parts else seg

    def mention_arcs(self, j):
        """Arc range [lo, hi) of global mention row j."""
        return int(self.m_arc_offsets[j]), int(self.m_arc_offsets[j + 1])

    def validate(self):
        """Check the CSR invariants; raises ValueError on a malformed store."""
        if self.m_arc_offsets[0] != 0 or self.m_arc_offsets[-1] != self.n_arcs:
            raise ValueError("m_arc_offsets does not span arc_ante")
        if self.n_rows < 0:
            raise ValueError("arc_feat_offsets must have at least n_arcs + 1 entries")
        if self.arc_feat_offsets[0] != 0 or self.arc_feat_offsets[-1] != self.n_entries:
            raise ValueError("arc_feat_offsets does not span arc_feats")
        if self.doc_mention_offsets[-1] != self.n_mentions:
            raise ValueError("doc_mention_offsets does not span the mentions")
        if self.n_arcs and np.any(self.arc_ante[self.m_arc_offsets[:-1]] != -1):
            raise ValueError("the first arc of every mention must be the root arc")
        if self.n_entries and self.arc_feats.max() >= 2**self.n_bits:
            raise ValueError("feature id outside [0, 2**n_bits)")
        rows_start = self.arc_feat_offsets[self.n_arcs]
        if rows_start < self.n_entries and self.arc_feats[rows_start:].min() < 0:
            raise ValueError("a shared row refers to another row")
        refs = self.arc_feats[:rows_start]
        refs = -1 - refs[refs < 0].astype(np.int64)
        if refs.shape[0] and (refs.min() < self.n_arcs or refs.max() >= self.n_arcs + self.n_rows):
            raise ValueError("an arc refers to a segment that is not a shared row")
        return self

    def save(self, path):
        """Save as one uncompressed .npz (fast to load), atomically (temp file + rename)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.tmp.npz")
        header = {
            "n_bits": int(self.n_bits),
            "templates": list(self.templates),
            "unavailable": dict(self.unavailable),
            "window": self.window,
            "meta": self.meta,
            "format": "coreflab-arcstore-1",
        }
        np.savez(
            tmp,
            _header=np.array(json.dumps(header)),
            **{k: np.asarray(getattr(self, k), dtype=dt) for k, dt in _ARRAYS.items()},
        )
        tmp.replace(path)

    @classmethod
    def load(cls, path):
        try:
            z = np.load(path, allow_pickle=False)
        except (OSError, ValueError) as err:
            raise UserError(f"{path}: not a readable arc store ({err})") from None
        with z:
            if "_header" not in z.files:
                raise UserError(f"{path}: not an arc store (no header)")
            header = json.loads(str(z["_header"]))
            arrays = {k: z[k] for k in _ARRAYS}
        return cls(
            n_bits=header["n_bits"],
            templates=header["templates"],
            unavailable=header["unavailable"],
            window=header["window"],
            meta=header.get("meta", {}),
            **arrays,
        )


__all__ = ["ArcStore"]
