"""Rounds of sharded MCMC with redistribution, on Dask distributed (Singh et al. 2011 §3, §4.2).

Each round: (1) partition the units over K shards — entities at random for the flat and
sub-entity models, super-entities for the models with super-entities (§4.2: "all entities in
the same super-entity are assigned to the same machine"); (2) every shard runs
`samples_per_round` local proposals (`shard.run_shard`) on a worker; (3) the results are
merged into one global configuration, which is scored (B3) for the convergence curves.

Within-topic setting (ECB+, `InferenceConfig.within_topic`): the shards are the topics
themselves, fixed for the whole run, one chain each, so mentions corefer only within their
topic; the result is still one labelling of the whole corpus and is scored over all of it.

Throughput: the corpus is sent to the workers once; a round ships O(n/K) int64 arrays each
way, one task per worker pinned to it (`DaskExecutor`). The trace times every phase of a round
(client prepare, round trip, worker build/sample/compact, merge) so fixed costs are visible.

Node-level (union) factors (`nodelevel`): their repulsion pairs every node of a level with every
other, across shards, so each round also sends every shard Z_all (the sum of all nodes' normalised
contexts) and the node counts as of the start of the round (`union_totals`); a shard adds its own
changes to them. With K > 1 the union-form round is therefore not exactly one chain with a
restricted proposer (the pairwise form is): a shard does not see the other shards' changes
during the round. Within-topic chains keep the repulsion among their own topic's nodes.

Seeds: the redistribution of round r uses SeedSequence([seed, r]) and shard k of round r
uses SeedSequence([seed, r, k + 1]) (k: shard or topic index), so results do not depend on which worker runs what or
in which order: the Dask run equals the serial run of the same shards bit for bit.
"""

import time
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import scipy.sparse as sp

from coreflab.errors import UserError
from coreflab.papers.singh2011.b3 import b3_scores
from coreflab.papers.singh2011.baselines import string_match_labels
from coreflab.papers.singh2011.shard import ModelParams, run_batch, run_shard, warm_up


@dataclass(frozen=True)
class InferenceConfig:
    """Rounds, samples per round per worker, annealing schedule, initialisation, seed."""

    params: ModelParams = field(default_factory=ModelParams)
    rounds: int = 10
    samples_per_round: int = 100_000
    t_start: float = 1.0
    t_stop: float = 0.01
    init: str = "singletons"  # singletons | string
    seed: int = 1
    within_topic: bool = False  # one chain per topic (ECB+ within-topic setting)


def _seed(*parts):
    return int(np.random.SeedSequence(list(parts)).generate_state(1, dtype=np.uint32)[0] & 0x7FFFFFFF)


def with_norms(data):
    """(X, strf, nfeat, ‖x_m‖²): the squared row norms (the self term φ(m, m)) computed once."""
    X = data[0]
    return tuple(data[:3]) + (np.asarray(X.multiply(X).sum(axis=1), dtype=np.float64).ravel(),)


class SerialExecutor:
    """Runs the shards one after another in this process (the single-machine chain)."""

    workers = 1

    def __init__(self, data):
        self.data = with_norms(data)

    def map_shards(self, calls):
        return [run_shard(self.data, *call) for call in calls]

    def warm_up(self, params):
        """Compile (or load) the kernels here before the clock starts, as on Dask workers."""
        warm_up(params)

    def close(self):
        pass


class DaskExecutor:
    """Runs the shards of a round as Dask tasks, one task per worker, pinned to that worker.

    The corpus (CSR arrays, string ids, norms) stays resident on every worker as one scattered
    future, so a round ships only each shard's mention ids and compact group arrays (O(n/K)
    int64 each way); shard state itself cannot stay resident because redistribution moves
    entities between shards every round (§3).

    Pinning matters: submitted freely, Dask's scheduler put both shards of a round on the same
    worker in about half of the rounds (the data is on both, so neither is preferred, and the
    task durations are unknown), which ran them one after the other and was the main loss of
    the K=2 runs (round trip = sum, not max, of the shard times). The calls are packed into one
    batch per worker, largest first onto the least-loaded worker (proposals as cost), so K equal
    shards go one to each worker and many topic chains (within-topic) are balanced too.
    """

    def __init__(self, client, data):
        self.client = client
        self.addresses = sorted(client.scheduler_info()["workers"])
        self.workers = max(1, len(self.addresses))
        # hash=False: a unique key per executor, so releasing an earlier executor's copy of the same
        # corpus (same content hash) can never drop the data this one is using
        self.data = client.scatter(with_norms(data), broadcast=True, hash=False)

    def map_shards(self, calls):
        batches = pack_calls([c[5] for c in calls], len(self.addresses))
        futures = []
        for w, batch in enumerate(batches):
            if not batch:
                continue
            # the round's arrays go straight to their worker (scatter), not inside the task spec
            # through the scheduler; on the 1.5M-mention corpus that was ~4 s of every round
            args = self.client.scatter(
                [[calls[i] for i in batch]], workers=[self.addresses[w]], hash=False, direct=True
            )[0]
            futures.append(
                self.client.submit(
                    run_batch, self.data, args, pure=False, workers=[self.addresses[w]], allow_other_workers=False
                )
            )
        results = [None] * len(calls)
        for batch, out in zip([b for b in batches if b], self.client.gather(futures, direct=True)):
            for i, res in zip(batch, out):
                results[i] = res
        return results

    def warm_up(self, params):
        """Compile (or load from numba's cache) the kernels on every worker before the clock starts."""
        self.client.run(warm_up, params)

    def close(self):
        pass


def pack_calls(costs, workers):
    """Indices of the calls per worker: largest cost first onto the least-loaded worker."""
    batches = [[] for _ in range(max(1, workers))]
    load = np.zeros(len(batches))
    for i in np.argsort(-np.asarray(costs, dtype=np.float64), kind="stable"):
        w = int(np.argmin(load))
        batches[w].append(int(i))
        load[w] += costs[i]
    return [sorted(b) for b in batches]


def start_client(scheduler, workers):
    """A Dask client: `local` starts a LocalCluster of `workers` single-threaded processes."""
    from dask.distributed import Client, LocalCluster

    if scheduler == "local":
        cluster = LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0", memory_limit=0
        )
        return Client(cluster)
    try:
        return Client(scheduler, timeout="30s")
    except (OSError, TimeoutError, ValueError) as err:
        raise UserError(
            f"cannot reach the Dask scheduler at {scheduler!r} ({err}); "
            f"start one (dask scheduler / dask-jobqueue) or use --scheduler local"
        ) from None


def initial_groups(corpus, init, model="flat", blocks=None):
    """(m_sub, sub_ent, ent_sup) for singletons or exact-string clusters (§2.2, §5.3).

    With `blocks` (topic per mention, within-topic setting) a string cluster is one string
    within one topic, so the initial state already respects the blocking.

    Sub-entities start as singletons in both cases: a sub-entity of a whole string cluster
    makes every block move cost O(cluster size · nnz), which on these machines cost more than
    the sub-entity sampling (type-0 moves) needs to rebuild them.
    """
    n = len(corpus)
    if init == "singletons":
        ident = np.arange(n, dtype=np.int64)
        return ident, ident.copy(), ident.copy()
    if init == "string":
        _, ent = np.unique(string_match_labels(corpus, blocks=blocks), return_inverse=True)
        ent = ent.reshape(-1).astype(np.int64)
        ne = int(ent.max()) + 1 if n else 0
        return np.arange(n, dtype=np.int64), ent.copy(), np.arange(ne, dtype=np.int64)
    raise UserError(f"unknown initialisation {init!r} (expected singletons or string)")


def partition(units_size, k, rng):
    """Assign units to k shards: random order, each to the currently lightest shard."""
    order = rng.permutation(len(units_size))
    shard = np.empty(len(units_size), dtype=np.int64)
    load = np.zeros(k, dtype=np.int64)
    for u in order:  # per unit (entity or super-entity), not per mention
        s = int(np.argmin(load))
        shard[u] = s
        load[s] += units_size[u]
    return shard


def entity_labels(m_sub, sub_ent):
    return sub_ent[m_sub]


def shard_calls(k, unit_of_mention, rng, blocks=None, samples=1):
    """(mention ids, proposals) per chain of one round.

    Whole-corpus: units (entities or super-entities) go to k shards (`partition`), each with
    `samples` proposals. Within-topic (`blocks` = topic per mention): one chain per topic, so no
    proposal can join mentions of two topics; the round's k·samples proposals are split over the
    topics in proportion to their mentions (largest remainder), so both settings do the same
    work per mention. Dask spreads the topic chains over the k workers.
    """
    if blocks is None:
        unit_size = np.bincount(unit_of_mention)
        shard_of_mention = partition(unit_size, k, rng)[unit_of_mention]
        order = np.argsort(shard_of_mention, kind="stable")
        bounds = np.searchsorted(shard_of_mention[order], np.arange(k + 1))
        return [(order[bounds[s] : bounds[s + 1]], samples) for s in range(k)]
    _, block = np.unique(blocks, return_inverse=True)
    order = np.argsort(block, kind="stable")
    sizes = np.bincount(block)
    bounds = np.concatenate([[0], np.cumsum(sizes)])
    share = k * samples * sizes / sizes.sum()
    alloc = np.floor(share).astype(np.int64)
    rest = int(k * samples - alloc.sum())
    alloc[np.argsort(-(share - alloc), kind="stable")[:rest]] += 1
    return [(order[bounds[b] : bounds[b + 1]], int(alloc[b])) for b in range(len(sizes))]


def _inverse_norms(X, strings, node):
    """1/‖C_c‖ (words) and 1/‖σ_c‖ (strings) per node c (0 for an empty part), C_c = Σ_{m∈c} x_m,
    σ_c the node's string counts; `node`: node id per mention."""
    k = int(node.max()) + 1
    onehot = sp.csr_matrix((np.ones(len(node)), (node, np.arange(len(node)))), shape=(k, len(node)))
    C = onehot @ X
    words = np.asarray(C.multiply(C).sum(axis=1)).ravel()
    pairs, counts = np.unique(np.stack([node, strings]), axis=1, return_counts=True)
    strs = np.bincount(pairs[0], weights=counts.astype(np.float64) ** 2, minlength=k)

    def inv(x):
        return np.divide(1.0, np.sqrt(x), out=np.zeros_like(x), where=x > 1e-300)

    return inv(words), inv(strs)


def union_totals(corpus, params, m_sub, sub_ent):
    """(Z_all, node counts) of the node levels of a configuration: Z_all[0] = Σ of the sub-entities'
    normalised contexts (words, then strings: the sampler's feature space), Z_all[1] = that of the
    entities; counts = (sub-entities, entities). None when the model has no node level."""
    on0 = params.model in ("sub", "hier")
    on2 = params.model in ("super", "hier")
    if params.context != "union" or not (on0 or on2) or len(corpus) == 0:
        return None
    X, strings = corpus.X, corpus.strings
    nvocab = X.shape[1]
    nfeat = corpus.features()[2]
    Z = np.zeros((2, nfeat))
    counts = np.zeros(2, dtype=np.int64)
    for row, (on, node) in enumerate([(on0, m_sub), (on2, sub_ent[m_sub])]):
        if not on:
            continue
        _, node = np.unique(node, return_inverse=True)
        node = node.reshape(-1)
        rw, rs = _inverse_norms(X, strings, node)
        Z[row, :nvocab] = X.T @ rw[node]
        Z[row, nvocab:] = np.bincount(strings, weights=rs[node], minlength=nfeat - nvocab)
        counts[row] = int(node.max()) + 1
    return Z, counts


def run_inference(corpus, config, executor, shards=None, callback=None):
    """Run `config.rounds` rounds on `shards` shards (default: the executor's workers).

    Returns (entity label per mention, trace DataFrame with one row per round). `seconds` is
    the cumulative wall-clock of inference: partitioning and packing on the client, the Dask
    round trip (workers build their shard, sample, compact), and merging; the B3 evaluation of
    each round is timed separately (`score_seconds`) and not counted. Per round the trace also
    splits the time into these phases, so the fixed cost of a round can be read off.
    """
    k = shards or executor.workers
    p = config.params
    blocks = corpus.topic if config.within_topic else None
    m_sub, sub_ent, ent_sup = initial_groups(corpus, config.init, p.model, blocks=blocks)
    n = len(corpus)
    rows = []
    ent = entity_labels(m_sub, sub_ent)
    rows.append(_trace_row(0, 0.0, ent, corpus.gold, [], k, {}))
    elapsed = 0.0
    by_super = p.model in ("super", "hier")
    ratio = config.t_stop / config.t_start
    for r in range(config.rounds):
        start = time.perf_counter()
        rng = np.random.default_rng(_seed(config.seed, r))
        unit_of_mention = ent_sup[sub_ent[m_sub]] if by_super else sub_ent[m_sub]
        t0 = config.t_start * ratio ** (r / config.rounds)
        t1 = config.t_start * ratio ** ((r + 1) / config.rounds)
        calls = []
        # union form over several shards: Z_all and the node counts at the start of the round
        zall = union_totals(corpus, p, m_sub, sub_ent) if k > 1 and blocks is None else None
        for s, (ids, samples) in enumerate(shard_calls(k, unit_of_mention, rng, blocks, config.samples_per_round)):
            ls, le, la = _local_groups(m_sub[ids], sub_ent, ent_sup)
            calls.append((ids, ls, le, la, p, samples, t0, t1, _seed(config.seed, r, s + 1), zall))
        sent = time.perf_counter()
        results = executor.map_shards(calls)
        back = time.perf_counter()
        m_sub, sub_ent, ent_sup = _merge(n, [c[0] for c in calls], results)
        done = time.perf_counter()
        elapsed += done - start
        ent = entity_labels(m_sub, sub_ent)
        phases = {"prepare_seconds": sent - start, "roundtrip_seconds": back - sent, "merge_seconds": done - back}
        rows.append(_trace_row(r + 1, elapsed, ent, corpus.gold, results, k, phases))
        rows[-1]["score_seconds"] = time.perf_counter() - done
        if callback is not None:
            callback(rows[-1])
    return entity_labels(m_sub, sub_ent), pd.DataFrame(rows)


def _local_groups(m_sub_ids, sub_ent, ent_sup):
    """Compact local ids (first-seen order) for the mentions of one shard."""
    subs, ls = np.unique(m_sub_ids, return_inverse=True)
    ents, le = np.unique(sub_ent[subs], return_inverse=True)
    sups, la = np.unique(ent_sup[ents], return_inverse=True)
    return ls.astype(np.int64), le.astype(np.int64), la.astype(np.int64)


def _merge(n, id_lists, results):
    """Global compact groups from the shards' local ones (offset per shard)."""
    m_sub = np.empty(n, dtype=np.int64)
    sub_parts, ent_parts = [], []
    so = eo = ao = 0
    for ids, res in zip(id_lists, results):
        m_sub[ids] = res["m_sub"] + so
        sub_parts.append(res["sub_ent"] + eo)
        ent_parts.append(res["ent_sup"] + ao)
        so += len(res["sub_ent"])
        eo += len(res["ent_sup"])
        ao += int(res["ent_sup"].max()) + 1 if len(res["ent_sup"]) else 0
    empty = np.empty(0, dtype=np.int64)
    sub_ent = np.concatenate(sub_parts) if sub_parts else empty
    ent_sup = np.concatenate(ent_parts) if ent_parts else empty
    return m_sub, sub_ent, ent_sup


def _trace_row(r, seconds, ent, gold, results, k, phases):
    p, rc, f = b3_scores(ent, gold)

    def total(key):
        return float(sum(x.get(key, 0.0) for x in results))

    def most(key):
        return float(max((x.get(key, 0.0) for x in results), default=0.0))

    row = {
        "round": r,
        "seconds": seconds,
        "b3_p": p,
        "b3_r": rc,
        "b3_f1": f,
        "entities": int(len(np.unique(ent))),
        "proposals": int(total("proposals")),
        "accepted": int(total("accepted")),
        "max_shard_seconds": most("sample_seconds"),
        "sum_shard_seconds": total("sample_seconds"),
        "sum_shard_cpu_seconds": total("sample_cpu_seconds"),
        "max_shard_cpu_seconds": most("sample_cpu_seconds"),
        "max_build_seconds": most("build_seconds"),
        "max_worker_seconds": most("batch_seconds"),
        "max_compact_seconds": most("compact_seconds"),
        "prepare_seconds": 0.0,
        "roundtrip_seconds": 0.0,
        "merge_seconds": 0.0,
        "score_seconds": 0.0,
        "chains": len(results),
        "workers": k,
    }
    row.update(phases)
    return row
