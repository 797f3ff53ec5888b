"""coreflab: re-running structured-prediction coreference papers end to end."""

from coreflab import native_threads as _native_threads
from coreflab import numba_cache as _numba_cache

# before any coreflab module imports numba or numpy: kernels cached per user, not per working
# directory; one BLAS thread per process (jobs run side by side, each declares threads: 1)
_numba_cache.configure()
_native_threads.configure()

__version__ = "0.1.0"
