"""CEAF's solver loaded from scipy's compiled `_lsap` alone gives scipy.optimize's answer,
and leaves no half-imported scipy.optimize behind."""

import subprocess
import sys

import numpy as np
import pytest

from coreflab.metrics.assignment import linear_sum_assignment


def test_same_optimum_as_scipy_optimize():
    from scipy.optimize import linear_sum_assignment as reference

    rng = np.random.default_rng(7)
    for shape in [(1, 1), (3, 5), (6, 2), (8, 8)]:
        table = rng.integers(0, 4, size=shape).astype(float)
        rows, cols = linear_sum_assignment(table, maximize=True)
        r2, c2 = reference(table, maximize=True)
        assert table[rows, cols].sum() == table[r2, c2].sum()
        assert len(set(rows.tolist())) == len(rows) == min(shape)


@pytest.mark.slow
def test_scipy_optimize_imports_normally_afterwards():
    code = (
        "import sys\n"
        "from coreflab.metrics.assignment import linear_sum_assignment as f\n"
        "f([[1.0, 2.0], [3.0, 1.0]], maximize=True)\n"
        "assert 'scipy.optimize' not in sys.modules and 'scipy.optimize._lsap' not in sys.modules\n"
        "import scipy.optimize\n"
        "print(scipy.optimize._lsap.__name__, scipy.optimize.linear_sum_assignment([[1.0, 2.0], [3.0, 1.0]], maximize=True)[1].tolist())\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["scipy.optimize._lsap", "[1,", "0]"]
