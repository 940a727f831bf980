"""Static files: where ``templates`` and ``static`` are, the vendored htmx,
our own scripts and style sheets served minified (calmjs.parse, rjsmin, rcssmin), versioned static URLs
(``?v=`` and a content hash, cached a year) and compression (flask-compress, with a cache
that keeps static files compressed once at Brotli's best)."""

from __future__ import annotations


import hashlib
import json
import mimetypes
import os
import tempfile
from pathlib import Path
from collections.abc import Iterable
from typing import Any

from flask import Flask, current_app, g, request
from markupsafe import Markup

PACKAGE_DIR = Path(__file__).resolve().parent.parent


def asset_dir(name: str) -> Path:
    """Where ``templates`` or ``static`` is: inside the package in an installed wheel,
    at the top of the repository in a source checkout or editable install."""
    inside = PACKAGE_DIR / name
    if inside.is_dir():
        return inside
    return PACKAGE_DIR.parent / name


#: The vendored htmx (npm package htmx.org; version and sha256 in static/vendor/htmx.txt).
#: Its built-in morph ("outerMorph") lets answers and polls change only what changed.
HTMX_FILE = "vendor/htmx-4.0.1.min.js"

#: The vendored Pyodide (npm package pyodide; version, licence and sha256 in
#: static/vendor/pyodide.txt): CPython for WebAssembly, which runs the rules core on the phone
#: when the scorekeeper cannot be reached (issue 24, :mod:`scorer.web.engine_bundle`). Its
#: files are loaded by name from this folder (no ``?v=``): the version in the folder's name
#: makes them immutable.
PYODIDE_DIR = "vendor/pyodide-314.0.8"

# WebAssembly must be served as application/wasm (streaming compilation); ES modules as
# JavaScript. Registered here, not left to the machine's /etc/mime.types.
mimetypes.add_type("application/wasm", ".wasm")
mimetypes.add_type("text/javascript", ".mjs")


def htmx_config(timeout_seconds: float) -> Markup:
    """The pages' ``<meta name="htmx-config">`` (JSON): a request unanswered after
    ``timeout_seconds`` fails (the page then says the tap was not recorded); 204 (an unchanged
    poll), 304 and every 4xx/5xx swap nothing, except where the board asks for 409 and 422
    (``hx-status``); no inline indicator style (the CSP), no history handling."""
    return Markup(json.dumps({"includeIndicatorCSS": False, "history": False,
                              "defaultTimeout": round(timeout_seconds * 1000), "noSwap": [204, 304, "4xx", "5xx"]}))


#: Responses worth compressing (flask-compress; Brotli, zstd or gzip, as the client accepts).
COMPRESS_MIMETYPES = [
    "text/html", "text/css", "text/javascript", "application/javascript", "application/json",
    "application/manifest+json", "image/svg+xml", "application/wasm",
]
#: ``Cache-Control`` of a static file asked for with its content's hash (``?v=``).
IMMUTABLE = "public, max-age=31536000, immutable"


class StaticCompressedCache:
    """flask-compress's cache (``COMPRESS_CACHE_BACKEND``), kept for static files and the
    heavy reads kept by version (their compressed bodies live in the app's
    :class:`scorer.web.hosting.read_cache.ReadCache`, within its bytes).

    A static file under its current versioned URL is compressed once, at Brotli's
    maximum quality when Brotli is the encoding (too slow for pages, which are
    compressed at ``COMPRESS_BR_LEVEL`` on every request), and kept; every other response
    gets no cache key (:func:`static_cache_key` gives ``""``) and is never stored."""

    def __init__(self) -> None:
        self.data: dict[str, bytes] = {}

    def get(self, key: str) -> bytes | None:
        algorithm, _, url = key.partition(";")
        if not url:
            return None
        if url.startswith(READ_KEY):  # a kept heavy read's body (scorer/web/hosting/read_cache.py)
            return current_app.extensions["truco_read_cache"].compressed_get(key)
        hit = self.data.get(key)
        if hit is None and algorithm == "br":
            hit = self._compressed(key)
        return hit

    def _compressed(self, key: str) -> bytes | None:
        """The static file of this request, Brotli-compressed and kept under ``key`` (None: not a file)."""
        import brotli
        from werkzeug.security import safe_join

        filename = (request.view_args or {}).get("filename", "")
        data = current_app.extensions.get("truco_static_minified", {}).get(filename)
        path = safe_join(current_app.static_folder or "", filename)
        if data is None and path and os.path.isfile(path):
            with open(path, "rb") as f:
                data = f.read()
        if data is None:
            return None
        hit = self.data[key] = brotli.compress(data, quality=brotli_quality(len(data)))
        return hit

    def set(self, key: str, value: bytes) -> None:
        url = key.partition(";")[2]
        if url.startswith(READ_KEY):
            current_app.extensions["truco_read_cache"].compressed_put(key, value)
        elif url:
            self.data[key] = value


def brotli_quality(size: int) -> int:
    """Brotli's quality for a static file of ``size`` bytes, compressed once: the maximum
    (11), but 5 past 2 MB (Pyodide's 9.6 MB WebAssembly: 0.35 s instead of tens of seconds at
    9 on a loaded machine, 3.6 % bigger; four phones starting the engine at once once took
    both cores from the table's taps for longer than a tap waits)."""
    return 11 if size <= 2_000_000 else 5


def immutable_name(filename: str) -> bool:
    """Whether a static file's name alone says its version (Pyodide's folder), so it is
    kept a year without a ``?v=``."""
    return filename.startswith(PYODIDE_DIR + "/")


#: The start of a kept heavy read's key in flask-compress's cache (:func:`static_cache_key`).
READ_KEY = "read:"


def static_cache_key(req) -> str:
    """The cache key of a static file asked for with its current ``?v=`` hash, or of a
    file whose name holds its version (:func:`immutable_name`); of a heavy read kept by its
    version, ``read:<its ETag>`` (:mod:`scorer.web.hosting.read_cache`: compressed once per version);
    ``""`` (not cached) for anything else."""
    etag = g.get("truco_read_etag")
    if etag:
        return READ_KEY + etag
    if req.endpoint != "static":
        return ""
    versions = current_app.extensions.get("truco_static_versions", {})
    filename = (req.view_args or {}).get("filename", "")
    wanted = req.args.get("v")
    if immutable_name(filename) and not wanted:
        return req.full_path
    return req.full_path if wanted and wanted == versions.get(filename) else ""


def init_compression(app: Flask) -> None:
    """Compress text responses over 512 bytes when the client accepts it (Brotli first: the
    smallest at the same cost; gzip for clients that only take gzip). Static files under
    their versioned URLs are compressed once, Brotli at its maximum quality, and kept
    (flask-compress's cache, :class:`StaticCompressedCache`)."""
    from flask_compress import Compress

    app.config.setdefault("COMPRESS_MIMETYPES", COMPRESS_MIMETYPES)
    app.config.setdefault("COMPRESS_MIN_SIZE", 512)  # the offline page (about 800 bytes) too
    app.config.setdefault("COMPRESS_BR_LEVEL", 5)
    app.config.setdefault("COMPRESS_ALGORITHM", ["br", "zstd", "gzip", "deflate"])
    app.config.setdefault("COMPRESS_ALGORITHM_STREAMING", ["br", "zstd", "deflate"])
    app.config.setdefault("COMPRESS_CACHE_BACKEND", StaticCompressedCache)
    app.config.setdefault("COMPRESS_CACHE_KEY", static_cache_key)
    Compress(app)


def minified(path: Path) -> bytes | None:
    """What is served for our own script or style sheet ``path``: its text minified, UTF-8;
    ``None`` for any other file, vendored ones included (they come minified), served as it is.

    The page's ES5 scripts (table.js, offline.js) go through calmjs.parse's minifier with local
    names shortened (globals and properties kept: ``window.trucoPending`` and the page's hooks
    keep their names), so that the first open of a board stays under its 30 KB (issue 24,
    tests/browser/test_offline_play.py); a script in a later JavaScript (the engine's module
    worker) through rjsmin (comments and spaces out, names kept); style sheets through rcssmin.
    """
    if "vendor" in path.parts or path.suffix not in (".js", ".css"):
        return None
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".js":
        return minified_script(text).encode()
    import rcssmin

    return rcssmin.cssmin(text).encode()


def minified_script(text: str) -> str:
    """``text``, a script, minified: ES5 with local names shortened (calmjs.parse), a later
    JavaScript (a module worker) with names kept (rjsmin). See :func:`minified`.

    Parsing costs about a second for table.js, so each result is kept in a folder of this
    user's own (mode 0700, under the system's temporary folder) by the hash of the script and
    the minifier's version: a server, a worker process or a test's app reads it once minified;
    without such a folder it is minified here."""
    folder = _minified_folder()
    key = hashlib.sha256(f"{_minifier_version()}\0{text}".encode()).hexdigest()[:40]
    if folder is not None:
        try:
            return (folder / f"{key}.js").read_text(encoding="utf-8")
        except OSError:
            pass
    out = _minified_now(text)
    if folder is not None:
        try:
            part = folder / f"{key}.{os.getpid()}.part"
            part.write_text(out, encoding="utf-8")
            os.replace(part, folder / f"{key}.js")
        except OSError:
            pass
    return out


def _minifier_version() -> str:
    from importlib.metadata import version

    return f"calmjs.parse {version('calmjs.parse')}; rjsmin {version('rjsmin')}"


def _minified_folder() -> Path | None:
    """This user's folder of minified scripts, or None where it cannot be made safely (another
    user's, or open to others)."""
    uid = getattr(os, "getuid", lambda: None)()
    folder = Path(tempfile.gettempdir()) / f"truco-scorer-minified-{uid}"
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
        st = folder.stat()
    except OSError:
        return None
    if uid is not None and (st.st_uid != uid or st.st_mode & 0o077):
        return None
    return folder


def _minified_now(text: str) -> str:
    from calmjs.parse import es5
    from calmjs.parse.exceptions import ECMASyntaxError
    from calmjs.parse.unparsers.es5 import minify_print

    try:
        return minify_print(es5(text), obfuscate=True, obfuscate_globals=False)
    except ECMASyntaxError:  # not ES5: a module worker
        import rjsmin

        return rjsmin.jsmin(text)


def file_stamp(files: Iterable[Path]) -> tuple[tuple[str, int, int], ...]:
    """Each file's path, size (bytes) and modification time (ns), in the order given: what a
    result built from those files is kept under, so that a changed file builds it again
    (:func:`static_contents`, ``engine_bundle.build``)."""
    return tuple((path.as_posix(), st.st_size, st.st_mtime_ns) for path in files for st in (path.stat(),))


#: Scripts served as one, under the name the pages ask for: their parts (under ``static/``, in
#: this order) in one closure (:func:`bundled`). The board's script is written in parts of one job
#: each (the kept taps, the page's extras, the tap machine, the board's answers, the kept taps'
#: strip) and served as one request: a script of its own costs the first open of a board its
#: headers and a compressed body of its own (30 KB, tests/browser/test_offline_play.py).
BUNDLES: dict[str, tuple[str, ...]] = {
    "js/table.js": tuple(f"js/table/{part}.js" for part in ("pending", "page", "taps", "board", "kept")),
}


def bundled(folder: Path, parts: Iterable[str]) -> str:
    """The text of a bundle: the files ``parts`` (relative to ``folder``), in order, in one
    closure in strict mode, so that each part uses the names the ones before it defined."""
    body = "\n".join((folder / part).read_text(encoding="utf-8") for part in parts)
    return '(function () {\n"use strict";\n' + body + "\n})();\n"


def source_text(folder: Path, name: str) -> str:
    """The source of static file ``name`` under ``folder``: the file's text, or a bundle's
    (:data:`BUNDLES`) before it is minified."""
    if name in BUNDLES:
        return bundled(folder, BUNDLES[name])
    return (folder / name).read_text(encoding="utf-8")


#: What :func:`static_contents` read, by the folder's :func:`file_stamp`.
_STATIC_READ: dict[tuple, tuple[dict[str, str], dict[str, bytes]]] = {}


def static_contents(folder: Path) -> tuple[dict[str, str], dict[str, bytes]]:
    """``(versions, served)`` for the files under ``folder``: each file's name (``/``-separated,
    relative) to a hash of the content served (12 hex digits), and the minified text of our
    own scripts and style sheets (:func:`minified`); a bundle's parts (:data:`BUNDLES`) are
    served as the bundle, minified as one script, not one by one. Read again only when a file's
    size or modification time changed, or the folder did: an app made again in the same process
    (the tests make hundreds) does not hash the vendored Pyodide again."""
    files = sorted(path for path in folder.rglob("*") if path.is_file())
    stamp = file_stamp(files)
    if stamp in _STATIC_READ:
        return _STATIC_READ[stamp]
    versions: dict[str, str] = {}
    served: dict[str, bytes] = {}
    parts = {part for bundle in BUNDLES.values() for part in bundle}
    for path in files:
        name = path.relative_to(folder).as_posix()
        if name in parts:
            continue
        data = minified(path)
        if data is None:
            data = path.read_bytes()
        else:
            served[name] = data
        versions[name] = hashlib.sha256(data).hexdigest()[:12]
    for name, bundle in BUNDLES.items():
        if all((folder / part).is_file() for part in bundle):
            data = served[name] = minified_script(bundled(folder, bundle)).encode()
            versions[name] = hashlib.sha256(data).hexdigest()[:12]
    _STATIC_READ.clear()  # one folder per process: the last one read is all that is kept
    _STATIC_READ[stamp] = versions, served
    return versions, served


def init_static_versions(app: Flask) -> None:
    """Versioned static URLs: ``url_for('static', filename=f)`` adds ``?v=`` and a hash of
    the served content (:func:`static_contents`, at start; our scripts and style sheets
    minified), and a request with the current hash is cached for a year (``immutable``); a
    changed file gets a new URL."""
    versions, served = static_contents(Path(app.static_folder or ""))
    app.extensions["truco_static_versions"] = versions
    app.extensions["truco_static_minified"] = served

    def static_file(filename: str):
        """Flask's static view, with our scripts and style sheets from memory, minified."""
        data = served.get(filename)
        if data is None:
            return app.send_static_file(filename)
        response = app.response_class(data, mimetype=mimetypes.guess_type(filename)[0])
        response.set_etag(versions[filename])
        response.cache_control.no_cache = True
        return response.make_conditional(request)

    app.view_functions["static"] = static_file

    @app.url_defaults
    def static_version(endpoint: str, values: dict[str, Any]) -> None:
        if endpoint == "static" and "v" not in values:
            v = versions.get(values.get("filename", ""))
            if v:
                values["v"] = v

    @app.after_request
    def static_cache(response):
        if request.endpoint != "static":
            return response
        if response.status_code == 200 and response.is_streamed:
            # Small files: read into memory (the file is closed with the response), so
            # flask-compress compresses them like a page (gzip too) with a Content-Length.
            response.direct_passthrough = False
            response.make_sequence()
        wanted = request.args.get("v")
        filename = (request.view_args or {}).get("filename", "")
        if (wanted and wanted == versions.get(filename)) or (not wanted and immutable_name(filename)):
            response.headers["Cache-Control"] = IMMUTABLE
            # Kept a year and never revalidated: validators and the download name are
            # bytes for nothing on every first open.
            for header in ("ETag", "Last-Modified", "Content-Disposition", "Accept-Ranges"):
                response.headers.pop(header, None)
        return response
