"""A compiled split and its arc store cut to some of their documents, and seeded samples of documents.

Shared by what trains on part of a training split: a paper's tuning sample (H&M's LSP tuning) and
the training-size curves (`coreflab training-size`). The cut keeps every array of the compiled
corpus (documents, sentences, tokens, mentions; mention rows that point at rows renumbered) and
its split's records (singleton policy, mention mode, parses), and the arcs of the kept mentions as a
flat store: a shared-row store's arcs are expanded without expanding the rest.
"""

import dataclasses

import numpy as np

from coreflab.features.shared_rows import expand, flat_meta, ids_of_arcs
from coreflab.features.store import ArcStore


def ranges(starts, counts):
    """Concatenated aranges [s, s+c) (vectorised)."""
    starts, counts = np.asarray(starts, np.int64), np.asarray(counts, np.int64)
    total = int(counts.sum())
    rep = np.repeat(starts - np.concatenate([[0], np.cumsum(counts)[:-1]]), counts)
    return rep + np.arange(total, dtype=np.int64)


def sample_documents(n_total, n, seed=0):
    """A seeded sample of n of n_total document indices, ascending (all of them when n >= n_total)."""
    if n >= n_total:
        return np.arange(n_total, dtype=np.int64)
    return np.sort(np.random.default_rng(seed).permutation(n_total)[:n]).astype(np.int64)


def _cut(offsets, docs):
    """(items of the documents `docs` under per-document `offsets`, their new offsets)."""
    offsets = np.asarray(offsets, np.int64)
    sizes = offsets[docs + 1] - offsets[docs]
    return ranges(offsets[docs], sizes), np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)


def corpus_subset(corpus, docs):
    """The compiled corpus of the documents `docs` (ascending indices), every array cut to them."""
    docs = np.asarray(docs, np.int64)
    a = corpus.arrays
    rows, m_off = _cut(a["doc_mention_offsets"], docs)
    arrays = {"doc_mention_offsets": m_off}
    cuts = {"m_": (rows, corpus.n_mentions)}
    if "doc_token_offsets" in a:
        toks, arrays["doc_token_offsets"] = _cut(a["doc_token_offsets"], docs)
        cuts["tok_"] = (toks, int(np.asarray(a["doc_token_offsets"])[-1]))
    if "doc_sentence_offsets" in a:
        sents, arrays["doc_sentence_offsets"] = _cut(a["doc_sentence_offsets"], docs)
        cuts["sent_"] = (sents, int(np.asarray(a["doc_sentence_offsets"])[-1]))
    cuts["doc_"] = (docs, corpus.n_docs)
    for key, value in a.items():
        if key in arrays:
            continue
        value = np.asarray(value)
        for prefix, (index, n) in cuts.items():
            if key.startswith(prefix) and value.shape[:1] == (n,):
                arrays[key] = value[index]
                break
    sizes = np.diff(m_off)
    arrays["m_doc"] = np.repeat(np.arange(len(docs)), sizes).astype(np.int32)
    if "m_embedded" in arrays:  # a global row: renumbered as its mention is
        old_start = np.repeat(np.asarray(a["doc_mention_offsets"], np.int64)[docs], sizes)
        emb = arrays["m_embedded"].astype(np.int64)
        arrays["m_embedded"] = np.where(emb >= 0, emb - old_start + np.repeat(m_off[:-1], sizes), -1).astype(np.int32)
    return dataclasses.replace(
        corpus, doc_ids=[corpus.doc_ids[d] for d in docs], missing=list(corpus.missing), arrays=arrays
    )


def store_subset(store, docs):
    """The flat arc store of the documents `docs` (ascending indices)."""
    docs = np.asarray(docs, np.int64)
    rows, new_offs = _cut(store.doc_mention_offsets, docs)
    m_off = np.asarray(store.m_arc_offsets, np.int64)
    n_arcs = m_off[rows + 1] - m_off[rows]
    arcs = ranges(m_off[rows], n_arcs)
    feat_offsets, feats = ids_of_arcs(np.asarray(store.arc_feat_offsets), np.asarray(store.arc_feats), arcs)
    return ArcStore(
        n_bits=store.n_bits,
        doc_mention_offsets=new_offs,
        m_arc_offsets=np.concatenate([[0], np.cumsum(n_arcs)]).astype(np.int64),
        arc_ante=np.asarray(store.arc_ante)[arcs],
        arc_feat_offsets=feat_offsets,
        arc_feats=feats,
        templates=store.templates,
        unavailable=store.unavailable,
        window=store.window,
        meta=flat_meta(store.meta),
    )


def document_subset(corpus, store, docs):
    """(corpus, store) of the documents `docs` (ascending indices): `corpus_subset` and `store_subset`."""
    return corpus_subset(corpus, docs), store_subset(store, docs)


def subsample_docs(corpus, store, n_docs, seed=0):
    """(corpus, store) restricted to a seeded sample of n_docs documents (`sample_documents`): a flat
    store; the whole split (its store expanded) when n_docs covers it."""
    if n_docs >= store.n_docs:
        return corpus, expand(store)
    return document_subset(corpus, store, sample_documents(store.n_docs, n_docs, seed))


__all__ = ["ranges", "sample_documents", "corpus_subset", "store_subset", "document_subset", "subsample_docs"]
