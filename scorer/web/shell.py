"""The installable app's shell: the web app manifest, the service worker and the
"no connection" page the service worker shows when the server cannot be reached.

The service worker caches only the static shell (CSS, scripts, icons and the offline
page in each language); it never caches a scoreboard, so a stale score is never shown
as the current one.
"""

from __future__ import annotations

import hashlib

import rjsmin

from flask import Blueprint, abort, current_app, make_response, render_template, url_for
from flask_babel import force_locale, gettext

from scorer.web.assets import HTMX_FILE, PYODIDE_DIR
from scorer.web.i18n import LANGUAGES, locale_code

bp = Blueprint("shell", __name__)

#: Static files the service worker keeps for offline use (relative to ``static/``), htmx included.
SHELL_FILES = ("css/app.css", "js/table.js", "icons/icon.svg", "icons/icon-192.png", HTMX_FILE)


def shell_urls() -> list[str]:
    """URLs of the static shell."""
    return [url_for("static", filename=f) for f in SHELL_FILES]


def engine_paths() -> list[str]:
    """Path prefixes of the offline engine's files (issue 24): Pyodide's folder, the engine
    bundle, its worker and the page script that drives it; the service worker keeps them
    once fetched."""
    pyodide = url_for("static", filename=PYODIDE_DIR + "/pyodide.mjs").split("pyodide.mjs")[0]
    static = url_for("static", filename="js/x").split("js/x")[0]
    bundle = url_for("offline.engine", digest="x").rsplit("x.zip", 1)[0]
    return [pyodide, bundle, static + "js/engine-worker.js", static + "js/offline.js"]


def offline_urls() -> dict[str, str]:
    """The offline page's URL in each language."""
    return {code: url_for("shell.offline", code=code) for code in LANGUAGES}


def shell_version() -> str:
    """A short hash of the shell's files and of the service worker's template, so a
    changed file makes browsers install the new service worker (and drop the old cache)."""
    cached = current_app.extensions.get("truco_shell_version")
    if cached is None:
        digest = hashlib.sha256()
        versions = current_app.extensions["truco_static_versions"]  # a hash of each file as served
        for name in SHELL_FILES:
            digest.update(versions[name].encode())
        loader = current_app.jinja_env.loader
        assert loader is not None  # the app's templates folder
        source, _path, _uptodate = loader.get_source(current_app.jinja_env, "shell/sw.js")
        digest.update(source.encode())
        for code in LANGUAGES:
            with force_locale(code):
                digest.update(render_template("shell/offline.html").encode())
        cached = current_app.extensions["truco_shell_version"] = digest.hexdigest()[:12]
    return cached


@bp.get("/manifest.webmanifest")
def manifest():
    """The web app manifest, in the user's language: "add to home screen" opens the
    new-match page full screen."""
    body = {
        "name": gettext("Truco scorekeeper"),
        "short_name": gettext("Truco"),
        "description": gettext("One live scoreboard for a real-cards Truco table."),
        "lang": locale_code().replace("_", "-"),
        "start_url": url_for("matches.new"),
        "scope": "/",
        "display": "fullscreen",
        "orientation": "portrait",
        "background_color": "#f6f3ea",
        "theme_color": "#1b5e3a",
        "icons": [
            {"src": url_for("static", filename="icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": url_for("static", filename="icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {"src": url_for("static", filename="icons/maskable-512.png"), "sizes": "512x512", "type": "image/png",
             "purpose": "maskable"},
            {"src": url_for("static", filename="icons/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
        ],
    }
    response = make_response(current_app.json.dumps(body))
    response.mimetype = "application/manifest+json"
    response.headers["Vary"] = "Cookie, Accept-Language"
    return response


@bp.get("/sw.js")
def service_worker():
    """The service worker, at the root so that its scope is the whole site."""
    body = render_template(
        "shell/sw.js", version=shell_version(), shell=shell_urls(), offline=offline_urls(), engine=engine_paths(),
        engine_info=url_for("offline.engine_info"),
        default=LANGUAGES[0],
    )
    response = make_response(rjsmin.jsmin(body))  # minified like our static scripts: it is on the first open
    response.mimetype = "text/javascript"
    return revalidated(response)


@bp.get("/offline/<code>")
def offline(code: str):
    """The "no connection to the scorekeeper" page in language ``code`` (the service
    worker shows it when a page cannot be loaded).

    :raise 404: unknown language.
    """
    if code not in LANGUAGES:
        abort(404)
    with force_locale(code):
        response = make_response(render_template("shell/offline.html"))
    return revalidated(response)


def revalidated(response):
    """``response`` checked again on every use (``no-cache``) with a strong ETag, so that the
    browser's check of an unchanged service worker or offline page (every navigation) is a
    304 with no body (flask-compress answers the conditional request, ETag per encoding)."""
    response.headers["Cache-Control"] = "no-cache"
    # 16 hex digits of the body's hash (as the static files' 12): the first open's bytes are counted.
    response.set_etag(hashlib.sha256(response.get_data()).hexdigest()[:16])
    return response
