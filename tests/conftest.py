"""Fixtures shared by the tests: an app on a temporary SQLite file, and the database
backends (SQLite, and a throwaway PostgreSQL cluster, see ``pg_cluster.py``)."""

import os
import sys
import tempfile
from pathlib import Path

import pytest
from flask import Flask
from hypothesis import HealthCheck, settings
from jinja2 import FileSystemBytecodeCache

import pg_cluster
from scorer.app import store
from scorer.web import create_app

# Property tests: no time limit per example and no "too slow to generate" health check, so a
# busy machine (parallel workers, other work) never fails one; every test keeps the number of
# examples it declares (Hypothesis's 100 where it declares none).
settings.register_profile("suite", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("suite")


def pytest_configure(config):
    """With ``PYTHONDONTWRITEBYTECODE`` set (some machines set it for every process), every
    test worker, ``truco serve`` and ``truco`` command the suite starts compiled the project's
    modules and the test files again. The suite keeps their bytecode in a folder of its own
    instead (``PYTHONPYCACHEPREFIX``, in the temporary folder: nothing is written in the
    checkout), which the processes it starts inherit. A prefix already chosen is kept."""
    if os.environ.get("PYTHONDONTWRITEBYTECODE") and not os.environ.get("PYTHONPYCACHEPREFIX"):
        prefix = str(Path(tempfile.gettempdir()) / f"truco-scorer-pycache-{os.getuid()}")
        del os.environ["PYTHONDONTWRITEBYTECODE"]
        os.environ["PYTHONPYCACHEPREFIX"] = prefix
        sys.dont_write_bytecode, sys.pycache_prefix = False, prefix  # this process's own imports from here on


def pytest_xdist_auto_num_workers(config):
    """``-n auto`` (pyproject.toml): one worker per core and one more. The browser and server
    tests spend part of their time waiting (a page's timer, a server's answer), and the spare
    worker fills it: on 2 cores, 3 workers kept the cores 95% busy and 2 workers 81% (the same
    suite: 6:00 against 6:39-7:09)."""
    return len(os.sched_getaffinity(0)) + 1


#: The test folders in the order their files are handed to the workers: the browser tests
#: (a few seconds to a minute and a half a file) and the system tests (real servers) first,
#: the quick in-process folders after, so that they fill the end of the run on every worker.
FOLDER_ORDER = ("browser", "system", "cli", "web", "app", "present", "core")


def pytest_collection_modifyitems(config, items):
    """Files of the slow folders first (:data:`FOLDER_ORDER`); the order of the files inside a
    folder and of the tests inside a file is kept (the sort is stable)."""
    here = Path(__file__).resolve().parent

    def folder_rank(item) -> int:
        parts = Path(str(item.path)).resolve().relative_to(here).parts
        return FOLDER_ORDER.index(parts[0]) if len(parts) > 1 and parts[0] in FOLDER_ORDER else len(FOLDER_ORDER)

    items.sort(key=folder_rank)


@pytest.fixture(scope="session", autouse=True)
def templates_compiled_once(tmp_path_factory):
    """Every app a test makes compiles the same templates: Jinja's own bytecode cache (a
    folder of this test process) compiles each once for all of them. Its key holds the
    template's source checksum, so an edited template is compiled again."""
    before = Flask.jinja_options
    Flask.jinja_options = {**before, "bytecode_cache": FileSystemBytecodeCache(str(tmp_path_factory.mktemp("jinja")))}
    yield
    Flask.jinja_options = before


@pytest.fixture
def app(tmp_path):
    return create_app({"TESTING": True, "DATABASE": tmp_path / "web.sqlite3"})


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture(scope="session")
def postgres():
    """A PostgreSQL cluster for the whole run (one per pytest-xdist worker: each its own
    folder and free port). Skipped where Debian's binaries are missing, except in CI
    (``CI=true``), where ``.ci/run`` installs them: there a missing binary fails the tests."""
    pg_cluster.require()
    cluster = pg_cluster.Cluster()
    yield cluster
    store.dispose_all()
    cluster.destroy()


@pytest.fixture
def pg_url(postgres):
    """A fresh, empty PostgreSQL database (its URL), dropped after the test."""
    url = postgres.create_database()
    yield url
    postgres.drop_database(url)


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):
    """A fresh database on each backend: a SQLite file path, or a PostgreSQL URL."""
    if request.param == "sqlite":
        return str(tmp_path / "test.sqlite3")
    return request.getfixturevalue("pg_url")


@pytest.fixture
def pg_migrated_url(postgres):
    """A PostgreSQL database with the app's tables and no rows (its URL): emptied after the
    test and given to a later one (``pg_cluster.Cluster.migrated_database``)."""
    url = postgres.migrated_database()
    yield url
    postgres.give_back(url)


@pytest.fixture(params=["sqlite", "postgresql"])
def migrated_db_url(request, tmp_path):
    """A database with the app's tables and no rows, on each backend: a new SQLite file
    (migrated here), or a PostgreSQL database (:func:`pg_migrated_url`). For tests that start
    from an empty app; a test of the migrations themselves takes :func:`db_url`."""
    if request.param == "sqlite":
        return pg_cluster.migrated(str(tmp_path / "test.sqlite3"))
    return request.getfixturevalue("pg_migrated_url")


@pytest.fixture
def connect():
    """``connect(path_or_url)``: a :class:`scorer.app.store.Database`, closed after the test."""
    opened = []

    def open_one(value):
        db = store.connect(value)
        opened.append(db)
        return db

    yield open_one
    for db in opened:
        db.close()


@pytest.fixture
def waitress_stub(monkeypatch):
    """``truco serve`` with no real server: ``waitress.create_server`` is replaced by a stub.
    The dict it returns records the ``app`` served, the keyword arguments (``kw``), and
    whether the server ``ran`` and was ``closed``; the stub says it listens on port 8765."""
    import waitress

    calls = {}

    class FakeServer:
        effective_port = 8765

        def run(self):
            calls["ran"] = True

        def close(self):
            calls["closed"] = True

    def create_server(app, **kw):
        calls["app"], calls["kw"] = app, kw
        return FakeServer()

    monkeypatch.setattr(waitress, "create_server", create_server)
    return calls


@pytest.fixture
def catalog():
    """``catalog(lang)``: the reader's catalog as a page without the server has it: the
    standard library's :func:`gettext.translation` on the committed ``.mo`` files of ``lang``
    (``pt_BR``, ``es`` or ``en``), no Flask. (Here, not in ``tests/present/conftest.py``: a
    second ``conftest`` module there took the name the browser tests import their helpers by.)"""
    import gettext
    from pathlib import Path

    import scorer

    translations = Path(scorer.__file__).resolve().parent / "translations"
    return lambda lang: gettext.translation("messages", localedir=translations, languages=[lang])
