"""The database connection of a request, and what happens when the database is away.

Each request that needs the database checks one connection out of the engine's pool
(:func:`scorer.app.store.engine`, one per process and database URL; the pool keeps them
open, so a scoreboard poll never pays for a new connection) and gives it back at
teardown. Connections are in autocommit mode and every write in :mod:`scorer.app.store`
commits (or rolls back) before it returns, so nothing is left pending between
requests: an action is stored before its response, and a read sees what other
processes committed. A transaction left open by a request that failed half-way is
rolled back when the connection goes back to the pool.

When the database cannot be reached (PostgreSQL down or restarting, the network cut, a
SQLite file locked past its timeout) the request gets 503 with ``Retry-After`` and a
message in the user's language saying so, never a 500 and never a 200 for something not
stored; the broken connection is dropped and the pool reconnects by itself once the
database is back.

All SQL lives in :mod:`scorer.app.store`; this module only wires it into Flask.
"""

from __future__ import annotations

from flask import Flask, current_app, g, jsonify, render_template, request
from flask_babel import gettext

from scorer.app import store
from scorer.core.errors import N_
from scorer.web.hosting import ops

#: Shown (translated) with every 503 the database's absence causes.
UNREACHABLE = N_("The scorekeeper cannot reach its database right now, so nothing was recorded or read. "
                 "It keeps trying: tap again in a moment.")
#: Seconds a client is asked to wait before trying again after a 503.
RETRY_AFTER = 2


def get_db() -> store.Database:
    """The request's connection to the app's database (checked out of the pool once per request).

    :raise store.OperationalError: the database cannot be reached (answered with 503).
    """
    if "db" not in g:
        g.db = store.connect(current_app.config["DATABASE_URL"])
    return g.db


def close_db(_exc: BaseException | None = None) -> None:
    """Give the request's connection back to the pool (an open transaction is rolled
    back there; a broken connection is dropped)."""
    db = g.pop("db", None)
    if db is not None:
        try:
            db.close()
        except Exception:  # noqa: BLE001 (a broken connection: drop it, the pool opens another)
            db.invalidate(close=False)


def unavailable(error: BaseException):
    """503 with ``Retry-After`` and the "cannot reach its database" message: JSON under
    ``/api/``, else the error page (an htmx poll keeps its last board and shows the
    offline banner)."""
    db = g.pop("db", None)
    if db is not None:
        try:
            db.invalidate()
        except Exception:  # noqa: BLE001 (already broken: nothing more to release)
            pass
    current_app.logger.warning("database unavailable: %s", error.__class__.__name__)
    ops.count_database_error()
    message = gettext(UNREACHABLE)
    if request.path.startswith("/api/"):
        response = jsonify(error={"code": "database_unavailable", "message": message, "allowed": []})
    else:
        response = current_app.make_response(render_template("errors/error.html", code=503, message=message))
    response.status_code = 503
    response.headers["Retry-After"] = str(RETRY_AFTER)
    response.headers["Cache-Control"] = "no-store"
    return response


def init_db(app: Flask) -> None:
    """Create the database (a SQLite file, mode 0600) and its tables if missing, or
    upgrade them (:func:`scorer.app.store.migrate`)."""
    conn = store.connect(app.config["DATABASE_URL"])
    try:
        store.init_db(conn)
    finally:
        conn.close()


def init_app(app: Flask) -> None:
    """Register teardown and the 503 handler, and make sure the tables
    exist (unless ``DATABASE_INIT`` is False: ``truco serve --workers`` migrates once,
    before starting its workers)."""
    app.config["DATABASE_URL"] = store.database_url(app.config["DATABASE"])
    app.teardown_appcontext(close_db)
    for error in store.UNAVAILABLE:
        app.register_error_handler(error, unavailable)
    if app.config.get("DATABASE_INIT", True):
        init_db(app)
