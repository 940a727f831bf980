"""A throwaway PostgreSQL cluster for the tests: Debian's ``postgresql`` binaries
(``initdb``, ``pg_ctl``) in a temporary folder, on a free 127.0.0.1 port.

As root the cluster runs as the ``postgres`` OS user (PostgreSQL refuses to run as root):
the folder is handed to it and every command goes through ``runuser -u postgres --``.
Nothing listens beyond loopback; trust authentication, as the folder is private.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

BIN = Path(os.environ.get("TRUCO_PG_BIN", "/usr/lib/postgresql/15/bin"))


def available() -> bool:
    """Whether initdb and pg_ctl are installed."""
    return (BIN / "initdb").is_file() and (BIN / "pg_ctl").is_file()


def require() -> None:
    """Skip the test when the binaries are missing; fail it instead under ``CI=true``
    (``.ci/run`` installs them, so there a missing binary is a broken CI)."""
    import pytest

    if not available():
        if os.environ.get("CI") == "true":
            pytest.fail(f"PostgreSQL binaries missing in {BIN} (CI installs the postgresql package)")
        pytest.skip(f"PostgreSQL binaries missing in {BIN}")


#: How many free ports a cluster tries before giving up (see :class:`PortTaken`).
PORT_TRIES = 5


class PortTaken(RuntimeError):
    """The free port :func:`free_port` found was bound by another process before the server
    bound it (parallel test workers each look for free ports)."""


def free_port() -> int:
    """A port of 127.0.0.1 that was free a moment ago."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def migrated(database: str) -> str:
    """``database`` (a SQLite path or a URL) with the app's tables made or upgraded, as the
    app does at its start; the same value."""
    from scorer.app import store

    db = store.connect(database)
    try:
        store.init_db(db)
    finally:
        db.close()
    return database


class Cluster:
    """One PostgreSQL server: ``url(name)``, ``create_database()``, ``stop()``,
    ``start()``, ``restart()``, ``destroy()``."""

    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="truco-pg-"))
        self.data = self.root / "data"
        self.port = free_port()
        self.as_root = os.geteuid() == 0
        if self.as_root:
            shutil.chown(self.root, "postgres", "postgres")
            os.chmod(self.root, 0o700)
        self._count = 0
        self._spare: list[str] = []  # emptied databases migrated_database gives again
        self._schema: object = None  # the app's tables and schema versions, once seen
        self._run([str(BIN / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres",
                   "-E", "UTF8", "--locale", "C", "--no-sync"])
        for attempt in range(PORT_TRIES):
            try:
                self.start()
                break
            except PortTaken:
                # Another process (a parallel test worker) bound the free port first: another one.
                if attempt == PORT_TRIES - 1:
                    raise
                self.port = free_port()

    def _run(self, cmd: list[str], check: bool = True) -> subprocess.CompletedProcess:
        if self.as_root:
            cmd = ["runuser", "-u", "postgres", "--"] + cmd
        return subprocess.run(cmd, check=check, capture_output=True, text=True, cwd=self.root, timeout=120)

    def start(self) -> None:
        """Start the server and wait until it accepts connections (pg_ctl -w)."""
        options = f"-p {self.port} -h 127.0.0.1 -k {self.root} -c fsync=off -c max_connections=200"
        done = self._run([str(BIN / "pg_ctl"), "-D", str(self.data), "-l", str(self.root / "log"),
                          "-o", options, "-w", "-t", "60", "start"], check=False)
        if done.returncode != 0:
            log = (self.root / "log").read_text() if (self.root / "log").exists() else ""
            kind = PortTaken if "could not bind" in log and "Address already in use" in log else RuntimeError
            raise kind(f"pg_ctl start failed: {done.stdout}{done.stderr}{log}")

    def stop(self) -> None:
        """Stop it (fast shutdown: connections are cut, committed work is kept)."""
        self._run([str(BIN / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop"], check=False)

    def restart(self) -> None:
        self.stop()
        self.start()

    def url(self, name: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"

    def admin(self, sql: str) -> None:
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(sql)

    def create_database(self) -> str:
        """A new empty database; its URL. Copied file by file from ``template1`` (PostgreSQL
        15's ``FILE_COPY``: about half the time of the default, which writes every page
        through the WAL)."""
        self._count += 1
        name = f"t{os.getpid()}_{self._count}_{int(time.time() * 1000) % 100000}"
        self.admin(f"CREATE DATABASE {name} STRATEGY FILE_COPY")
        return self.url(name)

    def drop_database(self, url: str) -> None:
        """Drop a database :meth:`create_database` made (its URL), cutting any connection
        still open to it: the cluster stays small (a few hundred test databases were a
        gigabyte and a half to write and delete)."""
        name = url.rsplit("/", 1)[1]
        self.admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def migrated_database(self) -> str:
        """A database holding every table of the app (all migrations applied) and no rows:
        one an earlier test gave back (:meth:`give_back`), else a new one. About a quarter
        of the time of :meth:`create_database` plus the migrations, which is most of a
        PostgreSQL test's setup."""
        if self._spare:
            return self._spare.pop()
        url = migrated(self.create_database())
        if self._schema is None:
            self._schema = self._schema_of(url)
        return url

    def give_back(self, url: str) -> None:
        """Empty a database :meth:`migrated_database` gave and keep it for the next test:
        this process's pooled connections closed, every other session to it cut (servers a
        test started), then every table but the schema version truncated, identities
        restarted. A database whose tables or schema versions are no longer the app's (a
        test changed them) is dropped instead."""
        import psycopg

        from scorer.app import store

        store.dispose_all()
        self.end_sessions(url)
        if self._schema_of(url) != self._schema:
            self.drop_database(url)
            return
        tables = [t for t in self._schema[0] if t != "truco_schema"]
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("TRUNCATE " + ", ".join(f'"{t}"' for t in tables) + " RESTART IDENTITY CASCADE")
        self._spare.append(url)

    def end_sessions(self, url: str) -> None:
        """End every server process of the database at ``url`` but the asking one (as a
        restart does)."""
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                          "WHERE datname = %s AND pid <> pg_backend_pid()", (url.rsplit("/", 1)[1],))

    @staticmethod
    def _schema_of(url: str) -> tuple:
        """``(tables, columns, schema versions)`` of a database: what :meth:`give_back` compares."""
        import psycopg

        with psycopg.connect(url, autocommit=True) as conn:
            tables = tuple(r[0] for r in conn.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1"))
            columns = tuple(conn.execute(
                "SELECT table_name, column_name, data_type FROM information_schema.columns "
                "WHERE table_schema = 'public' ORDER BY 1, 2"))
            versions = tuple(conn.execute("SELECT * FROM truco_schema ORDER BY 1")) if "truco_schema" in tables else ()
        return tables, columns, versions

    def destroy(self) -> None:
        """Stop the server (immediate: the cluster is thrown away, no checkpoint is worth
        writing) and delete its folder."""
        self._run([str(BIN / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop"], check=False)
        shutil.rmtree(self.root, ignore_errors=True)
