"""The phone scorekeeper: a Flask app built by :func:`create_app`, htmx on top.

Blueprints, registered by :func:`register_views`: ``matches`` (new match, scoreboard,
actions, share, watch, polling), ``api`` (the matches' JSON API), ``records`` (a match's export,
import, log as CSV and renaming), ``tools`` (Envido and manilha calculators), ``lang`` (language
switch), ``shell`` (the offline page, service worker and manifest), ``tournaments`` and
``tournament_api`` (a tournament's pages and its JSON API), ``stats`` (the evening in
numbers), ``clubs`` and ``club_api`` (a club's pages, season table and records), and ``offline`` (the offline engine's bundle and the upload of a match started offline), and
``ops`` (health and metrics, from :mod:`scorer.web.hosting.ops`). Nothing is built at
import time.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from functools import partial
from typing import Any

from flask import Flask
from werkzeug.routing import PathConverter, UnicodeConverter, ValidationError

from scorer.app.match_service import MatchService
from scorer.app.tournament_keys import TournamentKeys, instance_secret
from scorer.web import db, i18n
from scorer.web.hosting import board_cache, ops, push, read_cache, security
from scorer.web.assets import (
    HTMX_FILE, PACKAGE_DIR, asset_dir, htmx_config, init_compression, init_static_versions,
)

__all__ = ["HTMX_FILE", "asset_dir", "create_app"]


def default_config(app: Flask) -> dict[str, Any]:
    """The settings an app starts from (see :func:`create_app`)."""
    return {
        "DATABASE": os.path.join(app.instance_path, "truco.sqlite3"),
        "PUBLIC_URL": None,
        "SHARE_LAN": True,
        "MATCH_CACHE_SIZE": 1024,
        "MATCH_CACHE_ACTIONS": 100_000,
        "LANGUAGES": i18n.LANGUAGES,
        "BABEL_DEFAULT_LOCALE": "pt_BR",
        "BABEL_TRANSLATION_DIRECTORIES": str(PACKAGE_DIR / "translations"),
        "MAX_CONTENT_LENGTH": 64 * 1024,
        "MAX_ACTIONS": 5000,
        "GHOST_TAP_SECONDS": 0.35,
        "OFFLINE_ENGINE": True,
        "PUSH_PUBLISH_URL": None,
        "PUSH_PATH": "/push/",
        "PUSH_PING_SECONDS": 20,
    }


class PathPart(UnicodeConverter):
    """The URL converter of every ``<name>`` in a route (Werkzeug's default, ``string``): a
    part holding a NUL (``%00``) matches no route, so it is a 404 before any view or query
    runs (PostgreSQL refuses a NUL in a text; issue 31, item 4)."""

    def to_python(self, value: str) -> str:
        if "\x00" in value:
            raise ValidationError()
        return value


class PathTail(PathConverter):
    """``<path:name>`` (the static files) refusing a NUL the same way."""

    def to_python(self, value: str) -> str:
        if "\x00" in value:
            raise ValidationError()
        return value


def register_views(app: Flask) -> None:
    """The blueprints, the error pages and the templates' globals."""
    from scorer.web import api, errors, forms, lang, matches, offline, records, shell, tools

    app.url_map.converters.update(default=PathPart, string=PathPart, path=PathTail)  # before any route
    errors.init_app(app)
    app.jinja_env.globals.update(HTMX_FILE=HTMX_FILE, HTMX_CONFIG=htmx_config(forms.TAP_TIMEOUT_SECONDS))
    from scorer.app import tournament_service
    from scorer.web import tournament_api, tournaments  # tournaments (issue 11)
    from scorer.web import stats  # the evening in numbers (issue 22)
    from scorer.app import club_service
    from scorer.web import club_api, clubs  # clubs and seasons (issue 32)

    for blueprint in (matches.bp, api.bp, records.bp, tools.bp, lang.bp, shell.bp, offline.bp, tournaments.bp,
                      tournament_api.bp, stats.bp, clubs.bp, club_api.bp):
        app.register_blueprint(blueprint)
    keys = app.extensions["truco_tournament_keys"]
    app.extensions["truco_matches"].listeners.append(partial(tournament_service.on_action, keys=keys))
    app.extensions["truco_matches"].guards.append(tournament_service.guard)
    matches_service = app.extensions["truco_matches"]
    matches_service.listeners.append(partial(club_service.on_action, matches=matches_service))


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app.

    ``config`` (a mapping: ``truco serve``'s settings, or a test's) overrides the defaults,
    e.g. ``{"TESTING": True, "DATABASE": tmp_path / "t.sqlite3"}``. Settings: ``DATABASE``
    (a SQLite file path, ``sqlite:///PATH`` or ``postgresql://USER@HOST:PORT/DB``, see
    :func:`scorer.app.store.database_url`; default ``instance/truco.sqlite3``), ``PUBLIC_URL``
    (base URL put in share links and QR codes; default: the URL the request came in on, or
    the machine's LAN address when that was a loopback name and ``SHARE_LAN`` is true, as it
    is unless ``truco serve`` listens on one specific address; ``https://`` makes cookies
    ``Secure`` and adds HSTS), ``MATCH_CACHE_SIZE`` and ``MATCH_CACHE_ACTIONS`` (replayed
    matches kept in memory, and the actions they may hold together), ``MAX_CONTENT_LENGTH`` (bytes of a request body;
    more is a 413), ``MAX_ACTIONS`` (actions one match can hold; a real one has a few
    hundred), ``GHOST_TAP_SECONDS`` (a tap on a board shown less than this long ago is taken
    for the second half of a double tap and not recorded; 0 turns the guard off), ``OFFLINE_ENGINE``
    (phones fetch the rules engine to play on with no connection, :mod:`scorer.web.offline`), ``THREADS``,
    ``HEAVY_READS`` and ``READ_CACHE_BYTES`` (heavy reads kept per version, :mod:`scorer.web.hosting.read_cache`), and
    the protections of :mod:`scorer.web.hosting.security` (``RATE_LIMITS``,
    ``RATELIMIT_STORAGE_URI``, ``RATELIMIT_ENABLED``, ``PROXY_ADDRESSES``, ``PROXY_HOPS``,
    ``TRUSTED_HOSTS``). The instance secret the tournaments' team and table keys come from
    (:mod:`scorer.app.tournament_keys`): ``INSTANCE_SECRET`` (text), else the file
    ``INSTANCE_SECRET_FILE``, else ``<database>.secret`` beside a SQLite file (made, mode
    0600, at first start). ``POLL_SHORTCUT``: answer unchanged polls before Flask
    (:mod:`scorer.web.hosting.poll_shortcut`). ``PUSH_PUBLISH_URL``, ``PUSH_PATH``, ``PUSH_PING_SECONDS``:
    changes pushed to the phones through nginx (:mod:`scorer.web.hosting.push`; None: the phones poll).

    :raise scorer.app.tournament_keys.SecretError: the secret is too short or unreadable.
    """
    app = Flask(
        __name__,
        instance_relative_config=True,
        template_folder=str(asset_dir("templates")),
        static_folder=str(asset_dir("static")),
    )
    app.config.from_mapping(default_config(app))
    if config is not None:
        app.config.update(config)
    app.config["DATABASE"] = os.fspath(app.config["DATABASE"])

    db.init_app(app)
    i18n.init_app(app)
    init_compression(app)
    init_static_versions(app)
    app.extensions["truco_tournament_keys"] = TournamentKeys(instance_secret(
        app.config["DATABASE"], path=app.config.get("INSTANCE_SECRET_FILE"), text=app.config.get("INSTANCE_SECRET")))
    app.extensions["truco_matches"] = MatchService(
        app.config["MATCH_CACHE_SIZE"], app.config["MAX_ACTIONS"], app.config["MATCH_CACHE_ACTIONS"]
    )
    register_views(app)
    board_cache.init_app(app)
    read_cache.init_app(app)
    ops.init_app(app)
    security.init_app(app)
    security.init_security_headers(app)
    push.init_app(app)
    if app.config.get("POLL_SHORTCUT"):  # truco serve --poll-shortcut (issue 23)
        from scorer.web.hosting.poll_shortcut import UnchangedPolls

        app.wsgi_app = UnchangedPolls(app, app.wsgi_app)  # type: ignore[method-assign]  # middleware goes around wsgi_app, as Flask's documentation does it
    return app
