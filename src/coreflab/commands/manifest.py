"""`coreflab manifest`: what produced a results directory (config hash, seed, versions, commit).

Written next to the results so a table found on disk months later can be traced to the
exact configuration and software. Deterministic for a given config and environment.
"""

import hashlib
import json
import os
import platform
import subprocess
from importlib import metadata

from coreflab.report.io import atomic_write_text

PACKAGES = ("coreflab", "snakemake", "numpy", "numba", "scipy", "scikit-learn", "pandas", "matplotlib", "dask")


def add_arguments(p):
    p.add_argument("--config-json", required=True, help="the validated workflow config as JSON")
    p.add_argument("--out", required=True)


def _version(name):
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def _git_commit():
    """HEAD of the workflow's checkout (`-dirty` with local edits); COREFLAB_GIT_COMMIT names it
    for a copy of the workflow that has no `.git` (a cluster staging directory, a tarball)."""
    given = os.environ.get("COREFLAB_GIT_COMMIT")
    if given:
        return given
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, timeout=10)
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"], capture_output=True, text=True, timeout=10
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if out.returncode != 0:
        return None
    return out.stdout.strip() + ("-dirty" if dirty.stdout.strip() else "")


def run(args):
    config = json.loads(args.config_json)
    canonical = json.dumps(config, sort_keys=True, separators=(",", ":"))
    manifest = {
        "config_sha256": hashlib.sha256(canonical.encode()).hexdigest(),
        "seed": config.get("seed"),
        "git_commit": _git_commit(),
        "python": platform.python_version(),
        "packages": {name: _version(name) for name in PACKAGES},
        "config": config,
    }
    atomic_write_text(args.out, json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    return 0
