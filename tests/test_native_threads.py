"""One BLAS thread per coreflab process (coreflab/native_threads.py), unless the user says otherwise.

Why: jobs run side by side with `threads: 1`; BLAS's one-thread-per-core default made them
spin against each other (2-30x slower steps under load).
"""

import json
import os
import subprocess
import sys

import pytest

from coreflab import native_threads

_PROBE = (
    "import coreflab, numpy, json, threadpoolctl; "
    "print(json.dumps(sorted({i['num_threads'] for i in threadpoolctl.threadpool_info() if i['user_api'] == 'blas'})))"
)


def _blas_threads(**env):
    full = {k: v for k, v in os.environ.items() if k not in (*native_threads.VARIABLES, "COREFLAB_THREADS")}
    full.update(env)
    out = subprocess.run([sys.executable, "-c", _PROBE], env=full, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_defaults_to_one_and_keeps_what_the_user_set():
    env = {"OPENBLAS_NUM_THREADS": "3"}
    assert native_threads.configure(env) == {
        "OMP_NUM_THREADS": "1",
        "OPENBLAS_NUM_THREADS": "3",
        "MKL_NUM_THREADS": "1",
    }
    assert native_threads.configure({"COREFLAB_THREADS": "2"})["MKL_NUM_THREADS"] == "2"


@pytest.mark.slow
def test_importing_coreflab_first_leaves_numpy_with_one_blas_thread():
    assert _blas_threads() == [1]


@pytest.mark.slow
def test_a_users_setting_wins():
    if (os.cpu_count() or 1) < 2:
        pytest.skip("BLAS caps its threads at the core count; one core cannot tell 2 from 1")
    assert _blas_threads(COREFLAB_THREADS="2") == [2]
