"""What Choi & Cardie (2007) report for a pairwise model, per EM iteration.

Before clustering: the model's pair decisions (P ≥ threshold) against the gold pair labels;
after clustering: the pair labels implied by the single-link clustering, on the same pair
set. Pairwise error rate (100 − accuracy) and pairwise P/R/F, plus MUC R/P/F of the
clustering from the project's scorer (MUC needs clusters, so it exists after clustering only).
And, per EM iteration, how its fit converged (`convergence_rows`, split "fit": what the tables'
captions state).
"""

import numpy as np

from coreflab.learn.labels import labels_to_antecedents
from coreflab.learn.output import response_documents
from coreflab.learn.pairwise.crf_slt import pair_decision_scores


def cc_rows(model, corpus, store, key_docs, iteration, split):
    """Tidy rows (iteration, split, stage, measure, value) of one model iteration on one split."""
    from coreflab.metrics.scorer import score_documents

    pairs, prob = model.pair_probabilities((corpus, store), iteration)
    decided = prob >= model.threshold
    labels = model.cluster(pairs, prob)  # = predict_labels, without scoring the pairs again
    clustered = labels[pairs.ante] == labels[pairs.ana]
    rows = []
    for stage, pred in (("before", decided), ("after", clustered)):
        for measure, value in pair_decision_scores(pairs.gold, pred).items():
            rows.append((iteration, split, stage, f"pairwise_{measure}", value))
    ante = labels_to_antecedents(labels, np.asarray(store.doc_mention_offsets))
    scores = score_documents(
        key_docs, response_documents(key_docs, corpus, ante, source=split, who=model.name), metrics=("muc",)
    )
    r, p, f = scores.prf("muc")
    rows += [
        (iteration, split, "after", "muc_recall", 100 * r),
        (iteration, split, "after", "muc_precision", 100 * p),
        (iteration, split, "after", "muc_f1", 100 * f),
    ]
    return rows


FIT_SPLIT, FIT_STAGE = "fit", "solver"  # the rows of the solver's record (not scores)
CONVERGENCE_MEASURES = {  # measure: key of the fit's convergence record (pair_logistic.fit_logistic)
    "converged": "converged",
    "solver_iterations": "iterations",
    "hessian_products": "cg_iterations",
    "grad_norm_rel": "grad_norm_rel",
    "rel_objective_change": "rel_decrease",
    "objective": "f",
    "tol": "tol",
}


def convergence_rows(model, iteration):
    """Tidy rows (iteration, "fit", "solver", measure, value) of how iteration's fit converged: the
    record the model keeps per EM iteration (none for a model saved before it kept one)."""
    records = getattr(model, "convergence_", None) or []
    record = records[iteration - 1] if iteration <= len(records) else None
    if not record:
        return []
    rows = []
    for measure, key in CONVERGENCE_MEASURES.items():
        value = record.get(key)
        if value is not None:
            rows.append((iteration, FIT_SPLIT, FIT_STAGE, measure, float(value)))
    return rows
