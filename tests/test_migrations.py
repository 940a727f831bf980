"""Versioned schema migrations (scorer.store.migrate) and old databases replaying."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from scorer import store
from scorer.match import Match
from scorer.web import create_app

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def old_db(tmp_path):
    """A copy of a database made before migrations existed (see fixtures/make_schema0_db.py)."""
    path = tmp_path / "old.sqlite3"
    shutil.copy(FIXTURES / "schema0.sqlite3", path)
    return path


def test_new_database_gets_every_migration(tmp_path):
    db = store.connect(tmp_path / "new.sqlite3")
    assert store.schema_version(db) == 0
    assert store.migrate(db) == len(store.MIGRATIONS)
    assert store.migrate(db) == len(store.MIGRATIONS)  # again: nothing to do


def test_old_database_is_upgraded_and_replays_to_its_stored_score(old_db):
    db = store.connect(old_db)
    assert store.schema_version(db) == 0
    store.init_db(db)
    assert store.schema_version(db) == len(store.MIGRATIONS)
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    for match_id in ("old-argentino", "old-paulista"):
        row = store.get_match(db, match_id)
        m = Match.replay(row.variant, row.options, row.mano, store.get_actions(db, match_id))
        state = m.state()
        assert (tuple(state["score"]), state["winner"], m.version) == (row.score, row.winner, row.version)


def test_old_match_is_served_and_continues(old_db):
    client = create_app({"TESTING": True, "DATABASE": old_db}).test_client()
    state = client.get("/api/matches/old-argentino").get_json()
    assert state["score"] == [18, 16] and state["version"] == 30 and state["variant"] == "argentino-30"
    action = {"type": "adjust", "side": 0, "delta": 1}
    r = client.post("/api/matches/old-argentino/actions", json={"action": action, "version": 30},
                    headers={"X-Edit-Key": "k" * 43})
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["version"] == 31 and r.get_json()["score"] == [19, 16]


def test_failed_migration_rolls_back_and_keeps_the_version(tmp_path):
    db = store.connect(tmp_path / "m.sqlite3")
    steps = ["CREATE TABLE a (x INTEGER);", "CREATE TABLE b (y INTEGER); INSERT INTO nowhere VALUES (1);"]
    with pytest.raises(sqlite3.OperationalError):
        store.migrate(db, steps)
    assert store.schema_version(db) == 1
    assert db.execute("SELECT name FROM sqlite_master WHERE name = 'b'").fetchone() is None
    assert store.migrate(db, steps[:1] + ["CREATE TABLE b (y INTEGER);"]) == 2


def test_database_from_a_newer_program_is_refused(tmp_path):
    db = store.connect(tmp_path / "n.sqlite3")
    db.execute("PRAGMA user_version = 99")
    with pytest.raises(RuntimeError, match="newer"):
        store.migrate(db)
