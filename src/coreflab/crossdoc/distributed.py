"""Rounds of sharded MCMC with redistribution, on Dask distributed (Singh et al. 2011 §3, §4.2).

Each round: (1) partition the units over K shards — entities at random for the flat and
sub-entity models, super-entities for the models with super-entities (§4.2: "all entities in
the same super-entity are assigned to the same machine"); (2) every shard runs
`samples_per_round` local proposals (`shard.run_shard`) on a worker; (3) the results are
merged into one global configuration, which is scored (B3) for the convergence curves.

Seeds: the redistribution of round r uses SeedSequence([seed, r]) and shard k of round r
uses SeedSequence([seed, r, k + 1]), so results do not depend on which worker runs what or
in which order: the Dask run equals the serial run of the same shards bit for bit.
"""

import time
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from coreflab.crossdoc.b3 import b3_scores
from coreflab.crossdoc.shard import ModelParams, run_shard
from coreflab.errors import UserError


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


def _seed(*parts):
    return int(np.random.SeedSequence(list(parts)).generate_state(1, dtype=np.uint32)[0] & 0x7FFFFFFF)


class SerialExecutor:
    """Runs the shards one after another in this process (the single-machine chain)."""

    workers = 1

    def __init__(self, data):
        self.data = data

    def map_shards(self, calls):
        return [run_shard(self.data, *call) for call in calls]

    def close(self):
        pass


class DaskExecutor:
    """Runs the shards of a round as Dask tasks; the corpus is broadcast to workers once."""

    def __init__(self, client, data):
        self.client = client
        self.workers = max(1, len(client.scheduler_info()["workers"]))
        self.data = client.scatter(data, broadcast=True)

    def map_shards(self, calls):
        futures = [self.client.submit(run_shard, self.data, *call, pure=False) for call in calls]
        return self.client.gather(futures)

    def close(self):
        pass


def start_client(scheduler, workers):
    """A Dask client: `local` starts a LocalCluster of `workers` single-threaded processes."""
    from dask.distributed import Client, LocalCluster

    if scheduler == "local":
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               dashboard_address=":0", memory_limit=0)
        return Client(cluster)
    try:
        return Client(scheduler, timeout="30s")
    except (OSError, TimeoutError, ValueError) as err:
        raise UserError(f"cannot reach the Dask scheduler at {scheduler!r} ({err}); "
                        f"start one (dask scheduler / dask-jobqueue) or use --scheduler local") from None


def initial_groups(corpus, init, model="flat"):
    """(m_sub, sub_ent, ent_sup) for singletons or exact-string clusters (§2.2, §5.3).

    Sub-entities start as singletons in both cases: a sub-entity of a whole string cluster
    makes every block move cost O(cluster size · nnz), which on these machines cost more than
    the sub-entity sampling (type-0 moves) needs to rebuild them.
    """
    n = len(corpus)
    if init == "singletons":
        ident = np.arange(n, dtype=np.int64)
        return ident, ident.copy(), ident.copy()
    if init == "string":
        _, ent = np.unique(corpus.strings, return_inverse=True)
        ent = ent.astype(np.int64)
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


def run_inference(corpus, config, executor, shards=None, callback=None):
    """Run `config.rounds` rounds on `shards` shards (default: the executor's workers).

    Returns (entity label per mention, trace DataFrame with one row per round: wall-clock
    seconds, B3 P/R/F1, entity count, proposals, accepted moves, per-shard sampling time).
    """
    k = shards or executor.workers
    p = config.params
    m_sub, sub_ent, ent_sup = initial_groups(corpus, config.init, p.model)
    n = len(corpus)
    rows = []
    ent = entity_labels(m_sub, sub_ent)
    rows.append(_trace_row(0, 0.0, ent, corpus.gold, 0, 0, 0.0, 0.0, k))
    elapsed = 0.0
    by_super = p.model in ("super", "hier")
    ratio = config.t_stop / config.t_start
    for r in range(config.rounds):
        start = time.perf_counter()
        rng = np.random.default_rng(_seed(config.seed, r))
        unit_of_mention = ent_sup[sub_ent[m_sub]] if by_super else sub_ent[m_sub]
        unit_size = np.bincount(unit_of_mention)
        shard_of_unit = partition(unit_size, k, rng)
        shard_of_mention = shard_of_unit[unit_of_mention]
        order = np.argsort(shard_of_mention, kind="stable")
        bounds = np.searchsorted(shard_of_mention[order], np.arange(k + 1))
        t0 = config.t_start * ratio ** (r / config.rounds)
        t1 = config.t_start * ratio ** ((r + 1) / config.rounds)
        calls = []
        for s in range(k):
            ids = order[bounds[s]:bounds[s + 1]]
            ls, le, la = _local_groups(m_sub[ids], sub_ent, ent_sup)
            calls.append((ids, ls, le, la, p, config.samples_per_round, t0, t1, _seed(config.seed, r, s + 1)))
        results = executor.map_shards(calls)
        m_sub, sub_ent, ent_sup = _merge(n, [c[0] for c in calls], results)
        elapsed += time.perf_counter() - start
        ent = entity_labels(m_sub, sub_ent)
        rows.append(_trace_row(r + 1, elapsed, ent, corpus.gold, sum(x["proposals"] for x in results),
                               sum(x["accepted"] for x in results),
                               max(x["sample_seconds"] for x in results),
                               sum(x["sample_seconds"] for x in results), k))
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
    sub_parts, ent_parts, sup_parts = [], [], []
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


def _trace_row(r, seconds, ent, gold, proposals, accepted, max_shard_s, sum_shard_s, k):
    p, rc, f = b3_scores(ent, gold)
    return {"round": r, "seconds": seconds, "b3_p": p, "b3_r": rc, "b3_f1": f,
            "entities": int(len(np.unique(ent))), "proposals": proposals, "accepted": accepted,
            "max_shard_seconds": max_shard_s, "sum_shard_seconds": sum_shard_s, "workers": k}
