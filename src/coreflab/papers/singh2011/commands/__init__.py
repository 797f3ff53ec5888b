"""`coreflab singh2011 ...`: the verbs of the singh2011 command group (one module each)."""
