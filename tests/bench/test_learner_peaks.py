"""bench/learner_peaks.py: its learners are registered and take the parameters it gives them."""

import pytest

from coreflab.learn.registry import available_learners, make_learner
from tests.bench.bench_script import load_bench_script

LEARNERS = load_bench_script("learner_peaks").LEARNERS


@pytest.mark.parametrize("name, learner, params", LEARNERS, ids=[n for n, _, _ in LEARNERS])
def test_each_measured_learner_is_registered_and_takes_its_parameters(name, learner, params):
    assert learner in available_learners()
    model = make_learner(learner, params)  # a UserError for an unknown or mistyped parameter
    assert {k: getattr(model, k) for k in params} == params


def test_the_measured_learners_cover_every_kind_of_training():
    learners = {learner for _, learner, _ in LEARNERS}
    assert {"cc_base", "cc_slt_closest", "bk_baseline", "lsp_f", "l3m"} <= learners


@pytest.mark.slow
@pytest.mark.parametrize("name, args", load_bench_script("learner_peaks").JOBS)
def test_each_measured_job_is_a_coreflab_verb_taking_the_store_and_an_output(name, args):
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "coreflab.cli", *args[:2], "--help"], capture_output=True, text=True)
    assert done.returncode == 0
    assert all(option in done.stdout for option in ("--compiled", "--arcs", "--out"))
