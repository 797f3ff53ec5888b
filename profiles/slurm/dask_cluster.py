"""Start a Dask cluster whose workers are SLURM jobs, for `coreflab singh2011 run --scheduler`.

    pip install 'coreflab[slurm]'     # or: pip install dask-jobqueue
    python profiles/slurm/dask_cluster.py --jobs 4 --cores 4 --memory 16GB \\
        --walltime 04:00:00 --account my_account --partition my_partition \\
        --address-file dask-scheduler.txt
    coreflab singh2011 run ... --scheduler "$(cat dask-scheduler.txt)"

The cross-document sampler (Singh et al. 2011) distributes entities over Dask workers and
redistributes them between rounds; it needs nothing from SLURM except workers, so the
cluster is started once, outside Snakemake, with dask-jobqueue's SLURMCluster: each SLURM
job runs one `dask worker` process per `--processes`, and the scheduler runs here (a login
node or a small interactive job). The script prints the scheduler address, writes it to
`--address-file`, and keeps the cluster up until Ctrl-C or until --lifetime seconds pass;
SLURM ends the worker jobs at their walltime in any case.
"""

from __future__ import annotations

import argparse
import os
import sys
import time


def start_cluster(
    *,
    jobs: int,
    cores: int,
    processes: int,
    memory: str,
    walltime: str,
    partition: str | None = None,
    account: str | None = None,
    host: str | None = None,
    log_directory: str | None = None,
    local_directory: str | None = None,
):
    """A SLURMCluster scaled to `jobs` worker jobs (dask-jobqueue; imported here, optional)."""
    from dask_jobqueue import SLURMCluster

    options = dict(
        cores=cores,
        processes=processes,
        memory=memory,
        walltime=walltime,
        queue=partition,
        account=account,
        job_name="coreflab-dask",
        log_directory=log_directory,
        local_directory=local_directory,
    )
    if host:
        options["scheduler_options"] = {"host": host}
    cluster = SLURMCluster(**{k: v for k, v in options.items() if v is not None})
    cluster.scale(jobs=jobs)
    return cluster


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=1, help="SLURM jobs (1)")
    parser.add_argument("--cores", type=int, default=1, help="cores per job (1)")
    parser.add_argument(
        "--processes", type=int, default=None, help="Dask worker processes per job (default: one per core)"
    )
    parser.add_argument("--memory", default="4GB", help="memory per job (4GB)")
    parser.add_argument("--walltime", default="01:00:00", help="per job, HH:MM:SS")
    parser.add_argument("--partition", default=None)
    parser.add_argument("--account", default=None)
    parser.add_argument("--host", default=None, help="address the scheduler listens on (default: dask's choice)")
    parser.add_argument("--log-directory", default=None, help="SLURM output of the workers")
    parser.add_argument("--address-file", default=None, help="write the scheduler address here")
    parser.add_argument("--lifetime", type=float, default=None, help="seconds, then stop")
    args = parser.parse_args(argv)
    cluster = start_cluster(
        jobs=args.jobs,
        cores=args.cores,
        processes=args.processes or args.cores,
        memory=args.memory,
        walltime=args.walltime,
        partition=args.partition,
        account=args.account,
        host=args.host,
        log_directory=args.log_directory,
    )
    try:
        print(cluster.scheduler_address, flush=True)
        if args.address_file:
            tmp = f"{args.address_file}.tmp{os.getpid()}"
            with open(tmp, "w", encoding="utf-8") as fh:
                fh.write(cluster.scheduler_address + "\n")
            os.replace(tmp, args.address_file)
        deadline = None if args.lifetime is None else time.monotonic() + args.lifetime
        while deadline is None or time.monotonic() < deadline:
            time.sleep(1.0)
    except KeyboardInterrupt:
        pass
    finally:
        cluster.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
