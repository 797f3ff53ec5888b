"""`extract_arc_store`: local features of every candidate arc, computed once per split.

Two passes over all documents in numba (Björkelund & Kuhn 2014 §3: the local part of
Φ(⟨a, m⟩) does not depend on the decoder state, so it is computed once and reused by
every iteration and every learner): pass 1 counts the features of each arc, a prefix
sum gives the CSR offsets, pass 2 writes the hashed ids into an exactly sized array.
Memory: 12 bytes per arc (antecedent int32 + offset int64) + 4 bytes per feature;
`window` (that many previous mentions as candidates) bounds the quadratic growth in long
documents, and `reach` adds the string-matched mentions beyond it (`candidates.py`).
"""

import numpy as np

from coreflab.errors import UserError
from coreflab.features.candidates import candidate_arcs
from coreflab.features.featureset import FeatureSet, load_featureset
from coreflab.features.hashing import MAX_BITS, py_mix64
from coreflab.features.kernels import count_features, fill_features
from coreflab.features.mention_table import mention_table
from coreflab.features.store import ArcStore
from coreflab.features.templates import resolve


def arc_offsets(doc_mention_offsets, window=None):
    """m_arc_offsets of a plain window: mention q of a document (0-based) has
    1 + min(q, window) arcs (`candidate_arcs` with reach off gives the same)."""
    off = np.asarray(doc_mention_offsets, dtype=np.int64)
    sizes = np.diff(off)
    q = np.arange(off[-1], dtype=np.int64) - np.repeat(off[:-1], sizes)
    n = 1 + (q if window is None else np.minimum(q, window))
    out = np.zeros(off[-1] + 1, dtype=np.int64)
    np.cumsum(n, out=out[1:])
    return out


def _entries(featureset):
    if isinstance(featureset, FeatureSet):
        return featureset.local, featureset.name
    if isinstance(featureset, (list, tuple)):
        return list(featureset), None
    fs = load_featureset(featureset)
    return fs.local, fs.name


def extract_arc_store(corpus, featureset, n_bits=22, window=None, reach=True):
    """Arc store of `corpus` (CompiledCorpus) for `featureset` (FeatureSet, list of
    entries, or a name/path of a feature-set file). Non-local entries are ignored here.

    Candidates: every earlier mention (window None), or the last `window` ones plus, with
    `reach`, the earlier name/nominal string matches beyond it (`candidates.py`)."""
    return _extract(corpus, featureset, n_bits, window, reach, tagged=False)[0]


def extract_tagged_arc_store(corpus, featureset, n_bits=22, window=None, reach=True):
    """(store, tags): `extract_arc_store`'s store and, per feature, the index of its template in
    `store.templates` (uint16): what `template_subsets.TemplatePool` cuts stores of subsets from."""
    return _extract(corpus, featureset, n_bits, window, reach, tagged=True)


def _extract(corpus, featureset, n_bits, window, reach, tagged):
    if not 1 <= int(n_bits) <= MAX_BITS:
        raise UserError(f"n_bits must be in 1..{MAX_BITS}, got {n_bits}")
    if window is not None and int(window) < 1:
        raise UserError(f"window must be a positive number of mentions, got {window}")
    entries, fs_name = _entries(featureset)
    res = resolve(entries, corpus.missing)
    doc_off = np.ascontiguousarray(corpus.doc_mention_offsets, dtype=np.int64)
    T = mention_table(corpus)
    tok_lower = np.ascontiguousarray(corpus.tok_lower, dtype=np.int32)
    m_arc_off, arc_ante = candidate_arcs(corpus, window, reach)
    n_arcs = int(m_arc_off[-1])
    n_cols = T.shape[1]
    start = np.array([py_mix64(int(k)) for k in res.key], dtype=np.uint64)
    comps = (res.n_ana, res.ana_col, res.n_oth, res.oth_slot, n_cols)
    counts = np.zeros(n_arcs, dtype=np.int32)
    count_features(doc_off, arc_ante, T, start, *comps, m_arc_off, counts)
    arc_feat_off = np.zeros(n_arcs + 1, dtype=np.int64)
    np.cumsum(counts, out=arc_feat_off[1:])
    del counts
    arc_feats = np.empty(int(arc_feat_off[-1]), dtype=np.int32)
    if tagged and len(res.names) > np.iinfo(np.uint16).max:
        raise UserError(f"a tagged store holds at most {np.iinfo(np.uint16).max} templates, got {len(res.names)}")
    tags = np.empty(arc_feats.shape[0] if tagged else 0, dtype=np.uint16)
    bad = fill_features(
        doc_off,
        arc_ante,
        T,
        tok_lower,
        start,
        *comps,
        res.used_ops,
        int(n_bits),
        m_arc_off,
        arc_feat_off,
        arc_feats,
        tags,
    )
    if bad:
        raise RuntimeError(f"feature counts of {bad} arcs disagree between the two passes")
    meta = {
        "corpus": corpus.name,
        "split": corpus.split,
        "featureset": fs_name,
        "reach": bool(reach) and window is not None,
    }
    store = ArcStore(
        int(n_bits),
        doc_off.copy(),
        m_arc_off,
        arc_ante,
        arc_feat_off,
        arc_feats,
        templates=list(res.names),
        unavailable=dict(res.unavailable),
        window=None if window is None else int(window),
        meta=meta,
    )
    return store, (tags if tagged else None)


__all__ = ["extract_arc_store", "extract_tagged_arc_store", "arc_offsets"]
