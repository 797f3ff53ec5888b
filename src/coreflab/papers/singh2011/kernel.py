"""The Metropolis-Hastings hot loop of one shard (numba), Singh et al. (2011) §2.2 and §4.

The model (§2.1, §4.3) is a sum of three pairwise levels over mentions, each with its own
bias b_L and string weight w (§5.3: ψ = cos − b + w·STREQ):

    log p(e) = Σ_L on  Σ_{m<n} s_L(m, n) · (cos(m, n) + w·STREQ(m, n) − b_L),

with s_L = +1 (affinity) if m and n share a group at level L and −1 (repulsion) otherwise.
Level 0 = entities (always on), level 1 = sub-entities (nested in entities; bias higher),
level 2 = super-entities (groups of entities; bias lower). The paper gives no formula for the
hierarchy; this "every level is the pairwise model over the mentions it groups" form is
reconstructed from §4.3 ("each level ... modeled using similar factors ... the context of a
node is the union of its children's bags") and is documented in docs/methods.md, "Singh et al. 2011".

Moves, round-robin over the enabled types (§4: "stages of sampling ... interleaved"):
  0  mention → another sub-entity / a new sub-entity       (sub-entity sampling, §4.1)
  1  sub-entity (block) → another entity / a new entity    (entity sampling; for the flat
     model sub-entities are the mentions themselves, so this is the paper's mention move)
  2  entity (block) → another super-entity / a new one     (super-entity sampling, §4.2)

A move of a block U from group g to group h at level L changes the score by
    Δ_L = 2 [Σ_{m∈U} Σ_{n∈h} φ(m,n) − Σ_{m∈U} Σ_{n∈g∖U} φ(m,n)],
and Σ_{n∈g} φ(m, n) = m̂·S_g + w·count_g(str m) − b·|g| uses the group sums of `hashsum`,
so a proposal costs O(nnz of the block), never O(group size). The self term is subtracted
explicitly (Σ_{n∈U} includes n = m).

With P[P_NODE] = 1 (`ModelParams.context = "union"`) the entity level (when sub-entities are
on) and the super-entity level score their *nodes* instead of mention pairs: a node's context is
the union (sum) of its children's bags, and two nodes have a factor on the cosine of those unions,
affinity if they share a parent and repulsion otherwise (`nodelevel` docstring). Those Δs come from
`node_delta`; the structures they need (Z sums at table levels 3 and 4, the sums Z_all over all
nodes of a level in ZA, the nodes' squared norms in F, the children counts in G) are kept up to
date by `node_unhook` / `node_hook`.

The kernels take four bundles (module-level namedtuples, so they compile in nopython mode and
cache): `State` (hierarchy, parameters, table of group sums), `Mentions` (the shard's CSR rows and
key layout), `Nodes` (the node-level structures) and `Work` (scratch). `run_moves` draws the move
type and calls one function per type (`_mention_move`, `_sub_move`, `_entity_move`), each of which
proposes, scores, checks room (`_short_of_room`), accepts or rejects, and applies.
"""

from collections import namedtuple

import numpy as np
from numba import njit

from coreflab.papers.singh2011.hashsum import table_add, table_get, table_sub, table_touch
from coreflab.papers.singh2011.nodelevel import (
    all_pairs_change,
    block_dots,
    child_change,
    cross_term,
    dense_dots,
    pair_bias,
)

# rows of the int64 state matrix G (one column per local mention / group slot)
M_SUB, SUB_ENT, ENT_SUP = 0, 1, 2
SUB_SIZE, ENT_SIZE, SUP_SIZE = 3, 4, 5
SUB_HEAD, M_NEXT, M_PREV = 6, 7, 8
ENT_HEAD, S_NEXT, S_PREV = 9, 10, 11
SUB_PERM, SUB_POS, ENT_PERM, ENT_POS, SUP_PERM, SUP_POS = 12, 13, 14, 15, 16, 17
ENT_KIDS, SUP_KIDS = 18, 19  # sub-entities per entity, entities per super-entity
# node level: cache of ⟨Z_parent, C_child⟩ per child (parent and parent version it was computed
# for), version of each parent's Z (bumped on every change), table cells of each child's mentions
Q_PAR0, Q_VER0, Q_PAR2, Q_VER2, VER0, VER2, CELLS0, CELLS2 = 20, 21, 22, 23, 24, 25, 26, 27
# node level: version of Z_all (zmeta) for which a child's cached ⟨Z_all, C_child⟩ holds
QA_VER0, QA_VER2 = 28, 29
N_ROWS = 30
# parameter vector P (P_DEAD: |sum| at or below which a table cell is deleted; < 0: never;
# P_NODE: 1 = node-level (union-of-bags) factors at the entity and super-entity levels)
B0, B1, B2, W0, W1, W2, ON0, ON1, ON2, P_NEW, P_DEAD, P_NODE = range(12)
N_PARAMS = 12
# rows of the float64 node matrix F: squared norms (words, strings) of sub-entity and entity
# contexts, ‖Z‖² of entities (sum of their normalised sub-entities) and super-entities, and the
# cached ⟨Z_P, C⟩ (F_Q*) and ⟨Z_all, C⟩ (F_A*) of each child
F_SUB, F_ENT, F_NZE, F_NZS, F_Q0, F_Q2, F_A0, F_A2 = 0, 2, 4, 5, 6, 8, 10, 12
N_FROWS = 14
Z_ENT, Z_SUP = 3, 4  # table levels of Z_e and Z_a
# node level, all nodes of a level: ZA (2 × nfeat, dense) holds Z_all = Σ_c Ĉ_c of the sub-entities
# (row 0) and of the entities (row 1); zmeta = [nodes of other shards at those two levels, version
# of ZA row 0, version of ZA row 1]
ZM_REST0, ZM_REST2, ZM_VER0, ZM_VER2 = 0, 1, 2, 3

STATUS_DONE, STATUS_FULL = 0, 1
# outcome of one proposal (`_mention_move`, `_sub_move`, `_entity_move`)
MOVE_ACCEPTED, MOVE_SKIPPED, MOVE_FULL = 0, 1, 2

State = namedtuple("State", ["G", "cnt", "P", "kv", "used"])
State.__doc__ = """The chain's state: hierarchy G, live groups per level cnt, parameters P, and the hash table
of group sums kv with used = [occupied cells, cells a pending move asks for]."""

Mentions = namedtuple("Mentions", ["indptr", "indices", "data", "strf", "mnorm2", "n", "nfeat"])
Mentions.__doc__ = """The shard's mentions: CSR context rows, string feature and ‖x_m‖² (the self term φ(m, m))
of each; n group slots and nfeat features lay out the table keys (`hashsum`)."""

Nodes = namedtuple("Nodes", ["F", "ZA", "zmeta"])
Nodes.__doc__ = """Node-level (union) structures: norms and caches per node F, Z_all per level ZA and its meta
zmeta (module docstring)."""

Work = namedtuple("Work", ["buf", "dst", "bb", "wk", "sc"])
Work.__doc__ = """Scratch of one call: mention lists buf (block, two member lists of n each), a mention move's
target groups dst, the moved block's norms² bb, `node_delta`'s dots wk, and per node level (row 0:
level 0, row 1: level 2) the parents' ΔNZ and the cells a move asks for, sc."""


@njit(cache=True, inline="always")
def _work(buf):
    return Work(buf, np.empty(3, dtype=np.int64), np.zeros(2), np.zeros(30), np.zeros((2, 3)))


@njit(cache=True, inline="always")
def touch_group(kv, level, group, m, X):
    """Load the home slots of all of m's cells in `group` before any probing: the loads are
    independent, so their cache misses overlap (memory-level parallelism) instead of being
    paid one after another inside the probe loops; the lookups that follow then hit the cache.
    Returns a finite dummy that callers multiply by 0.0 (0·x is not folded away without
    fast-math, so the loads stay). Measured: ~25% more proposals/s on the Person-X shard."""
    indptr, indices = X.indptr, X.indices
    base = (level * X.n + group) * X.nfeat
    touched = table_touch(kv, base + X.strf[m])
    for j in range(indptr[m], indptr[m + 1]):
        touched += table_touch(kv, base + indices[j])
    return touched


@njit(cache=True, inline="always")
def group_phi(kv, level, group, m, X, b, w, size):
    """Σ_{n∈group} φ(m, n) at `level` (including n = m if m is in the group)."""
    indptr, indices, data = X.indptr, X.indices, X.data
    base = (level * X.n + group) * X.nfeat
    s = 0.0 * touch_group(kv, level, group, m, X)
    for j in range(indptr[m], indptr[m + 1]):
        s += data[j] * table_get(kv, base + indices[j])
    return s + w * table_get(kv, base + X.strf[m]) - b * size


@njit(cache=True, inline="always")
def _move_sums(S, X, level, src, dst, m):
    """Move mention m's vector (and string count) from group src to dst at `level` (-1: none).

    Cells of src whose sum drops to ~0 are deleted (hashsum docstring: only live cells stay)."""
    kv, used, eps = S.kv, S.used, S.P[P_DEAD]
    indptr, indices, data = X.indptr, X.indices, X.data
    if src >= 0:
        base = (level * X.n + src) * X.nfeat
        for j in range(indptr[m], indptr[m + 1]):
            table_sub(kv, used, base + indices[j], data[j], eps)
        table_sub(kv, used, base + X.strf[m], 1.0, eps)
    if dst >= 0:
        base = (level * X.n + dst) * X.nfeat
        for j in range(indptr[m], indptr[m + 1]):
            table_add(kv, used, base + indices[j], data[j])
        table_add(kv, used, base + X.strf[m], 1.0)


@njit(cache=True, inline="always")
def _alloc(G, cnt, which):
    perm = SUB_PERM + 2 * which
    g = G[perm, cnt[which]]
    cnt[which] += 1
    return g


@njit(cache=True, inline="always")
def _release(G, cnt, which, g):
    perm, pos = SUB_PERM + 2 * which, SUB_POS + 2 * which
    p = G[pos, g]
    last = cnt[which] - 1
    other = G[perm, last]
    G[perm, p] = other
    G[pos, other] = p
    G[perm, last] = g
    G[pos, g] = last
    cnt[which] -= 1


@njit(cache=True)
def _new_super(G, cnt):
    """A fresh, empty super-entity."""
    a = _alloc(G, cnt, 2)
    G[SUP_SIZE, a] = 0
    G[SUP_KIDS, a] = 0
    return a


@njit(cache=True)
def _new_entity(G, cnt, a):
    """A fresh, empty entity in super-entity a."""
    e = _alloc(G, cnt, 1)
    G[ENT_SIZE, e] = 0
    G[ENT_HEAD, e] = -1
    G[ENT_SUP, e] = a
    G[ENT_KIDS, e] = 0
    G[SUP_KIDS, a] += 1
    return e


@njit(cache=True)
def _release_emptied(G, cnt, e, a):
    """Release entity e and super-entity a if a move left them empty."""
    if G[ENT_SIZE, e] == 0:
        _release(G, cnt, 1, e)
        G[SUP_KIDS, a] -= 1
    if G[SUP_SIZE, a] == 0:
        _release(G, cnt, 2, a)


@njit(cache=True, inline="always")
def _link(G, head, nxt, prv, owner, item):
    first = G[head, owner]
    G[nxt, item] = first
    G[prv, item] = -1
    if first >= 0:
        G[prv, first] = item
    G[head, owner] = item


@njit(cache=True, inline="always")
def _unlink(G, head, nxt, prv, owner, item):
    a, b = G[prv, item], G[nxt, item]
    if a >= 0:
        G[nxt, a] = b
    else:
        G[head, owner] = b
    if b >= 0:
        G[prv, b] = a


@njit(cache=True)
def _collect_sub(G, u, buf, k):
    m = G[SUB_HEAD, u]
    while m >= 0:
        buf[k] = m
        k += 1
        m = G[M_NEXT, m]
    return k


@njit(cache=True)
def _collect_entity(G, e, buf, k=0):
    """Mentions of entity e into buf[k:]; returns the end."""
    u = G[ENT_HEAD, e]
    while u >= 0:
        k = _collect_sub(G, u, buf, k)
        u = G[S_NEXT, u]
    return k


@njit(cache=True)
def _cells(buf, lo, hi, indptr):
    """Upper bound on the table cells the mentions buf[lo:hi] can insert at one level."""
    c = 0
    for i in range(lo, hi):
        c += indptr[buf[i] + 1] - indptr[buf[i]] + 1
    return c


@njit(cache=True, inline="always")
def _short_of_room(S, need):
    """True when inserting `need` more cells could load the table past 90%; used[1] = need then
    tells the caller how much room the pending move asks for. Every move type checks through here
    with all the cells it inserts (sums at every level plus node-level Z cells), so a rehash always
    makes room for the whole move."""
    if S.used[0] + need > ((S.kv.shape[0] // 2) * 9) // 10:
        S.used[1] = need
        return True
    return False


@njit(cache=True, inline="always")
def _rejected(delta, t):
    """The Metropolis test at temperature t fails (a random number is drawn only for Δ < 0)."""
    return delta < 0.0 and np.random.random() >= np.exp(delta / t)


@njit(cache=True, inline="always")
def _other_group(G, cnt, which, g):
    """A random live group of `which` (0: sub-entities, 1: entities, 2: super-entities) to move into;
    -1 when the draw is g itself or the level has fewer than two groups (the proposal is skipped)."""
    if cnt[which] < 2:
        return -1
    g2 = G[SUB_PERM + 2 * which, np.random.randint(cnt[which])]
    return -1 if g2 == g else g2


@njit(cache=True, inline="always")
def _groups(G, m):
    u = G[M_SUB, m]
    e = G[SUB_ENT, u]
    return e, u, G[ENT_SUP, e]


@njit(cache=True, inline="always")
def _size_row(level):
    return ENT_SIZE if level == 0 else (SUB_SIZE if level == 1 else SUP_SIZE)


@njit(cache=True, inline="always")
def mention_move_delta(S, X, m, dst):
    """Δ log p of moving mention m to groups dst = (entity, sub, super); -1 = a new group.

    Mention-pair levels only: with node-level factors the entity level (sub-entities on) and the
    super-entity level are left to `node_delta`."""
    G, kv, P = S.G, S.kv, S.P
    src = _groups(G, m)
    delta = 0.0
    for level in range(3):
        if P[ON0 + level] == 0.0 or src[level] == dst[level]:
            continue
        if P[P_NODE] != 0.0 and ((level == 0 and P[ON1] != 0.0) or level == 2):
            continue
        b, w = P[B0 + level], P[W0 + level]
        row = _size_row(level)
        out = group_phi(kv, level, src[level], m, X, b, w, G[row, src[level]]) - (X.mnorm2[m] + w - b)
        into = 0.0
        if dst[level] >= 0:
            into = group_phi(kv, level, dst[level], m, X, b, w, G[row, dst[level]])
        delta += 2.0 * (into - out)
    return delta


@njit(cache=True, inline="always")
def block_delta(S, X, level, src, dst, buf, k, within_level, within_group):
    """Δ at `level` of moving the block buf[:k] (the whole group `within_group` of `within_level`;
    -1: a mention without sums of its own) from group src to dst."""
    G, kv, P = S.G, S.kv, S.P
    b, w = P[B0 + level], P[W0 + level]
    row = _size_row(level)
    src_size = G[row, src]
    dst_size = G[row, dst] if dst >= 0 else 0
    within_size = G[_size_row(within_level), within_group] if within_group >= 0 else 0
    into = 0.0
    out = 0.0
    within = 0.0
    for i in range(k):
        m = buf[i]
        out += 0.0 * touch_group(kv, level, src, m, X)  # overlaps with dst's
        if dst >= 0:
            into += group_phi(kv, level, dst, m, X, b, w, dst_size)
        out += group_phi(kv, level, src, m, X, b, w, src_size)
        if within_group < 0:  # singleton block without its own sums: φ(m, m)
            within += X.mnorm2[m] + w - b
        else:
            within += group_phi(kv, within_level, within_group, m, X, b, w, within_size)
    return 2.0 * (into - (out - within))


@njit(cache=True)
def run_moves(S, N, X, buf, types, n_samples, t_start, t_stop, seed, out_delta):
    """Run up to n_samples MH proposals; returns (steps done, accepted, status).

    Temperature falls geometrically from t_start to t_stop over the n_samples steps; a move
    is accepted with probability min(1, exp(Δ/t)) (§2.2), so at t → 0 only non-worsening
    moves pass. status = STATUS_FULL means the hash table needs a rehash before continuing
    (the caller rehashes and calls again with seed < 0 to continue the same random stream);
    used[1] then holds the cells the pending block move may insert, so the caller can make room.
    numba's RNG is separate from numpy's, so it is seeded here (seed >= 0).
    """
    if seed >= 0:
        np.random.seed(seed)
    P, used = S.P, S.used
    ntypes = types.shape[0]
    record = out_delta.shape[0] >= n_samples
    accepted = 0
    limit = np.int64((S.kv.shape[0] // 2) * 0.6)
    node0 = P[P_NODE] != 0.0 and P[ON1] != 0.0
    node2 = P[P_NODE] != 0.0 and P[ON2] != 0.0
    W = _work(buf)
    t = t_start
    cool = (t_stop / t_start) ** (1.0 / n_samples)
    for step in range(n_samples):
        if used[0] > limit:
            used[1] = 0
            return step, accepted, STATUS_FULL
        if step > 0:
            t *= cool
        kind = types[step % ntypes]
        if record:
            out_delta[step] = np.nan
        if kind == 0:
            delta, outcome = _mention_move(S, N, X, W, t, node0, node2)
        elif kind == 1:
            delta, outcome = _sub_move(S, N, X, W, t, node0, node2)
        else:
            delta, outcome = _entity_move(S, N, X, W, t, node2)
        if outcome == MOVE_FULL:
            return step, accepted, STATUS_FULL
        if outcome == MOVE_SKIPPED:
            continue
        accepted += 1
        if record:
            out_delta[step] = delta
    return n_samples, accepted, STATUS_DONE


@njit(cache=True, inline="always")
def _mention_move(S, N, X, W, t, node0, node2):
    """Type 0 (sub-entity sampling, §4.1): a random mention to another sub-entity, a new one in its
    entity, or a new entity; returns (Δ, MOVE_*)."""
    G, cnt, P = S.G, S.cnt, S.P
    dst = W.dst
    m = np.random.randint(X.n)
    while G[M_SUB, m] < 0:  # not a mention of this shard (never happens: all columns are mentions)
        m = np.random.randint(X.n)
    e, u, a = _groups(G, m)
    r = np.random.random()
    if r < 0.5 * P[P_NEW]:
        if G[SUB_SIZE, u] == 1:
            return 0.0, MOVE_SKIPPED
        dst[0], dst[1], dst[2] = e, -1, a
    elif r < P[P_NEW]:
        # a singleton sub-entity going to a new entity is a block move (type 1); skipping
        # it here also keeps the number of live groups below the n slots
        if G[SUB_SIZE, u] == 1:
            return 0.0, MOVE_SKIPPED
        dst[0], dst[1], dst[2] = -1, -1, -1
    else:
        u2 = _other_group(G, cnt, 0, u)
        if u2 < 0:
            return 0.0, MOVE_SKIPPED
        e2 = G[SUB_ENT, u2]
        dst[0], dst[1], dst[2] = e2, u2, G[ENT_SUP, e2]
    delta = mention_move_delta(S, X, m, dst)
    node_move = node0 or (node2 and dst[0] != e)
    if node_move:
        need = 0
        W.buf[0] = m
        W.bb[0], W.bb[1] = X.mnorm2[m], 1.0
        if node0:
            delta += node_delta(S, N, X, W, 0, u, dst[1], dst[0], 1, G[SUB_SIZE, u] == 1)
            need += 2 * np.int64(W.sc[0, 2])
        if node2 and dst[0] != e:
            delta += node_delta(S, N, X, W, 2, e, dst[0], dst[2], 1, G[ENT_SIZE, e] == 1)
            need += 2 * np.int64(W.sc[1, 2])
        if _short_of_room(S, need):
            return delta, MOVE_FULL
    if _rejected(delta, t):
        return delta, MOVE_SKIPPED
    if node_move:
        _node_mention_move(S, N, X, W, m, node0, node2)
    else:
        _apply_mention_move(S, X, m, dst)
    return delta, MOVE_ACCEPTED


@njit(cache=True, inline="always")
def _sub_move(S, N, X, W, t, node0, node2):
    """Type 1 (entity sampling): a random sub-entity, as a block, to another entity or a new one;
    returns (Δ, MOVE_*)."""
    G, cnt, P, F = S.G, S.cnt, S.P, N.F
    u = G[SUB_PERM, np.random.randint(cnt[0])]
    e = G[SUB_ENT, u]
    a = G[ENT_SUP, e]
    if np.random.random() < P[P_NEW]:
        if G[SUB_SIZE, u] == G[ENT_SIZE, e]:
            return 0.0, MOVE_SKIPPED
        e2, a2 = -1, -1
    else:
        e2 = _other_group(G, cnt, 1, e)
        if e2 < 0:
            return 0.0, MOVE_SKIPPED
        a2 = G[ENT_SUP, e2]
    buf = W.buf
    k = _collect_sub(G, u, buf, 0)
    need = 2 * _cells(buf, 0, k, X.indptr)
    if _short_of_room(S, need):
        return 0.0, MOVE_FULL
    wg = u if P[ON1] != 0.0 else -1
    if P[ON1] != 0.0:
        W.bb[0], W.bb[1] = F[F_SUB, u], F[F_SUB + 1, u]
    else:  # sub-entities are the mentions themselves
        W.bb[0], W.bb[1] = X.mnorm2[buf[0]], 1.0
    if node0:
        delta = node_delta(S, N, X, W, 0, u, -1, e2, k, True)
        need += 2 * np.int64(W.sc[0, 2])
    else:
        delta = block_delta(S, X, 0, e, e2, buf, k, 1, wg)
    if node2:
        delta += node_delta(S, N, X, W, 2, e, e2, a2, k, G[SUB_SIZE, u] == G[ENT_SIZE, e])
        need += 2 * np.int64(W.sc[1, 2])
    elif P[ON2] != 0.0 and a != a2:
        delta += block_delta(S, X, 2, a, a2, buf, k, 1, wg)
    if (node0 or node2) and _short_of_room(S, need):
        return delta, MOVE_FULL
    if _rejected(delta, t):
        return delta, MOVE_SKIPPED
    if node0 or node2:
        _node_sub_move(S, N, X, W, u, e2, a2, k, node0, node2)
    else:
        _apply_sub_move(S, X, u, e2, a2, buf, k)
    return delta, MOVE_ACCEPTED


@njit(cache=True, inline="always")
def _entity_move(S, N, X, W, t, node2):
    """Type 2 (super-entity sampling, §4.2): a random entity, as a block, to another super-entity
    or a new one; returns (Δ, MOVE_*)."""
    G, cnt, P, F = S.G, S.cnt, S.P, N.F
    e = G[ENT_PERM, np.random.randint(cnt[1])]
    a = G[ENT_SUP, e]
    if np.random.random() < P[P_NEW]:
        if G[ENT_SIZE, e] == G[SUP_SIZE, a]:
            return 0.0, MOVE_SKIPPED
        a2 = -1
    else:
        a2 = _other_group(G, cnt, 2, a)
        if a2 < 0:
            return 0.0, MOVE_SKIPPED
    buf = W.buf
    k = _collect_entity(G, e, buf)
    need = _cells(buf, 0, k, X.indptr)
    if _short_of_room(S, need):
        return 0.0, MOVE_FULL
    if node2:
        W.bb[0], W.bb[1] = F[F_ENT, e], F[F_ENT + 1, e]
        delta = node_delta(S, N, X, W, 2, e, -1, a2, k, True)
        need += 2 * np.int64(W.sc[1, 2])
        if _short_of_room(S, need):
            return delta, MOVE_FULL
    else:
        delta = block_delta(S, X, 2, a, a2, buf, k, 0, e)
    if _rejected(delta, t):
        return delta, MOVE_SKIPPED
    _apply_entity_move(S, N, X, W, e, a2, k, node2)
    return delta, MOVE_ACCEPTED


@njit(cache=True, inline="always")
def _apply_mention_move(S, X, m, dst):
    G, cnt, P = S.G, S.cnt, S.P
    e, u, a = _groups(G, m)
    e2, u2, a2 = dst[0], dst[1], dst[2]
    if a2 < 0:
        a2 = _new_super(G, cnt)
    if e2 < 0:
        e2 = _new_entity(G, cnt, a2)
    if u2 < 0:
        u2 = _alloc(G, cnt, 0)
        G[SUB_SIZE, u2] = 0
        G[SUB_HEAD, u2] = -1
        G[SUB_ENT, u2] = e2
        G[ENT_KIDS, e2] += 1
        _link(G, ENT_HEAD, S_NEXT, S_PREV, e2, u2)
    src = (e, u, a)
    tgt = (e2, u2, a2)
    for level in range(3):
        if P[ON0 + level] != 0.0 and src[level] != tgt[level]:
            _move_sums(S, X, level, src[level], tgt[level], m)
    _unlink(G, SUB_HEAD, M_NEXT, M_PREV, u, m)
    _link(G, SUB_HEAD, M_NEXT, M_PREV, u2, m)
    G[M_SUB, m] = u2
    G[SUB_SIZE, u] -= 1
    G[ENT_SIZE, e] -= 1
    G[SUP_SIZE, a] -= 1
    G[SUB_SIZE, u2] += 1
    G[ENT_SIZE, e2] += 1
    G[SUP_SIZE, a2] += 1
    if G[SUB_SIZE, u] == 0:
        _unlink(G, ENT_HEAD, S_NEXT, S_PREV, e, u)
        _release(G, cnt, 0, u)
        G[ENT_KIDS, e] -= 1
    _release_emptied(G, cnt, e, a)


@njit(cache=True)
def _apply_sub_move(S, X, u, e2, a2, buf, k):
    G, cnt, P = S.G, S.cnt, S.P
    e = G[SUB_ENT, u]
    a = G[ENT_SUP, e]
    if e2 < 0:
        a2 = _new_super(G, cnt)
        e2 = _new_entity(G, cnt, a2)
    for i in range(k):
        _move_sums(S, X, 0, e, e2, buf[i])
        if P[ON2] != 0.0 and a != a2:
            _move_sums(S, X, 2, a, a2, buf[i])
    _unlink(G, ENT_HEAD, S_NEXT, S_PREV, e, u)
    _link(G, ENT_HEAD, S_NEXT, S_PREV, e2, u)
    G[SUB_ENT, u] = e2
    G[ENT_KIDS, e] -= 1
    G[ENT_KIDS, e2] += 1
    G[ENT_SIZE, e] -= k
    G[ENT_SIZE, e2] += k
    G[SUP_SIZE, a] -= k
    G[SUP_SIZE, a2] += k
    _release_emptied(G, cnt, e, a)


@njit(cache=True)
def _apply_entity_move(S, N, X, W, e, a2, k, node2):
    """Move entity e (its mentions in W.buf[:k]) to super-entity a2 (-1: a new one), with the
    node-level structures kept up to date when node2."""
    G, cnt, F = S.G, S.cnt, N.F
    a = G[ENT_SUP, e]
    if node2:
        node_unhook(S, N, X, W.buf, 2, e)
    fresh = a2 < 0
    if a2 < 0:
        a2 = _new_super(G, cnt)
    for i in range(k):
        _move_sums(S, X, 2, a, a2, W.buf[i])
    G[ENT_SUP, e] = a2
    G[SUP_SIZE, a] -= k
    G[SUP_SIZE, a2] += k
    G[SUP_KIDS, a] -= 1
    G[SUP_KIDS, a2] += 1
    if G[SUP_SIZE, a] == 0:
        _release(G, cnt, 2, a)
    elif node2:
        F[F_NZS, a] += W.sc[1, 0]
    if node2:
        node_hook(S, N, X, W, 2, e)
        _add_nz(F, F_NZS, a2, W.sc[1, 1], fresh)


# ---- node-level (union-of-bags) factors, P[P_NODE] = 1 (nodelevel docstring) ----


@njit(cache=True)
def _members(G, child_level, c, buf, lo):
    """Mentions of child node c into buf[lo:] (child_level 1: sub-entity, 0: entity); returns the end."""
    if c < 0:
        return lo
    if child_level == 1:
        return _collect_sub(G, c, buf, lo)
    return _collect_entity(G, c, buf, lo)


@njit(cache=True, inline="always")
def _node_rows(level):
    """(table level of the children's sums, table level of Z, F row of the children's norms,
    F row of the parents' ‖Z‖², G row of the parents' children counts) of node level 0 or 2."""
    if level == 0:
        return 1, Z_ENT, F_SUB, F_NZE, ENT_KIDS
    return 0, Z_SUP, F_ENT, F_NZS, SUP_KIDS


@njit(cache=True, inline="always")
def _cache_rows(level):
    """(cached parent row, cached version row, parent version row, cells row, F row of the cache)."""
    if level == 0:
        return Q_PAR0, Q_VER0, VER0, CELLS0, F_Q0
    return Q_PAR2, Q_VER2, VER2, CELLS2, F_Q2


@njit(cache=True, inline="always")
def _za_row(level):
    """Row of ZA (and index of its version in zmeta, minus ZM_VER0) of node level 0 or 2."""
    return 0 if level == 0 else 1


@njit(cache=True)
def _zdot(S, N, X, level, c, p, buf, lo, out):
    """out = ⟨Z_p, C_c⟩ (two parts), from the cache when neither Z_p nor C_c changed since.

    Why: at the super-entity level C_c is a whole entity, so the dot costs O(|entity|·nnz);
    most proposals are rejected, leaving Z_p and C_c as they were, so the cached value is
    reused until an accepted move bumps the parent's version."""
    G, F = S.G, N.F
    qpar, qver, verrow, _, fq = _cache_rows(level)
    if G[qpar, c] == p and G[qver, c] == G[verrow, p]:
        out[0], out[1] = F[fq, c], F[fq + 1, c]
        return
    cl, zl, _, _, _ = _node_rows(level)
    hi = _members(G, cl, c, buf, lo)
    out[:] = 0.0
    block_dots(S.kv, zl, p, buf, lo, hi, X, out)
    F[fq, c], F[fq + 1, c] = out[0], out[1]
    G[qpar, c] = p
    G[qver, c] = G[verrow, p]


@njit(cache=True)
def _zadot(S, N, X, level, c, buf, lo, out):
    """out = ⟨Z_all, C_c⟩ (two parts), cached until ZA's row changes (every accepted node move)."""
    G, F, zmeta = S.G, N.F, N.zmeta
    li = _za_row(level)
    vrow = QA_VER0 if level == 0 else QA_VER2
    fa = F_A0 if level == 0 else F_A2
    if G[vrow, c] == zmeta[ZM_VER0 + li]:
        out[0], out[1] = F[fa, c], F[fa + 1, c]
        return
    hi = _members(G, _node_rows(level)[0], c, buf, lo)
    out[:] = 0.0
    dense_dots(N.ZA, li, buf, lo, hi, X, out)
    F[fa, c], F[fa + 1, c] = out[0], out[1]
    G[vrow, c] = zmeta[ZM_VER0 + li]


@njit(cache=True, inline="always")
def _parent(G, level, c):
    return G[SUB_ENT, c] if level == 0 else G[ENT_SUP, c]


@njit(cache=True)
def node_delta(S, N, X, W, level, c1, c2, p2, k, emptied1):
    """Δ of the node-level term at `level` (0: children are sub-entities, 2: entities) when the
    block W.buf[:k] (norms² W.bb) leaves child c1 and joins child c2 of parent p2 (c2 = -1: a new
    child of p2; p2 = -1: a new parent). Member lists go to buf[n:2n] and buf[2n:3n].

    The term is 2·Σ_within φ − Σ_all φ (nodelevel docstring): the affinity part from the parents'
    Z sums, the repulsion part from Z_all (ZA) and the number of nodes of the level (this shard's
    live ones plus zmeta's count of the other shards'). A child that moves whole (c1 emptied into
    a new child) changes no context, so Σ_all stays as it is.
    W.sc[level // 2]: ΔNZ of c1's parent and of p2 (0 when the same parent), for the hook, and an
    upper bound on the Z cells the move inserts."""
    G, kv, P = S.G, S.kv, S.P
    buf, bb, wk, scratch = W.buf, W.bb, W.wk, W.sc[level // 2]
    n = X.n
    cl, zl, frow, _, krow = _node_rows(level)
    cells_row = _cache_rows(level)[3]
    b, w = P[B0 + level], P[W0 + level]
    p1 = _parent(G, level, c1)
    wk[:] = 0.0
    zc1, zb1, cb1, nrm1, new1 = wk[0:2], wk[2:4], wk[4:6], wk[6:8], wk[8:10]
    zc2, zb2, cb2, nrm2, new2 = wk[10:12], wk[12:14], wk[14:16], wk[16:18], wk[18:20]
    c12 = wk[20:22]
    za1, zab, za2, tmp = wk[22:24], wk[24:26], wk[26:28], wk[28:30]
    _zdot(S, N, X, level, c1, p1, buf, n, zc1)
    block_dots(kv, zl, p1, buf, 0, k, X, zb1)
    block_dots(kv, cl, c1, buf, 0, k, X, cb1)
    nrm1[0], nrm1[1] = N.F[frow, c1], N.F[frow + 1, c1]
    dnz1, dk1 = child_change(zc1, zb1, cb1, nrm1, bb, -1.0, emptied1, w, new1)
    if c2 >= 0:
        _zdot(S, N, X, level, c2, p2, buf, 2 * n, zc2)
        block_dots(kv, cl, c2, buf, 0, k, X, cb2)
        nrm2[0], nrm2[1] = N.F[frow, c2], N.F[frow + 1, c2]
    if p2 >= 0:
        block_dots(kv, zl, p2, buf, 0, k, X, zb2)
    dnz2, dk2 = child_change(zc2, zb2, cb2, nrm2, bb, 1.0, False, w, new2)
    k1 = G[krow, p1]
    gone = 1 if emptied1 else 0
    born = 1 if c2 < 0 else 0
    whole = emptied1 and c2 < 0
    scratch[2] = G[cells_row, c1] + (G[cells_row, c2] if c2 >= 0 else 0) + _cells(buf, 0, k, X.indptr)
    if c2 >= 0:  # ⟨C1, C2⟩: the smaller child's mentions against the other's sums
        small, big = (c1, c2) if G[cells_row, c1] <= G[cells_row, c2] else (c2, c1)
        hi = _members(G, cl, small, buf, n)
        block_dots(kv, cl, big, buf, n, hi, X, c12)
    cross = cross_term(c12, cb1, cb2, bb, -1.0, 1.0, nrm1, new1, nrm2, new2, w)
    if p2 == p1:
        dnz = dnz1 + dnz2 + cross
        scratch[0], scratch[1] = dnz, 0.0
        within = dnz - (dk1 + dk2) + pair_bias(k1, k1 - gone + born, b)
    else:
        k2 = G[krow, p2] if p2 >= 0 else 0
        scratch[0], scratch[1] = dnz1, dnz2
        within = dnz1 - dk1 + pair_bias(k1, k1 - gone, b) + dnz2 - dk2 + pair_bias(k2, k2 + born, b)
    if whole:
        return within
    li = _za_row(level)
    _zadot(S, N, X, level, c1, buf, n, za1)
    dense_dots(N.ZA, li, buf, 0, k, X, zab)
    if c2 >= 0:
        _zadot(S, N, X, level, c2, buf, 2 * n, za2)
    da1, _ = child_change(za1, zab, cb1, nrm1, bb, -1.0, emptied1, w, tmp)
    da2, _ = child_change(za2, zab, cb2, nrm2, bb, 1.0, False, w, tmp)
    nodes = N.zmeta[ZM_REST0 + li] + S.cnt[li]  # live sub-entities (cnt[0]) or entities (cnt[1])
    return within - (all_pairs_change(da1 + da2 + cross, dk1 + dk2, nodes, nodes - gone + born, b))


@njit(cache=True)
def _z_update(S, N, X, level, p, buf, hi, nrm_w, nrm_s, sign):
    """Add (sign > 0) or remove the normalised context of the members buf[n:hi] to/from Z_p
    (table) and Z_all (ZA row of `level`)."""
    kv, used, eps = S.kv, S.used, S.P[P_DEAD]
    indptr, indices, data, strf = X.indptr, X.indices, X.data, X.strf
    rw = 1.0 / np.sqrt(nrm_w) if nrm_w > 1e-300 else 0.0
    rs = 1.0 / np.sqrt(nrm_s) if nrm_s > 1e-300 else 0.0
    base = (_node_rows(level)[1] * X.n + p) * X.nfeat
    za = N.ZA[_za_row(level)]
    for i in range(X.n, hi):
        m = buf[i]
        if rw > 0.0:
            for j in range(indptr[m], indptr[m + 1]):
                _z_cell(kv, used, za, base, indices[j], data[j] * rw, sign, eps)
        if rs > 0.0:
            _z_cell(kv, used, za, base, strf[m], rs, sign, eps)


@njit(cache=True, inline="always")
def _z_cell(kv, used, za, base, col, v, sign, eps):
    """Add (sign > 0) or remove v at column col of Z_p (table cells from `base`) and of Z_all."""
    if sign > 0:
        table_add(kv, used, base + col, v)
        za[col] += v
    else:
        table_sub(kv, used, base + col, v, eps)
        za[col] -= v


@njit(cache=True)
def _bump_versions(S, N, level, p):
    """Z_p and Z_all of `level` change: invalidate the dots cached against them."""
    S.G[_cache_rows(level)[2], p] += 1
    N.zmeta[ZM_VER0 + _za_row(level)] += 1


@njit(cache=True)
def node_unhook(S, N, X, buf, level, c):
    """Before child c changes: take its normalised context out of its parent's Z and out of Z_all."""
    if c < 0:
        return
    cl, _, frow, _, _ = _node_rows(level)
    hi = _members(S.G, cl, c, buf, X.n)
    p = _parent(S.G, level, c)
    _bump_versions(S, N, level, p)
    _z_update(S, N, X, level, p, buf, hi, N.F[frow, c], N.F[frow + 1, c], -1.0)


@njit(cache=True)
def node_hook(S, N, X, W, level, c):
    """After child c changed: its norms² from the tables, its normalised context into its parent's Z
    and into Z_all."""
    G, F, buf = S.G, N.F, W.buf
    cl, _, frow, _, _ = _node_rows(level)
    hi = _members(G, cl, c, buf, X.n)
    nr = W.wk[0:2]
    nr[:] = 0.0
    block_dots(S.kv, cl, c, buf, X.n, hi, X, nr)
    F[frow, c], F[frow + 1, c] = nr[0], nr[1]
    G[_cache_rows(level)[3], c] = _cells(buf, X.n, hi, X.indptr)
    p = _parent(G, level, c)
    _bump_versions(S, N, level, p)
    _z_update(S, N, X, level, p, buf, hi, nr[0], nr[1], 1.0)


@njit(cache=True)
def _add_nz(F, row, p, dnz, fresh):
    if fresh:
        F[row, p] = dnz
    else:
        F[row, p] += dnz


@njit(cache=True)
def init_nodes(S, N, X, buf):
    """Norms², Z sums and ‖Z‖² of the initial configuration, and this shard's nodes added to ZA
    (which holds the other shards' Z_all on entry; node-level mode only)."""
    G, cnt, P, F = S.G, S.cnt, S.P, N.F
    W = _work(buf)
    for level in (0, 2):
        on = P[ON1] if level == 0 else P[ON2]
        if on == 0.0:
            continue
        cl, zl, frow, nzrow, _ = _node_rows(level)
        which = 0 if level == 0 else 1  # children: live sub-entities or live entities
        perm = SUB_PERM + 2 * which
        for i in range(cnt[which]):
            node_hook(S, N, X, W, level, G[perm, i])
        w = P[W0 + level]
        for i in range(cnt[which]):
            c = G[perm, i]
            p = _parent(G, level, c)
            hi = _members(G, cl, c, buf, X.n)
            d = W.wk[0:2]
            d[:] = 0.0
            block_dots(S.kv, zl, p, buf, X.n, hi, X, d)
            rw = 1.0 / np.sqrt(F[frow, c]) if F[frow, c] > 1e-300 else 0.0
            rs = 1.0 / np.sqrt(F[frow + 1, c]) if F[frow + 1, c] > 1e-300 else 0.0
            F[nzrow, p] += d[0] * rw + w * d[1] * rs


@njit(cache=True)
def _rehook(S, N, X, W, level, old, new, parent, new_parent, fresh):
    """After a move among the nodes of `level` (0: sub-entities in entities, 2: entities in super-entities):
    hook the old node again if it kept members, hook the new one, and add the parents' ‖Z‖² changes
    W.sc[level // 2] (old parent, new parent; `fresh`: the new parent was created by the move)."""
    G, F = S.G, N.F
    sc = W.sc[level // 2]
    child_size = SUB_SIZE if level == 0 else ENT_SIZE
    parent_size = ENT_SIZE if level == 0 else SUP_SIZE
    nzrow = _node_rows(level)[3]
    if G[child_size, old] > 0:
        node_hook(S, N, X, W, level, old)
    node_hook(S, N, X, W, level, new)
    if G[parent_size, parent] > 0:
        F[nzrow, parent] += sc[0]
    if new_parent != parent:
        _add_nz(F, nzrow, new_parent, sc[1], fresh)


@njit(cache=True)
def _node_mention_move(S, N, X, W, m, node0, node2):
    """`_apply_mention_move` to W.dst with the node-level structures kept up to date (unhook, move, hook)."""
    G, buf = S.G, W.buf
    e, u, a = _groups(G, m)
    e2, u2, a2 = W.dst[0], W.dst[1], W.dst[2]
    cross = e2 != e
    if node0:
        node_unhook(S, N, X, buf, 0, u)
        node_unhook(S, N, X, buf, 0, u2)
    if node2 and cross:
        node_unhook(S, N, X, buf, 2, e)
        node_unhook(S, N, X, buf, 2, e2)
    _apply_mention_move(S, X, m, W.dst)
    nu, ne, na = G[M_SUB, m], G[SUB_ENT, G[M_SUB, m]], G[ENT_SUP, G[SUB_ENT, G[M_SUB, m]]]
    if node0:
        _rehook(S, N, X, W, 0, u, nu, e, ne, e2 < 0)
    if node2 and cross:
        _rehook(S, N, X, W, 2, e, ne, a, na, a2 < 0)


@njit(cache=True)
def _node_sub_move(S, N, X, W, u, e2, a2, k, node0, node2):
    """`_apply_sub_move` with the node-level structures kept up to date (unhook, move, hook)."""
    G, F, buf = S.G, N.F, W.buf
    e = G[SUB_ENT, u]
    a = G[ENT_SUP, e]
    if node0:
        node_unhook(S, N, X, buf, 0, u)
    if node2:
        node_unhook(S, N, X, buf, 2, e)
        node_unhook(S, N, X, buf, 2, e2)
    _apply_sub_move(S, X, u, e2, a2, buf, k)
    ne = G[SUB_ENT, u]
    na = G[ENT_SUP, ne]
    if node0:
        node_hook(S, N, X, W, 0, u)
        if G[ENT_SIZE, e] > 0:
            F[F_NZE, e] += W.sc[0, 0]
        _add_nz(F, F_NZE, ne, W.sc[0, 1], e2 < 0)
    if node2:
        _rehook(S, N, X, W, 2, e, ne, a, na, e2 < 0)
