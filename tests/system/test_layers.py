"""The layers of the code (docs/architecture.md, "How the code is laid out"): a pure core that imports
neither Flask, Werkzeug nor sqlite3; views that call the application service and never
each other; nothing outside the variant registry that names a variant id."""

from __future__ import annotations

import ast
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import pytest

import scorer

#: Modules that are edges by design: the application services and the database (``scorer.app``,
#: all SQL), the web app, and the commands that open the database (``truco serve``, ``truco db``,
#: and ``scorer.cli.main`` that holds them; ``scorer.cli.metrics_port`` serves ``truco serve``'s metrics,
#: ``scorer.cli.waitress_runner`` runs the web app on waitress for it).
#: Every other module of ``scorer`` (the core, the calculators, the card commands and
#: ``truco replay``) must stay free of them.
EDGES = ("scorer.app", "scorer.web", "scorer.cli.main", "scorer.cli.db_cli", "scorer.cli.serve",
         "scorer.cli.metrics_port", "scorer.cli.waitress_runner")
PACKAGE = Path(scorer.__file__).resolve().parent


def core_modules() -> list[str]:
    """Every module of the ``scorer`` package that is not an edge, found by walking it."""
    found = []
    for info in pkgutil.walk_packages([str(PACKAGE)], "scorer."):
        if not any(info.name == edge or info.name.startswith(edge + ".") for edge in EDGES):
            found.append(info.name)
    return sorted(found)


def test_the_walk_finds_the_core():
    assert {"scorer.core.match", "scorer.core.variants", "scorer.core.errors", "scorer.core.schema", "scorer.core.cards",
            "scorer.core.card_order", "scorer.core.card_rules", "scorer.core.envido_points", "scorer.core.seats",
            "scorer.core.series", "scorer.core.calculators", "scorer.core.match.engine", "scorer.core.match.calls",
            "scorer.core.tournament", "scorer.core.tournament.layout", "scorer.core.tournament.standings",
            "scorer.core.tournament.progress", "scorer.core.variants.registry"} <= set(core_modules())


@pytest.mark.parametrize("module", core_modules())
def test_engine_imports_neither_flask_nor_sqlite3(module):
    """Nor the database libraries (SQLAlchemy, psycopg): the store is the app's."""
    code = (f"import sys, {module}; print(sorted(m for m in sys.modules "
            "if m.split('.')[0] in ('flask', 'werkzeug', 'sqlite3', '_sqlite3', 'sqlalchemy', 'psycopg')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def imports_of(path: Path) -> set[str]:
    """The ``scorer`` modules a file imports (``from scorer.web import x`` counts as
    ``scorer.web.x`` when ``x`` is a module)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return {name for name in names if name.startswith("scorer")}


VIEWS = sorted(p for p in (PACKAGE / "web").rglob("*.py") if "Blueprint(" in p.read_text())
#: The hosting machinery (scorer/web/hosting/, docs/architecture.md): beneath the views.
HOSTING = sorted((PACKAGE / "web" / "hosting").glob("*.py"))


def test_the_hosting_machinery_has_a_folder_of_its_own():
    names = {p.stem for p in HOSTING}
    assert {"security", "flood_gate", "poll_shortcut", "board_cache", "read_cache", "push", "ops"} <= names
    assert not {p.stem for p in (PACKAGE / "web").glob("*.py")} & (names - {"__init__"})


@pytest.mark.parametrize("module", HOSTING, ids=lambda p: p.stem)
def test_the_hosting_machinery_never_imports_a_view(module):
    """It sits beneath the views (they call it, as ``@cached_read``): an import of a view, or of
    the app's factory, would be an arrow back up."""
    views = {f"scorer.web.{p.stem}" for p in VIEWS if p.parent.name == "web"} | {"scorer.web.create_app"}
    assert not imports_of(module) & views


@pytest.mark.parametrize("view", VIEWS, ids=lambda p: p.stem)
def test_views_call_the_service_and_never_each_other(view):
    others = {".".join(p.relative_to(PACKAGE.parent).with_suffix("").parts) for p in VIEWS if p != view}
    imported = imports_of(view)
    assert not imported & others
    assert not imported & {"scorer.cli.cards_cli", "scorer.cli.replay_cli", "scorer.cli.main", "scorer.core.match"}
    # The store is the service's: a view names its row type, never one of its functions.
    assert set(re.findall(r"\bstore\.(\w+)", view.read_text())) <= {"MatchRow"}


def registry_ids() -> tuple[set[str], set[str]]:
    """The ids the guard looks for, read from the registry (never a hand-made list): every
    variant id, and every call id of a truco ladder (the calls a variant brings; Envido's and
    Flor's are the engine's own mechanism, :data:`scorer.core.variants.ENVIDO_CALLS`)."""
    from scorer.core.variants import VARIANTS

    return set(VARIANTS), {step.call for v in VARIANTS.values() for step in v.truco_ladder}


def id_pattern() -> re.Pattern[str]:
    """A variant or ladder call id as code would write it (a quoted string), or a variant
    compared with a literal."""
    variants, calls = registry_ids()
    ids = "|".join(sorted(map(re.escape, variants | calls), key=len, reverse=True))
    return re.compile(rf"""["']({ids})["']|variant\w*\s*[!=]=\s*["']""")


#: Where ids may be written: the registry package (its variants, parts and table words).
REGISTRY_DIR = PACKAGE / "core" / "variants"
BENCH = PACKAGE.parent / "bench"


#: Words that are spelled like an id but are not one: Portuguese number words the card reader
#: accepts ("seis" = 6, "nove" = 9, as Paulista's calls are named after them).
#: ``"truco"`` is also the statistics' name for the tentos won in play (``tentos_by_source``,
#: issue 22), a key of the statistics, not the call.
NOT_IDS = {"scorer/core/cards.py": {"seis", "nove"}, "scorer/core/stats.py": {"truco"},
           "scorer/web/stat_words.py": {"truco"}}


#: Lines that name an id without deciding anything: comments, and the runnable examples in
#: docstrings (``>>>`` and ``...`` prompts; tests/core/test_doctests.py runs them against the
#: registry, so an id renamed or removed fails there).
NOT_CODE = ("#", ">>>", "...")


def _code(line: str) -> str:
    """A line without its comment (a ``#`` after two spaces, or a whole-line comment), and
    nothing of a comment or a doctest line."""
    return "" if line.lstrip().startswith(NOT_CODE) else line.split("  # ")[0]


def named_outside_the_registry() -> dict[str, list[str]]:
    """``{file: lines}`` of production code (``scorer/``, the templates, the pages' scripts) and
    ``bench/`` that name an id."""
    pattern = id_pattern()
    named = {}
    root = PACKAGE.parent
    pages = [*(root / "templates").rglob("*.html"), *(root / "static" / "js").rglob("*.js")]
    for path in sorted([*PACKAGE.rglob("*.py"), *BENCH.rglob("*.py"), *pages]):
        if REGISTRY_DIR in path.parents:
            continue
        name = str(path.relative_to(PACKAGE.parent))
        hits = [line for line in path.read_text().splitlines()
                if any(m.group(1) not in NOT_IDS.get(name, set()) for m in pattern.finditer(_code(line)))]
        if hits:
            named[name] = hits
    return named


def test_only_the_registry_names_a_variant_or_a_call():
    """Adding a variant means a registry entry, its words and its tests (issue 20 item 3): no
    other file of ``scorer/`` or ``bench/`` names a variant id or a ladder's call id. The ids
    are the registry's own, so a new variant's are guarded the moment it is registered."""
    assert named_outside_the_registry() == {}


def test_the_guard_sees_every_registered_id():
    """The guard's pattern is built from the registry: it matches each variant id and each
    ladder call id as code would quote it, ``venezolano`` and ``vale_juego`` included."""
    variants, calls = registry_ids()
    assert {"venezolano", "truc"} <= variants and {"vale_juego", "retruc"} <= calls
    pattern = id_pattern()
    for name in variants | calls:
        assert pattern.search(f'x = "{name}"') and pattern.search(f"f('{name}')")
    assert not pattern.search('x = "envido"')
