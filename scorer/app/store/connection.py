"""One connection to the database (:class:`Database`) and its write transaction
(:func:`write`): SQL text with ``:name`` parameters, the same on both backends, run on the
pooled driver connection; rows as tuples that also answer ``row["column"]``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

from sqlalchemy.engine import Engine
from sqlalchemy.engine.interfaces import DBAPIModule
from sqlalchemy.exc import DBAPIError, OperationalError, StatementError

from scorer.app.store.engines import engine

_PARAM = re.compile(r"(?<![:\w]):(\w+)")


@lru_cache(maxsize=1024)
def _pyformat(statement: str) -> str:
    """``:name`` parameters as psycopg's ``%(name)s`` (a literal ``%`` doubled)."""
    return _PARAM.sub(r"%(\1)s", statement.replace("%", "%%"))


#: Functions called as ``f(database, statement)`` before each statement is sent (the tests
#: and the bench count what a request costs the database with them); empty normally.
STATEMENT_LISTENERS: list[Callable[[Database, str], None]] = []


#: The first statements of a checkout that may be sent again on a fresh connection when the
#: pooled one turns out dead: a read, or the start of a transaction (never a write that
#: could have reached the server before the connection broke).
RESENDABLE = ("SELECT", "BEGIN")


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

    def __init__(self, rows: Sequence[Any], columns: list[str], rowcount: int) -> None:
        """``rows``: the driver's row tuples (made :class:`Row` here), or dicts (:meth:`mappings`)."""
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

    A pooled connection found dead by the first statement of this checkout (PostgreSQL
    was restarted since it was opened) is replaced by a fresh one and that statement sent
    again, once, if it is a read or a ``BEGIN`` (:data:`RESENDABLE`: nothing was changed
    on the dead one, so the request does not fail; issue 23 item 5). The same error also marks every connection the pool opened before
    it as stale, so they are reopened when next checked out instead of failing one by
    one. A statement after the first is never resent: a transaction cut in the middle
    fails its request (503), and the client's retry is version-guarded.
    """

    def __init__(self, eng: Engine) -> None:
        self.engine = eng
        self.dialect = eng.dialect.name
        self.fairy = eng.raw_connection()
        self.raw: Any = self.fairy.driver_connection  # sqlite3's or psycopg's own connection
        self._error = eng.dialect.loaded_dbapi.Error
        self.broken = False  # the connection was lost and dropped: every statement fails fast
        self.depth = 0  # write transactions open on it (:func:`write`; an inner one joins the outer)
        self.untouched = True  # no statement sent on this checkout yet: a dead connection may be replaced

    def execute(self, statement: str, params: dict[str, Any] | list[dict[str, Any]] | None = None) -> Rows:
        return self._run(statement, params, False)

    def first_values(self, statement: str, params: dict[str, Any] | None = None) -> tuple | None:
        """The first row of a read as a plain tuple, in the order the statement names its
        columns, or None when there is none: :meth:`execute` without the column names, the
        :class:`Row` and the :class:`Rows` (an unchanged poll's read, nine requests in ten,
        skips that work). Errors and a dead pooled connection as :meth:`execute`."""
        return self._run(statement, params, True)

    def _run(self, statement: str, params, plain: bool):
        if STATEMENT_LISTENERS:
            for listener in STATEMENT_LISTENERS:
                listener(self, statement)
        if self.broken:
            raise OperationalError(statement, params, ConnectionError("the database connection was lost"))
        first, self.untouched = self.untouched, False
        try:
            return self._send(statement, params, plain)
        except DBAPIError as e:
            if not (first and e.connection_invalidated and statement.lstrip().upper().startswith(RESENDABLE)):
                raise
        self._replace()  # the pooled connection was dead before this request used it
        return self._send(statement, params, plain)

    def _send(self, statement: str, params: dict[str, Any] | list[dict[str, Any]] | None, plain: bool = False):
        sql = statement if self.dialect == "sqlite" else _pyformat(statement)
        cur = self.fairy.cursor()
        try:
            if isinstance(params, list):
                cur.executemany(sql, params)
            elif params:
                cur.execute(sql, params)
            else:
                cur.execute(statement)
            if plain:
                found = cur.fetchone()
                return None if found is None else tuple(found)
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

    def _wrap(self, error: DBAPIModule.Error, statement: str, params, cursor) -> StatementError:
        gone = self.engine.dialect.is_disconnect(error, self.raw, cursor)
        if gone:
            # Every connection opened before this one is as dead (a database restart):
            # the pool reopens them at their next checkout, as SQLAlchemy's own Connection
            # does on a disconnect (Pool._invalidate: "mark all connections established
            # within the generation of the given connection as invalidated").
            self.engine.pool._invalidate(self.fairy, error, _checkin=False)
            self.invalidate(error, close=False)
        return DBAPIError.instance(statement, params, error, self._error, connection_invalidated=gone)

    def _replace(self) -> None:
        """Check a fresh connection out in place of the dead one (already invalidated).

        :raise OperationalError: the database cannot be reached now either.
        """
        self.fairy.close()
        try:
            self.fairy = self.engine.raw_connection()
        except self._error as e:
            raise DBAPIError.instance(None, None, e, self._error) from e
        self.raw = self.fairy.driver_connection
        self.broken = False

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
    A ``write`` inside another on the same connection joins it: the outer one commits
    (a correction reads, decides and writes a tournament in one transaction). A
    connection that cannot even roll back is dropped."""
    if db.depth:
        db.depth += 1
        try:
            yield db
        finally:
            db.depth -= 1
        return
    db.execute("BEGIN IMMEDIATE" if db.dialect == "sqlite" else "BEGIN")
    db.depth = 1
    try:
        yield db
    except BaseException:
        db.depth = 0
        if not db.broken:  # a lost connection has no transaction left to roll back
            try:
                db.execute("ROLLBACK")
            except DBAPIError:
                db.invalidate(close=False)
        raise
    db.depth = 0
    db.execute("COMMIT")
