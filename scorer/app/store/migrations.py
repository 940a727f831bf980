"""The schema's versions: :data:`MIGRATIONS` (only ever appended to) and :func:`migrate`, which
brings a database up to date, one step per write transaction.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from importlib import resources

from scorer.app.store.clubs import CLUB_TABLES
from scorer.app.store.connection import Database, write
from scorer.app.store.keys import KEY_HASH_PREFIX, hash_key
from scorer.core.variants import VARIANTS


def _baseline(db: Database) -> None:
    """Migration 1: the tables as ``schema.sql`` creates them on SQLite (``IF NOT
    EXISTS``, so a database made before migrations existed, at ``user_version`` 0,
    passes through), or ``schema_postgresql.sql`` on PostgreSQL (the same tables in
    its types: ``DOUBLE PRECISION`` times, no ``WITHOUT ROWID``)."""
    name = "schema.sql" if db.dialect == "sqlite" else "schema_postgresql.sql"
    run_script(db, resources.files("scorer.app").joinpath(name).read_text(encoding="utf-8"))


def _hash_edit_keys(db: Database) -> None:
    """Migration 3: replace each plain edit key by its hash (:func:`hash_key`)."""
    rows = db.execute("SELECT id, edit_key FROM match").all()
    updates = [{"id": i, "h": hash_key(k)} for i, k in rows if not k.startswith(KEY_HASH_PREFIX)]
    if updates:
        db.execute("UPDATE match SET edit_key = :h WHERE id = :id", updates)


#: Migration 5: the tournaments, their slots and their audit log (issue 11; their queries are
#: in :mod:`scorer.app.store.tournaments`). Portable SQL: ``TEXT``, ``INTEGER`` and ``REAL``.
TOURNAMENT_TABLES = (
    "CREATE TABLE tournament ("
    " id TEXT PRIMARY KEY, organizer_key TEXT NOT NULL, name TEXT NOT NULL, variant TEXT NOT NULL,"
    " options TEXT NOT NULL, settings TEXT NOT NULL, teams TEXT NOT NULL, players TEXT,"
    " seeds TEXT NOT NULL, lots TEXT NOT NULL, team_keys TEXT NOT NULL,"
    " version INTEGER NOT NULL DEFAULT 0, epoch INTEGER NOT NULL DEFAULT 0,"
    " created REAL NOT NULL, updated REAL NOT NULL);"
    "CREATE TABLE tournament_slot ("
    " tournament_id TEXT NOT NULL REFERENCES tournament (id), slot TEXT NOT NULL, position INTEGER NOT NULL,"
    " match_id TEXT, series_id TEXT, table_number INTEGER, result TEXT, hold TEXT,"
    " PRIMARY KEY (tournament_id, slot));"
    "CREATE INDEX tournament_slot_series ON tournament_slot (series_id);"
    "CREATE TABLE tournament_audit ("
    " tournament_id TEXT NOT NULL REFERENCES tournament (id), seq INTEGER NOT NULL, at REAL NOT NULL,"
    " who TEXT NOT NULL, kind TEXT NOT NULL, slot TEXT, before_value TEXT, after_value TEXT,"
    " PRIMARY KEY (tournament_id, seq))"
)


#: Migration 9: the series a reopening took out of their slots (issue 32), one row per series with
#: what the slot had (its teams, table and result: the match comes back as it was when the reopened
#: match keeps its winner, while ``kept`` is 1), and on ``match`` the mark its board's poll and the
#: tournament's guard read (``dropped``: 1 while its series is out of the tournament). Portable SQL.
DROPPED_TABLE = (
    "ALTER TABLE match ADD COLUMN dropped INTEGER NOT NULL DEFAULT 0;"
    "CREATE TABLE tournament_dropped ("
    " tournament_id TEXT NOT NULL REFERENCES tournament (id), series_id TEXT NOT NULL, slot TEXT NOT NULL,"
    " teams TEXT NOT NULL, table_number INTEGER, result TEXT, kept INTEGER NOT NULL DEFAULT 1,"
    " at DOUBLE PRECISION NOT NULL, PRIMARY KEY (tournament_id, series_id));"
    "CREATE INDEX tournament_dropped_series ON tournament_dropped (series_id)"
)


#: Migration 8: the taps recorded, one row per ``(match_id, tap_key)`` (the key a phone made for the
#: tap), with ``seq``, the action it stored (:func:`scorer.app.store.actions.append_action`). A repeat
#: of a known key changes nothing (issue 24). Portable SQL.
TAP_TABLE = (
    "CREATE TABLE tap ("
    " match_id TEXT NOT NULL REFERENCES match (id) ON DELETE CASCADE, tap_key TEXT NOT NULL,"
    " seq INTEGER NOT NULL, created DOUBLE PRECISION NOT NULL, PRIMARY KEY (match_id, tap_key))"
)


#: Migration 11: each game's statistics as last counted, with the version they were counted at
#: (issue 31): a tournament's numbers after a restart, or in another server process, read them
#: in one statement instead of replaying every game. Derived data: never copied, pruned with the
#: match. Portable SQL.
MATCH_STATS_TABLE = (
    "CREATE TABLE match_stats ("
    " match_id TEXT PRIMARY KEY REFERENCES match (id) ON DELETE CASCADE, version INTEGER NOT NULL,"
    " sides TEXT NOT NULL)"
)


def _hashed(value: str) -> str:
    """A stored key as its hash (a value already hashed stays as it is)."""
    return value if value.startswith(KEY_HASH_PREFIX) else hash_key(value)


def _hash_tournament_keys(db: Database) -> None:
    """Migration 7: every tournament's organizer key and team keys stored as their hashes
    (tournaments made before issue 23 kept them in plain text; see
    :mod:`scorer.app.tournament_keys` for how their old links keep working)."""
    rows = db.execute("SELECT id, organizer_key, team_keys FROM tournament").all()
    updates = []
    for tid, organizer, teams in rows:
        team_hashes = [_hashed(k) for k in json.loads(teams)]
        if organizer.startswith(KEY_HASH_PREFIX) and team_hashes == json.loads(teams):
            continue
        updates.append({"id": tid, "o": _hashed(organizer), "t": json.dumps(team_hashes)})
    if updates:
        db.execute("UPDATE tournament SET organizer_key = :o, team_keys = :t WHERE id = :id", updates)


def _options_before(db: Database) -> None:
    """Migration 10: every stored match and tournament gets the options added to its variant
    since it was stored, each at the value the rules had then (``OptionSpec.before``;
    :meth:`~scorer.core.variants.Variant.options_before`): a ``venezolano`` match keeps the
    compared Flor when ``flor_vs_flor`` came with 3 per Flor as its default (issue 33). Read
    from the registry: no variant or option is named here."""
    for select, update in (("SELECT id, variant, options FROM match", "UPDATE match SET options = :o WHERE id = :id"),
                           ("SELECT id, variant, options FROM tournament",
                            "UPDATE tournament SET options = :o WHERE id = :id")):
        updates = []
        for row_id, variant_id, options in db.execute(select).all():
            variant = VARIANTS.get(variant_id)
            stored = json.loads(options)
            if variant is not None and (filled := variant.options_before(stored)) != stored:
                updates.append({"id": row_id, "o": json.dumps(filled, sort_keys=True)})
        if updates:
            db.execute(update, updates)


#: The schema's history, oldest first: migration ``i`` (1-based) brings a database from
#: version ``i - 1`` to ``i``. An entry is portable SQL text (statements separated by
#: ``;``, run on both backends: ``TEXT``, ``INTEGER``, ``BIGINT``, ``DOUBLE PRECISION``,
#: ``CHECK``, ``REFERENCES``, ``CREATE INDEX IF NOT EXISTS``...), a dict of SQL text per
#: dialect (``{"sqlite": ..., "postgresql": ...}``) where no portable form exists, or a
#: function taking the :class:`Database`. Only ever append; never edit or reorder an
#: entry that has shipped.
MIGRATIONS: list[str | dict[str, str] | Callable[[Database], None]] = [
    _baseline,
    # 2: the Revanche series' length and the optional players' names and seats (issue 7).
    "ALTER TABLE match ADD COLUMN best_of INTEGER NOT NULL DEFAULT 1 CHECK (best_of IN (1, 3, 5));"
    "ALTER TABLE match ADD COLUMN players TEXT",
    # 3: edit keys at rest are hashes (issue 12).
    _hash_edit_keys,
    # 4: `truco db prune` finds idle matches by their last change (issue 12).
    "CREATE INDEX IF NOT EXISTS match_updated ON match (updated)",
    # 5: tournaments, their slots and audit log (issue 11).
    TOURNAMENT_TABLES,
    # 6: a tournament's times to the second on PostgreSQL too (its REAL is 4 bytes: steps of 2 minutes
    # at today's dates), so `truco db copy` carries them as stored (issue 19).
    {"sqlite": "", "postgresql": "ALTER TABLE tournament ALTER COLUMN created TYPE DOUBLE PRECISION,"
                                 " ALTER COLUMN updated TYPE DOUBLE PRECISION;"
                                 "ALTER TABLE tournament_audit ALTER COLUMN at TYPE DOUBLE PRECISION"},
    # 7: tournaments' organizer and team keys at rest are hashes (issue 23).
    _hash_tournament_keys,
    # 8: each tap a phone made, by its own key, recorded once with the action it stored (issue 24).
    TAP_TABLE,
    # 9: the matches a tournament dropped when the organizer reopened an earlier result (issue 32).
    DROPPED_TABLE,
    # 10: stored matches and tournaments keep the rules they were played by when an option comes
    # with a new default (issue 33: venezolano's flor_vs_flor).
    _options_before,
    # 11: each game's statistics as last counted, by version (issue 31).
    MATCH_STATS_TABLE,
    # 12: clubs, their players, seasons, series and tournaments, and each finished club game (issue 32).
    CLUB_TABLES,
]


def run_script(db: Database, script: str) -> None:
    """Run the statements of ``script`` one by one inside the caller's transaction (a
    ``;`` inside a string literal or a trigger body is not taken for an end)."""
    statement = ""
    for piece in script.split(";"):
        statement += piece + ";"
        if sqlite3.complete_statement(statement):
            if statement.strip(" \n\t;"):
                db.execute(statement)
            statement = ""


#: PostgreSQL advisory lock taken by every migration step (two servers starting at once).
_MIGRATION_LOCK = 0x7472_7563  # "truc"


def schema_version(db: Database) -> int:
    """The database's schema version: 0 for a new database. SQLite keeps it in ``PRAGMA
    user_version`` (as every earlier version did); PostgreSQL in the one-row table
    ``truco_schema``."""
    if db.dialect == "sqlite":
        return db.execute("PRAGMA user_version").scalar_one()
    if db.execute("SELECT to_regclass('truco_schema')").scalar_one() is None:
        return 0
    return db.execute("SELECT COALESCE(MAX(version), 0) FROM truco_schema").scalar_one()


def _set_schema_version(db: Database, number: int) -> None:
    if db.dialect == "sqlite":
        db.execute(f"PRAGMA user_version = {int(number):d}")
    else:
        db.execute("DELETE FROM truco_schema")
        db.execute("INSERT INTO truco_schema (version) VALUES (:v)", {"v": int(number)})


def migrate(db: Database, migrations=None) -> int:
    """Apply the migrations the database has not had yet, in order; return the version.

    Each migration runs in its own write transaction together with the version bump
    (on PostgreSQL under an advisory lock, and DDL is transactional there too), so a
    crash leaves the database at the previous version and the next start tries again;
    two processes starting at once do not both apply a step.

    :raise RuntimeError: the database is newer than this code (a later version made it).
    """
    steps = MIGRATIONS if migrations is None else migrations
    if db.dialect == "postgresql":
        with write(db):
            db.execute("SELECT pg_advisory_xact_lock(:k)", {"k": _MIGRATION_LOCK})
            db.execute("CREATE TABLE IF NOT EXISTS truco_schema (version INTEGER NOT NULL)")
    if schema_version(db) > len(steps):
        raise RuntimeError(
            f"database schema version {schema_version(db)} is newer than this program's {len(steps)}"
        )
    for number, step in enumerate(steps, start=1):
        with write(db):
            if db.dialect == "postgresql":
                db.execute("SELECT pg_advisory_xact_lock(:k)", {"k": _MIGRATION_LOCK})
            if schema_version(db) < number:
                if callable(step):
                    step(db)
                else:
                    run_script(db, step[db.dialect] if isinstance(step, dict) else step)
                _set_schema_version(db, number)
    return schema_version(db)


def init_db(db: Database) -> None:
    """Create or upgrade the tables (:func:`migrate`; safe to call on every start)."""
    migrate(db)
