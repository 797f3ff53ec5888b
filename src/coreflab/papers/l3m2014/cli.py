"""`coreflab l3m2014 ...`: the Samdani, Chang & Roth 2014 verbs (one per study, the tables, and the
20 Newsgroups document clustering)."""

STUDY = "coreflab.papers.l3m2014.commands.study"
HELP = "Samdani, Chang & Roth 2014: studies, document clustering and tables"
VERBS = {
    "curves": (STUDY, "learning curves of one learner over a (λ, η0) grid (Table 1)", {"study": "curves"}),
    "robustness": (STUDY, "L3M from random initialisations (λ, η0 tuned on dev)", {"study": "robustness"}),
    "cccp_vs_sgd": (
        STUDY,
        "training-data clustering quality and time of CCCP (to convergence) and of SGD",
        {"study": "cccp_vs_sgd"},
    ),
    "order_control": (
        STUDY,
        "Table 1's tuned online systems with mentions shuffled within documents",
        {"study": "order_control"},
    ),
    "doccluster": (
        "coreflab.papers.l3m2014.commands.doccluster",
        "supervised clustering of 20 Newsgroups posts (Table 2)",
    ),
    "tables": ("coreflab.papers.l3m2014.commands.tables", "Samdani et al. 2014 tables from the study results"),
    "newsgroups-tables": (
        "coreflab.papers.l3m2014.commands.newsgroups_tables",
        "Table 2 and CCCP vs SGD on 20 Newsgroups, in results/doccluster/",
    ),
}
