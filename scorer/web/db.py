"""The database connection of a request: one connection per server thread, reused.

Opening a SQLite connection (and setting its PRAGMAs) costs more than a scoreboard
poll itself, so each waitress thread keeps one connection to the app's ``DATABASE``
(a ``threading.local`` per app) and every request on that thread uses it. The
connection is in autocommit mode and every write in :mod:`scorer.store` commits (or
rolls back) before it returns, so nothing is left pending between requests: an action
is on disk before its response, and a read sees what other processes committed. A
transaction left open by a request that failed half-way is rolled back at teardown.

All SQL lives in :mod:`scorer.store`; this module only wires it into Flask. The tables
are created (and migrated) when the app is built, so there is no separate ``init-db``
command.
"""

from __future__ import annotations

import sqlite3
import threading

from flask import Flask, current_app, g

from scorer import store


class ThreadConnections(threading.local):
    """One connection per thread to one database file (opened on first use)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.conn: sqlite3.Connection | None = None

    def get(self) -> sqlite3.Connection:
        if self.conn is None:
            self.conn = store.connect(self.path)
        return self.conn

    def discard(self) -> None:
        """Close and forget this thread's connection (a fresh one is opened next time)."""
        conn, self.conn = self.conn, None
        if conn is not None:
            conn.close()


def _connections() -> ThreadConnections:
    app = current_app
    conns = app.extensions.get("truco_db")
    if conns is None or conns.path != app.config["DATABASE"]:
        conns = app.extensions["truco_db"] = ThreadConnections(app.config["DATABASE"])
    return conns


def get_db() -> sqlite3.Connection:
    """The request's connection to the app's ``DATABASE``: this thread's, reused."""
    if "db" not in g:
        g.db = _connections().get()
    return g.db


def close_db(_exc: BaseException | None = None) -> None:
    """End the request's use of the connection: it stays open for the thread's next
    request, unless a transaction was left open (rolled back; on failure the
    connection is dropped)."""
    db = g.pop("db", None)
    if db is not None and db.in_transaction:
        try:
            db.execute("ROLLBACK")
        except sqlite3.Error:
            _connections().discard()


def init_db(app: Flask) -> None:
    """Create the database file and its tables if missing."""
    conn = store.connect(app.config["DATABASE"])
    try:
        store.init_db(conn)
    finally:
        conn.close()


def init_app(app: Flask) -> None:
    """Register teardown and make sure the tables exist (created or migrated)."""
    app.teardown_appcontext(close_db)
    init_db(app)
