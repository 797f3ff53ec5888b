"""Import rules of the package layout (docs/usage.md, "Code layout"), checked on the source with `ast`
(module-level and function-local imports): no module imports a private (underscore) name of another
module; no command module imports another command module (shared helpers belong in the library); the
import graph has no circle; every import points down the layers; no core verb imports a paper."""

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"


def module_name(path, root=SRC):
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(tree, module, is_package=False):
    """(imported module, imported name or None) of every import anywhere in the tree (function-local too);
    a relative import is resolved against the module's package (the module itself for an __init__)."""
    package = module if is_package else module.rpartition(".")[0]
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


# The layers of src/coreflab, lowest first, by the name under `coreflab.` (a module or a package with all
# its modules): a module imports modules of its own layer or lower ones. The base holds the small
# top-level modules that import nothing of coreflab above them (and the package's own __init__).
BASE = ("arg_types", "errors", "named_values", "native_threads", "numba_cache", "optional_data", "prefetch", "seeds")
LAYERS = (
    BASE,
    ("corpus",),
    ("metrics",),
    ("features",),
    ("decode",),
    ("mela",),
    ("learn",),
    ("report",),
    ("papers",),
    ("commands", "cli", "config"),
)

# (importer, imported) pairs that point up a layer, each with its reason; the test fails on one that is
# gone, so that the list only shrinks.
ALLOWED_UPWARD = set()

# the one papers module a core verb may import: how the core finds papers
PAPER_REGISTRY = "coreflab.papers.registry"


def layer_of(module):
    """Index in LAYERS of a coreflab module (None: in no layer)."""
    if module == "coreflab":
        return 0
    top = module.split(".")[1]
    return next((i for i, names in enumerate(LAYERS) if top in names), None)


def import_graph(sources):
    """{module: set of coreflab modules it imports} of {module: (source, is_package)}. An import names the
    deepest module it reaches (`from coreflab.learn import registry` imports coreflab.learn.registry)."""

    def known(name):
        while name and name not in sources:
            name = name.rpartition(".")[0]
        return name or None

    graph = {}
    for module, (source, is_package) in sources.items():
        targets = set()
        for imported, name in imports(ast.parse(source), module, is_package):
            if imported == "coreflab" or imported.startswith("coreflab."):
                targets.add(known(f"{imported}.{name}" if name and f"{imported}.{name}" in sources else imported))
        graph[module] = targets - {module, None}
    return graph


def cycles(graph):
    """The import circles of a graph: its strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def upward_imports(graph):
    """(importer, imported) pairs whose imported module sits in a higher layer than the importer."""
    return {
        (m, t)
        for m, targets in graph.items()
        for t in targets
        if None not in (layer_of(m), layer_of(t)) and layer_of(t) > layer_of(m)
    }


def core_verbs_importing_papers(graph):
    return {
        (m, t)
        for m, targets in graph.items()
        for t in targets
        if m.startswith("coreflab.commands") and t.startswith("coreflab.papers") and t != PAPER_REGISTRY
    }


@pytest.fixture(scope="module")
def graph():
    return import_graph(
        {module: (path.read_text(encoding="utf-8"), path.name == "__init__.py") for module, path in source_modules()}
    )


def test_every_module_has_a_layer(graph):
    assert [m for m in graph if layer_of(m) is None] == []


def test_no_import_circle(graph):
    assert cycles(graph) == []


def test_imports_point_down_the_layers(graph):
    found = upward_imports(graph)
    assert sorted(found - ALLOWED_UPWARD) == []
    assert sorted(ALLOWED_UPWARD - found) == [], "no longer imported: remove from ALLOWED_UPWARD"


def test_no_core_verb_imports_a_paper(graph):
    """A paper's own verbs live in its package; the core verbs find papers through the registry alone."""
    assert sorted(core_verbs_importing_papers(graph)) == []


def test_the_layers_are_the_ones_the_docs_state():
    """docs/usage.md: "Imports point down, ...: the base (...) → `corpus` → ... → `commands`, `cli`, `config`;"."""
    text = " ".join((ROOT / "docs" / "usage.md").read_text(encoding="utf-8").split())
    stated = re.search(r"Imports point down[^:]*:([^;]*);", text)
    assert stated, "docs/usage.md states the layers in a sentence starting 'Imports point down'"
    base, *layers = [re.findall(r"`(\w+)`", part) for part in stated.group(1).split("→")]
    assert set(base) <= set(BASE)
    assert [tuple(sorted(names)) for names in layers] == [tuple(sorted(names)) for names in LAYERS[1:]]


def test_the_graph_checks_find_circles_upward_imports_and_papers_in_verbs():
    sources = {
        "coreflab": ("from coreflab import errors\n", True),
        "coreflab.errors": ("", False),
        "coreflab.learn": ("from . import base\n", True),
        "coreflab.learn.base": ("def load():\n    from coreflab.learn.registry import make\n", False),
        "coreflab.learn.registry": ("from coreflab.learn import base\n", False),
        "coreflab.corpus": ("", True),
        "coreflab.corpus.a": ("from . import b\nimport coreflab.corpus.b.c\n", False),  # b.c: no such module
        "coreflab.corpus.b": ("def f():\n    from coreflab.learn.base import load\n", False),
        "coreflab.papers": ("", True),
        "coreflab.papers.registry": ("", False),
        "coreflab.papers.p": ("from .registry import Paper\n", False),
        "coreflab.commands": ("", True),
        "coreflab.commands.v": ("import coreflab.papers.p\nfrom coreflab.papers import registry\n", False),
    }
    g = import_graph(sources)
    assert g["coreflab.corpus.a"] == {"coreflab.corpus.b"}  # relative, and a module's name cut to a module
    assert g["coreflab.learn"] == {"coreflab.learn.base"} and g["coreflab.papers.p"] == {"coreflab.papers.registry"}
    assert cycles(g) == [["coreflab.learn.base", "coreflab.learn.registry"]]
    assert upward_imports(g) == {("coreflab.corpus.b", "coreflab.learn.base")}
    assert core_verbs_importing_papers(g) == {("coreflab.commands.v", "coreflab.papers.p")}
