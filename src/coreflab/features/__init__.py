"""coreflab.features: local feature templates, feature sets and the arc feature store.

    from coreflab.features import load_featureset, extract_arc_store, ArcStore
    store = extract_arc_store(corpus, load_featureset("local"), n_bits=22, window=None)

Modules: `templates` (the registry of named local templates), `mention_table` (the
per-mention int32 rows the templates read), `kernels` (numba: template values, two-pass
CSR build), `hashing` (deterministic feature ids, shared with `nonlocal_templates`),
`featureset` (YAML lists of entries, `a+b` / `a+b+c` conjunctions), `candidates`
(candidate antecedents: a window plus string-matched mentions beyond it; reachability),
`store` (`ArcStore`, the contract with the decoders), `extract` (`extract_arc_store`), `random_corpus`
(CoNLL-shaped random compiled corpora for tests and benchmarks).
"""

from coreflab.features.extract import arc_offsets, extract_arc_store
from coreflab.features.featureset import FeatureSet, load_featureset
from coreflab.features.store import ArcStore
from coreflab.features.templates import REGISTRY

__all__ = ["ArcStore", "FeatureSet", "REGISTRY", "arc_offsets", "extract_arc_store", "load_featureset"]
