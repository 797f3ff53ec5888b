"""One BLAS/OpenMP thread per coreflab process unless the user asks for more.

Why: every workflow job declares `threads: 1` and Snakemake runs `--cores` of them side by
side, but OpenBLAS (numpy, scipy, scikit-learn) starts one thread per core in every
process. On 2 cores with two jobs, four BLAS threads spin against each other: measured on
the default workflow's machine, one L-BFGS-B step of a 10-variable problem took 19 ms
instead of 0.6 ms, and two Choi & Cardie fits side by side took 120 s wall / 58 CPU-s each with
2 BLAS threads against 45 s / 15 CPU-s with one (bench/results/threads.json, load 9).
`coreflab/__init__.py` calls `configure()` before numpy is imported; a variable the user
set (OMP_NUM_THREADS, OPENBLAS_NUM_THREADS, MKL_NUM_THREADS) wins, and
`COREFLAB_THREADS=n` sets all three at once.
"""

import os

VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


def configure(environ=None):
    """Default every native thread-count variable to COREFLAB_THREADS (1); returns the settings."""
    environ = os.environ if environ is None else environ
    n = environ.get("COREFLAB_THREADS") or "1"
    for var in VARIABLES:
        if not environ.get(var):
            environ[var] = n
    return {var: environ[var] for var in VARIABLES}
