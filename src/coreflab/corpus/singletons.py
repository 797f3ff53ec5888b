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
"""

from coreflab.errors import UserError

KEEP, DROP, ENTITIES = "keep", "drop", "entities"
POLICIES = (KEEP, DROP, ENTITIES)

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
    "SINGLETON_SCHEME_SHARE",
    "annotates_singletons",
    "decide_policy",
    "keeps_singletons",
    "policy_text",
]
