"""The database for one request: a connection kept on ``g``, closed at teardown.

All SQL lives in :mod:`scorer.store`; this module only wires it into Flask and adds
the ``flask init-db`` command.
"""

from __future__ import annotations

import sqlite3

import click
from flask import Flask, current_app, g
from flask.cli import with_appcontext

from scorer import store


def get_db() -> sqlite3.Connection:
    """The request's connection to the app's ``DATABASE``, opened on first use."""
    if "db" not in g:
        g.db = store.connect(current_app.config["DATABASE"])
    return g.db


def close_db(_exc: BaseException | None = None) -> None:
    """Close the request's connection, if one was opened."""
    db = g.pop("db", None)
    if db is not None:
        db.close()


def init_db(app: Flask) -> None:
    """Create the database file and its tables if missing."""
    conn = store.connect(app.config["DATABASE"])
    try:
        store.init_db(conn)
    finally:
        conn.close()


@click.command("init-db")
@with_appcontext
def init_db_command() -> None:
    """Create the tables of the configured database (existing matches are kept)."""
    init_db(current_app)
    click.echo("Initialized the database.")


def init_app(app: Flask) -> None:
    """Register teardown and the CLI command, and make sure the tables exist."""
    app.teardown_appcontext(close_db)
    app.cli.add_command(init_db_command)
    init_db(app)
