"""From-scratch model score (the reference the incremental Δ is tested against) and bias calibration.

`model_score` evaluates log p(e) of `kernel`'s three-level pairwise model by summing every
mention pair: O(n²), only for tests and small data. `calibrate_bias` implements the Person-X
protocol's "bias set so the number of predicted entities equals the truth" (Singh et al. 2011
§5.1–5.2) by bisection on log b with short single-machine chains.
"""

import json
from dataclasses import replace

import numpy as np

from coreflab.crossdoc.distributed import InferenceConfig, SerialExecutor, run_inference
from coreflab.crossdoc.shard import ModelParams


def model_score(X, strings, m_sub, sub_ent, ent_sup, params):
    """log p of a configuration: Σ_L Σ_{m<n} ±(cos + w·STREQ − b_L) (dense; small n only).

    With params.context == "union" the entity level (when sub-entities are on) and the
    super-entity level are node-level instead (`node_level_score`)."""
    cos = (X @ X.T).toarray()
    same_str = (strings[:, None] == strings[None, :]).astype(float)
    ent = sub_ent[m_sub]
    groups = [ent, m_sub, ent_sup[ent]]
    P = params.vector()
    union = getattr(params, "context", "pairwise") == "union"
    total = 0.0
    iu = np.triu_indices(len(strings), 1)
    for level in range(3):
        if P[6 + level] == 0.0:
            continue
        if union and level == 0 and P[7] != 0.0:  # children: sub-entities
            total += node_level_score(X, strings, m_sub, sub_ent, P[0], P[3])
            continue
        if union and level == 2:  # children: entities
            total += node_level_score(X, strings, ent, ent_sup, P[2], P[5])
            continue
        phi = cos + P[3 + level] * same_str - P[level]
        sign = np.where(groups[level][:, None] == groups[level][None, :], 1.0, -1.0)
        total += float(np.sum((sign * phi)[iu]))
    return total


def node_level_score(X, strings, child_of_mention, parent_of_child, bias, w):
    """2·Σ_P Σ_{c<c' children of P} [cos(C_c, C_c') + w·cos(σ_c, σ_c') − b] by brute force:
    C_c = Σ of the child's mention vectors (union of bags), σ_c its string counts."""
    n_child = int(child_of_mention.max()) + 1
    X = np.asarray(X.todense()) if hasattr(X, "todense") else np.asarray(X)
    C = np.zeros((n_child, X.shape[1]))
    S = np.zeros((n_child, int(strings.max()) + 1))
    np.add.at(C, child_of_mention, X)
    np.add.at(S, (child_of_mention, strings), 1.0)
    live = np.unique(child_of_mention)

    def unit(V):
        norm = np.linalg.norm(V, axis=1, keepdims=True)
        return np.divide(V, norm, out=np.zeros_like(V), where=norm > 0)

    Cu, Su = unit(C), unit(S)
    total = 0.0
    for i, c in enumerate(live):
        for d in live[i + 1:]:
            if parent_of_child[c] == parent_of_child[d]:
                total += 2.0 * (Cu[c] @ Cu[d] + w * (Su[c] @ Su[d]) - bias)
    return total


def calibrate_bias(corpus, params, target_entities, rounds=4, samples_per_round=200_000, seed=1,
                   spread=3.0, steps=4, init="singletons", shards=1):
    """The entity-level bias b giving about `target_entities` entities (bisection on log b).

    Searches [b/spread, b·spread] around params.bias with the same schedule (rounds, samples,
    shards) as the run it calibrates, since the entity count depends on how long the chain
    runs. Sub- and super-entity biases keep their ratio to b. Returns (b, entities, tries).
    """
    lo, hi = params.bias / spread, params.bias * spread
    tries = []
    ex = SerialExecutor(corpus.features())
    r_sub = params.sub_bias / params.bias
    r_sup = params.super_bias / params.bias
    best = None
    for _ in range(steps):
        b = float(np.sqrt(lo * hi))
        p = replace(params, bias=b, sub_bias=b * r_sub, super_bias=b * r_sup)
        cfg = InferenceConfig(params=p, rounds=rounds, samples_per_round=samples_per_round, seed=seed, init=init)
        _, trace = run_inference(corpus, cfg, ex, shards=shards)
        got = int(trace["entities"].iloc[-1])
        tries.append({"bias": b, "entities": got})
        if best is None or abs(got - target_entities) < abs(best[1] - target_entities):
            best = (b, got)
        if got > target_entities:  # too many entities: bias too high
            hi = b
        else:
            lo = b
    return best[0], best[1], tries


def write_bias(path, bias, entities, target, tries):
    from coreflab.report.io import atomic_write_text

    atomic_write_text(path, json.dumps({"bias": bias, "entities": entities, "target_entities": target,
                                        "tries": tries}, indent=2) + "\n")
