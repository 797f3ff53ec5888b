"""`coreflab hm2017 ...`: the Haponchyk & Moschitti 2017 verbs."""

HELP = "Haponchyk & Moschitti 2017: MELA regressor, LSP runs, Tables 1-4 and Figs. 2-3"
VERBS = {
    "mela-data": ("coreflab.papers.hm2017.commands.mela_data", "regressor training data from per-document LSP_F runs"),
    "mela-fit": ("coreflab.papers.hm2017.commands.mela_fit", "fit the MELA regressor (LinearSVR on the nine features)"),
    "table1": ("coreflab.papers.hm2017.commands.table1", "H&M 2017 Table 1 and Fig. 2"),
    "select": ("coreflab.papers.hm2017.commands.select", "rank features by a mention-pair classifier"),
    "tune": ("coreflab.papers.hm2017.commands.tune", "tune C and r of an LSP learner on a training sample"),
    "run": ("coreflab.papers.hm2017.commands.run", "one LSP learner in one feature space, dev/test scores per epoch"),
    "report": ("coreflab.papers.hm2017.commands.report", "H&M 2017 Fig. 3 and Tables 2-4"),
}
