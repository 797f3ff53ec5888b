"""`coreflab bk2014 ...`: the Björkelund & Kuhn 2014 verbs (selection and root-loss tuning feed
every learner, so they are the core verbs `coreflab select` and `coreflab tune-root-loss`)."""

HELP = "Björkelund & Kuhn 2014: Figs. 3-4 and Table 1"
VERBS = {
    "report": (
        "coreflab.papers.bk2014.commands.report",
        "Björkelund & Kuhn 2014 Figs. 3-4 and Table 1 from dev curves",
    ),
}
