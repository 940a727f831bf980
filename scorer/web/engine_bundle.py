"""The offline engine's bundle (issue 24): one zip of the installed code a phone needs to
play a match with no scorekeeper, run by Pyodide (CPython on WebAssembly, vendored under
``static/vendor/pyodide-*``): the same rules core, the same board view code, the same
Jinja templates and catalogs as the server's, never a second engine in JavaScript.

The zip holds ``scorer/core``, ``scorer/present``, the board's view modules
(:data:`BOARD_MODULES`), the board's templates, the compiled ``.mo`` catalogs, and the
pure-Python ``jinja2`` and ``markupsafe`` taken from the server's own site-packages (their
C speedups left out: markupsafe falls back to its Python code). It also carries
``truco_routes.json``: the URL rules of the endpoints the board links to, read from the
app's URL map, so the phone builds the same links without a second list of routes.

It is built from the files as installed (stored, not deflated: the answer is compressed as
a whole, Brotli or gzip, once, when first asked for in that form), once per process for the
same files (an app made again in the same process, as the tests do, reuses it; a changed
file makes a new one), and served under a URL holding its content's hash
(:func:`bundle_url`), cached a year.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import zipfile
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from flask import Flask, current_app, url_for

from scorer.web.assets import PACKAGE_DIR, asset_dir, file_stamp

#: Modules outside ``scorer/core`` and ``scorer/present`` the phone needs (the board's view
#: model is :mod:`scorer.present.board_view`). None may import Flask or sqlite3.
BOARD_MODULES = ("scorer/__init__.py",)
#: Packages taken whole (every ``.py`` file under them).
PACKAGES = ("scorer/core", "scorer/present")
#: Templates the board fragment renders (relative to ``templates/``).
TEMPLATES = ("partials/_scoreboard.html", "partials/_action.html", "partials/_tally.html")
#: Pure-Python libraries copied from the server's own site-packages.
LIBRARIES = ("jinja2", "markupsafe")
#: Endpoints whose URL rules the board needs (``url_for`` on the phone).
ENDPOINTS = (
    "matches.poll", "matches.watch_poll", "matches.act", "matches.revanche", "matches.share",
    "matches.watch", "matches.scoreboard", "stats.story_chart", "stats.stats_page",
)
#: A fixed date for every entry, so the same files make the same zip (and the same hash).
EPOCH = (2020, 1, 1, 0, 0, 0)


#: Bundles built in this process, by what they were built from (see :func:`build`).
BUILT: dict[tuple, "Bundle"] = {}


@dataclass(frozen=True)
class Bundle:
    """A built bundle: the zip (``raw``), its hash (12 hex), and its Brotli and gzip forms
    (``br``, ``gz``: compressed at the first use, then kept)."""

    raw: bytes
    digest: str

    @cached_property
    def br(self) -> bytes:
        import brotli

        return brotli.compress(self.raw, quality=11)

    @cached_property
    def gz(self) -> bytes:
        return gzip.compress(self.raw, 9, mtime=0)


def library_files(name: str) -> list[tuple[str, Path]]:
    """``(path in the zip, file)`` of the ``.py`` files of library ``name`` as installed."""
    module = __import__(name)
    assert module.__file__ is not None  # a library installed as files, not a namespace package
    root = Path(module.__file__).resolve().parent
    return [(f"{name}/{p.relative_to(root).as_posix()}", p) for p in sorted(root.rglob("*.py"))]


def bundle_files(extra_modules: tuple[str, ...] = ()) -> list[tuple[str, Path]]:
    """Every ``(path in the zip, file)`` of the bundle, sorted (``extra_modules``: more
    ``scorer/...`` files, relative to the package's parent)."""
    files: list[tuple[str, Path]] = []
    base = PACKAGE_DIR.parent
    for package in PACKAGES:
        files += [(p.relative_to(base).as_posix(), p) for p in sorted((base / package).rglob("*.py"))]
    for module in BOARD_MODULES + extra_modules:
        files.append((module, base / module))
    templates = asset_dir("templates")
    files += [(f"templates/{name}", templates / name) for name in TEMPLATES]
    translations = PACKAGE_DIR / "translations"
    files += [(f"translations/{p.relative_to(translations).as_posix()}", p)
              for p in sorted(translations.rglob("*.mo"))]
    for library in LIBRARIES:
        files += library_files(library)
    return sorted(set(files))


def routes(app: Flask) -> dict[str, str]:
    """``{endpoint: rule}`` of :data:`ENDPOINTS` from the app's URL map (``"/m/<match_id>/<key>"``)."""
    found: dict[str, str] = {}
    for rule in app.url_map.iter_rules():
        if rule.endpoint in ENDPOINTS and rule.endpoint not in found:
            found[rule.endpoint] = rule.rule
    return found


def build(app: Flask, extra_modules: tuple[str, ...] = ()) -> Bundle:
    """The bundle of ``app``'s installed code (see the module's docstring): built once per
    process for the same files (their names, sizes and modification times) and routes."""
    files = bundle_files(extra_modules)
    routes_json = json.dumps(routes(app), sort_keys=True)
    stamp = (routes_json, file_stamp(path for _name, path in files))
    found = BUILT.get(stamp)
    if found is None:
        if len(BUILT) >= 4:  # only a process whose files keep changing gets here
            BUILT.clear()
        found = BUILT[stamp] = zipped(files, routes_json)
    return found


def zipped(files: list[tuple[str, Path]], routes_json: str) -> Bundle:
    """The bundle of ``files`` (``(path in the zip, file)``) and the routes (JSON text)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as z:
        for name, path in files:
            info = zipfile.ZipInfo(name, EPOCH)
            info.external_attr = 0o644 << 16
            z.writestr(info, path.read_bytes())
        z.writestr(zipfile.ZipInfo("truco_routes.json", EPOCH), routes_json)
    raw = out.getvalue()
    return Bundle(raw=raw, digest=hashlib.sha256(raw).hexdigest()[:12])


def bundle() -> Bundle:
    """The current app's bundle, built at the first call and kept."""
    found = current_app.extensions.get("truco_engine_bundle")
    if found is None:
        found = current_app.extensions["truco_engine_bundle"] = build(current_app._get_current_object())  # type: ignore[attr-defined]  # current_app is werkzeug's LocalProxy, typed as the Flask it stands for
    return found


def bundle_url() -> str:
    """The bundle's URL, with its content's hash in it."""
    return url_for("offline.engine", digest=bundle().digest)
