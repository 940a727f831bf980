"""Play with no scorekeeper (issue 24): the offline engine's bundle, and the upload of a match
started on a phone that could not reach the scorekeeper.

``GET /engine/<digest>.zip``: the engine bundle (:mod:`scorer.web.engine_bundle`), Brotli or
gzip as the client accepts, cached a year under its content's hash; another hash is a 404.
"""

from __future__ import annotations

from flask import Blueprint, abort, jsonify, make_response, request, url_for

from scorer.web import engine_bundle
from scorer.web.assets import IMMUTABLE, PYODIDE_DIR
from scorer.web.security import CSP

bp = Blueprint("offline", __name__)

#: The worker that runs the engine (static/js): it alone may compile WebAssembly.
ENGINE_WORKER = "js/engine-worker.js"
#: Pyodide's files the engine loads (under :data:`PYODIDE_DIR`).
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
#: The endpoints whose URL rules the page needs besides the board's own.
PAGE_ENDPOINTS = ("matches.scoreboard", "matches.poll", "records.export", "offline.upload_match")


@bp.after_app_request
def worker_may_compile_wasm(response):
    """The engine's worker gets ``script-src 'self' 'wasm-unsafe-eval'`` (WebAssembly
    compiles there and nowhere else); every other response keeps the site's CSP."""
    if request.endpoint == "static" and (request.view_args or {}).get("filename") == ENGINE_WORKER:
        response.headers["Content-Security-Policy"] = CSP + "; script-src 'self' 'wasm-unsafe-eval'"
    return response


@bp.get("/engine.json")
def engine_info():
    """What a page needs to start the offline engine: ``{"bundle", "pyodide", "worker",
    "files", "routes"}`` (``files``: every URL the service worker keeps; ``routes``: URL
    rules of the pages and APIs it talks to)."""
    pyodide = url_for("static", filename=PYODIDE_DIR + "/pyodide.mjs").split("pyodide.mjs")[0]
    bundle = engine_bundle.bundle_url()
    worker = url_for("static", filename=ENGINE_WORKER)
    offline_js = url_for("static", filename="js/offline.js")
    rules = {rule.endpoint: rule.rule for rule in reversed(list(request.url_rule.map.iter_rules()))
             if rule.endpoint in PAGE_ENDPOINTS}
    return jsonify(bundle=bundle, pyodide=pyodide, worker=worker,
                   files=[pyodide + f for f in PYODIDE_FILES] + [bundle, worker, offline_js], routes=rules)


@bp.get("/engine/<digest>.zip")
def engine(digest: str):
    """The engine bundle under its current hash.

    :raise 404: another hash (an older bundle: the page asks for the current one).
    """
    found = engine_bundle.bundle()
    if digest != found.digest:
        abort(404)
    accepted = request.accept_encodings
    if accepted["br"]:
        body, encoding = found.br, "br"
    elif accepted["gzip"]:
        body, encoding = found.gz, "gzip"
    else:
        body, encoding = found.raw, None
    response = make_response(body)
    response.mimetype = "application/zip"
    if encoding:
        response.headers["Content-Encoding"] = encoding
    response.headers["Vary"] = "Accept-Encoding"
    response.headers["Cache-Control"] = IMMUTABLE
    return response
