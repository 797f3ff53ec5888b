"""Sizing and progress of the L3M side studies: the learned weights' RMS, the robustness and CCCP
budgets, the mention cut of CCCP's item sets, progress lines, and parallel runs."""

import io
import time
from types import SimpleNamespace

import numpy as np
import pytest

from coreflab.learn.base import TrainingData
from coreflab.papers.l3m2014.experiments import (
    CccpSettings,
    RobustnessSettings,
    arc_budget,
    cccp_mentions_within,
    documents,
    learned_rms,
    prefix_arcs,
    robustness_runs_within,
    used_slots,
)
from coreflab.papers.l3m2014.progress import Progress, run_all


def test_learned_rms_is_over_the_slots_that_fire_only():
    w = np.array([3.0, 0.0, -4.0, 100.0, 0.0])
    assert learned_rms(w, [0, 2]) == pytest.approx(np.sqrt((9 + 16) / 2))  # 3.5355…
    assert learned_rms(w, [0, 1, 2]) == pytest.approx(np.sqrt(25 / 3))  # a used slot at 0 counts
    assert learned_rms(w, []) == 0.0


def test_robustness_runs_fit_the_budget_and_keep_a_spread():
    assert robustness_runs_within(30, 2, None, 100) == 30  # no budget: as asked
    assert robustness_runs_within(30, 2, 0, 100) == 30
    # 1,000 arcs at 100 a run: 10 runs, one of them the zero start, 9 for 2 scales → 4 each
    assert robustness_runs_within(30, 2, 1_000, 100) == 4
    assert robustness_runs_within(30, 1, 1_000, 100) == 9
    assert robustness_runs_within(3, 2, 1_000, 100) == 3  # never more than asked
    assert robustness_runs_within(30, 2, 150, 100) == 2  # at least 2 a scale, even past the budget


def test_arc_budget_takes_the_smaller_cap():
    assert arc_budget(None, None, 500) is None and arc_budget(0, 0.0, 500) is None
    assert arc_budget(None, 2.5, 500) == 1250
    assert arc_budget(1000, 2.5, 500) == 1000 and arc_budget(2000, 2.5, 500) == 1250


def _store():
    """Two documents of 3 and 2 mentions; mention i has the dummy and every earlier mention as candidate
    antecedents (i + 1 arcs), arc k carries the features [10k, 10k + 1]; clusters 0, 0, 1 | 2, 2."""
    sizes = [3, 2]
    antes, m_arc = [], [0]
    for n in sizes:
        for i in range(n):
            antes += [-1] + list(range(i))  # the dummy first
            m_arc.append(m_arc[-1] + i + 1)
    n_arcs = len(antes)
    feats = np.array([[10 * k, 10 * k + 1] for k in range(n_arcs)], dtype=np.int64).ravel()
    store = SimpleNamespace(
        n_bits=10,
        doc_mention_offsets=np.array([0, 3, 5], np.int64),
        m_arc_offsets=np.array(m_arc, np.int64),
        arc_ante=np.array(antes, np.int32),
        arc_feat_offsets=np.arange(0, 2 * n_arcs + 1, 2, dtype=np.int64),
        arc_feats=feats,
        arc_vals=None,
    )
    corpus = SimpleNamespace(
        m_cluster=np.array([0, 0, 1, 2, 2]), arrays={"doc_mention_offsets": store.doc_mention_offsets}
    )
    return TrainingData(corpus, store)


def test_documents_cut_to_their_first_mentions_keep_all_their_arcs():
    data = _store()  # arcs: doc 0 mentions 1, 2, 3 arcs (0 | 1 2 | 3 4 5), doc 1 mentions 1, 2 arcs (6 | 7 8)
    cut = documents(data, [0, 1], max_mentions=2)
    s = cut.store
    assert list(s.doc_mention_offsets) == [0, 2, 4] and cut.corpus.n_mentions == 4
    assert list(s.m_arc_offsets) == [0, 1, 3, 4, 6]  # mentions 0, 1 of each, every arc of theirs
    assert list(s.arc_ante) == [-1, -1, 0, -1, -1, 0]
    kept = [0, 1, 2, 6, 7, 8]
    assert list(s.arc_feats) == [f for k in kept for f in (10 * k, 10 * k + 1)]
    assert list(s.arc_feat_offsets) == list(range(0, 13, 2))
    assert list(cut.corpus.m_cluster) == [0, 0, 2, 2]
    whole = documents(data, [1])  # no cut: the whole document
    assert list(whole.store.doc_mention_offsets) == [0, 2] and list(whole.store.arc_ante) == [-1, -1, 0]
    assert prefix_arcs(data, [0, 1], 2) == 6 and prefix_arcs(data, [0, 1]) == 9 and prefix_arcs(data, [0], 1) == 1
    assert list(used_slots(data)) == sorted(f for k in range(9) for f in (10 * k, 10 * k + 1))


def test_cccp_cut_is_the_longest_prefix_within_the_budget():
    data = _store()
    subsets = [np.array([0, 1]), np.array([0])]  # whole: 9 + 6 = 15 arcs a sweep; cut to 2: 6 + 3 = 9; to 1: 3
    assert cccp_mentions_within(data, subsets, None, 10) is None
    assert cccp_mentions_within(data, subsets, 150, 10) is None  # whole item sets fit
    assert cccp_mentions_within(data, subsets, 149, 10) == 2
    assert cccp_mentions_within(data, subsets, 100, 10, fixed=10) == 2
    assert cccp_mentions_within(data, subsets, 99, 10, fixed=10, least=1) == 1
    assert cccp_mentions_within(data, subsets, 5, 10) == 2  # at least 2 mentions, a link to learn


def test_cccp_describes_what_ran():
    assert CccpSettings(max_mentions=60).describe(20, 3) == "CCCP vs SGD on 20 item sets of ≤ 60 mentions, 3 draws"
    assert CccpSettings().describe(4, 1, "documents") == "CCCP vs SGD on 4 documents, 1 draw"


def test_settings_from_args_keep_their_defaults_for_options_not_given():
    args = SimpleNamespace(runs=5, init_sd=None, jobs=2, seed=3, study="robustness", lam=1e-3)
    assert RobustnessSettings.from_args(args) == RobustnessSettings(runs=5, jobs=2, seed=3, lam=1e-3)
    cccp = CccpSettings.from_args(SimpleNamespace(docs=4, max_mentions=0, inner=7))
    assert cccp.docs == 4 and cccp.inner == 7 and not cccp.max_mentions and cccp.draws == 3
    assert set(cccp.training()) == {"gamma", "lam", "eta0", "sgd_passes", "max_outer", "inner", "tol", "seed"}


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def test_progress_writes_a_line_per_unit_and_every_30_seconds_not_before():
    clock, out = Clock(), io.StringIO()
    p = Progress("study", 3, "runs", stream=out, clock=clock)
    for t in (10.0, 29.9):
        clock.now = 100.0 + t
        assert not p.tick("working")
    assert out.getvalue() == ""
    clock.now = 130.0
    assert p.tick("working")
    assert out.getvalue() == "study: 0/3 runs done, 3 to go, 30 s; working\n"
    clock.now = 159.0
    assert not p.tick()  # 29 s after the last line
    clock.now = 160.0
    p.step("first")  # a unit done: always a line
    assert out.getvalue().splitlines()[-1] == "study: 1/3 runs done, 2 to go, 60 s (about 120 s left); first"
    clock.now = 189.0
    assert not p.tick() and p.due() == pytest.approx(1.0)
    clock.now = 190.0
    assert p.tick("inner", done=2) and out.getvalue().splitlines()[-1].startswith("study: 2/3 runs done, 1 to go, 90 s")
    assert len(out.getvalue().splitlines()) == 3


def _slow_square(x):
    time.sleep(0.05 * (4 - x))  # later items end first
    return {"x": x, "square": x * x}


@pytest.mark.slow
def test_run_all_in_two_processes_returns_the_results_in_input_order():
    items = [0, 1, 2, 3]
    finished = []
    serial = run_all(_slow_square, items, jobs=1)
    parallel = run_all(_slow_square, items, jobs=2, on_done=lambda i, r: finished.append(i))
    assert parallel == serial == [{"x": x, "square": x * x} for x in items]
    assert sorted(finished) == items
    # with a progress to keep, even one job runs beside the parent, which keeps ticking
    out = io.StringIO()
    progress = Progress("squares", len(items), "items", interval=0.0, stream=out)
    assert run_all(_slow_square, items, jobs=1, on_done=lambda i, r: progress.step(), progress=progress) == serial
    assert "squares: 4/4 items done, 0 to go" in out.getvalue()


def test_run_all_passes_a_units_error_on():
    def fail(x):
        if x == 1:
            raise ValueError("unit 1 failed")
        return x

    with pytest.raises(ValueError, match="unit 1 failed"):
        run_all(fail, [0, 1, 2], jobs=2)


def test_every_study_takes_its_data_and_settings_not_the_command_line():
    import inspect

    from coreflab.papers.l3m2014 import experiments
    from coreflab.papers.l3m2014.experiments import CurveSettings, OrderSettings

    for study in (experiments.curves, experiments.robustness, experiments.cccp_vs_sgd, experiments.order_control):
        assert next(iter(inspect.signature(study).parameters)) == "settings", study.__name__
    args = SimpleNamespace(learner="l3m", params='{"gamma": 0.5}', grid='{"lam": [0.1]}', passes=2, seed=3)
    assert CurveSettings.from_args(args) == CurveSettings("l3m", {"gamma": 0.5}, {"lam": [0.1]}, 2, 3)
    assert OrderSettings.from_args(SimpleNamespace(seed=4, jobs=None)) == OrderSettings(seed=4, jobs=1)


def _blas_threads(_):
    from threadpoolctl import threadpool_info

    return [i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"]


def test_each_unit_runs_its_blas_on_one_thread():
    """Units in worker processes beside BLAS threads oversubscribe the cores (CCCP's L-BFGS ran 10x slower):
    every unit sees one BLAS thread, whatever the machine's cores, so its sums are the same everywhere."""
    out = run_all(_blas_threads, range(2), jobs=2)
    assert out[0] and all(n == [1] * len(n) for n in out)
