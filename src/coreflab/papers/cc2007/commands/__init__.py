"""`coreflab cc2007 ...`: the verbs of the cc2007 command group (one module each)."""
