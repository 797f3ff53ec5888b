"""Predicted antecedents → clusters → CoNLL documents (what `predict` and dev curves write).

A tree's clustering is the transitive closure of its non-root arcs (docs/methods.md,
"Notation"). Responses keep the key documents' tokens and columns and replace only the
clusters (`Document.with_clusters`). One-mention clusters follow the corpus's singleton policy
(`coreflab.corpus.singletons`, recorded in the compiled split) unless told otherwise, so every
paper table on a corpus scores responses the way its leaderboard does.
"""

import warnings

import numpy as np

from coreflab.corpus.document import crossing_clusters, writable_clusters
from coreflab.corpus.singletons import ENTITIES, resolve_keep_singletons
from coreflab.corpus.singletons import key_has_singletons as key_has_singletons  # re-exported
from coreflab.corpus.singletons import key_singleton_counts as key_singleton_counts  # re-exported
from coreflab.decode.arcs import antecedents_to_clusters
from coreflab.errors import UserError

# The entity probability at which the `entities` policy keeps an unlinked predicted mention: the
# classifier's own decision (more likely a mention of the key than not).
ENTITY_PROBABILITY = 0.5


def check_antecedents(corpus, antecedents, who="the model"):
    """The predicted antecedents as int32, after checking the contract every learner's `predict` keeps:
    one per mention of the split, each -1 (new cluster) or the document-local index of an earlier
    mention. A learner that breaks it would otherwise be scored on clusters read from the wrong
    mentions (or from memory past the array), and ranked without a word."""
    ante = np.asarray(antecedents)
    offs = np.asarray(corpus.arrays["doc_mention_offsets"], dtype=np.int64)
    n = int(offs[-1])
    if ante.ndim != 1 or ante.shape[0] != n:
        raise UserError(f"{who}: predict returned {ante.shape[0] if ante.ndim else 0} antecedents for {n} mentions")
    if n and not np.issubdtype(ante.dtype, np.integer):
        raise UserError(f"{who}: predict returned {ante.dtype} antecedents; they are integer mention indices")
    local = np.arange(n, dtype=np.int64) - offs[corpus.arrays["m_doc"]]
    bad = np.flatnonzero((ante < -1) | (ante >= local))
    if bad.size:
        j = int(bad[0])
        d = int(np.searchsorted(offs, j, side="right") - 1)
        raise UserError(
            f"{who}: predict gave mention {int(local[j])} of document {corpus.doc_ids[d]!r} the antecedent "
            f"{int(ante[j])} ({bad.size} such mention(s)); an antecedent is -1 (new cluster) or the "
            "document-local index of an earlier mention"
        )
    return ante.astype(np.int32, copy=False)


def singleton_entity_flags(corpus, keep_singletons):
    """Per mention of the split, may it stand alone in a response (bool array), or None for "as
    keep_singletons says". Under the `entities` policy (`coreflab.corpus.singletons`) a one-mention
    cluster is kept only where the mention classifier gives its mention an entity probability of at
    least ENTITY_PROBABILITY; a split without the classifier's probabilities keeps none."""
    if not keep_singletons or getattr(corpus, "singleton_policy", None) != ENTITIES:
        return None
    prob = corpus.arrays.get("m_entity")
    if prob is None:
        return np.zeros(corpus.n_mentions, np.bool_)
    return np.asarray(prob) >= ENTITY_PROBABILITY


def clusters_per_document(corpus, antecedents, keep_singletons=False, who="the model", cuts=None):
    """Per compiled document: clusters as lists of inclusive (start, end) token spans, cut where two
    mentions of one cluster cross (`writable_clusters`: CoNLL-2012 brackets cannot write them) before
    one-mention clusters are dropped, so that a cut never leaves a singleton in a response without them.
    One-mention clusters are kept when keep_singletons is true and the singleton policy lets their
    mention stand alone (`singleton_entity_flags`).
    `cuts`, a list, receives (document index, clusters cut) for every document with a cut."""
    antecedents = check_antecedents(corpus, antecedents, who)
    entity = singleton_entity_flags(corpus, keep_singletons)
    may_stand = set()
    out = []
    offs = corpus.arrays["doc_mention_offsets"]
    starts, ends = corpus.arrays["m_start"], corpus.arrays["m_end"]
    for d in range(len(offs) - 1):
        lo, hi = int(offs[d]), int(offs[d + 1])
        cl = antecedents_to_clusters(antecedents[lo:hi])
        groups = {}
        for i, c in enumerate(cl):
            groups.setdefault(int(c), []).append((int(starts[lo + i]), int(ends[lo + i])))
        clusters = list(groups.values())
        n_cut = crossing_clusters(clusters)
        if n_cut:
            clusters = writable_clusters(clusters)
            if cuts is not None:
                cuts.append((d, n_cut))
        if entity is not None:
            may_stand = {(int(starts[lo + i]), int(ends[lo + i])) for i in np.flatnonzero(entity[lo:hi]).tolist()}
        out.append([g for g in clusters if len(g) > 1 or (keep_singletons and (entity is None or g[0] in may_stand))])
    return out


_CUT_WARNED = set()


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


def response_documents(key_docs, corpus, antecedents, keep_singletons=None, source="key", who="the model"):
    """The key documents with their clusters replaced by the predicted ones (key order).

    keep_singletons: None follows the corpus (`corpus.singletons.resolve_keep_singletons`: as recorded in the
    compiled split, else as the key); True/False force it.
    who: the learner, named in the error if its antecedents break the contract (`check_antecedents`).

    Compiled documents are matched to key documents on (doc_id, part); a document in one and not
    the other is a user error (the wrong key file for this split).
    """
    parts = corpus.arrays.get("doc_parts")
    index = {}
    for d, doc_id in enumerate(corpus.doc_ids):
        index[(doc_id, int(parts[d]) if parts is not None else 0)] = d
    keep_singletons = resolve_keep_singletons(keep_singletons, corpus, key_docs)  # never a truthy "drop"
    cuts = []
    clusters = clusters_per_document(corpus, antecedents, keep_singletons, who, cuts)
    keys = {doc.key for doc in key_docs}
    missing = [k for k in index if k not in keys]
    if missing:
        raise UserError(
            f"{source}: {len(missing)} compiled document(s) not in the key, e.g. {missing[0][0]!r} part {missing[0][1]}"
        )
    out = []
    for doc in key_docs:
        d = index.get(doc.key)
        if d is None:
            raise UserError(
                f"{doc.source or source}: document {doc.name!r} is not in the compiled split "
                f"{corpus.name}/{corpus.split}"
            )
        check_same_tokens(doc, corpus, d, doc.source or source)
        out.append(doc.with_clusters(clusters[d]))
    if cuts and (who, source) not in _CUT_WARNED:  # once per learner and key: dev curves score every epoch
        _CUT_WARNED.add((who, source))
        d, _ = cuts[0]
        warnings.warn(
            f"{who} on {source}: {sum(n for _, n in cuts)} predicted cluster(s) in {len(cuts)} document(s) "
            f"(first: {corpus.doc_ids[d]!r} part {int(parts[d]) if parts is not None else 0}) cut apart where two "
            "of their mentions cross: CoNLL-2012 brackets cannot write such a pair (a reader pairs them into "
            "other spans), and no key read from a file holds such a pair in one cluster",
            stacklevel=2,
        )
    return out
