"""CEAF's optimal one-to-one cluster alignment, without paying for `import scipy.optimize`.

Why: `coreflab score` is a short-lived process. `from scipy.optimize import
linear_sum_assignment` imports all of scipy.optimize (linprog, scipy.linalg, ...), about a
second on a busy machine, longer than reading and scoring a 300-document corpus. The solver
itself is the small compiled module `scipy/optimize/_lsap` (a Jonker-Volgenant shortest
augmenting path in C) that needs nothing but numpy, so we load that one extension file
directly: same function, same results, ~1 ms. If scipy's layout ever changes (no such
file, or it fails to load), we fall back to the public import.

The extension registers itself in `sys.modules` while it loads; we take that entry out
again, so a later `import scipy.optimize` elsewhere in the process imports its package and
submodule the usual way (and binds `scipy.optimize._lsap` as an attribute).
"""

import importlib.machinery
import importlib.util
import os
import sys

_SOLVER = None


def _load_extension():
    spec = importlib.util.find_spec("scipy")  # locates the package without importing it
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = os.path.join(spec.submodule_search_locations[0], "optimize")
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = os.path.join(folder, "_lsap" + suffix)
        if os.path.exists(path):
            loader = importlib.machinery.ExtensionFileLoader("scipy.optimize._lsap", path)
            module_spec = importlib.util.spec_from_file_location("scipy.optimize._lsap", path, loader=loader)
            module = importlib.util.module_from_spec(module_spec)
            try:
                loader.exec_module(module)
            finally:
                if sys.modules.get("scipy.optimize._lsap") is module or "scipy.optimize" not in sys.modules:
                    sys.modules.pop("scipy.optimize._lsap", None)
            return module.linear_sum_assignment
    return None


def solver():
    """The `linear_sum_assignment(cost, maximize=False)` function (loaded on first use)."""
    global _SOLVER
    if _SOLVER is None:
        try:
            _SOLVER = _load_extension()
        except Exception:  # any surprise in scipy's layout: use the public import
            _SOLVER = None
        if _SOLVER is None:
            from scipy.optimize import linear_sum_assignment

            _SOLVER = linear_sum_assignment
    return _SOLVER


def linear_sum_assignment(cost, maximize=False):
    """scipy.optimize.linear_sum_assignment: (row indices, column indices) of an optimal matching."""
    return solver()(cost, maximize=maximize)
