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
