"""Score a fitted learner on a split exactly as the leaderboard does (CoNLL response documents).

Every experiment table goes through the same path — antecedents → response documents →
`coreflab.metrics.scorer.score_documents` — so a number in a paper table and the same
system's leaderboard row can never disagree.
"""

from coreflab.learn.output import response_documents

AVG_METRICS = ("muc", "bcub", "ceafe")


def score_model(model, corpus, store, key_docs, metrics=AVG_METRICS, keep_singletons=None):
    """Scores object of model on (corpus, store) against the key documents (singletons: as the compiled split records, else as the key)."""
    from coreflab.metrics.scorer import score_documents

    source = (key_docs[0].source if key_docs else "") or "key"
    ante = model.predict(corpus, store)
    response = response_documents(key_docs, corpus, ante, keep_singletons, source=source, who=model.name)
    return score_documents(key_docs, response, metrics=metrics)


def avg_row(scores):
    """MUC, B3, CEAFe F1 and their average (percent), the L3M paper's columns."""
    row = {name: 100 * scores.f1(m) for m, name in (("muc", "MUC"), ("bcub", "B3"), ("ceafe", "CEAFe"))}
    row["AVG"] = scores.mela
    return row
