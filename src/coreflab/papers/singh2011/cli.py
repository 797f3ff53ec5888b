"""`coreflab singh2011 ...`: the Singh et al. 2011 verbs (cross-document coreference)."""

HELP = "Singh et al. 2011: distributed MCMC cross-document coreference, Figs. 5-7 and Table 2"
VERBS = {
    "run": ("coreflab.papers.singh2011.commands.run", "distributed MCMC cross-document coreference on Dask"),
    "synth": ("coreflab.papers.singh2011.commands.synth", "synthetic cross-document corpus (Person-X / large scale)"),
    "ecbplus": ("coreflab.papers.singh2011.commands.ecbplus", "ECB+ entity mentions as a cross-document corpus"),
    "calibrate": (
        "coreflab.papers.singh2011.commands.calibrate",
        "the prior: b giving the true entity count (Person-X) or b, w tuned on held-out entities",
    ),
    "baselines": ("coreflab.papers.singh2011.commands.baselines", "string-match and label-propagation baselines"),
    "significance": (
        "coreflab.papers.singh2011.commands.significance",
        "paired bootstrap of the model's B3 F1 against each baseline (Table 2)",
    ),
    "report": ("coreflab.papers.singh2011.commands.report", "Singh et al. 2011 Figs. 5-7 and Table 2"),
}
