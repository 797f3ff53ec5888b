"""`coreflab cc2007 ...`: the Choi & Cardie 2007 verbs."""

HELP = "Choi & Cardie 2007: runs and Tables 1-3"
VERBS = {
    "run": (
        "coreflab.papers.cc2007.commands.run",
        "train one Choi & Cardie 2007 configuration and score every EM iteration",
    ),
    "tables": ("coreflab.papers.cc2007.commands.tables", "Choi & Cardie 2007 Tables 1-3 from `cc2007 run` results"),
}
