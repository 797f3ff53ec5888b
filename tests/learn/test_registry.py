"""Learner registry and scikit-learn-style parameters."""

import pytest

from coreflab.errors import UserError
from coreflab.learn.registry import available_learners, get_learner, make_learner


def test_bk_learners_are_registered():
    names = available_learners()
    for name in ("bk_baseline", "bk_early", "bk_maxviolation", "bk_laso", "bk_delayed_laso"):
        assert name in names
        assert get_learner(name).name == name


def test_params_and_errors():
    m = make_learner("bk_early", {"beam": 5, "seed": 3})
    assert m.get_params()["beam"] == 5 and m.get_params()["seed"] == 3
    assert not hasattr(m, "coef_")
    with pytest.raises(UserError, match="no parameter"):
        make_learner("bk_early", {"beamsize": 5})
    with pytest.raises(UserError, match="unknown learner 'bk_nope'"):
        get_learner("bk_nope")


@pytest.mark.slow
def test_discovering_every_learner_leaves_scipy_optimize_to_the_fits_that_use_it():
    """Every command discovers the learners; scipy.optimize (0.2 s of each start) is imported by the
    solvers that call it (LP and branch and bound, CCCP's L-BFGS-B, the pair model's line search)."""
    import subprocess
    import sys

    code = (
        "import sys; from coreflab.learn.registry import available_learners; "
        "assert len(available_learners()) > 10; print('scipy.optimize' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-1000:]
    assert out.stdout.strip() == "False"
