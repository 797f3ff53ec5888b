"""Predicted antecedents → clusters → CoNLL documents (what `predict` and dev curves write).

A tree's clustering is the transitive closure of its non-root arcs (METHODS.md,
notation). Responses keep the key documents' tokens and columns and replace only the
clusters (`Document.with_clusters`). Singletons follow the key unless told otherwise: kept
when the key annotates singletons (LitBank, GUM), dropped when it does not (CoNLL-2012), so
every paper table on a corpus scores responses the way its leaderboard does.
"""

import numpy as np

from coreflab.decode.arcs import antecedents_to_clusters
from coreflab.errors import UserError
from coreflab.mela.mode import annotates_singletons


def clusters_per_document(corpus, antecedents, keep_singletons=False):
    """Per compiled document: clusters as lists of inclusive (start, end) token spans."""
    out = []
    offs = corpus.arrays["doc_mention_offsets"]
    starts, ends = corpus.arrays["m_start"], corpus.arrays["m_end"]
    for d in range(len(offs) - 1):
        lo, hi = int(offs[d]), int(offs[d + 1])
        cl = antecedents_to_clusters(np.asarray(antecedents[lo:hi], dtype=np.int32))
        groups = {}
        for i, c in enumerate(cl):
            groups.setdefault(int(c), []).append((int(starts[lo + i]), int(ends[lo + i])))
        out.append([g for g in groups.values() if keep_singletons or len(g) > 1])
    return out


def key_has_singletons(docs):
    """Does the key follow a scheme that annotates singleton clusters (`mela.mode.annotates_singletons`:
    more than a stray few of its clusters have one mention)?"""
    sizes = [len(set(c)) for doc in docs for c in doc.clusters]
    return annotates_singletons(sum(1 for n in sizes if n == 1), len(sizes))


def check_same_tokens(doc, corpus, d, source="key"):
    """A user error unless key document `doc` has as many tokens as compiled document d: predicted spans are
    token positions, and on another file they would land on other tokens without a word of warning."""
    tok = corpus.arrays["doc_token_offsets"]
    n = int(tok[d + 1] - tok[d])
    if len(doc.words) != n:
        raise UserError(
            f"{source}: document {doc.doc_id!r} part {doc.part} has {len(doc.words)} tokens, the compiled split {n}: "
            "the mentions would land on other tokens (is this the file the split was compiled from?)"
        )


def response_documents(key_docs, corpus, antecedents, keep_singletons=None, source="key"):
    """The key documents with their clusters replaced by the predicted ones (key order).

    keep_singletons: None follows the key (`key_has_singletons`); True/False force it.

    Compiled documents are matched to key documents on (doc_id, part); a compiled
    document absent from the key is a user error (wrong key file for this split).
    """
    parts = corpus.arrays.get("doc_parts")
    index = {}
    for d, doc_id in enumerate(corpus.doc_ids):
        index[(doc_id, int(parts[d]) if parts is not None else 0)] = d
    if keep_singletons is None:
        keep_singletons = key_has_singletons(key_docs)
    clusters = clusters_per_document(corpus, antecedents, keep_singletons)
    keys = {doc.key for doc in key_docs}
    missing = [k for k in index if k not in keys]
    if missing:
        raise UserError(
            f"{source}: {len(missing)} compiled document(s) not in the key, e.g. {missing[0][0]!r} part {missing[0][1]}"
        )
    out = []
    for doc in key_docs:
        d = index.get(doc.key)
        if d is not None:
            check_same_tokens(doc, corpus, d, source)
        out.append(doc.with_clusters(clusters[d] if d is not None else []))
    return out
