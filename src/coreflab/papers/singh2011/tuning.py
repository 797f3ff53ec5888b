"""Held-out tuning of the prior (bias b, string weight w), Singh et al. (2011) §5.3.

Why: the model has no learned weights, only b and w, and with values fixed by hand its
optimum can be a trivial state: with b = 0.1, w = 0.8 every same-string pair has a positive
potential (cos + 0.8 − 0.1 > 0), so the string-match clusters score higher than the truth and
MCMC started from string match has nothing to improve. The paper "randomly
sampled 5% of the entities to create a development set, treating the remaining entities as the
test set" and chose w and b by the results on that development set. This module does the same:

  * `heldout_split`: a deterministic 5% sample of the gold *entities* (not mentions), so no
    evaluation entity is ever seen while tuning; runs and baselines then use the rest. On a
    small corpus 5% of the entities can be a few hundred mentions or fewer, too few to tell the
    grid points apart, so more entities are held out until a minimum number of mentions is
    reached (never more than half the mentions).
  * `entity_log_score`: the entity-level log p(e) = Σ_{m<n} ±(cos + w·STREQ − b) in O(nnz)
    (per-entity sums, as the sampler keeps them), so log p(gold) and log p(string match) can be
    compared on the full corpora, not just on toy data; `model.model_score` is the dense
    reference it is tested against.
  * `tune_prior`: a 1-D search per parameter (coordinate sweeps: b over its grid with w fixed,
    then w over its grid with the chosen b), each point scored by the B3 F1 of a short chain on
    the development entities, with the same initialisation, model and proposals per mention as
    the evaluated run. Ties keep the earlier grid point, so the choice is deterministic. This is
    the protocol of the large corpus (Table 2, Fig. 7) and ECB+.
  * `count_calibrated_bias`: the Person-X protocol (§5.2, Figs. 5-6: "we set the bias b to
    achieve the same number of entities"): b such that the chain's predicted number of entities
    equals (else is closest to) the true number, on the whole corpus (nothing is held out: the
    rule reads only the gold entity count, as the paper's did). The count rises with b (a larger
    b repels more), so the search brackets the true count between the ends of the bias grid
    (widening them by a factor 4 while they do not bracket it) and bisects log b until the
    count is hit or the bisections are spent; of every b tried, the one whose count is closest
    wins (ties: the smaller b).
"""

import json
from dataclasses import replace

import numpy as np
import scipy.sparse as sp

from coreflab.errors import UserError
from coreflab.papers.singh2011.b3 import b3_scores
from coreflab.papers.singh2011.baselines import string_match_labels
from coreflab.papers.singh2011.distributed import InferenceConfig, SerialExecutor, run_inference

# Enough held-out mentions that the development chain's B3 F1 is stable and ranks b as the
# evaluated run would: B3 averages over mentions, and with a few hundred of them (on large_small:
# two dozen entities) the development set has so few confusable entities that too low a b wins
# there; from about a thousand (about 50 entities) the tuned b also beats string match on the rest.
HELDOUT_MIN_MENTIONS = 1000
# b prices every pair of distinct entities: 50 held-out entities give it 1,225 such pairs to learn from
HELDOUT_MIN_ENTITIES = 50


def heldout_split(gold, frac=0.05, seed=1, min_entities=2, min_mentions=HELDOUT_MIN_MENTIONS):
    """Boolean mask of the held-out mentions and the sorted held-out entity ids.

    The entities are taken whole, in a random order fixed by `seed`: the first ceil(`frac` ·
    entities) (at least `min_entities`, never all), then further ones while the held-out set has
    fewer than `min_mentions` mentions. An entity that would take the held-out mentions above half
    of all mentions is skipped, so the evaluated part always keeps at least half. When the first
    ceil(`frac` · entities) already have `min_mentions` mentions, exactly they are held out."""
    gold = np.asarray(gold)
    entities, sizes = np.unique(gold, return_counts=True)
    k = int(np.ceil(frac * len(entities)))
    k = min(max(k, min_entities), max(len(entities) - 1, 0))
    rng = np.random.default_rng(np.random.SeedSequence([seed, 0x5EED]))
    order = rng.permutation(len(entities))
    cap = len(gold) // 2
    chosen, held = [], 0
    for i in order:
        if len(chosen) >= k and held >= min_mentions:
            break
        if held + sizes[i] > cap:
            continue
        chosen.append(i)
        held += int(sizes[i])
    dev = np.sort(entities[np.asarray(chosen, dtype=np.int64)])
    return np.isin(gold, dev), dev


def heldout_topics(gold, topic, frac=0.05, seed=1, min_entities=2, min_mentions=HELDOUT_MIN_MENTIONS):
    """`heldout_split` by whole topics: (mask of the held-out mentions, sorted held-out entity ids).

    Sampling entities thins every sentence and topic of its distractors (the other entities of the
    same documents), so a prior tuned there merges too eagerly on the rest; whole topics keep the
    density of distractors the evaluated part has. Topics are taken in a random order fixed by
    `seed` until the held-out entities number at least ceil(`frac` · entities) (at least
    `min_entities`) and hold `min_mentions` mentions; a topic that would take the held-out mentions
    above half is skipped. An entity with a mention in a held-out topic is held out whole. With
    fewer than two topics: `heldout_split`."""
    gold, topic = np.asarray(gold), np.asarray(topic)
    topics = np.unique(topic)
    if len(topics) < 2:
        return heldout_split(gold, frac, seed, min_entities, min_mentions)
    n_entities = len(np.unique(gold))
    k = min(max(int(np.ceil(frac * n_entities)), min_entities), max(n_entities - 1, 0))
    rng = np.random.default_rng(np.random.SeedSequence([seed, 0x70D1C]))
    cap = len(gold) // 2
    dev = np.empty(0, dtype=gold.dtype)
    for i in rng.permutation(len(topics)):
        if len(dev) >= k and np.isin(gold, dev).sum() >= min_mentions:
            break
        grown = np.union1d(dev, gold[topic == topics[i]])
        if np.isin(gold, grown).sum() > cap:
            continue
        dev = grown
    return np.isin(gold, dev), np.sort(dev)


def split_corpus(corpus, dev_entities):
    """(development corpus, test corpus): mentions of the held-out entities vs all others."""
    mask = np.isin(corpus.gold, np.asarray(dev_entities, dtype=np.int64))
    return corpus.subset(np.flatnonzero(mask)), corpus.subset(np.flatnonzero(~mask))


def entity_log_score(corpus, labels, bias, string_weight):
    """log p of an entity labelling under the pairwise model (affinity within, repulsion across):

        Σ_{m<n} s(m,n)·φ(m,n) = 2·Σ_within φ − Σ_all φ,
        Σ_{m<n∈e} φ = ½(‖S_e‖² − Σ_m ‖x_m‖²) + w·½(Σ_s c_{e,s}² − n_e) − b·n_e(n_e−1)/2,

    with S_e the entity's sum vector and c_{e,s} its count of mentions with string s: O(nnz).
    """
    X = corpus.X.tocsr()
    labels = np.unique(np.asarray(labels), return_inverse=True)[1].reshape(-1)
    self_norm = float(X.multiply(X).sum())

    def within(lab):
        n = len(lab)
        k = int(lab.max()) + 1 if n else 0
        onehot = sp.csr_matrix((np.ones(n), (lab, np.arange(n))), shape=(k, n))
        S = onehot @ X
        cos_part = 0.5 * (float(S.multiply(S).sum()) - self_norm)
        _, pair_counts = np.unique(np.stack([lab, corpus.strings]), axis=1, return_counts=True)
        str_part = 0.5 * (float(np.sum(pair_counts.astype(np.float64) ** 2)) - n)
        sizes = np.bincount(lab).astype(np.float64)
        return cos_part + string_weight * str_part - bias * float(np.sum(sizes * (sizes - 1) / 2))

    if len(labels) == 0:
        return 0.0
    return 2.0 * within(labels) - within(np.zeros_like(labels))


def state_scores(corpus, bias, string_weight, blocks=None):
    """log p(gold) and log p(string-match state) (per string and block with `blocks`)."""
    return {
        "log_p_gold": entity_log_score(corpus, corpus.gold, bias, string_weight),
        "log_p_string": entity_log_score(corpus, string_match_labels(corpus, blocks=blocks), bias, string_weight),
    }


def _chain_config(params, schedule, within_topic):
    return InferenceConfig(
        params=params,
        rounds=schedule["rounds"],
        samples_per_round=schedule["samples"],
        t_start=schedule["t_start"],
        t_stop=schedule["t_stop"],
        init=schedule["init"],
        seed=schedule["seed"],
        within_topic=within_topic,
    )


def _dev_run(dev, params, schedule, within_topic):
    """B3 F1 and entity count of a short single-machine chain on the development corpus."""
    cfg = _chain_config(params, schedule, within_topic)
    labels, _ = run_inference(dev, cfg, SerialExecutor(dev.features()), shards=1)
    return b3_scores(labels, dev.gold)[2], int(len(np.unique(labels)))


def predicted_entities(corpus, params, schedule, within_topic=False, executor=None):
    """Number of entities of a chain's final state on `corpus`: `schedule` as in `tune_prior`
    plus `shards` (default 1). The shards run one after another here, which gives the
    distributed run of the same shards and seed bit for bit (`distributed`)."""
    cfg = _chain_config(params, schedule, within_topic)
    executor = executor or SerialExecutor(corpus.features())
    labels, _ = run_inference(corpus, cfg, executor, shards=int(schedule.get("shards", 1)))
    return int(len(np.unique(labels)))


def count_calibrated_bias(
    corpus, params, bias_lo, bias_hi, schedule, bisections=12, widen=4.0, max_widen=8, within_topic=False
):
    """The Person-X rule (Singh et al. 2011 §5.2): b whose chain predicts the true number of entities.

    The target is the number of gold entities of `corpus` (the only thing of the gold labels
    it reads). Search: count(b) at `bias_lo` and `bias_hi`; while count(lo) > target, lo /= `widen`,
    while count(hi) < target, hi *= `widen` (at most `max_widen` times each); then bisection on
    log b (the geometric midpoint: a count below the target moves lo up, above moves hi down)
    for at most `bisections` steps, stopping as soon as the count equals the target. The chosen
    b is the tried one with the smallest |count − target| (ties: the smaller b). The sub- and
    super-entity biases keep their ratios to b, w stays `params.string_weight`.

    Returns (params with the chosen biases, one record per tried b in the order tried, target).
    """
    if not 0 < bias_lo <= bias_hi:
        raise UserError(f"need 0 < bias_lo <= bias_hi, got {bias_lo}, {bias_hi}")
    target = int(len(np.unique(corpus.gold)))
    r_sub = params.sub_bias / params.bias
    r_sup = params.super_bias / params.bias
    executor = SerialExecutor(corpus.features())
    counts, tries = {}, []

    def with_bias(b):
        return replace(params, bias=b, sub_bias=b * r_sub, super_bias=b * r_sup)

    def count(b):
        b = float(b)
        if b not in counts:
            counts[b] = predicted_entities(corpus, with_bias(b), schedule, within_topic, executor)
            tries.append(
                {
                    "bias": b,
                    "string_weight": float(params.string_weight),
                    "entities": counts[b],
                    "true_entities": target,
                    "gap": counts[b] - target,
                }
            )
        return counts[b]

    lo, hi = float(bias_lo), float(bias_hi)
    for _ in range(max_widen):
        if count(lo) <= target:
            break
        lo /= widen
    for _ in range(max_widen):
        if count(hi) >= target:
            break
        hi *= widen
    if count(lo) < target < count(hi):
        for _ in range(bisections):
            mid = float(np.sqrt(lo * hi))
            c = count(mid)
            if c == target:
                break
            if c < target:
                lo = mid
            else:
                hi = mid
    b = min(counts, key=lambda x: (abs(counts[x] - target), x))
    return with_bias(b), tries, target


def tune_prior(dev, params, bias_grid, weight_grid, schedule, sweeps=1, within_topic=False):
    """Coordinate search over b then w (`sweeps` times) by development B3 F1.

    `params` gives the model and the starting w (and the sub/super-entity bias ratios, kept
    fixed); `schedule` = rounds, samples (per round), t_start, t_stop, init, seed. Returns the
    tuned params and one record per evaluated grid point. Only `dev` is ever looked at.
    """
    r_sub = params.sub_bias / params.bias
    r_sup = params.super_bias / params.bias
    blocks = dev.topic if within_topic else None
    cache, tries = {}, []

    def evaluate(b, w):
        key = (float(b), float(w))
        if key not in cache:
            p = replace(params, bias=key[0], sub_bias=key[0] * r_sub, super_bias=key[0] * r_sup, string_weight=key[1])
            f1, ents = _dev_run(dev, p, schedule, within_topic)
            scores = state_scores(dev, key[0], key[1], blocks)
            cache[key] = f1
            tries.append({"bias": key[0], "string_weight": key[1], "dev_b3_f1": f1, "dev_entities": ents, **scores})
        return cache[key]

    b, w = float(params.bias), float(params.string_weight)
    for _ in range(sweeps):
        b = max(bias_grid, key=lambda x: (evaluate(x, w), -list(bias_grid).index(x)))
        w = max(weight_grid, key=lambda x: (evaluate(b, x), -list(weight_grid).index(x)))
    b, w = float(b), float(w)
    return replace(params, bias=b, sub_bias=b * r_sub, super_bias=b * r_sup, string_weight=w), tries


def write_prior(path, params, dev_entities, dev_size, tries, extra=None):
    """The tuned prior as JSON: the values the runs read, the held-out split and every try."""
    from coreflab.report.io import atomic_write_text

    body = {
        "bias": params.bias,
        "string_weight": params.string_weight,
        "model": params.model,
        "dev_entities": [int(e) for e in dev_entities],
        "dev_mentions": int(dev_size),
        "tries": tries,
    }
    body.update(extra or {})
    atomic_write_text(path, json.dumps(body, indent=2) + "\n")


def read_prior(path):
    """(bias, string weight, held-out entity ids) from a `write_prior` JSON."""
    body = json.loads(open(path, encoding="utf-8").read())
    return (
        float(body["bias"]),
        float(body.get("string_weight", 0.0)),
        np.asarray(body.get("dev_entities", []), dtype=np.int64),
    )


def load_prior(path):
    """(b, w, held-out entity ids) of a singh2011 calibrate JSON, with a user error when unreadable."""
    try:
        return read_prior(path)
    except (OSError, ValueError, KeyError, TypeError) as err:
        raise UserError(
            f"{path}: expected a singh2011 calibrate JSON with 'bias' and 'string_weight' ({err})"
        ) from None


def heldout_counts(path):
    """(held-out entities, held-out mentions) of a singh2011 calibrate JSON (0, 0: nothing held out)."""
    try:
        body = json.loads(open(path, encoding="utf-8").read())
        return len(body.get("dev_entities", [])), int(body.get("dev_mentions", 0))
    except (OSError, ValueError, TypeError) as err:
        raise UserError(f"{path}: expected a singh2011 calibrate JSON ({err})") from None


def evaluation_corpus(corpus, prior_from):
    """The corpus without the held-out (tuning) entities of `prior_from` (all of it without one)."""
    if not prior_from:
        return corpus
    _, _, dev_entities = load_prior(prior_from)
    return split_corpus(corpus, dev_entities)[1]
