"""`coreflab hm2017 ...`: the verbs of the hm2017 command group (one module each)."""
