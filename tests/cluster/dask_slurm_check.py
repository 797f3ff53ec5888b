"""Attach Dask to the SLURM that slurm_check.sh started, the way the cross-document run does.

The cross-document sampler (Singh et al. 2011; docs/methods.md) distributes entities over Dask
workers; on a cluster those workers are SLURM jobs started by dask-jobqueue's SLURMCluster,
and `coreflab singh2011 run --scheduler ADDRESS` connects to that cluster's scheduler. This script
starts such a cluster with profiles/slurm/dask_cluster.py (one worker job), checks that the
worker really runs inside a SLURM job and computes a known sum on it, then runs the
cross-document sampler on it (crossdoc_on_slurm.py) or, when COREFLAB_SLURM_CROSSDOC holds
a command line with `{scheduler}` in it, that command against the scheduler's address.

Run by tests/cluster/slurm_check.sh; exit status 0 when every step worked.
"""

from __future__ import annotations

import argparse
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path


def _slurm_job_id() -> str | None:
    """Runs on the worker: the SLURM job it lives in (None outside SLURM)."""
    return os.environ.get("SLURM_JOB_ID")


def _square(x: int) -> int:
    return x * x


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", required=True, help="scratch directory (worker logs)")
    parser.add_argument("--cwd", default=".", help="where the cross-document command runs")
    parser.add_argument("--partition", default="debug")
    parser.add_argument("--timeout", type=float, default=180.0, help="seconds to wait for the worker")
    args = parser.parse_args(argv)

    from dask.distributed import Client

    helper = Path(__file__).resolve().parents[2] / "profiles" / "slurm" / "dask_cluster.py"
    address_file = Path(args.work) / "dask-scheduler.txt"
    t0 = time.monotonic()
    # the same command a user runs on a login node (README), with a one-job cluster
    cmd = [
        sys.executable,
        str(helper),
        "--jobs",
        "1",
        "--cores",
        "1",
        "--memory",
        "1GB",
        "--walltime",
        "00:10:00",
        "--partition",
        args.partition,
        "--host",
        "127.0.0.1",
        "--log-directory",
        str(Path(args.work) / "dask_logs"),
        "--address-file",
        str(address_file),
        "--lifetime",
        str(args.timeout + 120),
    ]
    print("running: " + shlex.join(cmd))
    proc = subprocess.Popen(cmd)
    status = 0
    try:
        while not address_file.exists():
            if proc.poll() is not None or time.monotonic() - t0 > args.timeout:
                print("dask_slurm_check: no scheduler address", file=sys.stderr)
                return 1
            time.sleep(0.2)
        address = address_file.read_text().strip()
        with Client(address) as client:
            client.wait_for_workers(1, timeout=args.timeout)
            t_up = time.monotonic() - t0
            job_ids = sorted(set(client.run(_slurm_job_id).values()), key=str)
            total = sum(client.gather(client.map(_square, range(100))))
            print(
                f"scheduler {address}; worker up after {t_up:.1f} s "
                f"in SLURM job(s) {job_ids}; sum of squares 0..99 = {total}"
            )
            if total != 328350:
                print("dask_slurm_check: wrong sum", file=sys.stderr)
                status = 1
            if not job_ids or None in job_ids:
                print("dask_slurm_check: a worker runs outside SLURM", file=sys.stderr)
                status = 1
        # the cross-document sampler on these workers (crossdoc_on_slurm.py: equal to the
        # serial run bit for bit), or the command in COREFLAB_SLURM_CROSSDOC
        template = (
            os.environ.get("COREFLAB_SLURM_CROSSDOC", "").strip()
            or shlex.join([sys.executable, str(Path(__file__).with_name("crossdoc_on_slurm.py"))]) + " {scheduler}"
        )
        cross = shlex.split(template.format(scheduler=address))
        print("running: " + shlex.join(cross), flush=True)
        result = subprocess.run(cross, cwd=args.cwd)
        if result.returncode == 3:
            print("coreflab.crossdoc not importable: cross-document run skipped")
        elif result.returncode != 0:
            print(f"dask_slurm_check: cross-document run exited {result.returncode}", file=sys.stderr)
            status = 1
    finally:
        proc.send_signal(signal.SIGINT)  # dask_cluster.py closes the cluster (scancel)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    print(f"dask part took {time.monotonic() - t0:.1f} s")
    return status


if __name__ == "__main__":
    sys.exit(main())
