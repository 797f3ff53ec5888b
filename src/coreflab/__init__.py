"""coreflab: re-running structured-prediction coreference papers end to end."""

from coreflab import numba_cache as _numba_cache

# before any coreflab module imports numba: kernels cached per user, not per working directory
_numba_cache.configure()

__version__ = "0.1.0"
