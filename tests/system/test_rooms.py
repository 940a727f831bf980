"""Rooms of a readable size (issue 10): no module of ``scorer`` over 500 lines, no function
over 60 (docs/architecture.md, "How the code is laid out"). A room that grows past either is split into
modules or helpers with one job each.

Issue 35, item 4: the bench's modules (``bench/*.py``) are held to the same two limits, and the
pages' own scripts (``static/js``, not the vendored ``static/vendor``) to the 500 lines per file.
A script's functions are not measured: that needs a JavaScript parser's view of where each ends
(calmjs.parse reads our ES5 scripts but not the engine's module worker), not a count by hand."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import scorer
from scorer.web.assets import asset_dir

PACKAGE = Path(scorer.__file__).resolve().parent
MODULES = sorted(PACKAGE.rglob("*.py"))
BENCH = Path(__file__).resolve().parents[2] / "bench"
BENCH_MODULES = sorted(BENCH.glob("*.py"))
STATIC = asset_dir("static")
#: The pages' scripts we write (a bundle's parts included: scorer.web.assets.BUNDLES), not the vendored ones.
SCRIPTS = sorted((STATIC / "js").rglob("*.js"))
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
    assert {"__main__.py", "browser.py", "push.py"} <= {p.name for p in BENCH_MODULES}
    scripts = {p.relative_to(STATIC).as_posix() for p in SCRIPTS}
    assert {"js/offline.js", "js/push.js", "js/table/taps.js", "js/table/pending.js"} <= scripts
    assert not any(name.startswith("vendor/") for name in scripts)


def where(path: Path) -> str:
    """``path`` as the tests name it: under ``scorer/`` (``web/board.py``), ``bench/`` or ``static/``."""
    for top, prefix in ((PACKAGE, ""), (BENCH, "bench/"), (STATIC, "static/")):
        if top in path.parents:
            return prefix + path.relative_to(top).as_posix()
    raise ValueError(path)


@pytest.mark.parametrize("path", MODULES + BENCH_MODULES + SCRIPTS, ids=where)
def test_no_module_over_500_lines(path):
    assert len(path.read_text(encoding="utf-8").splitlines()) <= MODULE_MAX


@pytest.mark.parametrize("path", MODULES + BENCH_MODULES, ids=where)
def test_no_function_over_60_lines(path):
    where_ = where(path)
    long = {name: lines for name, lines in functions(path).items()
            if lines > FUNCTION_MAX and f"{where_}::{name}" not in LONG_FOR_NOW}
    assert long == {}
