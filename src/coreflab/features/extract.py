"""`extract_arc_store`: local features of every candidate arc, computed once per split.

Two passes over all documents in numba (Björkelund & Kuhn 2014 §3: the local part of
Φ(⟨a, m⟩) does not depend on the decoder state, so it is computed once and reused by
every iteration and every learner): pass 1 counts the features of each arc, a prefix
sum gives the CSR offsets, pass 2 writes the hashed ids into an exactly sized array.
Memory: 12 bytes per arc (antecedent int32 + offset int64) + 4 bytes per feature;
`window` (that many previous mentions as candidates) bounds the quadratic growth in long
documents, and `reach` adds the string-matched mentions beyond it (`candidates.py`).
"""

from dataclasses import dataclass

import numpy as np

from coreflab.errors import UserError
from coreflab.features.candidates import candidate_arcs
from coreflab.features.featureset import FeatureSet, load_featureset
from coreflab.features.hashing import MAX_BITS, py_mix64
from coreflab.features.kernels import Templates, count_features, fill_features
from coreflab.features.mention_table import mention_table
from coreflab.features.store import ArcStore
from coreflab.features.templates import resolve

BLOCK_ARCS = 500_000  # arcs per block of `extract_shared_arc_store`: ~250 MB of flat ids and tags with local_fine


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


def extract_shared_arc_store(corpus, featureset, n_bits=22, window=None, reach=True, block_arcs=BLOCK_ARCS):
    """(store, flat bytes): the shared-row store (`shared_rows.share_rows`) of `extract_tagged_arc_store`,
    built a block of whole documents (about `block_arcs` arcs) at a time, and the bytes its flat form
    would take. Rows are shared within a document, so the store is the one-pass store, array for
    array; but the flat ids, their tags and the row search live for one block only. In one pass they
    took about 780 bytes per arc at once (a 30M-arc training split of predicted mentions at
    CoNLL-2012 size: 23 GB); blockwise the peak is about the shared store and one block."""
    from coreflab.features.shared_rows import concat_stores, share_rows

    plan = _plan(corpus, featureset, n_bits, window, reach)
    # the one flat store's bytes: its document and mention offsets once, each block's arcs and ids
    flat_bytes = plan.doc_off.nbytes + plan.m_arc_off.nbytes + 8
    parts = []
    for d0, d1 in _blocks(plan.doc_off, plan.m_arc_off, block_arcs):
        flat, tags = _block(plan, d0, d1, tagged=True)
        flat_bytes += flat.arc_ante.nbytes + flat.arc_feat_offsets.nbytes - 8 + flat.arc_feats.nbytes
        parts.append(share_rows(flat, tags))
        del flat, tags
    return concat_stores(parts), flat_bytes


def tagged_store_bytes(corpus, featureset, n_bits=22, window=None, reach=True, block_arcs=BLOCK_ARCS):
    """Bytes of `extract_tagged_arc_store`'s store and tags, from the counting pass alone (4 bytes per
    arc of one block at a time): what decides whether a store of that size is worth building."""
    plan = _plan(corpus, featureset, n_bits, window, reach)
    entries = sum(
        int(_count_pass(plan, d0, d1)[3].sum(dtype=np.int64))
        for d0, d1 in _blocks(plan.doc_off, plan.m_arc_off, block_arcs)
    )
    n_arcs = int(plan.arc_ante.shape[0])
    offsets = 8 * (plan.doc_off.shape[0] + plan.m_arc_off.shape[0] + n_arcs + 1)
    return offsets + 4 * n_arcs + 6 * entries


def tagged_store_bytes_per_document(corpus, featureset, n_bits=22, window=None, reach=True, block_arcs=BLOCK_ARCS):
    """`tagged_store_bytes` of each document alone (int64 array; they add up to the store's bytes but for
    its three closing offsets, 24 bytes): which documents a store within a budget can hold."""
    plan = _plan(corpus, featureset, n_bits, window, reach)
    n_docs = plan.doc_off.shape[0] - 1
    arcs_before = plan.m_arc_off[plan.doc_off]  # arcs before each document, and the total last
    entries = np.zeros(n_docs, np.int64)
    for d0, d1 in _blocks(plan.doc_off, plan.m_arc_off, block_arcs):
        counts = _count_pass(plan, d0, d1)[3]
        if counts.shape[0]:
            first = arcs_before[d0:d1] - arcs_before[d0]  # each document's first arc within the block
            entries[d0:d1] = np.add.reduceat(counts.astype(np.int64), np.minimum(first, counts.shape[0] - 1))
            entries[d0:d1][arcs_before[d0:d1] == arcs_before[d0 + 1 : d1 + 1]] = 0  # documents without arcs
    arcs = np.diff(arcs_before).astype(np.int64)
    mentions = np.diff(plan.doc_off).astype(np.int64)
    return 8 * (1 + mentions + arcs) + 4 * arcs + 6 * entries


def _blocks(doc_off, m_arc_off, block_arcs):
    """(first, end) document ranges of about `block_arcs` arcs each (at least one document each)."""
    arcs_before = m_arc_off[doc_off]  # arcs before each document, and the total last
    n_docs = doc_off.shape[0] - 1
    d0 = 0
    while d0 < n_docs:
        d1 = int(np.searchsorted(arcs_before, arcs_before[d0] + max(int(block_arcs), 1), side="right")) - 1
        d1 = min(max(d1, d0 + 1), n_docs)
        yield d0, d1
        d0 = d1
    if n_docs == 0:
        yield 0, 0


@dataclass
class _Plan:
    """What every block of an extraction shares: templates, mention table, candidate arcs."""

    res: object
    fs_name: object
    n_bits: int
    window: object
    reach: bool
    doc_off: np.ndarray
    T: np.ndarray
    tok_lower: np.ndarray
    m_arc_off: np.ndarray
    arc_ante: np.ndarray
    start: np.ndarray
    meta: dict


def _plan(corpus, featureset, n_bits, window, reach):
    if not 1 <= int(n_bits) <= MAX_BITS:
        raise UserError(f"n_bits must be in 1..{MAX_BITS}, got {n_bits}")
    if window is not None and int(window) < 1:
        raise UserError(f"window must be a positive number of mentions, got {window}")
    entries, fs_name = _entries(featureset)
    res = resolve(entries, corpus.missing)
    m_arc_off, arc_ante = candidate_arcs(corpus, window, reach)
    meta = {
        "corpus": corpus.name,
        "split": corpus.split,
        "featureset": fs_name,
        "reach": bool(reach) and window is not None,
    }
    return _Plan(
        res,
        fs_name,
        int(n_bits),
        None if window is None else int(window),
        reach,
        np.ascontiguousarray(corpus.doc_mention_offsets, dtype=np.int64),
        mention_table(corpus),
        np.ascontiguousarray(corpus.tok_lower, dtype=np.int32),
        m_arc_off,
        arc_ante,
        np.array([py_mix64(int(k)) for k in res.key], dtype=np.uint64),
        meta,
    )


def _templates(plan):
    res = plan.res
    return Templates(plan.start, res.n_ana, res.ana_col, res.n_oth, res.oth_slot, plan.T.shape[1])


def _count_pass(plan, d0, d1):
    """(mention rows of documents d0 .. d1-1, m_arc_offsets numbered within the block, their arcs'
    antecedents, features per arc): kernel pass 1 over one block."""
    m0, m1 = int(plan.doc_off[d0]), int(plan.doc_off[d1])
    a0, a1 = int(plan.m_arc_off[m0]), int(plan.m_arc_off[m1])
    sub_doc = plan.doc_off[d0 : d1 + 1]  # global mention rows: the mention table stays whole
    m_arc_off = plan.m_arc_off - a0 if a0 else plan.m_arc_off
    arc_ante = plan.arc_ante[a0:a1]
    counts = np.zeros(a1 - a0, dtype=np.int32)
    count_features(sub_doc, arc_ante, plan.T, _templates(plan), m_arc_off, counts)
    return sub_doc, m_arc_off, arc_ante, counts


def _block(plan, d0, d1, tagged):
    """(store, tags) of documents d0 .. d1-1, offsets rebased to the block (the two kernel passes)."""
    res = plan.res
    sub_doc, m_arc_off, arc_ante, counts = _count_pass(plan, d0, d1)
    m0, m1 = int(sub_doc[0]), int(sub_doc[-1])
    a0, a1 = int(plan.m_arc_off[m0]), int(plan.m_arc_off[m1])
    arc_feat_off = np.zeros(a1 - a0 + 1, dtype=np.int64)
    np.cumsum(counts, out=arc_feat_off[1:])
    del counts
    arc_feats = np.empty(int(arc_feat_off[-1]), dtype=np.int32)
    if tagged and len(res.names) > np.iinfo(np.uint16).max:
        raise UserError(f"a tagged store holds at most {np.iinfo(np.uint16).max} templates, got {len(res.names)}")
    tags = np.empty(arc_feats.shape[0] if tagged else 0, dtype=np.uint16)
    bad = fill_features(
        sub_doc,
        arc_ante,
        plan.T,
        plan.tok_lower,
        _templates(plan),
        res.used_ops,
        plan.n_bits,
        m_arc_off,
        arc_feat_off,
        arc_feats,
        tags,
    )
    if bad:
        raise RuntimeError(f"feature counts of {bad} arcs disagree between the two passes")
    store = ArcStore(
        plan.n_bits,
        sub_doc - m0,
        m_arc_off[m0 : m1 + 1].copy() if a0 else m_arc_off[m0 : m1 + 1],
        arc_ante.copy() if (a0 or a1 < plan.arc_ante.shape[0]) else arc_ante,
        arc_feat_off,
        arc_feats,
        templates=list(res.names),
        unavailable=dict(res.unavailable),
        window=plan.window,
        meta=dict(plan.meta),
    )
    return store, (tags if tagged else None)


def _extract(corpus, featureset, n_bits, window, reach, tagged):
    plan = _plan(corpus, featureset, n_bits, window, reach)
    return _block(plan, 0, plan.doc_off.shape[0] - 1, tagged)


__all__ = [
    "extract_arc_store",
    "extract_tagged_arc_store",
    "extract_shared_arc_store",
    "tagged_store_bytes",
    "arc_offsets",
]
