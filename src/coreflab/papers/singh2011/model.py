"""From-scratch model score: the reference the kernel's incremental Δ is tested against.

`model_score` evaluates log p(e) of `kernel`'s three-level model by brute force (every mention
pair; with node-level factors, every pair of nodes of the level): O(n²), only for tests and small
data. The bias is set elsewhere (`tuning`): to the true entity count on Person-X (Singh et al.
2011 §5.2) and by B3 F1 on held-out entities on the large corpus and ECB+ (§5.3).
"""

import numpy as np


def model_score(X, strings, m_sub, sub_ent, ent_sup, params):
    """log p of a configuration: Σ_L Σ_{m<n} ±(cos + w·STREQ − b_L) (dense; small n only).

    With params.context == "union" the entity level (when sub-entities are on) and the
    super-entity level score their nodes instead (`node_level_score`, affinity and repulsion)."""
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


def node_level_score(X, strings, child_of_mention, parent_of_child, bias, w, repulsion=True):
    """Σ_{c<c'} ±[cos(C_c, C_c') + w·cos(σ_c, σ_c') − b] over all pairs of live nodes by brute
    force: + (affinity) for nodes of one parent, − (repulsion) otherwise; C_c = Σ of the node's
    mention vectors (union of bags), σ_c its string counts. repulsion=False: the affinity-only
    form 2·Σ_within φ (for comparisons in tests)."""
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
        for d in live[i + 1 :]:
            phi = Cu[c] @ Cu[d] + w * (Su[c] @ Su[d]) - bias
            if parent_of_child[c] == parent_of_child[d]:
                total += 2.0 * phi if not repulsion else phi
            elif repulsion:
                total -= phi
    return total
