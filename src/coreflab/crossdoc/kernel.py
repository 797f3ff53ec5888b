"""The Metropolis-Hastings hot loop of one shard (numba), Singh et al. (2011) §2.2 and §4.

The model (§2.1, §4.3) is a sum of three pairwise levels over mentions, each with its own
bias b_L and string weight w (§5.3: ψ = cos − b + w·STREQ):

    log p(e) = Σ_L on  Σ_{m<n} s_L(m, n) · (cos(m, n) + w·STREQ(m, n) − b_L),

with s_L = +1 (affinity) if m and n share a group at level L and −1 (repulsion) otherwise.
Level 0 = entities (always on), level 1 = sub-entities (nested in entities; bias higher),
level 2 = super-entities (groups of entities; bias lower). The paper gives no formula for the
hierarchy; this "every level is the pairwise model over the mentions it groups" form is
reconstructed from §4.3 ("each level ... modeled using similar factors ... the context of a
node is the union of its children's bags") and is documented in METHODS.md §5.

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
"""

import numpy as np
from numba import njit

from coreflab.crossdoc.hashsum import table_add, table_get, table_sub, table_touch

# rows of the int64 state matrix G (one column per local mention / group slot)
M_SUB, SUB_ENT, ENT_SUP = 0, 1, 2
SUB_SIZE, ENT_SIZE, SUP_SIZE = 3, 4, 5
SUB_HEAD, M_NEXT, M_PREV = 6, 7, 8
ENT_HEAD, S_NEXT, S_PREV = 9, 10, 11
SUB_PERM, SUB_POS, ENT_PERM, ENT_POS, SUP_PERM, SUP_POS = 12, 13, 14, 15, 16, 17
N_ROWS = 18
# parameter vector P (P_DEAD: |sum| at or below which a table cell is deleted; < 0: never)
B0, B1, B2, W0, W1, W2, ON0, ON1, ON2, P_NEW, P_DEAD = range(11)
N_PARAMS = 11

STATUS_DONE, STATUS_FULL = 0, 1


@njit(cache=True, inline="always")
def _key(level, group, feat, n, nfeat):
    return (level * n + group) * nfeat + feat


@njit(cache=True, inline="always")
def touch_group(kv, level, group, m, indptr, indices, strf, n, nfeat):
    """Load the home slots of all of m's cells in `group` before any probing: the loads are
    independent, so their cache misses overlap (memory-level parallelism) instead of being
    paid one after another inside the probe loops; the lookups that follow then hit the cache.
    Returns a finite dummy that callers multiply by 0.0 (0·x is not folded away without
    fast-math, so the loads stay). Measured: ~25% more proposals/s on the Person-X shard."""
    base = (level * n + group) * nfeat
    touched = table_touch(kv, base + strf[m])
    for j in range(indptr[m], indptr[m + 1]):
        touched += table_touch(kv, base + indices[j])
    return touched


@njit(cache=True)
def group_phi(kv, level, group, m, indptr, indices, data, strf, n, nfeat, b, w, size):
    """Σ_{n∈group} φ(m, n) at `level` (including n = m if m is in the group)."""
    base = (level * n + group) * nfeat
    s = 0.0 * touch_group(kv, level, group, m, indptr, indices, strf, n, nfeat)
    for j in range(indptr[m], indptr[m + 1]):
        s += data[j] * table_get(kv, base + indices[j])
    return s + w * table_get(kv, base + strf[m]) - b * size


@njit(cache=True)
def _move_sums(kv, used, level, src, dst, m, indptr, indices, data, strf, n, nfeat, eps):
    """Move mention m's vector (and string count) from group src to dst at `level` (-1: none).

    Cells of src whose sum drops to ~0 are deleted (hashsum docstring: only live cells stay)."""
    if src >= 0:
        base = (level * n + src) * nfeat
        for j in range(indptr[m], indptr[m + 1]):
            table_sub(kv, used, base + indices[j], data[j], eps)
        table_sub(kv, used, base + strf[m], 1.0, eps)
    if dst >= 0:
        base = (level * n + dst) * nfeat
        for j in range(indptr[m], indptr[m + 1]):
            table_add(kv, used, base + indices[j], data[j])
        table_add(kv, used, base + strf[m], 1.0)


@njit(cache=True)
def _alloc(G, cnt, which):
    perm, pos = SUB_PERM + 2 * which, SUB_POS + 2 * which
    g = G[perm, cnt[which]]
    cnt[which] += 1
    return g


@njit(cache=True)
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
def _link(G, head, nxt, prv, owner, item):
    first = G[head, owner]
    G[nxt, item] = first
    G[prv, item] = -1
    if first >= 0:
        G[prv, first] = item
    G[head, owner] = item


@njit(cache=True)
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
def _collect_entity(G, e, buf):
    k = 0
    u = G[ENT_HEAD, e]
    while u >= 0:
        k = _collect_sub(G, u, buf, k)
        u = G[S_NEXT, u]
    return k


@njit(cache=True)
def _block_cells(buf, k, indptr):
    """Upper bound on the table cells one level of a block move can insert."""
    c = 0
    for i in range(k):
        c += indptr[buf[i] + 1] - indptr[buf[i]] + 1
    return c


@njit(cache=True)
def _groups(G, m):
    u = G[M_SUB, m]
    e = G[SUB_ENT, u]
    return e, u, G[ENT_SUP, e]


@njit(cache=True)
def _size_row(level):
    return ENT_SIZE if level == 0 else (SUB_SIZE if level == 1 else SUP_SIZE)


@njit(cache=True)
def mention_move_delta(G, kv, P, m, dst, indptr, indices, data, strf, mnorm2, n, nfeat):
    """Δ log p of moving mention m to groups dst = (entity, sub, super); -1 = a new group."""
    src = _groups(G, m)
    delta = 0.0
    for level in range(3):
        if P[ON0 + level] == 0.0 or src[level] == dst[level]:
            continue
        b, w = P[B0 + level], P[W0 + level]
        row = _size_row(level)
        out = group_phi(kv, level, src[level], m, indptr, indices, data, strf, n, nfeat, b, w,
                        G[row, src[level]]) - (mnorm2[m] + w - b)
        into = 0.0
        if dst[level] >= 0:
            into = group_phi(kv, level, dst[level], m, indptr, indices, data, strf, n, nfeat, b, w,
                             G[row, dst[level]])
        delta += 2.0 * (into - out)
    return delta


@njit(cache=True)
def block_delta(kv, P, level, src, dst, src_size, dst_size, buf, k, within_level, within_group,
                within_size, indptr, indices, data, strf, mnorm2, n, nfeat):
    """Δ at `level` of moving the block buf[:k] (a whole group of `within_level`) from src to dst."""
    b, w = P[B0 + level], P[W0 + level]
    into = 0.0
    out = 0.0
    within = 0.0
    for i in range(k):
        m = buf[i]
        out += 0.0 * touch_group(kv, level, src, m, indptr, indices, strf, n, nfeat)  # overlaps with dst's
        if dst >= 0:
            into += group_phi(kv, level, dst, m, indptr, indices, data, strf, n, nfeat, b, w, dst_size)
        out += group_phi(kv, level, src, m, indptr, indices, data, strf, n, nfeat, b, w, src_size)
        if within_group < 0:  # singleton block without its own sums: φ(m, m)
            within += mnorm2[m] + w - b
        else:
            within += group_phi(kv, within_level, within_group, m, indptr, indices, data, strf, n, nfeat,
                                b, w, within_size)
    return 2.0 * (into - (out - within))


@njit(cache=True)
def run_moves(G, cnt, P, types, kv, used, buf, indptr, indices, data, strf, mnorm2, nfeat,
              n_samples, t_start, t_stop, seed, out_delta):
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
    n = G.shape[1]
    cap = kv.shape[0] // 2
    ntypes = types.shape[0]
    record = out_delta.shape[0] >= n_samples
    accepted = 0
    ratio = t_stop / t_start
    p_new = P[P_NEW]
    dst = np.empty(3, dtype=np.int64)
    limit = np.int64(cap * 0.6)
    t = t_start
    cool = ratio ** (1.0 / n_samples)
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
            m = np.random.randint(n)
            while G[M_SUB, m] < 0:  # not a mention of this shard (never happens: all columns are mentions)
                m = np.random.randint(n)
            e, u, a = _groups(G, m)
            r = np.random.random()
            if r < 0.5 * p_new:
                if G[SUB_SIZE, u] == 1:
                    continue
                dst[0], dst[1], dst[2] = e, -1, a
            elif r < p_new:
                # a singleton sub-entity going to a new entity is a block move (type 1); skipping
                # it here also keeps the number of live groups below the n slots
                if G[SUB_SIZE, u] == 1:
                    continue
                dst[0], dst[1], dst[2] = -1, -1, -1
            else:
                if cnt[0] < 2:
                    continue
                u2 = G[SUB_PERM, np.random.randint(cnt[0])]
                if u2 == u:
                    continue
                e2 = G[SUB_ENT, u2]
                dst[0], dst[1], dst[2] = e2, u2, G[ENT_SUP, e2]
            delta = mention_move_delta(G, kv, P, m, dst, indptr, indices, data, strf, mnorm2, n, nfeat)
            if delta < 0.0 and np.random.random() >= np.exp(delta / t):
                continue
            _apply_mention_move(G, cnt, P, kv, used, m, dst, indptr, indices, data, strf, n, nfeat)
        elif kind == 1:
            u = G[SUB_PERM, np.random.randint(cnt[0])]
            e = G[SUB_ENT, u]
            a = G[ENT_SUP, e]
            if np.random.random() < p_new:
                if G[SUB_SIZE, u] == G[ENT_SIZE, e]:
                    continue
                e2, a2 = -1, -1
            else:
                if cnt[1] < 2:
                    continue
                e2 = G[ENT_PERM, np.random.randint(cnt[1])]
                if e2 == e:
                    continue
                a2 = G[ENT_SUP, e2]
            k = _collect_sub(G, u, buf, 0)
            need = 2 * _block_cells(buf, k, indptr)
            if used[0] + need > (cap * 9) // 10:
                used[1] = need
                return step, accepted, STATUS_FULL
            wg = u if P[ON1] != 0.0 else -1
            usz = G[SUB_SIZE, u]
            delta = block_delta(kv, P, 0, e, e2, G[ENT_SIZE, e], G[ENT_SIZE, e2] if e2 >= 0 else 0,
                                buf, k, 1, wg, usz, indptr, indices, data, strf, mnorm2, n, nfeat)
            if P[ON2] != 0.0 and a != a2:
                delta += block_delta(kv, P, 2, a, a2, G[SUP_SIZE, a], G[SUP_SIZE, a2] if a2 >= 0 else 0,
                                     buf, k, 1, wg, usz, indptr, indices, data, strf, mnorm2, n, nfeat)
            if delta < 0.0 and np.random.random() >= np.exp(delta / t):
                continue
            _apply_sub_move(G, cnt, P, kv, used, u, e2, a2, buf, k, indptr, indices, data, strf, n, nfeat)
        else:
            e = G[ENT_PERM, np.random.randint(cnt[1])]
            a = G[ENT_SUP, e]
            if np.random.random() < p_new:
                if G[ENT_SIZE, e] == G[SUP_SIZE, a]:
                    continue
                a2 = -1
            else:
                if cnt[2] < 2:
                    continue
                a2 = G[SUP_PERM, np.random.randint(cnt[2])]
                if a2 == a:
                    continue
            k = _collect_entity(G, e, buf)
            need = _block_cells(buf, k, indptr)
            if used[0] + need > (cap * 9) // 10:
                used[1] = need
                return step, accepted, STATUS_FULL
            delta = block_delta(kv, P, 2, a, a2, G[SUP_SIZE, a], G[SUP_SIZE, a2] if a2 >= 0 else 0,
                                buf, k, 0, e, G[ENT_SIZE, e], indptr, indices, data, strf, mnorm2, n, nfeat)
            if delta < 0.0 and np.random.random() >= np.exp(delta / t):
                continue
            if a2 < 0:
                a2 = _alloc(G, cnt, 2)
                G[SUP_SIZE, a2] = 0
            for i in range(k):
                _move_sums(kv, used, 2, a, a2, buf[i], indptr, indices, data, strf, n, nfeat, P[P_DEAD])
            G[ENT_SUP, e] = a2
            G[SUP_SIZE, a] -= k
            G[SUP_SIZE, a2] += k
            if G[SUP_SIZE, a] == 0:
                _release(G, cnt, 2, a)
        accepted += 1
        if record:
            out_delta[step] = delta
    return n_samples, accepted, STATUS_DONE


@njit(cache=True)
def _apply_mention_move(G, cnt, P, kv, used, m, dst, indptr, indices, data, strf, n, nfeat):
    e, u, a = _groups(G, m)
    e2, u2, a2 = dst[0], dst[1], dst[2]
    if a2 < 0:
        a2 = _alloc(G, cnt, 2)
        G[SUP_SIZE, a2] = 0
    if e2 < 0:
        e2 = _alloc(G, cnt, 1)
        G[ENT_SIZE, e2] = 0
        G[ENT_HEAD, e2] = -1
        G[ENT_SUP, e2] = a2
    if u2 < 0:
        u2 = _alloc(G, cnt, 0)
        G[SUB_SIZE, u2] = 0
        G[SUB_HEAD, u2] = -1
        G[SUB_ENT, u2] = e2
        _link(G, ENT_HEAD, S_NEXT, S_PREV, e2, u2)
    src = (e, u, a)
    tgt = (e2, u2, a2)
    for level in range(3):
        if P[ON0 + level] != 0.0 and src[level] != tgt[level]:
            _move_sums(kv, used, level, src[level], tgt[level], m, indptr, indices, data, strf, n, nfeat, P[P_DEAD])
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
    if G[ENT_SIZE, e] == 0:
        _release(G, cnt, 1, e)
    if G[SUP_SIZE, a] == 0:
        _release(G, cnt, 2, a)


@njit(cache=True)
def _apply_sub_move(G, cnt, P, kv, used, u, e2, a2, buf, k, indptr, indices, data, strf, n, nfeat):
    e = G[SUB_ENT, u]
    a = G[ENT_SUP, e]
    if e2 < 0:
        a2 = _alloc(G, cnt, 2)
        G[SUP_SIZE, a2] = 0
        e2 = _alloc(G, cnt, 1)
        G[ENT_SIZE, e2] = 0
        G[ENT_HEAD, e2] = -1
        G[ENT_SUP, e2] = a2
    for i in range(k):
        _move_sums(kv, used, 0, e, e2, buf[i], indptr, indices, data, strf, n, nfeat, P[P_DEAD])
        if P[ON2] != 0.0 and a != a2:
            _move_sums(kv, used, 2, a, a2, buf[i], indptr, indices, data, strf, n, nfeat, P[P_DEAD])
    _unlink(G, ENT_HEAD, S_NEXT, S_PREV, e, u)
    _link(G, ENT_HEAD, S_NEXT, S_PREV, e2, u)
    G[SUB_ENT, u] = e2
    G[ENT_SIZE, e] -= k
    G[ENT_SIZE, e2] += k
    G[SUP_SIZE, a] -= k
    G[SUP_SIZE, a2] += k
    if G[ENT_SIZE, e] == 0:
        _release(G, cnt, 1, e)
    if G[SUP_SIZE, a] == 0:
        _release(G, cnt, 2, a)
