"""A synthetic cross-document corpus for scale (stand-in for the Wikipedia-link data, §5.3).

Singh et al. (2011, Fig. 1, §5.3) name the difficulties: the same name for different entities
(ambiguity), different names for one entity (aliases), rare singleton entities, and a skewed
entity-size distribution (1.5M mentions over 43K entities). The generator draws:
  * entity sizes from a Zipf-like law (exponent `zipf`), plus `singleton_frac` one-mention entities;
  * per entity a small set of topic words; entities are grouped in domains that share half of
    their topic words (so contexts of related entities overlap, which super-entities exploit);
  * each context token from the entity's topic words with probability `topic_rate`, else from a
    Zipfian background over the whole vocabulary;
  * a primary name per entity from a pool smaller than the entity set (`name_ratio`: shared,
    ambiguous names) and with probability `alias_rate` per mention an alias of that entity.
Everything is vectorised in numpy (no Python loop per mention), deterministic for a seed.
"""

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from coreflab.papers.singh2011.data import CrossdocCorpus, tfidf_rows

SIZES = {
    # mentions, entities: personx matches the paper's Person-X set (25K mentions, 50 entities)
    "tiny": (600, 12),
    "personx_small": (5_000, 50),
    "personx": (25_000, 50),
    "large_small": (10_000, 300),
    "large": (1_500_000, 43_000),
}


@dataclass(frozen=True)
class SynthCrossdocConfig:
    n_mentions: int = 5_000
    n_entities: int = 50
    vocab: int = 20_000
    context_len: int = 30
    topic_words: int = 40
    topic_rate: float = 0.3
    domain_size: int = 5
    zipf: float = 1.0
    singleton_frac: float = 0.05
    name_ratio: float = 0.7
    alias_rate: float = 0.15
    seed: int = 1


def generate(cfg):
    """A `CrossdocCorpus` drawn from `cfg` (see the module docstring for the process)."""
    rng = np.random.default_rng(cfg.seed)
    n_single = int(round(cfg.singleton_frac * cfg.n_entities)) if cfg.n_entities > 10 else 0
    n_big = cfg.n_entities - n_single
    weights = 1.0 / np.arange(1, n_big + 1) ** cfg.zipf
    sizes = 1 + rng.multinomial(cfg.n_mentions - n_single - n_big, weights / weights.sum())
    sizes = np.concatenate([sizes, np.ones(n_single, dtype=np.int64)])
    gold = np.repeat(np.arange(cfg.n_entities, dtype=np.int64), sizes)
    gold = gold[rng.permutation(len(gold))]
    n = len(gold)

    # topic words: half shared with the entity's domain, half its own
    n_domains = max(1, cfg.n_entities // cfg.domain_size)
    domain = rng.integers(0, n_domains, cfg.n_entities)
    half = cfg.topic_words // 2
    domain_words = rng.integers(0, cfg.vocab, (n_domains, half))
    own_words = rng.integers(0, cfg.vocab, (cfg.n_entities, cfg.topic_words - half))
    topic = np.concatenate([domain_words[domain], own_words], axis=1)

    # contexts: tokens from the entity's topic words or a Zipfian background
    L = cfg.context_len
    from_topic = rng.random((n, L)) < cfg.topic_rate
    bg_p = 1.0 / np.arange(1, cfg.vocab + 1) ** 1.05
    bg_words = rng.permutation(cfg.vocab)
    bg = bg_words[_zipf_draw(rng, bg_p, n * L).reshape(n, L)]
    tw = topic[gold[:, None], rng.integers(0, cfg.topic_words, (n, L))]
    words = np.where(from_topic, tw, bg).astype(np.int32)
    rows = np.repeat(np.arange(n, dtype=np.int32), L)
    counts = sp.csr_matrix((np.ones(n * L, dtype=np.float32), (rows, words.ravel())), shape=(n, cfg.vocab))
    del words, rows, bg, tw, from_topic
    counts.sum_duplicates()
    X = tfidf_rows(counts)

    # names: shared primary names (ambiguity) and per-entity aliases
    n_names = max(1, int(cfg.name_ratio * cfg.n_entities))
    primary = rng.integers(0, n_names, cfg.n_entities)
    alias = n_names + np.arange(cfg.n_entities)
    strings = np.where(rng.random(n) < cfg.alias_rate, alias[gold], primary[gold])
    used, strings = np.unique(strings, return_inverse=True)
    names = [f"name{s}" for s in used] if len(used) <= 200_000 else []
    return CrossdocCorpus(
        X,
        strings.astype(np.int64),
        gold,
        np.arange(n, dtype=np.int64),
        np.zeros(n, dtype=np.int64),
        names,
        "synth_crossdoc",
    )


def _zipf_draw(rng, p, size):
    cdf = np.cumsum(p)
    cdf /= cdf[-1]
    return np.searchsorted(cdf, rng.random(size)).astype(np.int64)


def config_for(size, seed=1, **overrides):
    n_mentions, n_entities = SIZES[size]
    base = dict(n_mentions=n_mentions, n_entities=n_entities, seed=seed)
    if size == "large":
        base.update(vocab=100_000, context_len=24)
    base.update(overrides)
    return SynthCrossdocConfig(**base)
