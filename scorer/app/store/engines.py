"""Where the database is and the process's engines: database URLs (:func:`database_url`),
one SQLAlchemy engine per URL with its pool (:func:`engine`), SQLite's file and pragmas,
and the errors that mean the database is away (:data:`UNAVAILABLE`).
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from pathlib import Path

import sqlalchemy
from sqlalchemy import event
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import InterfaceError, OperationalError

#: The database when none is named: a SQLite file in the current folder.
DEFAULT_DB = "truco.sqlite3"
#: Errors that mean "the database cannot be reached or is busy right now" (the web layer
#: answers 503): lost or refused connections, a full pool, a locked SQLite file.
UNAVAILABLE: tuple[type[Exception], ...] = (
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
