"""The one per-epoch callback (learn/curve.EpochProgress) and the per-user numba cache.

Why: the lines and the bar are what a user sees during a long `coreflab train`; the cache
location decides whether the one-minute compile happens once per machine or once per folder.
"""

import io
import os
import sys
import time
import types

import pytest

from coreflab import numba_cache
from coreflab.learn.curve import EpochProgress, expected_epochs
from coreflab.learn.registry import make_learner


class _Tty(io.StringIO):
    def isatty(self):
        return True


def test_plain_stream_gets_one_line_per_epoch_and_the_count():
    out = io.StringIO()
    cb = EpochProgress(learner="sumlink", stream=out, total=3)
    for epoch in (1, 2, 3):
        cb(epoch, model=None)
    cb.close()
    lines = out.getvalue().splitlines()
    assert [line.split(":")[1].strip() for line in lines] == ["epoch 1/3", "epoch 2/3", "epoch 3/3"]
    assert all("dev MELA n/a" in line and line.endswith(" s") for line in lines)
    assert cb.epochs == 3 and not cb.bar_enabled


def test_terminal_gets_a_tqdm_bar_beside_the_lines():
    out = _Tty()
    cb = EpochProgress(learner="l3m", stream=out, total=2)
    assert cb.bar_enabled
    cb(1, model=None)
    cb(2, model=None)
    cb.close()
    text = out.getvalue()
    assert "l3m: epoch 2/2" in text
    assert "epoch/s" in text or "s/epoch" in text  # tqdm's rate field: the bar was drawn


def test_expected_epochs_follows_each_learners_parameter():
    assert expected_epochs(make_learner("bk_delayed_laso", {"n_iter": 7})) == 7
    assert expected_epochs(make_learner("l3m", {"epochs": 4})) == 4
    assert expected_epochs(make_learner("cc_slt_closest", {"em_iterations": 3})) == 3
    assert expected_epochs(make_learner("cc_base", {"em_iterations": 3})) == 1  # no E-step: one M-step


def test_a_learner_says_its_own_epochs_and_check_inputs_where_its_parameters_do_not(tmp_path):
    """Learner-specific knowledge lives on the learner: `planned_epochs` overrides the parameter lookup,
    `check_inputs` supplies the files the contract checks' fits need (LSP_ρ's regressor; none by default)."""
    from coreflab.learn.checks import contract_data

    class Odd(type(make_learner("l3m", {}))):
        planned_epochs = 9

    assert expected_epochs(Odd(epochs=4)) == 9
    data = contract_data()
    assert make_learner("l3m", {}).check_inputs(data, tmp_path) == {}
    made = type(make_learner("lsp_rho", {})).check_inputs(data, tmp_path)
    assert set(made) == {"regressor"} and (tmp_path / "regressor.json").is_file()


def test_cache_dir_is_per_user_per_code_version_and_overridable(tmp_path):
    env = {"XDG_CACHE_HOME": str(tmp_path / "xdg")}
    here = str(tmp_path / "xdg" / "coreflab" / "numba" / f"code-{numba_cache.code_digest()}")
    assert numba_cache.configure(env) == here
    assert env["NUMBA_CACHE_DIR"] == here
    env = {"XDG_CACHE_HOME": str(tmp_path / "xdg"), "NUMBA_CACHE_DIR": str(tmp_path / "mine")}
    assert numba_cache.configure(env) == str(tmp_path / "mine")
    env = {"HOME": str(tmp_path)}
    assert os.path.dirname(numba_cache.default_dir(env)).endswith("coreflab/numba")


def test_code_digest_follows_every_source_file(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "a.py").write_text("x = 1\n")
    (pkg / "sub" / "b.py").write_text("y = 2\n")
    (pkg / "notes.txt").write_text("not code")
    first = numba_cache.code_digest(pkg)
    assert numba_cache.code_digest(pkg) == first
    (pkg / "notes.txt").write_text("still not code")
    assert numba_cache.code_digest(pkg) == first
    (pkg / "sub" / "b.py").write_text("y = 3\n")
    assert numba_cache.code_digest(pkg) != first


def test_prune_removes_only_caches_unused_for_the_keep_period(tmp_path):
    base = tmp_path / "numba"
    old, recent, keep = base / "code-old", base / "code-recent", base / "code-now"
    for d in (old, recent, keep):
        (d / "mod_1234").mkdir(parents=True)
    now = time.time()
    for path in (old, old / "mod_1234", keep, keep / "mod_1234"):
        os.utime(path, (now - 40 * 86400, now - 40 * 86400))
    removed = numba_cache.prune(str(base), keep=str(keep), now=now)
    assert removed == [str(old)] and not old.exists() and recent.exists() and keep.exists()


@pytest.mark.slow
def test_a_kernel_sees_an_edited_function_of_another_module(tmp_path):
    """numba checks a cached kernel against its own file only: g() in a.py, calling f() of b.py,
    kept f's old code after b.py changed. With the cache folder named by the code's digest, the
    edit starts a new cache and g() returns the new value."""
    import subprocess
    import sys
    import textwrap

    pkg = tmp_path / "kern"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text(
        "from numba import njit\nfrom kern.b import f\n\n@njit(cache=True)\ndef g():\n    return f()\n"
    )
    (pkg / "b.py").write_text("from numba import njit\n\n@njit(cache=True)\ndef f():\n    return 1\n")
    run = textwrap.dedent(
        f"""
        import os, sys
        sys.path.insert(0, {str(tmp_path)!r})
        from coreflab import numba_cache
        env = {{"XDG_CACHE_HOME": {str(tmp_path / "xdg")!r}}}
        os.environ["NUMBA_CACHE_DIR"] = numba_cache.configure(env, package_dir={str(pkg)!r})
        from kern.a import g
        print(g())
        """
    )
    clean = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}

    def g():
        out = subprocess.run([sys.executable, "-c", run], capture_output=True, text=True, env=clean, check=True)
        return out.stdout.strip()

    assert g() == "1"
    assert g() == "1"  # from the cache
    (pkg / "b.py").write_text("from numba import njit\n\n@njit(cache=True)\ndef f():\n    return 2\n")
    assert g() == "2"


def test_compile_notice_only_while_the_cache_is_cold(tmp_path):
    src = tmp_path / "pkg" / "learn"
    src.mkdir(parents=True)
    cache = tmp_path / "cache"
    out = io.StringIO()
    assert numba_cache.compile_notice(out, str(cache), src)
    assert "compiling kernels (once per machine" in out.getvalue()
    index = numba_cache.source_cache_dir(cache, src) / "kernels.f-1.py311.nbi"
    index.parent.mkdir(parents=True)
    index.write_bytes(b"")
    out = io.StringIO()
    assert not numba_cache.compile_notice(out, str(cache), src)
    assert out.getvalue() == ""


def test_a_learner_outside_the_package_asks_about_any_cached_kernel(tmp_path, monkeypatch):
    """A user's learner folder never gets kernels of its own: asking about it would announce a
    compile on every run; its learner compiles coreflab's kernels, so any cached one answers."""
    from coreflab.learn.trees.bk import BKBaseline

    assert numba_cache.kernel_dir(BKBaseline()) == numba_cache.PACKAGE_DIR / "learn" / "trees"
    (tmp_path / "user_learner.py").write_text("class Mine:\n    pass\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import user_learner

    assert numba_cache.kernel_dir(user_learner.Mine()) is None
    notebook = types.ModuleType("notebook_cell")  # a learner defined in a notebook: its module has no file
    monkeypatch.setitem(sys.modules, "notebook_cell", notebook)
    assert numba_cache.kernel_dir(type("Cell", (), {"__module__": "notebook_cell"})()) is None
    cache = tmp_path / "cache"
    index = numba_cache.source_cache_dir(cache, numba_cache.PACKAGE_DIR / "decode") / "arcs.f-1.py311.nbi"
    index.parent.mkdir(parents=True)
    index.write_bytes(b"")
    out = io.StringIO()
    assert not numba_cache.compile_notice(out, str(cache), numba_cache.kernel_dir(user_learner.Mine()))
    assert out.getvalue() == ""


def test_numba_reads_the_configured_cache_dir():
    import os

    import numba.core.config as config

    assert os.environ["NUMBA_CACHE_DIR"]
    assert config.CACHE_DIR == os.environ["NUMBA_CACHE_DIR"]


def test_cache_folder_name_matches_numbas_own(tmp_path):
    from numba.core.caching import _CacheLocator

    import coreflab.learn.leftlink.l3m as module

    here = numba_cache.source_cache_dir(tmp_path, tmp_path.parent / "x" / "learn")
    assert here.parent == tmp_path and here.name.startswith("learn_")
    import os

    assert numba_cache.source_cache_dir(
        "", os.path.dirname(module.__file__)
    ).name == _CacheLocator.get_suitable_cache_subpath(module.__file__)
