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
driver connection (see :class:`Database` for why). Connections run in autocommit mode, so a read is one round trip; a write is
one explicit transaction (:func:`write`) that commits before the function returns, so an
action is stored before the web layer answers.

Appends are guarded by the version, and the database enforces it: :func:`append_action`
updates the match row only ``WHERE version = :seen`` (the row lock makes a second
writer, in any process, see the new version and update nothing), and ``action``'s
primary key ``(match_id, seq)`` refuses a second row at the same place.

Edit keys are stored as a SHA-256 hash (:func:`hash_key`); the plain key exists only in
the :class:`MatchRow` that creating a match returns, and on the phones that have it.

This module imports neither Flask nor the engine.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import secrets
import sqlite3
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import sqlalchemy
from sqlalchemy import event
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import DBAPIError, IntegrityError, InterfaceError, OperationalError  # noqa: F401 (re-exported)

from scorer.core.errors import N_, RuleError

#: Bytes of randomness in an edit key (256 bits; the issue asks for at least 128).
EDIT_KEY_BYTES = 32
#: Bytes of randomness in a match id (96 bits: unguessable, still short in a URL).
MATCH_ID_BYTES = 12
#: The database when none is named: a SQLite file in the current folder.
DEFAULT_DB = "truco.sqlite3"
#: Prefix of a stored edit key's hash (``sha256:`` + 64 hex digits).
KEY_HASH_PREFIX = "sha256:"
#: Errors that mean "the database cannot be reached or is busy right now" (the web layer
#: answers 503): lost or refused connections, a full pool, a locked SQLite file.
UNAVAILABLE: tuple[type[BaseException], ...] = (
    OperationalError, InterfaceError, sqlalchemy.exc.DisconnectionError, sqlalchemy.exc.TimeoutError,
)
#: Seconds PostgreSQL's connect may take before the request gets its 503.
CONNECT_TIMEOUT = 5


class DatabaseURLError(ValueError):
    """``--db`` / ``TRUCO_DB`` is neither a path nor a ``sqlite:``/``postgresql:`` URL.

    ``value`` is what was given; the message says what is accepted.
    """

    def __init__(self, value: str) -> None:
        self.value = value
        super().__init__(
            f"unsupported database {value!r}: give a file path or sqlite:///PATH for SQLite, "
            "or postgresql://USER@HOST:PORT/DB for PostgreSQL"
        )


@dataclass(frozen=True)
class MatchRow:
    """One stored match: its settings and the summary of its latest state.

    ``names`` is a 2-tuple of strings, ``options`` a dict, ``mano`` 0 or 1 (the side
    that is mano in hand 1), ``version`` the number of actions stored, ``score`` the
    tentos after the last action, ``winner`` None while the game goes on. ``best_of``
    is the length of its Revanche series (1, 3 or 5 games); ``players`` is None or the
    players' names per side, ``((a1, a2[, a3]), (b1, b2[, b3]))``, for 4 or 6 players.
    ``key_hash`` is the stored hash of the edit key (:func:`hash_key`); ``edit_key`` the
    plain key, known only in the row that created the match (None when read back; not
    part of equality).
    """

    id: str
    key_hash: str
    series: str
    variant: str
    options: dict[str, Any]
    names: tuple[str, str]
    mano: int
    version: int
    score: tuple[int, int]
    winner: int | None
    rematch: str | None
    created: float
    updated: float
    best_of: int = 1
    players: tuple[tuple[str, ...], tuple[str, ...]] | None = None
    edit_key: str | None = field(default=None, compare=False, repr=False)


# ------------------------------------------------------------------ URLs, engines, connections


def database_url(value: str | os.PathLike | None = None) -> str:
    """The SQLAlchemy URL for ``value``: a path (``~`` expanded, made absolute) or
    ``sqlite:///PATH`` gives ``sqlite:///ABSOLUTE``; ``postgresql://...`` (or
    ``postgres://``, or with ``+psycopg``) gives ``postgresql+psycopg://...``. None:
    :data:`DEFAULT_DB`.

    :raise DatabaseURLError: another scheme (``mysql://``...), or an empty value.
    """
    text_value = DEFAULT_DB if value is None else os.fspath(value)
    if not text_value.strip():
        raise DatabaseURLError(text_value)
    scheme, sep, rest = text_value.partition("://")
    if not sep:
        return "sqlite:///" + str(Path(text_value).expanduser().resolve())
    base = scheme.split("+", 1)[0].lower()
    if base == "sqlite":
        path = rest[1:] if rest.startswith("/") else rest  # sqlite:///relative or sqlite:////absolute
        if not path or path == ":memory:":
            raise DatabaseURLError(text_value)
        return "sqlite:///" + str(Path(path).expanduser().resolve())
    if base in ("postgresql", "postgres"):
        return "postgresql+psycopg://" + rest
    raise DatabaseURLError(text_value)


def describe(url: str) -> str:
    """``url`` fit to print: the SQLite file's path, or the PostgreSQL URL without its password."""
    u = make_url(url)
    if u.get_backend_name() == "sqlite":
        return u.database or ""
    return u.set(drivername="postgresql").render_as_string(hide_password=True)


def sqlite_path(url: str) -> str | None:
    """The file of a SQLite URL; None for PostgreSQL."""
    u = make_url(url)
    return u.database if u.get_backend_name() == "sqlite" else None


def _create_file(path: str) -> None:
    """Create the SQLite file with mode 0600 (owner only) if it does not exist yet; SQLite
    gives its ``-wal`` and ``-shm`` files the same mode."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_CREAT | os.O_WRONLY, 0o600)
    os.close(fd)


def _sqlite_pragmas(dbapi_conn, _record) -> None:
    cur = dbapi_conn.cursor()
    for pragma in ("journal_mode=WAL", "synchronous=FULL", "foreign_keys=ON", "busy_timeout=10000"):
        cur.execute("PRAGMA " + pragma)
    cur.close()


#: Engines by URL (each with its pool), the least recently used disposed past 32.
_ENGINES: OrderedDict[str, Engine] = OrderedDict()
_ENGINES_LOCK = threading.Lock()
_ENGINES_MAX = 32


def engine(value: str | os.PathLike | None = None, *, pool_size: int = 16) -> Engine:
    """The process's engine for a database (path or URL, see :func:`database_url`).

    Autocommit connections, pooled (reused by later requests, never opened per
    request). SQLite: the file is created (mode 0600) if missing, and every connection
    runs in WAL with ``synchronous=FULL``, foreign keys on and a 10 s busy timeout.
    PostgreSQL: psycopg 3, connect timeout :data:`CONNECT_TIMEOUT` seconds.

    :raise DatabaseURLError: see :func:`database_url`.
    """
    found = _ENGINES.get(value) if isinstance(value, str) else None  # a URL already seen: no parsing
    if found is not None:
        return found
    url = database_url(value)
    with _ENGINES_LOCK:
        found = _ENGINES.get(url)
        if found is not None:
            _ENGINES.move_to_end(url)
            return found
        path = sqlite_path(url)
        if path is not None:
            if not os.path.exists(path):
                _create_file(path)
            eng = sqlalchemy.create_engine(
                url, isolation_level="AUTOCOMMIT", pool_size=pool_size, max_overflow=64, pool_use_lifo=True,
                connect_args={"timeout": 10, "check_same_thread": False},
            )
            event.listen(eng, "connect", _sqlite_pragmas)
        else:
            args = {} if "connect_timeout" in url else {"connect_timeout": CONNECT_TIMEOUT}
            eng = sqlalchemy.create_engine(
                url, isolation_level="AUTOCOMMIT", pool_size=pool_size, max_overflow=64, pool_use_lifo=True,
                connect_args=args,
            )
        _ENGINES[url] = eng
        while len(_ENGINES) > _ENGINES_MAX:
            _ENGINES.popitem(last=False)[1].dispose()
        return eng


def dispose_all() -> None:
    """Close every pooled connection of this process (before a fork, or at exit)."""
    with _ENGINES_LOCK:
        for eng in _ENGINES.values():
            eng.dispose()
        _ENGINES.clear()


_PARAM = re.compile(r"(?<![:\w]):(\w+)")


@lru_cache(maxsize=1024)
def _pyformat(statement: str) -> str:
    """``:name`` parameters as psycopg's ``%(name)s`` (a literal ``%`` doubled)."""
    return _PARAM.sub(r"%(\1)s", statement.replace("%", "%%"))


#: Functions called as ``f(database, statement)`` before each statement is sent (the tests
#: and the bench count what a request costs the database with them); empty normally.
STATEMENT_LISTENERS: list[Callable[[Database, str], None]] = []


class Row(tuple):
    """One row: a tuple that also answers ``row["column"]`` (as ``sqlite3.Row`` does)."""

    __slots__ = ()
    _index: dict[str, int] = {}

    def __getitem__(self, key):
        if isinstance(key, str):
            return tuple.__getitem__(self, self._index[key])
        return tuple.__getitem__(self, key)

    def keys(self) -> list[str]:
        return list(self._index)


@lru_cache(maxsize=256)
def _row_type(columns: tuple[str, ...]) -> type[Row]:
    return type("Row", (Row,), {"__slots__": (), "_index": {c: i for i, c in enumerate(columns)}})


class Rows:
    """What a statement returned, read at once: :class:`Row` tuples (``for a, b in rows``,
    ``fetchone()``, ``fetchall()``, ``first()``, ``one()``, ``all()``, ``scalar()``,
    ``scalar_one()``, ``scalars()``), or dicts by column name through ``mappings()``;
    ``rowcount``."""

    __slots__ = ("rows", "columns", "rowcount")

    def __init__(self, rows: list[tuple], columns: list[str], rowcount: int) -> None:
        if rows and columns and not isinstance(rows[0], dict):
            row_type = _row_type(tuple(columns))
            rows = [row_type(r) for r in rows]
        self.rows, self.columns, self.rowcount = rows, columns, rowcount

    def __iter__(self):
        return iter(self.rows)

    def fetchone(self):
        return self.rows[0] if self.rows else None

    first = fetchone

    def all(self) -> list:
        return list(self.rows)

    fetchall = all

    def one(self):
        if len(self.rows) != 1:
            raise LookupError(f"{len(self.rows)} rows where one was expected")
        return self.rows[0]

    def scalar(self):
        return self.rows[0][0] if self.rows else None

    def scalar_one(self):
        return self.one()[0]

    def scalars(self) -> list:
        return [r[0] for r in self.rows]

    def mappings(self) -> Rows:
        return Rows([dict(zip(self.columns, r)) for r in self.rows], self.columns, self.rowcount)


class Database:
    """One connection to the database, checked out of the engine's pool.

    ``execute(sql, params)`` runs one statement, SQL text with ``:name`` parameters, and
    returns its :class:`Rows` (a ``list`` of parameter dicts runs it for each). It goes
    straight to the driver's cursor on the pooled connection: SQLAlchemy's own
    ``execute`` costs about 200 µs a statement, ten times a scoreboard poll's primary-key
    read, so only the pool, the URLs, the dialect's disconnect test and the error classes
    are taken from it. Driver errors come out as SQLAlchemy's (``store.IntegrityError``,
    ``store.OperationalError``...); a lost connection is invalidated, so the pool opens a
    fresh one next time. ``dialect`` is ``"sqlite"`` or ``"postgresql"``;
    ``in_transaction`` tells whether the database has a transaction open on it;
    ``close()`` gives the connection back to the pool (an open transaction is rolled
    back there).
    """

    def __init__(self, eng: Engine) -> None:
        self.engine = eng
        self.dialect = eng.dialect.name
        self.fairy = eng.raw_connection()
        self.raw = self.fairy.driver_connection
        self._error = eng.dialect.loaded_dbapi.Error
        self.broken = False  # the connection was lost and dropped: every statement fails fast

    def execute(self, statement: str, params: dict[str, Any] | list[dict[str, Any]] | None = None) -> Rows:
        if STATEMENT_LISTENERS:
            for listener in STATEMENT_LISTENERS:
                listener(self, statement)
        if self.broken:
            raise OperationalError(statement, params, ConnectionError("the database connection was lost"))
        sql = statement if self.dialect == "sqlite" else _pyformat(statement)
        cur = self.fairy.cursor()
        try:
            if isinstance(params, list):
                cur.executemany(sql, params)
            elif params:
                cur.execute(sql, params)
            else:
                cur.execute(statement)
            description = cur.description
            rows = cur.fetchall() if description else []
            return Rows(rows, [d[0] for d in description] if description else [], cur.rowcount)
        except self._error as e:
            raise self._wrap(e, statement, params, cur) from e
        finally:
            cur.close()

    def executemany(self, statement: str, params: list[dict[str, Any]]) -> Rows:
        """``execute`` once per parameter dict (as ``sqlite3``'s ``executemany``)."""
        return self.execute(statement, list(params))

    def _wrap(self, error: BaseException, statement: str, params, cursor) -> DBAPIError:
        gone = self.engine.dialect.is_disconnect(error, self.raw, cursor)
        if gone:
            self.invalidate(error, close=False)
        return DBAPIError.instance(statement, params, error, self._error, connection_invalidated=gone)

    @property
    def in_transaction(self) -> bool:
        if self.dialect == "sqlite":
            return self.raw.in_transaction
        return self.raw.info.transaction_status != 0  # psycopg: 0 is IDLE

    def close(self) -> None:
        self.fairy.close()

    def invalidate(self, error: BaseException | None = None, *, close: bool = True) -> None:
        """Drop the connection (it failed; once is enough): the pool opens a fresh one
        next time, and ``close`` gives this one's place back."""
        if not self.broken:
            self.broken = True
            self.fairy.invalidate(error)
        if close:
            self.fairy.close()


def connect(value: str | os.PathLike | None = None) -> Database:
    """A connection to the database at ``value`` (path or URL; see :func:`engine`).

    :raise DatabaseURLError: not a path or supported URL. :raise OperationalError: the
        database cannot be reached.
    """
    eng = engine(value)
    try:
        return Database(eng)
    except eng.dialect.loaded_dbapi.Error as e:
        raise DBAPIError.instance(None, None, e, eng.dialect.loaded_dbapi.Error) from e


@contextmanager
def write(db: Database) -> Iterator[Database]:
    """One write transaction: committed when the block ends (a ``return`` inside it
    included), rolled back if it raises. SQLite's is ``BEGIN IMMEDIATE`` (writers wait
    for each other here); PostgreSQL's a plain ``BEGIN`` (row locks order the writers).
    A connection that cannot even roll back is dropped."""
    db.execute("BEGIN IMMEDIATE" if db.dialect == "sqlite" else "BEGIN")
    try:
        yield db
    except BaseException:
        if not db.broken:  # a lost connection has no transaction left to roll back
            try:
                db.execute("ROLLBACK")
            except DBAPIError:
                db.invalidate(close=False)
        raise
    db.execute("COMMIT")


# ------------------------------------------------------------------ migrations


def _baseline(db: Database) -> None:
    """Migration 1: the tables as ``schema.sql`` creates them on SQLite (``IF NOT
    EXISTS``, so a database made before migrations existed, at ``user_version`` 0,
    passes through), or ``schema_postgresql.sql`` on PostgreSQL (the same tables in
    its types: ``DOUBLE PRECISION`` times, no ``WITHOUT ROWID``)."""
    name = "schema.sql" if db.dialect == "sqlite" else "schema_postgresql.sql"
    run_script(db, resources.files("scorer.app").joinpath(name).read_text(encoding="utf-8"))


def hash_key(key: str) -> str:
    """The stored form of an edit key: ``sha256:`` and the hex SHA-256 of its UTF-8 bytes.

    Keys are 256 random bits, so a plain (unsalted, fast) hash cannot be searched back;
    a stolen database file or dump opens no match.
    """
    return KEY_HASH_PREFIX + hashlib.sha256(key.encode()).hexdigest()


def _hash_edit_keys(db: Database) -> None:
    """Migration 3: replace each plain edit key by its hash (:func:`hash_key`)."""
    rows = db.execute("SELECT id, edit_key FROM match").all()
    updates = [{"id": i, "h": hash_key(k)} for i, k in rows if not k.startswith(KEY_HASH_PREFIX)]
    if updates:
        db.execute("UPDATE match SET edit_key = :h WHERE id = :id", updates)


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
    # 5: tournaments, their slots and audit log (issue 11); the SQL is in scorer.app.tournament_store.
    lambda db: run_script(db, __import__("scorer.app.tournament_store", fromlist=["MIGRATION"]).MIGRATION),
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


# ------------------------------------------------------------------ matches and actions


def new_id() -> str:
    """A fresh random match id (URL-safe text)."""
    return secrets.token_urlsafe(MATCH_ID_BYTES)


def new_edit_key() -> str:
    """A fresh random edit key (URL-safe text, 256 bits)."""
    return secrets.token_urlsafe(EDIT_KEY_BYTES)


def _row(r, edit_key: str | None = None) -> MatchRow:
    return MatchRow(
        id=r["id"],
        key_hash=r["edit_key"],
        series=r["series"],
        variant=r["variant"],
        options=json.loads(r["options"]),
        names=tuple(json.loads(r["names"])),
        mano=r["mano"],
        version=r["version"],
        score=(r["score0"], r["score1"]),
        winner=r["winner"],
        rematch=r["rematch"],
        created=r["created"],
        updated=r["updated"],
        best_of=r["best_of"],
        players=_players(r["players"]),
        edit_key=edit_key,
    )


def _players(text_value: str | None) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    if not text_value:
        return None
    a, b = json.loads(text_value)
    return (tuple(a), tuple(b))


def create_match(
    db: Database,
    *,
    variant: str,
    options: dict[str, Any],
    names: tuple[str, str] | list[str],
    mano: int,
    series: str | None = None,
    best_of: int = 1,
    players: Any = None,
    edit_key: str | None = None,
) -> MatchRow:
    """Store a new match with no actions and return it, with its new id and its plain
    edit key (``edit_key``: the only time it is known; the database keeps its hash).
    A caller that derives the key itself (a tournament's tables) passes it as ``edit_key``.

    ``series`` is the series id of the match this one is a Revanche of; a new series
    starts (named after this match's id) when it is None. ``best_of`` (1, 3 or 5) and
    ``players`` (None or two equal-length lists of names) as in :class:`MatchRow`. The
    caller validates the settings first; this function only stores them.

    :raise IntegrityError: a setting the database's checks refuse (mano 2, best of 4).
    """
    key = edit_key or new_edit_key()
    with write(db):
        match_id = _insert_match(db, variant, options, names, mano, series, best_of, players, hash_key(key))
    return _row(db.execute("SELECT * FROM match WHERE id = :id", {"id": match_id}).mappings().one(), key)


def _insert_match(db, variant, options, names, mano, series, best_of, players, key_hash) -> str:
    match_id, now = new_id(), time.time()
    db.execute(
        "INSERT INTO match (id, edit_key, series, variant, options, names, mano, created, updated, best_of, players)"
        " VALUES (:id, :key, :series, :variant, :options, :names, :mano, :now, :now, :best_of, :players)",
        {
            "id": match_id,
            "key": key_hash,
            "series": series or match_id,
            "variant": variant,
            "options": json.dumps(options, sort_keys=True),
            "names": json.dumps(list(names), ensure_ascii=False),
            "mano": int(mano),
            "now": now,
            "best_of": int(best_of),
            "players": None if players is None else json.dumps([list(p) for p in players], ensure_ascii=False),
        },
    )
    return match_id


def create_rematch(db: Database, match_id: str, *, new_series: bool = False) -> MatchRow | None:
    """The Revanche of a match: same settings, same series, same edit key, created once.

    The first call creates it and links it from the old match; later calls (another
    phone, a double tap) return that same one. None if ``match_id`` does not exist.
    ``new_series`` (the old series is decided): the Revanche starts a series of its own,
    of the same length. The winner is checked again by the guarded update that links
    it (as an append checks the version), so a phone that still shows the game over cannot start it after
    another phone's Undo. The Revanche keeps the match's edit key (its hash): every
    phone that could record the game can record the Revanche.

    :raise RuleError: ``game_not_over``, the match has no winner (nothing stored).
    """
    for _attempt in range(3):
        try:
            with write(db):
                old = db.execute("SELECT * FROM match WHERE id = :id", {"id": match_id}).mappings().first()
                if old is None:
                    return None
                new = old["rematch"]
                if new is None and old["winner"] is None:  # rolled back by write()
                    raise RuleError("game_not_over", N_("The game is not over: the Revanche starts once a side has won."))
                if new is None:
                    new = _insert_match(
                        db, old["variant"], json.loads(old["options"]), json.loads(old["names"]),
                        old["mano"], None if new_series else old["series"], old["best_of"],
                        _players(old["players"]), old["edit_key"],
                    )
                    # Guarded like an append: on PostgreSQL another process may have
                    # undone the last action (or started the Revanche) since the read.
                    linked = db.execute(
                        "UPDATE match SET rematch = :new WHERE id = :id AND rematch IS NULL AND winner IS NOT NULL",
                        {"new": new, "id": match_id},
                    )
                    if linked.rowcount != 1:
                        raise _Moved
        except _Moved:
            continue  # rolled back; read again
        break
    return get_match(db, new)


class _Moved(Exception):
    """The match changed between a write transaction's read and its guarded update."""


def get_match(db: Database, match_id: str) -> MatchRow | None:
    """The match with id ``match_id``, or None if there is none (one primary-key read)."""
    r = db.execute("SELECT * FROM match WHERE id = :id", {"id": match_id}).mappings().first()
    return _row(r) if r else None


def get_matches(db: Database, match_ids: list[str]) -> list[MatchRow]:
    """The matches among ``match_ids`` that exist, in the order given."""
    if not match_ids:
        return []
    names = {f"id{i}": match_id for i, match_id in enumerate(match_ids)}
    marks = ", ".join(":" + n for n in names)
    rows = {r["id"]: _row(r) for r in db.execute(f"SELECT * FROM match WHERE id IN ({marks})", names).mappings()}
    return [rows[i] for i in match_ids if i in rows]


def get_actions(db: Database, match_id: str, since: int = 0, until: int | None = None) -> list[dict[str, Any]]:
    """The match's stored actions from index ``since`` on (up to, not including,
    ``until`` when given), oldest first."""
    if until is None:
        rows = db.execute("SELECT body FROM action WHERE match_id = :id AND seq >= :since ORDER BY seq",
                          {"id": match_id, "since": since})
    else:
        rows = db.execute("SELECT body FROM action WHERE match_id = :id AND seq >= :since AND seq < :until"
                          " ORDER BY seq", {"id": match_id, "since": since, "until": until})
    return [json.loads(body) for (body,) in rows]


def get_action(db: Database, match_id: str, seq: int) -> dict[str, Any] | None:
    """The action stored at index ``seq`` (0-based), or None."""
    body = db.execute(
        "SELECT body FROM action WHERE match_id = :id AND seq = :seq", {"id": match_id, "seq": seq}
    ).scalar()
    return json.loads(body) if body is not None else None


def append_action(
    db: Database,
    match_id: str,
    version: int,
    action: dict[str, Any],
    *,
    score: tuple[int, int] | list[int],
    winner: int | None,
    no_rematch: bool = False,
) -> bool:
    """Store ``action`` as the match's action number ``version`` and commit.

    Succeeds (True) only if the match is still at ``version`` (and, with
    ``no_rematch``, still has no Revanche); returns False, storing nothing, when
    another action (or the Revanche) got there first, in this process or another. The
    guarded ``UPDATE`` takes the match row's lock, so a concurrent writer waits and
    then finds the version moved; the primary key ``(match_id, seq)`` refuses a second
    action at one place even so. ``score`` and ``winner`` are the state after the
    action, kept on the match row for lists and the Revanche series tally.
    """
    now = time.time()
    with write(db):
        cur = db.execute(
            "UPDATE match SET version = version + 1, score0 = :s0, score1 = :s1, winner = :winner,"
            " updated = :now WHERE id = :id AND version = :version" + (" AND rematch IS NULL" if no_rematch else ""),
            {"s0": int(score[0]), "s1": int(score[1]), "winner": winner, "now": now, "id": match_id,
             "version": version},
        )
        if cur.rowcount != 1:
            return False  # nothing was written
        db.execute(
            "INSERT INTO action (match_id, seq, body, created) VALUES (:id, :seq, :body, :now)",
            {"id": match_id, "seq": version, "body": json.dumps(action, sort_keys=True), "now": now},
        )
    return True


def series_tally(db: Database, series: str) -> tuple[int, int]:
    """Games won by side 0 and by side 1 over every match of a Revanche series."""
    r = db.execute(
        "SELECT COALESCE(SUM(CASE WHEN winner = 0 THEN 1 ELSE 0 END), 0),"
        " COALESCE(SUM(CASE WHEN winner = 1 THEN 1 ELSE 0 END), 0) FROM match WHERE series = :series",
        {"series": series},
    ).one()
    return (int(r[0]), int(r[1]))


def series_games(db: Database, series: str) -> int:
    """How many matches (games, chicos) a Revanche series has started so far."""
    return db.execute("SELECT COUNT(*) FROM match WHERE series = :series", {"series": series}).scalar_one()


def import_match(
    db: Database,
    *,
    variant: str,
    options: dict[str, Any],
    names: tuple[str, str] | list[str],
    mano: int,
    actions: list[dict[str, Any]],
    score: tuple[int, int] | list[int],
    winner: int | None,
    best_of: int = 1,
    players: Any = None,
) -> MatchRow:
    """Store a new match that already has ``actions`` (a restored export), all or nothing.

    ``score`` and ``winner`` are the state after the last action; the caller replays
    the actions with the engine first, so only a valid match is stored. ``best_of`` and
    ``players`` as in :func:`create_match` (a new series of that length starts). The
    row returned carries the new plain ``edit_key``.
    """
    key = new_edit_key()
    with write(db):
        match_id = _insert_match(db, variant, options, names, mano, None, best_of, players, hash_key(key))
        now = time.time()
        if actions:
            db.execute(
                "INSERT INTO action (match_id, seq, body, created) VALUES (:id, :seq, :body, :now)",
                [{"id": match_id, "seq": seq, "body": json.dumps(a, sort_keys=True), "now": now}
                 for seq, a in enumerate(actions)],
            )
        db.execute(
            "UPDATE match SET version = :v, score0 = :s0, score1 = :s1, winner = :winner WHERE id = :id",
            {"v": len(actions), "s0": int(score[0]), "s1": int(score[1]), "winner": winner, "id": match_id},
        )
    return _row(db.execute("SELECT * FROM match WHERE id = :id", {"id": match_id}).mappings().one(), key)


def rename_match(db: Database, match_id: str, names: tuple[str, str] | list[str]) -> MatchRow | None:
    """Change the two side names of a match (its actions and version stay); None if no such match."""
    db.execute(
        "UPDATE match SET names = :names, updated = :now WHERE id = :id",
        {"names": json.dumps(list(names), ensure_ascii=False), "now": time.time(), "id": match_id},
    )
    return get_match(db, match_id)


# ------------------------------------------------------------------ copy and prune (truco db)


#: Columns of ``match`` copied as they are by :func:`copy_match`.
MATCH_COLUMNS = ("id", "edit_key", "series", "variant", "options", "names", "mano", "version", "score0",
                 "score1", "winner", "rematch", "created", "updated", "best_of", "players")


def match_ids(db: Database) -> list[str]:
    """Every stored match id, oldest first."""
    return list(db.execute("SELECT id FROM match ORDER BY created, id").scalars())


def copy_match(source: Database, target: Database, match_id: str) -> bool:
    """Copy one match (its row, key hash, series, players, every action with its
    time) from ``source`` to ``target`` in one transaction, keeping its id. False
    (nothing written) when ``target`` already has a match with that id.

    :raise LookupError: ``source`` has no such match.
    """
    row = source.execute("SELECT * FROM match WHERE id = :id", {"id": match_id}).mappings().first()
    if row is None:
        raise LookupError(match_id)
    actions = source.execute(
        "SELECT seq, body, created FROM action WHERE match_id = :id ORDER BY seq", {"id": match_id}
    ).mappings().all()
    with write(target):
        if target.execute("SELECT 1 FROM match WHERE id = :id", {"id": match_id}).first() is not None:
            return False
        cols = ", ".join(MATCH_COLUMNS)
        marks = ", ".join(":" + c for c in MATCH_COLUMNS)
        target.execute(f"INSERT INTO match ({cols}) VALUES ({marks})", {c: row[c] for c in MATCH_COLUMNS})
        if actions:
            target.execute(
                "INSERT INTO action (match_id, seq, body, created) VALUES (:id, :seq, :body, :created)",
                [{"id": match_id, "seq": a["seq"], "body": a["body"], "created": a["created"]} for a in actions],
            )
    return True


def prune(db: Database, idle_seconds: float, *, dry_run: bool = False, now: float | None = None) -> list[str]:
    """Delete the matches of every Revanche series in which nothing changed for
    ``idle_seconds`` (finished and abandoned alike; a series goes whole, so a tally is
    never cut), with their actions. Returns the ids deleted (or, with ``dry_run``, that
    would be), oldest first.
    """
    cutoff = (time.time() if now is None else now) - idle_seconds
    idle = ("SELECT id FROM match WHERE series IN"
            " (SELECT series FROM match GROUP BY series HAVING MAX(updated) < :cutoff)")
    with write(db):
        ids = list(db.execute(idle + " ORDER BY created, id", {"cutoff": cutoff}).scalars())
        if ids and not dry_run:
            db.execute(f"DELETE FROM action WHERE match_id IN ({idle})", {"cutoff": cutoff})
            db.execute(f"DELETE FROM match WHERE id IN ({idle})", {"cutoff": cutoff})
    return ids
