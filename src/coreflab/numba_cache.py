"""Where numba keeps compiled kernels: one per-user cache directory per version of the code.

Why: compiling the kernels takes most of a minute on a cold start; with the cache in
`.numba_cache` of whatever directory a command ran from, every new folder paid it again
and littered the project tree. The cache lives in `$XDG_CACHE_HOME/coreflab/numba/code-<digest>`
(default `~/.cache/coreflab/numba/...`), where the digest is taken over the package's source
files: numba checks a cached kernel against its own file only, not against the files of the
kernels it calls, so a kernel calling an edited function of another module (a new non-local
template in `features/nonlocal_templates.py`, called by `decode/beam.py`) ran its old compiled
code, silently. A new digest starts a new cache; folders unused for `KEEP_DAYS` are removed.
`NUMBA_CACHE_DIR` still overrides all this. numba reads the variable when it is first
imported, so `coreflab/__init__.py` calls `configure()` before any module imports numba.
`cold()` tells the commands to announce the one-time compile instead of sitting silent.
"""

import hashlib
import os
import shutil
import time
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
KEEP_DAYS = 30


def code_digest(package_dir=PACKAGE_DIR):
    """16 hex digits of SHA-1 over the package's .py files (relative path and bytes, sorted)."""
    h = hashlib.sha1()
    root = Path(package_dir)
    for path in sorted(root.rglob("*.py")):
        h.update(path.relative_to(root).as_posix().encode() + b"\0")
        h.update(path.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def default_dir(environ=None, package_dir=PACKAGE_DIR):
    """$XDG_CACHE_HOME/coreflab/numba/code-<digest>, or ~/.cache/coreflab/numba/code-<digest>."""
    environ = os.environ if environ is None else environ
    base = environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "coreflab", "numba", f"code-{code_digest(package_dir)}")


def configure(environ=None, package_dir=PACKAGE_DIR):
    """Set NUMBA_CACHE_DIR to the per-user cache of this code unless the user set it; returns the
    directory. A cache folder seen for the first time prunes its unused siblings."""
    environ = os.environ if environ is None else environ
    if not environ.get("NUMBA_CACHE_DIR"):
        here = default_dir(environ, package_dir)
        if not os.path.isdir(here):
            prune(os.path.dirname(here), keep=here)
        environ["NUMBA_CACHE_DIR"] = here
    return environ["NUMBA_CACHE_DIR"]


def prune(base, keep, days=KEEP_DAYS, now=None):
    """Remove the folders of `base` (other code versions' caches, and those of the layout before
    them) not modified for `days`; never `keep`. Best effort: a folder in use elsewhere is left."""
    if not os.path.isdir(base):
        return []
    cutoff = (time.time() if now is None else now) - days * 86400
    removed = []
    for entry in os.scandir(base):
        if entry.path == keep or not entry.is_dir(follow_symlinks=False):
            continue
        try:
            newest = max([entry.stat().st_mtime] + [e.stat().st_mtime for e in os.scandir(entry.path)])
        except OSError:
            continue
        if newest < cutoff:
            shutil.rmtree(entry.path, ignore_errors=True)
            removed.append(entry.path)
    return removed


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


def kernel_dir(obj):
    """The folder whose cached kernels an object's code compiles: its module's folder inside the
    package; None (any cached kernel) for a module outside it, such as a user's learner, whose own
    folder numba may never cache anything for."""
    import sys

    file = getattr(sys.modules.get(type(obj).__module__), "__file__", None)  # none in a notebook
    if file is None:
        return None
    path = Path(file).resolve().parent
    return path if path == PACKAGE_DIR or PACKAGE_DIR in path.parents else None


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
