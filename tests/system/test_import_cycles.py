"""No import circle between the modules of ``scorer`` (issue 21): every dependency walks one
way, so any module can be read, tested and moved knowing only what is below it.

The graph is read from the source with :mod:`ast`, not from what happens to be imported at
run time: every ``import`` and ``from ... import`` (at the top or inside a function),
relative imports, and the hidden ones, ``__import__("...")`` and
``importlib.import_module("...")`` with a literal name. ``from package import name`` is an
edge to ``package.name`` when that is a module, else to ``package``, so a package's
``__init__`` that re-exports its rooms points at each of them. The parent packages Python
runs before a submodule (``scorer.app.store`` before ``scorer.app.store.keys``) are not
edges: they are how packages work, not a dependency of the code.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import scorer

PACKAGE = Path(scorer.__file__).resolve().parent


def module_name(path: Path, root: Path = PACKAGE, package: str = "scorer") -> str:
    """``scorer/app/store/keys.py`` -> ``scorer.app.store.keys``; ``.../__init__.py`` -> its package."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join([package, *parts])


def _resolve(name: str, modules: set[str]) -> str | None:
    """The module ``name`` means: itself, else the longest known module it starts with
    (``scorer.app.store.hash_key`` -> ``scorer.app.store``); None outside the package."""
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


def _named_imports(node: ast.AST, here: str, is_package: bool) -> list[str]:
    """The dotted names one AST node imports (module, or ``module.name`` candidates)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom):
        base = node.module or ""
        if node.level:
            parent = here.split(".") if is_package else here.split(".")[:-1]
            parent = parent[: len(parent) - (node.level - 1)]
            base = ".".join(parent + ([base] if base else []))
        return [base] + [f"{base}.{alias.name}" for alias in node.names]
    if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant) \
            and isinstance(node.args[0].value, str):
        func = node.func
        called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        if called in ("__import__", "import_module"):
            base = node.args[0].value
            fromlist = next((k.value for k in node.keywords if k.arg == "fromlist"), None)
            names = [e.value for e in getattr(fromlist, "elts", []) if isinstance(e, ast.Constant)]
            return [base] + [f"{base}.{name}" for name in names]
    return []


def imports_of(source: str, here: str, modules: set[str], is_package: bool = False) -> set[str]:
    """The modules of ``modules`` that the code ``source`` of module ``here`` imports, by any
    of the ways the module docstring lists. ``from a import b`` gives ``a.b`` if that is a
    module, else ``a``."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        names = _named_imports(node, here, is_package)
        if isinstance(node, ast.Import):
            targets = [_resolve(name, modules) for name in names]
        elif names:
            base, *members = names
            targets = [m if m in modules else _resolve(base, modules) for m in members] or [_resolve(base, modules)]
        else:
            continue
        found.update(t for t in targets if t and t != here)
    return found


def import_graph(root: Path = PACKAGE, package: str = "scorer") -> dict[str, set[str]]:
    """``{module: modules it imports}`` for every ``.py`` file under ``root``."""
    paths = {module_name(p, root, package): p for p in sorted(root.rglob("*.py"))}
    modules = set(paths)
    return {name: imports_of(p.read_text(encoding="utf-8"), name, modules, p.name == "__init__.py")
            for name, p in paths.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm): each is
    at least one circle. Sorted, for a readable failure."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(groups)


MODULES = {"p", "p.a", "p.b", "p.c", "p.sub", "p.sub.x"}


@pytest.mark.parametrize("source, here, expected", [
    ("import p.a", "p.b", {"p.a"}),
    ("from p import a", "p.b", {"p.a"}),
    ("from p.a import thing", "p.b", {"p.a"}),
    ("from p import a, thing", "p.b", {"p.a", "p"}),
    ("from . import a", "p.b", {"p.a"}),
    ("from .sub import x", "p.b", {"p.sub.x"}),
    ("from .. import c", "p.sub.x", {"p.c"}),
    ("from .x import y", "p.sub", {"p.sub.x"}),  # inside p/sub/__init__.py
    ("def f():\n    from p.a import g\n    return g()", "p.b", {"p.a"}),
    ("X = __import__('p.a', fromlist=['X']).X", "p.b", {"p.a"}),
    ("f = lambda: __import__('p', fromlist=['c']).c", "p.b", {"p.c"}),
    ("import importlib\nm = importlib.import_module('p.sub.x')", "p.b", {"p.sub.x"}),
    ("from importlib import import_module\nm = import_module('p.c')", "p.b", {"p.c"}),
    ("import json, flask", "p.b", set()),
])
def test_every_way_of_importing_is_an_edge(source, here, expected):
    assert imports_of(source, here, MODULES, is_package=here == "p.sub") == expected


@pytest.mark.parametrize("graph, expected", [
    ({"a": {"b"}, "b": {"c"}, "c": set()}, []),
    ({"a": {"b"}, "b": {"a"}}, [["a", "b"]]),
    ({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}, [["a", "b", "c"]]),
    ({"a": {"b"}, "b": {"a"}, "c": {"d"}, "d": {"c"}}, [["a", "b"], ["c", "d"]]),
])
def test_circles_are_found(graph, expected):
    assert circles(graph) == expected


def test_the_graph_sees_the_package():
    graph = import_graph()
    assert "scorer.app.store.migrations" in graph["scorer.app.store"]  # a re-export is an edge
    assert "scorer.core.match" in graph["scorer.app.match_service"]
    assert "scorer.app.store.connection" in graph["scorer.app.store.migrations"]
    assert len(graph) > 80


def test_no_import_circle_in_scorer():
    assert circles(import_graph()) == []
