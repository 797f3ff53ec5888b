"""The singleton policy: which one-mention clusters a response keeps, decided once per corpus.

A key either annotates singleton entities (GUM, LitBank: most of its clusters have one mention) or
not (OntoNotes / CoNLL-2012: only coreferent mentions are marked). What a response keeps follows
the key's scheme *and* the mention mode:

| mentions  | key annotates singletons | mention model | policy     | a response keeps                          |
|-----------|--------------------------|---------------|------------|-------------------------------------------|
| gold      | yes                      | (any)         | `keep`     | every one-mention cluster                 |
| gold      | no                       | (any)         | `drop`     | no one-mention cluster                    |
| predicted | yes                      | yes           | `entities` | the one-mention clusters the model calls entities |
| predicted | yes                      | no            | `drop`     | no one-mention cluster                    |
| predicted | no                       | (any)         | `drop`     | no one-mention cluster                    |

With predicted mentions most candidates are not entities at all, so keeping every unlinked candidate
(what `keep` would do) fills the response with non-mentions; without a model to tell them apart,
unlinked predicted mentions are dropped, as OntoNotes-scheme systems do. A configured `keep` or
`drop` overrides the table.

Whether responses keep singletons at all (`resolve_keep_singletons`) is one decision per corpus:
what `coreflab prepare` recorded in the compiled split, else what the key's scheme says. Every scored
response and H&M's learned loss (`coreflab.mela.mode`) follow it.
"""

import numpy as np

from coreflab.errors import UserError

KEEP, DROP, ENTITIES = "keep", "drop", "entities"
POLICIES = (KEEP, DROP, ENTITIES)
CHOICES = ("auto", "keep", "drop")  # the `keep_singletons` option of the verbs

# A scheme that annotates singletons marks most entities that way (GUM and LitBank: 73% of key
# clusters); a scheme without them still carries one-mention clusters where documents were cut into
# parts or converted (OntoGUM dev 0.2%, CoNLL-2012 releases up to 14% in a split), which must not
# switch the whole evaluation to keeping singletons.
SINGLETON_SCHEME_SHARE = 0.25

POLICY_TEXT = {
    KEEP: "responses keep one-mention clusters",
    DROP: "responses without one-mention clusters",
    ENTITIES: "responses keep the one-mention clusters the mention classifier calls entities",
}


def annotates_singletons(n_singletons, n_clusters):
    """Does a key with this many one-mention clusters (of n_clusters) follow a singleton-annotating
    scheme? True when singletons are more than SINGLETON_SCHEME_SHARE of its clusters."""
    return n_clusters > 0 and n_singletons > SINGLETON_SCHEME_SHARE * n_clusters


def key_singleton_counts(docs):
    """(one-mention clusters, clusters) of a key."""
    sizes = [len(set(c)) for doc in docs for c in doc.clusters]
    return sum(1 for n in sizes if n == 1), len(sizes)


def key_has_singletons(docs):
    """Does the key (documents) follow a scheme that annotates singleton clusters (`annotates_singletons`)?"""
    return annotates_singletons(*key_singleton_counts(docs))


def key_labels(corpus):
    """Gold cluster id per mention row of a compiled split, -1 off the key the scorer reads.

    `m_cluster` gives twinless predicted mentions fresh ids (so that their gold arc is the
    root), but they are not in the key: a twinless mention alone in a response must cost
    B3/CEAFe precision, not count as a matched key singleton. With gold mentions (every
    `m_in_key` is 1) this is `m_cluster`.
    """
    cluster = np.asarray(corpus.arrays["m_cluster"], dtype=np.int64)
    in_key = corpus.arrays.get("m_in_key")
    if in_key is None:
        return cluster.copy()
    return np.where(np.asarray(in_key) == 1, cluster, -1).astype(np.int64)


def corpus_key_has_singletons(corpus):
    """Does the compiled split's key annotate singletons (`annotates_singletons` of its clusters)?

    Read from `key_labels`. Exact with gold mentions; with predicted mentions a key cluster of
    which only one mention was detected also looks like a singleton, so steps that have the key
    file resolve from it instead (`resolve_keep_singletons(..., key_docs=...)`).
    """
    cluster = key_labels(corpus)
    keep = cluster >= 0
    if not keep.any():
        return False
    doc = np.asarray(corpus.arrays["m_doc"], dtype=np.int64)[keep]
    width = int(cluster.max()) + 1
    _, counts = np.unique(doc * width + cluster[keep], return_counts=True)
    return bool(annotates_singletons(int(np.count_nonzero(counts == 1)), int(counts.shape[0])))


def parse_mode(value):
    """None for auto, else True (keep) / False (drop); accepts bools and keep/drop/true/false/auto."""
    if value is None or isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text == "auto":
        return None
    if text in ("keep", "kept", "true", "yes", "1"):
        return True
    if text in ("drop", "dropped", "false", "no", "0"):
        return False
    raise UserError(f"keep_singletons must be auto, keep (true) or drop (false), not {value!r}")


def resolve_keep_singletons(value, corpus=None, key_docs=None):
    """bool: the explicit choice, else the corpus's (what `coreflab prepare` recorded in the compiled
    split: the config's choice, or whether the training key annotates singletons), else the key's
    (key_docs first, then the compiled corpus).

    Why the corpus first: a corpus's splits may fall on both sides of SINGLETON_SCHEME_SHARE (documents
    cut into parts leave one-mention clusters), and dev and test must be scored by one convention."""
    mode = parse_mode(value)
    if mode is not None:
        return mode
    recorded = getattr(corpus, "response_singletons", None) if corpus is not None else None
    if recorded is not None:
        return bool(recorded)
    if key_docs is not None:
        return bool(key_has_singletons(key_docs))
    if corpus is None:
        raise UserError("keep_singletons auto needs a key or a compiled split")
    return corpus_key_has_singletons(corpus)


def decide_policy(mentions, key_annotates, has_model, configured=None):
    """The policy (`KEEP`, `DROP` or `ENTITIES`) of the table in the module docstring.

    configured: True (keep) / False (drop) / None (auto: the table)."""
    if mentions not in ("gold", "predicted"):
        raise UserError(f"unknown mention mode {mentions!r}; expected gold or predicted")
    if configured is not None:
        return KEEP if configured else DROP
    if not key_annotates:
        return DROP
    if mentions == "gold":
        return KEEP
    return ENTITIES if has_model else DROP


def keeps_singletons(policy):
    """Whether responses under `policy` keep any one-mention cluster (the MELA mode they are scored in)."""
    if policy not in POLICIES:
        raise UserError(f"singleton policy must be one of {', '.join(POLICIES)}, not {policy!r}")
    return policy != DROP


def policy_text(policy):
    """A caption's phrase for the policy."""
    return POLICY_TEXT[policy]


__all__ = [
    "KEEP",
    "DROP",
    "ENTITIES",
    "POLICIES",
    "CHOICES",
    "SINGLETON_SCHEME_SHARE",
    "annotates_singletons",
    "key_singleton_counts",
    "key_has_singletons",
    "key_labels",
    "corpus_key_has_singletons",
    "parse_mode",
    "resolve_keep_singletons",
    "decide_policy",
    "keeps_singletons",
    "policy_text",
]
