"""Rooms of a readable size (issue 10): no module of ``scorer`` over 500 lines, no function
over 60 (docs/architecture.md, "How the code is laid out"). A room that grows past either is split into
modules or helpers with one job each."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import scorer

PACKAGE = Path(scorer.__file__).resolve().parent
MODULES = sorted(PACKAGE.rglob("*.py"))
#: The issue's thresholds: lines per module, lines per function (``def`` to its last line).
MODULE_MAX, FUNCTION_MAX = 500, 60
#: Functions allowed past FUNCTION_MAX, with the reason: none.
LONG_FOR_NOW: set[str] = set()


def functions(path: Path) -> dict[str, int]:
    """``{"Class.method" or "function": lines}`` for every function of a file, nested ones
    included (named ``outer.inner``)."""
    found: dict[str, int] = {}

    def walk(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = prefix + child.name
                if not isinstance(child, ast.ClassDef):
                    found[name] = child.end_lineno - child.lineno + 1
                walk(child, name + ".")
            else:
                walk(child, prefix)

    walk(ast.parse(path.read_text(encoding="utf-8")), "")
    return found


def test_the_walk_finds_the_rooms():
    names = {str(p.relative_to(PACKAGE)) for p in MODULES}
    assert {"app/store/matches.py", "core/tournament/layout.py", "core/match/engine.py", "web/board.py",
            "cli/serve.py", "cli/waitress_runner.py"} <= names
    assert "run_workers" in functions(PACKAGE / "cli" / "waitress_runner.py")
    assert "Match.state" in functions(PACKAGE / "core" / "match" / "engine.py")


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_over_500_lines(path):
    assert len(path.read_text(encoding="utf-8").splitlines()) <= MODULE_MAX


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_function_over_60_lines(path):
    where = str(path.relative_to(PACKAGE))
    long = {name: lines for name, lines in functions(path).items()
            if lines > FUNCTION_MAX and f"{where}::{name}" not in LONG_FOR_NOW}
    assert long == {}
