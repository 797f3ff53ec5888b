"""Arc stores of template subsets, cut from one store of the whole pool instead of extracted anew.

Template selection (B&K §6) judges a hundred template sets that differ from each other by one
template; extracting each one's store costs a pass over every arc with every template. A feature's
hashed id depends only on its own template and the mentions, each template gives an arc at most one
feature, and an arc lists its features in the order of the template list. So the store of any list
of pool templates is the pool store's features of those templates, reordered per arc by their
position in the list: `subset_store` builds exactly the arrays `extract_arc_store` would (tested
array for array), in one numba pass.
"""

from dataclasses import replace

import numpy as np
from numba import njit

from coreflab.features.entry_filters import count_kept, fill_kept
from coreflab.features.extract import extract_tagged_arc_store


@njit(cache=True)
def _subset_entries(arc_feat_offsets, arc_feats, tags, rank, max_len, off, out):
    """Fill out[: off[-1]] with the features whose template has rank ≥ 0, ordered by rank per arc
    (off: `count_kept`'s offsets)."""
    n_arcs = arc_feat_offsets.shape[0] - 1
    buf_rank = np.empty(max(max_len, 1), dtype=np.int32)
    buf_feat = np.empty(max(max_len, 1), dtype=np.int32)
    for a in range(n_arcs):
        n = 0
        for k in range(arc_feat_offsets[a], arc_feat_offsets[a + 1]):
            r = rank[tags[k]]
            if r < 0:
                continue
            # insertion by rank (ranks are distinct within an arc: one feature per template)
            q = n
            while q > 0 and buf_rank[q - 1] > r:
                buf_rank[q] = buf_rank[q - 1]
                buf_feat[q] = buf_feat[q - 1]
                q -= 1
            buf_rank[q] = r
            buf_feat[q] = arc_feats[k]
            n += 1
        out[off[a] : off[a] + n] = buf_feat[:n]


class TemplatePool:
    """One split's arc store of a template pool, with each feature's template: stores of subsets."""

    def __init__(self, corpus, pool, n_bits=22, window=None, reach=True):
        self.pool = list(pool)
        self._pool_set = set(self.pool) if len(set(self.pool)) == len(self.pool) else None  # None: repeats
        self.store, self.tags = extract_tagged_arc_store(corpus, self.pool, n_bits=n_bits, window=window, reach=reach)
        self.index = {name: t for t, name in enumerate(self.store.templates)}
        sizes = np.diff(self.store.arc_feat_offsets)
        self.max_len = int(sizes.max()) if sizes.shape[0] else 0

    @property
    def nbytes(self):
        """Bytes of the pool's store and its tags."""
        return self.store.nbytes + int(self.tags.nbytes)

    def covers(self, entries):
        """True if `subset_store(entries)` can be cut from this pool (pool entries, none repeated)."""
        entries = list(entries)
        return self._pool_set is not None and len(set(entries)) == len(entries) and set(entries) <= self._pool_set

    def __getstate__(self):
        """Pickled (to selection's workers) without the scratch buffer: each process makes its own."""
        return {k: v for k, v in self.__dict__.items() if k != "_scratch"}

    def subset_store(self, entries, scratch=False):
        """The arc store `extract_arc_store(corpus, entries, ...)` would build (entries: pool entries).

        scratch: the features are written into this pool's buffer, allocated once per process (the size
        of the pool's features), and the store is valid until the next scratch cut. Selection cuts two
        stores per candidate and drops them after it: fresh arrays cost GUM 0.3 s of page faults per
        cut, a third of the cut."""
        entries = list(entries)
        if not self.covers(entries):
            raise ValueError(f"not a subset of the pool without repeats: {entries}")
        rank = np.full(len(self.store.templates), -1, dtype=np.int32)
        templates = []
        for name in entries:
            if name in self.index:  # resolved in this corpus (else unavailable)
                rank[self.index[name]] = len(templates)
                templates.append(name)
        keep = (rank >= 0).astype(np.uint8)
        off = np.empty(self.store.arc_feat_offsets.shape[0], dtype=np.int64)
        m = count_kept(self.store.arc_feat_offsets, self.tags, keep, off)
        if scratch:
            if getattr(self, "_scratch", None) is None:
                self._scratch = np.empty(self.store.arc_feats.shape[0] + 1, dtype=np.int32)
            out = self._scratch
        else:
            out = np.empty(m + 1, dtype=np.int32)  # the filtering copy's one spare slot
        kept = rank[rank >= 0]
        if np.all(kept[1:] > kept[:-1]):  # listed in pool order: a filter keeps the rank order
            fill_kept(self.store.arc_feat_offsets, self.store.arc_feats, self.tags, keep, out)
        else:
            _subset_entries(self.store.arc_feat_offsets, self.store.arc_feats, self.tags, rank, self.max_len, off, out)
        unavailable = {e: self.store.unavailable[e] for e in entries if e in self.store.unavailable}
        return replace(
            self.store,
            arc_feat_offsets=off,
            arc_feats=out[:m],
            templates=templates,
            unavailable=unavailable,
            meta=dict(self.store.meta),
        )
