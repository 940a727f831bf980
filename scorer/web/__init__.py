"""The phone scorekeeper: a Flask app built by :func:`create_app`, htmx on top.

Blueprints: ``matches`` (new match, scoreboard, actions, share, watch, polling),
``api`` (the JSON API), ``tools`` (Envido and manilha calculators) and ``lang``
(language switch). Nothing is built at import time.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from flask import Flask, request

from scorer.web import db, i18n
from scorer.web.engine import MatchService

PACKAGE_DIR = Path(__file__).resolve().parent.parent


def asset_dir(name: str) -> Path:
    """Where ``templates`` or ``static`` is: inside the package in an installed wheel,
    at the top of the repository in a source checkout or editable install."""
    inside = PACKAGE_DIR / name
    if inside.is_dir():
        return inside
    return PACKAGE_DIR.parent / name


#: The vendored htmx (npm package htmx.org; version and sha256 in static/vendor/htmx.txt).
HTMX_FILE = "vendor/htmx-2.0.11.min.js"

#: Content-Security-Policy of every response: nothing inline, nothing from elsewhere.
CSP = "default-src 'self'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app.

    ``test_config`` (a mapping) overrides the defaults, e.g. ``{"TESTING": True,
    "DATABASE": tmp_path / "t.sqlite3"}``. Settings: ``DATABASE`` (SQLite file path;
    default ``instance/truco.sqlite3``), ``PUBLIC_URL`` (base URL put in share links
    and QR codes; default: the URL the request came in on), ``MATCH_CACHE_SIZE``
    (replayed matches kept in memory), ``MAX_CONTENT_LENGTH`` (bytes of a request body;
    more is a 413), ``MAX_ACTIONS`` (actions one match can hold; a real one has a few
    hundred).
    """
    app = Flask(
        __name__,
        instance_relative_config=True,
        template_folder=str(asset_dir("templates")),
        static_folder=str(asset_dir("static")),
    )
    app.config.from_mapping(
        DATABASE=os.path.join(app.instance_path, "truco.sqlite3"),
        PUBLIC_URL=None,
        MATCH_CACHE_SIZE=1024,
        LANGUAGES=i18n.LANGUAGES,
        BABEL_DEFAULT_LOCALE="pt_BR",
        BABEL_TRANSLATION_DIRECTORIES=str(PACKAGE_DIR / "translations"),
        MAX_CONTENT_LENGTH=64 * 1024,
        MAX_ACTIONS=5000,
        JSON_SORT_KEYS=False,
    )
    if test_config is not None:
        app.config.update(test_config)
    app.config["DATABASE"] = str(app.config["DATABASE"])

    db.init_app(app)
    i18n.init_app(app)
    app.extensions["truco_matches"] = MatchService(app.config["MATCH_CACHE_SIZE"], app.config["MAX_ACTIONS"])

    from scorer.web import api, errors, labels, lang, matches, records, shell, tools

    errors.init_app(app)
    app.jinja_env.globals.update(HTMX_FILE=HTMX_FILE, STAGE_NAMES=labels.STAGE_NAMES)
    app.register_blueprint(matches.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(records.bp)
    app.register_blueprint(tools.bp)
    app.register_blueprint(lang.bp)
    app.register_blueprint(shell.bp)

    @app.after_request
    def security_headers(response):
        response.headers.setdefault("Content-Security-Policy", CSP)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        if request.endpoint != "static":
            response.headers.setdefault("Cache-Control", "no-store")
        return response

    return app
