"""All of truco-scorer's SQL: matches and their action lists, in SQLite or PostgreSQL.

A match row holds the settings (variant, options, names, first mano) and a summary of
the last known state (version, score, winner) for lists; the truth is the ``action``
table, one row per applied action, from which the engine replays the state.

The database is named by a URL (:func:`database_url`): a file path or ``sqlite:///path``
for SQLite (WAL mode, the default ``truco.sqlite3``), ``postgresql://user@host:port/db``
for PostgreSQL (psycopg 3; password from the URL, ``PGPASSWORD`` or ``~/.pgpass``).
SQLAlchemy gives the engine (one per URL and process, with its connection pool), the
URL handling, the dialect's disconnect test and the error classes; the queries are SQL
text with ``:name`` parameters, the same text on both backends, run on the pooled
driver connection (see :class:`Database` for why). Connections run in autocommit mode,
so a read is one round trip; a write is one explicit transaction (:func:`write`) that
commits before the function returns, so an action is stored before the web layer answers.

A tap a phone sends with its own key is recorded once (table ``tap``, issue 24), in the
transaction that stores its action: a repeat changes nothing.

Appends are guarded by the version, and the database enforces it: :func:`append_action`
updates the match row only ``WHERE version = :seen`` (the row lock makes a second
writer, in any process, see the new version and update nothing), and ``action``'s
primary key ``(match_id, seq)`` refuses a second row at the same place.

Edit keys are stored as a SHA-256 hash (:func:`hash_key`); the plain key exists only in
the :class:`MatchRow` that creating a match returns, and on the phones that have it.

The package is in rooms, one job each: :mod:`.engines` (URLs, one engine and pool per
database), :mod:`.connection` (:class:`Database`, :func:`write`), :mod:`.migrations`,
:mod:`.keys` (ids and edit keys), :mod:`.matches` (match rows), :mod:`.actions` (the
action list), :mod:`.series` (the Revanche and its tally),
:mod:`.tournaments` (tournaments, their slots and audit log) and :mod:`.upkeep` (copy and
prune matches and whole tournaments, for ``truco db``). Callers use the names below, as
``store.get_match(...)``, and the tournaments' queries as their own room
(``from scorer.app.store import tournaments``).

This package imports neither Flask nor the engine.
"""

from sqlalchemy.exc import DBAPIError, IntegrityError, InterfaceError, OperationalError

from scorer.app.store.actions import KnownTap, actions_of, append_action, get_action, get_actions, tap_seq
from scorer.app.store.connection import STATEMENT_LISTENERS, Database, Row, Rows, connect, write
from scorer.app.store.engines import (
    CONNECT_TIMEOUT, DEFAULT_DB, UNAVAILABLE, DatabaseURLError, database_url, describe, dispose_all, engine,
    sqlite_path,
)
from scorer.app.store.keys import EDIT_KEY_BYTES, KEY_HASH_PREFIX, MATCH_ID_BYTES, hash_key, new_edit_key, new_id
from scorer.app.store.matches import (
    MatchRow, NewMatch, PollStamp, create_match, create_matches, get_match, get_matches, import_match, poll_stamp,
    rename_match,
)
from scorer.app.store.match_stats import keep_sides, kept_sides
from scorer.app.store.migrations import MIGRATIONS, init_db, migrate, run_script, schema_version
from scorer.app.store.series import create_rematch, series_games, series_tally
from scorer.app.store.upkeep import (
    MATCH_COLUMNS, PrunedTournament, club_ids, copy_club, copy_match, copy_tournament, match_ids, prune,
    prune_tournaments, tournament_ids, unlinked_matches,
)
from scorer.core.errors import RuleError

__all__ = [
    "CONNECT_TIMEOUT", "DBAPIError", "DEFAULT_DB", "Database", "DatabaseURLError", "EDIT_KEY_BYTES", "IntegrityError",
    "InterfaceError", "KEY_HASH_PREFIX", "KnownTap", "MATCH_COLUMNS", "MATCH_ID_BYTES", "MIGRATIONS", "MatchRow",
    "NewMatch", "PollStamp", "poll_stamp",
    "OperationalError", "PrunedTournament", "Row", "Rows", "RuleError", "STATEMENT_LISTENERS", "UNAVAILABLE", "append_action", "connect",
    "club_ids", "copy_club", "copy_match", "copy_tournament", "create_match", "create_matches", "create_rematch", "database_url", "describe", "dispose_all", "engine", "get_action",
    "actions_of", "get_actions", "get_match", "get_matches", "hash_key", "import_match", "init_db", "keep_sides", "kept_sides", "match_ids", "migrate",
    "new_edit_key", "new_id", "prune", "prune_tournaments", "rename_match", "run_script", "schema_version", "series_games", "series_tally",
    "sqlite_path", "tap_seq", "tournament_ids", "unlinked_matches", "write",
]
