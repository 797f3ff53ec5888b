"""Random compiled corpora with arc stores, for decoder/learner tests and benchmarks.

Not a corpus generator (that is `coreflab.corpus.synthetic.generator`): it only builds the flat
arrays the decoders read — mention attributes, gold clusters and a CSR arc store with
random hashed feature ids — with a controllable shape (documents, mentions per
document, features per arc, window). With `informative=True` two features per non-root
arc tell whether the arc is gold-consistent, so learners have something to learn.
"""

import numpy as np

from coreflab.corpus.compiled import CompiledCorpus
from coreflab.features.store import ArcStore


def random_problem(
    mentions_per_doc, n_bits=12, feats_per_arc=(2, 6), n_clusters=None, window=None, informative=True, seed=0
):
    """(CompiledCorpus, ArcStore) with len(mentions_per_doc) documents.

    n_clusters: gold clusters per document (default ~ n/3, at least 1).
    """
    rng = np.random.default_rng(seed)
    sizes = np.asarray(mentions_per_doc, dtype=np.int64)
    offs = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    n_m = int(offs[-1])
    m_cluster = np.empty(n_m, dtype=np.int32)
    m_doc = np.empty(n_m, dtype=np.int32)
    for d, n in enumerate(sizes):
        k = max(1, int(n) // 3) if n_clusters is None else n_clusters
        m_cluster[offs[d] : offs[d + 1]] = rng.integers(0, k, size=n)
        m_doc[offs[d] : offs[d + 1]] = d
    local = np.arange(n_m) - offs[m_doc]
    arrays = {
        "doc_mention_offsets": offs,
        "m_doc": m_doc,
        "m_start": (2 * local).astype(np.int32),
        "m_end": (2 * local).astype(np.int32),
        "m_sentence": (local // 3).astype(np.int32),
        "m_type": rng.integers(1, 4, size=n_m).astype(np.int8),
        "m_head_str": rng.integers(0, 20, size=n_m).astype(np.int32),
        "m_path_s": rng.integers(0, 5, size=n_m).astype(np.int32),
        "m_ne": rng.integers(0, 4, size=n_m).astype(np.int32),
        "m_gender": rng.integers(0, 4, size=n_m).astype(np.int8),
        "m_number": rng.integers(0, 3, size=n_m).astype(np.int8),
        "m_cluster": m_cluster,
    }
    corpus = CompiledCorpus(
        name="random", split="train", doc_ids=[f"d{d}" for d in range(len(sizes))], vocab=[], arrays=arrays
    )
    # arcs: root first, then candidates ascending (vectorised: benchmarks build millions)
    first = np.zeros(n_m, dtype=np.int64) if window is None else np.maximum(0, local - window)
    cand = 1 + local - first
    m_arc_offsets = np.concatenate([[0], np.cumsum(cand)]).astype(np.int64)
    n_arcs = int(m_arc_offsets[-1])
    pos = np.arange(n_arcs, dtype=np.int64) - np.repeat(m_arc_offsets[:-1], cand)
    arc_ante = np.where(pos == 0, -1, np.repeat(first, cand) + pos - 1).astype(np.int32)
    del pos
    counts = rng.integers(feats_per_arc[0], feats_per_arc[1] + 1, size=n_arcs)
    feats = rng.integers(8, 1 << n_bits, size=int(counts.sum()), dtype=np.int32)
    if informative:
        arc_row = np.repeat(np.arange(n_m), cand)
        same = (arc_ante >= 0) & (m_cluster[np.maximum(arc_ante, 0) + offs[m_doc[arc_row]]] == m_cluster[arc_row])
        extra = np.where(arc_ante < 0, 1, np.where(same, 2, 3)).astype(np.int32)
        starts = np.concatenate([[0], np.cumsum(counts)])[:-1]
        feats = np.insert(feats, starts, extra)
        counts = counts + 1
    arc_feat_offsets = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    store = ArcStore(
        n_bits=n_bits,
        doc_mention_offsets=offs,
        m_arc_offsets=m_arc_offsets,
        arc_ante=arc_ante,
        arc_feat_offsets=arc_feat_offsets,
        arc_feats=feats,
        templates=["random"],
        unavailable={},
        window=window,
    )
    return corpus, store
