"""Import rules of the package layout (DESIGN.md), checked on the source with `ast`:
no module imports a private (underscore) name of another module, and no command module
imports another command module (shared helpers belong in the library)."""

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"


def module_name(path, root=SRC):
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(tree, module):
    """(imported module, imported name or None) of every import anywhere in the tree (function-local too)."""
    package = module if module.endswith("__init__") else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, None
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative import: resolve against the importing package
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parent + ([base] if base else []))
            for alias in node.names:
                yield base, alias.name


def is_command_module(module):
    """coreflab.commands.* and the paper command groups' coreflab.papers.<paper>.commands.*"""
    parts = module.split(".")
    return "commands" in parts[:-1] or (len(parts) > 1 and parts[-2] == "commands")


def violations(source, module):
    out = []
    for imported, name in imports(ast.parse(source), module):
        if not imported.startswith("coreflab"):
            continue
        if name and name.startswith("_") and not name.startswith("__") and imported != module:
            out.append(f"{module} imports private {imported}.{name}")
        if is_command_module(module) and imported != module:
            target = f"{imported}.{name}" if name else imported
            if is_command_module(target) or is_command_module(imported + ".x"):
                out.append(f"command {module} imports command {target}")
    return out


def source_modules():
    return sorted((module_name(p), p) for p in (SRC / "coreflab").rglob("*.py"))


@pytest.mark.parametrize("module,path", source_modules(), ids=[m for m, _ in source_modules()])
def test_module_keeps_the_import_rules(module, path):
    assert violations(path.read_text(encoding="utf-8"), module) == []


def test_the_checker_catches_function_local_and_module_level_imports():
    source = (
        "from coreflab.learn.sgd import shrink\n"
        "def f():\n"
        "    from coreflab.learn.leftlink.kernels import _buffers\n"
        "    import coreflab.commands.train\n"
        "    return _buffers\n"
        "from coreflab.commands import train\n"
        "from .train import load_split\n"
    )
    found = violations(source, "coreflab.commands.predict")
    assert sorted(found) == [
        "command coreflab.commands.predict imports command coreflab.commands.train",
        "command coreflab.commands.predict imports command coreflab.commands.train",
        "command coreflab.commands.predict imports command coreflab.commands.train.load_split",
        "coreflab.commands.predict imports private coreflab.learn.leftlink.kernels._buffers",
    ]
    # a module may use its own private names, and a library module may import anything public
    assert violations("from coreflab.learn.sgd import _x\n", "coreflab.learn.sgd") == []
    assert violations("from coreflab.commands.train import run\n", "coreflab.report.io") == []


def test_no_test_module_imports_another():
    """Shared test data lives in conftest.py fixtures or helper modules, not in another test file."""
    tests = Path(__file__).resolve().parent
    found = []
    for path in sorted(tests.rglob("*.py")):
        module = module_name(path, tests.parent)
        for imported, name in imports(ast.parse(path.read_text(encoding="utf-8")), module):
            target = f"{imported}.{name}" if name else imported
            if any(part.startswith("test_") for part in target.split(".")) and imported != module:
                found.append(f"{module} imports {target}")
    assert found == []
