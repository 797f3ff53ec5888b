"""Where numba keeps compiled kernels: one per-user cache directory, not the working directory.

Why: compiling the kernels takes most of a minute on a cold start; with the cache in
`.numba_cache` of whatever directory a command ran from, every new folder paid it again
and littered the project tree. The cache now lives in `$XDG_CACHE_HOME/coreflab/numba`
(default `~/.cache/coreflab/numba`); `NUMBA_CACHE_DIR` still overrides it. numba reads
the variable when it is first imported, so `coreflab/__init__.py` calls `configure()`
before any module imports numba. `cold()` tells the commands to announce the one-time
compile instead of sitting silent.
"""

import hashlib
import os
from pathlib import Path


def default_dir(environ=None):
    """$XDG_CACHE_HOME/coreflab/numba, or ~/.cache/coreflab/numba."""
    environ = os.environ if environ is None else environ
    base = environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "coreflab", "numba")


def configure(environ=None):
    """Set NUMBA_CACHE_DIR to the per-user default unless the user set it; returns the directory."""
    environ = os.environ if environ is None else environ
    if not environ.get("NUMBA_CACHE_DIR"):
        environ["NUMBA_CACHE_DIR"] = default_dir(environ)
    return environ["NUMBA_CACHE_DIR"]


def source_cache_dir(cache_dir, source_dir):
    """The folder numba caches a source folder's kernels in: <name>_<sha1 of its absolute path>
    (numba's _UserProvidedCacheLocator, repeated here so the check need not import numba)."""
    source_dir = os.path.abspath(source_dir)
    digest = hashlib.sha1(source_dir.encode()).hexdigest()
    return Path(cache_dir) / f"{os.path.basename(source_dir)}_{digest}"


def cold(cache_dir=None, source_dir=None):
    """True when no kernel is cached yet: no numba index file under the cache directory, or,
    given source_dir (e.g. the learn package), none for the kernels of that folder."""
    root = Path(cache_dir or configure())
    if source_dir is not None:
        root = source_cache_dir(root, source_dir)
    if not root.is_dir():
        return True
    return next(root.rglob("*.nbi"), None) is None


def compile_notice(stream, cache_dir=None, source_dir=None):
    """Print the one-time 'compiling kernels' line when the cache is cold; True if printed."""
    cache_dir = cache_dir or configure()
    if not cold(cache_dir, source_dir):
        return False
    print(
        f"coreflab: compiling kernels (once per machine, about a minute; cached in {cache_dir})",
        file=stream,
        flush=True,
    )
    return True
