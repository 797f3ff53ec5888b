"""`coreflab bk2014 ...`: the verbs of the bk2014 command group (one module each)."""
