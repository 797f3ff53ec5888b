"""`coreflab l3m2014 ...`: the verbs of the l3m2014 command group (one module each)."""
