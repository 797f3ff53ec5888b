"""coreflab: re-running structured-prediction coreference papers end to end."""

__version__ = "0.1.0"
