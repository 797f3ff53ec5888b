"""`coreflab singh2011 run`: distributed MCMC cross-document coreference on Dask (Singh et al. 2011).

`--scheduler local` starts a LocalCluster of `--workers` single-threaded processes; an address
(tcp://host:8786) joins a running cluster (started by `dask scheduler` + `dask worker`, or by
dask-jobqueue on SLURM). Writes the per-round trace (CSV) and the final entity labels (.npy).
`--within-topic` (ECB+) runs one chain per topic, so no entity crosses a topic; the trace's
`setting` column and the run label (suffix `_within`) keep it apart in Table 2.
`--prior-from` reads the prior tuned on held-out entities (`singh2011 calibrate`): its b and w,
and its held-out entities, which this run leaves out (it is evaluated on the rest; the trace's
`heldout_entities` and `heldout_mentions` say how many were held out). The trace's last row also
carries the entity-level log p of the final state, of the gold state and
of the string-match state under the run's prior, the measurement behind "does the model prefer
the truth to string match?".
`--seeds` runs the same chain again with each other seed in the same job (the corpus, the Dask
cluster and the compiled kernels are set up once), after the `--seed` chain: the trace holds
every seed's rounds, told apart by its `seed` column, the `--seed` rounds first and exactly as
without `--seeds`; the labels and the log-probabilities stay the `--seed` chain's.
"""

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd

from coreflab.arg_types import at_least
from coreflab.errors import UserError
from coreflab.papers.singh2011.arguments import add_model_arguments, model_params
from coreflab.papers.singh2011.data import CrossdocCorpus
from coreflab.papers.singh2011.distributed import (
    DaskExecutor,
    InferenceConfig,
    SerialExecutor,
    run_inference,
    start_client,
)
from coreflab.papers.singh2011.tuning import entity_log_score, evaluation_corpus, heldout_counts, state_scores
from coreflab.report.io import atomic_write_text
from coreflab.seeds import seed_order


def add_arguments(p):
    p.add_argument("--corpus", required=True, help="cross-document corpus .npz (singh2011 synth, singh2011 ecbplus)")
    add_model_arguments(p)
    p.add_argument("--init", choices=["singletons", "string"], default="singletons")
    p.add_argument(
        "--within-topic",
        action="store_true",
        help="ECB+ within-topic setting: one chain per topic, so mentions corefer only within "
        "their topic (scored over the whole corpus); default: whole corpus",
    )
    p.add_argument("--scheduler", default="local", help="'local' (LocalCluster), 'serial' (no Dask) or an address")
    p.add_argument("--workers", type=at_least(1), default=2, help="K: shards per round (and LocalCluster workers)")
    p.add_argument("--rounds", type=at_least(1), default=10)
    p.add_argument("--samples-per-round", type=at_least(1), default=100_000, help="proposals per worker per round")
    p.add_argument("--t-start", type=float, default=0.05)
    p.add_argument("--t-stop", type=float, default=0.0005)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--seeds",
        type=int,
        nargs="*",
        default=[],
        help="after the --seed chain, run it again with each of these seeds (other than --seed) in "
        "the same job and add their rounds to the trace (column `seed`), for the figures' spread "
        "over seeds; labels and log p stay --seed's",
    )
    p.add_argument("--corpus-name", default="", help="corpus name written into the trace")
    p.add_argument("--label", default="", help="run label written into the trace (e.g. flat_K2)")
    p.add_argument("--trace", required=True, help="per-round trace CSV")
    p.add_argument("--labels", default=None, help="final entity label per mention (.npy)")


def run(args):
    if args.workers < 1 or args.rounds < 1 or args.samples_per_round < 1:
        raise UserError("--workers, --rounds and --samples-per-round must be positive")
    if not 0 < args.t_stop <= args.t_start:
        raise UserError("need 0 < --t-stop <= --t-start")
    corpus = evaluation_corpus(CrossdocCorpus.load(args.corpus), args.prior_from)
    if args.within_topic and len(np.unique(corpus.topic)) < 2:
        raise UserError(
            f"{args.corpus}: --within-topic needs a corpus with topics (ECB+); this one has a single "
            f"topic, so within-topic equals one unsharded chain"
        )
    config = InferenceConfig(
        params=model_params(args),
        rounds=args.rounds,
        samples_per_round=args.samples_per_round,
        t_start=args.t_start,
        t_stop=args.t_stop,
        init=args.init,
        seed=args.seed,
        within_topic=args.within_topic,
    )
    data = corpus.features()
    client = None
    if args.scheduler == "serial":
        executor = SerialExecutor(data)
    else:
        client = start_client(args.scheduler, args.workers)
        executor = DaskExecutor(client, data)
    executor.warm_up(config.params)
    extra_seeds = seed_order(args.seed, args.seeds)[1:]
    try:
        labels, trace = run_inference(
            corpus, config, executor, shards=args.workers, callback=lambda row: print(json.dumps(row), flush=True)
        )
        extra = [(seed, _run_seed(corpus, replace(config, seed=seed), executor, args.workers)) for seed in extra_seeds]
    finally:
        if client is not None:
            cluster = getattr(client, "cluster", None)
            client.close()
            if cluster is not None and args.scheduler == "local":
                cluster.close()
    scores = state_scores(
        corpus, config.params.bias, config.params.string_weight, corpus.topic if args.within_topic else None
    )
    scores["log_p"] = entity_log_score(corpus, labels, config.params.bias, config.params.string_weight)
    trace = _label_trace(trace, args, corpus, config, args.seed, scores)
    if extra:
        trace = pd.concat(
            [trace] + [_label_trace(t, args, corpus, config, seed, dict.fromkeys(scores)) for seed, t in extra],
            ignore_index=True,
        )
    atomic_write_text(args.trace, trace.to_csv(index=False, lineterminator="\n"))
    if args.labels:
        tmp = Path(args.labels).with_name(f".{Path(args.labels).name}.tmp.npy")
        np.save(tmp, labels)
        tmp.replace(args.labels)
    return 0


def _run_seed(corpus, config, executor, shards):
    """The trace of one more chain with `config.seed` (its labels are not kept)."""

    def show(row):
        print(json.dumps({"seed": config.seed, **row}), flush=True)

    return run_inference(corpus, config, executor, shards=shards, callback=show)[1]


def _label_trace(trace, args, corpus, config, seed, scores):
    """The run's identity columns, its prior, the seed and the last round's log-probabilities
    (`scores`; None: not measured, the extra seeds)."""
    suffix = "_within" if args.within_topic else ""
    ctx = "_union" if args.context == "union" else ""
    trace.insert(0, "run", args.label or f"{args.model}{ctx}_K{args.workers}{suffix}")
    trace.insert(1, "model", args.model)
    trace.insert(2, "context", args.context)
    trace.insert(3, "corpus", args.corpus_name or corpus.name)
    trace.insert(4, "init", args.init)
    trace.insert(5, "setting", "within topic" if args.within_topic else "whole corpus")
    trace.insert(6, "seed", seed)
    trace["bias"] = config.params.bias
    trace["string_weight"] = config.params.string_weight
    trace["mentions"] = len(corpus)
    if args.prior_from:
        trace["heldout_entities"], trace["heldout_mentions"] = heldout_counts(args.prior_from)
    for key, value in scores.items():
        trace[key] = np.nan
        if value is not None:
            trace.loc[trace.index[-1], key] = value
    trace["proposals_per_s_per_worker"] = trace["proposals"] / trace["sum_shard_seconds"].where(
        trace["sum_shard_seconds"] > 0
    )
    return trace
