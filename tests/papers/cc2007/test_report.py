"""Choi & Cardie tables: every choice (SLT's iteration, Table 3's *) is made on the training split."""

import pandas as pd
import pytest

from coreflab.papers.cc2007.report import table1, table3

MEASURES = ["pairwise_error_rate", "pairwise_precision", "pairwise_recall", "pairwise_f1"]


def _rows(learner, bias, weight, iteration, split, stage, err, f1=50.0, muc=None):
    out = [(learner, bias, weight, iteration, split, stage, m, v) for m, v in zip(MEASURES, (err, 60.0, 40.0, f1))]
    if stage == "after":
        out += [
            (learner, bias, weight, iteration, split, stage, m, muc if muc is not None else 50.0 + iteration)
            for m in ("muc_recall", "muc_precision", "muc_f1")
        ]
    return out


def runs_frame():
    """BASE (one iteration) and SLT (3 iterations) where train and test disagree on the best iteration,
    and on test the before- and after-clustering rows would each pick another iteration."""
    rows = []
    for split in ("train", "test"):
        for stage in ("before", "after"):
            rows += _rows("cc_base", "none", 1.0, 1, split, stage, 20.0)
    # train after: iteration 3 best (lowest error); test after: iteration 2 best; test before: iteration 3 worst
    err = {
        ("train", "after"): {2: 15.0, 3: 10.0},
        ("train", "before"): {2: 12.0, 3: 14.0},
        ("test", "after"): {2: 11.0, 3: 13.0},
        ("test", "before"): {2: 9.0, 3: 16.0},
    }
    for (split, stage), by_it in err.items():
        rows += _rows("cc_slt_closest", "none", 1.0, 1, split, stage, 30.0)
        for it, e in by_it.items():
            rows += _rows("cc_slt_closest", "none", 1.0, it, split, stage, e)
    return pd.DataFrame(
        rows, columns=["learner", "bias", "bias_weight", "iteration", "split", "stage", "measure", "value"]
    )


def test_iteration_is_chosen_on_training_data_once_for_both_rows():
    from coreflab.papers.cc2007.report import chosen_iterations

    runs = runs_frame()
    t = table1(runs)
    slt = t[t.system == "SLT (closest)"].set_index("clustering")
    assert slt.loc["before", "iteration"] == 3 and slt.loc["after", "iteration"] == 3
    chosen = chosen_iterations(runs)
    assert dict(zip(chosen.learner, chosen.iteration)) == {"cc_base": 1, "cc_slt_closest": 3}
    # the test values at the train-chosen iteration (not the test-best 9.0 / 11.0)
    assert slt.loc["before", "e%"] == pytest.approx(16.0) and slt.loc["after", "e%"] == pytest.approx(13.0)


def test_table3_reports_test_at_train_choice_and_stars_the_train_best_configuration():
    runs = runs_frame()
    rows = []
    for weight, train_err, test_err in ((1.5, 8.0, 14.0), (3.0, 12.0, 5.0)):
        for split, e in (("train", train_err), ("test", test_err)):
            for it in (2, 3):
                rows += _rows("cc_slt_closest", "pa", weight, it, split, "after", e + (it == 3))
    runs = pd.concat([runs, pd.DataFrame(rows, columns=runs.columns)], ignore_index=True)
    t = table3(runs).set_index("system")
    assert t.loc["SLT (closest), Pa λ = 1.5", "e%"] == "14.00*"  # best on train, though worse on test
    assert t.loc["SLT (closest), Pa λ = 3", "e%"] == "5.00"
    assert t.loc["SLT (closest)", "iteration"] == 3 and t.loc["SLT (closest)", "e%"] == "13.00"


def _fit_rows(learner, bias, weight, iteration, converged=True, rel=3e-5, its=7):
    values = {"converged": float(converged), "solver_iterations": its, "hessian_products": 40, "grad_norm_rel": rel}
    values.update({"rel_objective_change": 1e-9, "objective": 0.1, "tol": 1e-4})
    return [(learner, bias, weight, iteration, "fit", "solver", m, v) for m, v in values.items()]


def test_the_convergence_note_states_the_tolerance_or_lists_the_fits_that_missed_it():
    from coreflab.papers.cc2007.report import convergence_note

    runs = runs_frame()
    assert convergence_note(runs) == "solver convergence not recorded (runs from before fits kept it)"
    fits = _fit_rows("cc_base", "none", 1.0, 1, its=9) + [
        r for it in (1, 2, 3) for r in _fit_rows("cc_slt_closest", "none", 1.0, it, rel=8e-5 if it == 2 else 2e-5)
    ]
    converged = pd.concat([runs, pd.DataFrame(fits, columns=runs.columns)], ignore_index=True)
    assert convergence_note(converged) == (
        "all 4 fits converged: ‖∇f‖ ≤ 0.0001·‖∇f(0)‖ (largest 8.0e-05), at most 9 solver iterations, "
        "last relative objective change ≤ 1.0e-09"
    )
    fits[-7:] = _fit_rows("cc_slt_closest", "none", 1.0, 3, converged=False, rel=2e-3, its=300)
    missed = pd.concat([runs, pd.DataFrame(fits, columns=runs.columns)], ignore_index=True)
    assert convergence_note(missed) == (
        "1 of 4 fits did NOT converge to ‖∇f‖ ≤ 0.0001·‖∇f(0)‖: "
        "SLT (closest) iteration 3 (‖∇f‖/‖∇f(0)‖ = 2.0e-03 after 300 iterations)"
    )
    # a run without records beside recorded ones is counted, not taken for converged
    partial = pd.concat([runs, pd.DataFrame(fits[:7], columns=runs.columns)], ignore_index=True)
    assert convergence_note(partial).endswith("; 3 more without a record")
