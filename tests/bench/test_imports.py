"""Every coreflab name a benchmark script imports exists (the scripts run on demand, not in CI,
so a moved module would otherwise break them silently)."""

import ast
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = sorted((ROOT / "bench").glob("*.py"))


def _coreflab_imports(path):
    """Import statements of the script, and of the Python code it keeps in string constants to run
    in child processes (`python -c` jobs)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    trees = [(tree, 0)]
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and "import coreflab" in node.value.replace("from coreflab", "import coreflab")
        ):
            try:
                trees.append((ast.parse(node.value), node.lineno - 1))
            except SyntaxError:
                continue
    for t, offset in trees:
        for node in ast.walk(t):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("coreflab"):
                yield from ((offset + node.lineno, node.module, a.name) for a in node.names)
            elif isinstance(node, ast.Import):
                yield from ((offset + node.lineno, a.name, None) for a in node.names if a.name.startswith("coreflab"))


@pytest.mark.parametrize("script", SCRIPTS, ids=[p.name for p in SCRIPTS])
def test_bench_imports_resolve(script):
    for line, module, name in _coreflab_imports(script):
        mod = importlib.import_module(module)
        if name is not None and not hasattr(mod, name):
            try:
                importlib.import_module(f"{module}.{name}")  # a submodule
            except ImportError:
                pytest.fail(f"{script.name}:{line}: {module} has no {name}")
