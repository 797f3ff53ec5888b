"""Run the cross-document sampler on Dask workers that are SLURM jobs; compare with serial.

    python tests/cluster/crossdoc_on_slurm.py tcp://HOST:PORT

Singh et al. (2011) distribute entities over machines and redistribute them between rounds;
coreflab.papers.singh2011.distributed seeds every shard of every round from (seed, round, shard), so
the run on a Dask cluster must equal the serial run of the same shards bit for bit. This
connects to the scheduler of a dask-jobqueue SLURMCluster (started by slurm_check.sh with
profiles/slurm/dask_cluster.py), runs a few rounds on the tiny synthetic cross-document
corpus with two shards there and in this process, and exits 0 only if the entity labels and
the B3 trace are identical. Exit 3 when coreflab.crossdoc is not importable yet.
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    try:
        import numpy as np

        from coreflab.papers.singh2011.distributed import (
            DaskExecutor,
            InferenceConfig,
            SerialExecutor,
            run_inference,
            start_client,
        )
        from coreflab.papers.singh2011.synthetic import config_for, generate
    except ImportError as err:
        print(f"crossdoc_on_slurm: coreflab.crossdoc not available ({err})", file=sys.stderr)
        return 3

    corpus = generate(config_for("tiny", seed=1))
    cfg = InferenceConfig(rounds=3, samples_per_round=2_000, seed=7)
    data = corpus.features()
    serial_labels, serial_trace = run_inference(corpus, cfg, SerialExecutor(data), shards=2)
    client = start_client(argv[0], 1)
    try:
        import os

        where = sorted(set(client.run(lambda: os.environ.get("SLURM_JOB_ID")).values()), key=str)
        labels, trace = run_inference(corpus, cfg, DaskExecutor(client, data), shards=2)
    finally:
        client.close()
    cols = [c for c in serial_trace.columns if c.startswith("b3") or c in ("entities", "accepted", "proposals")]
    same = np.array_equal(labels, serial_labels) and serial_trace[cols].equals(trace[cols])
    f1 = [c for c in cols if "f" in c.lower()]
    print(
        f"crossdoc on SLURM workers (jobs {where}): {len(corpus)} mentions, 2 shards, "
        f"{cfg.rounds} rounds; final {f1[0] if f1 else 'b3'} = "
        f"{float(trace[f1[0]].iloc[-1]) if f1 else float('nan'):.4f}; "
        f"identical to the serial run: {same}"
    )
    if None in where or not where:
        print("crossdoc_on_slurm: a worker runs outside SLURM", file=sys.stderr)
        return 1
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
