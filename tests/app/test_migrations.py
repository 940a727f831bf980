"""Versioned schema migrations (scorer.app.store.migrate) and old databases replaying."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from scorer.app import store
from scorer.core.match import Match
from scorer.web import create_app

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


@pytest.fixture
def old_db(tmp_path):
    """A copy of a database made before migrations existed (see fixtures/make_schema0_db.py)."""
    path = tmp_path / "old.sqlite3"
    shutil.copy(FIXTURES / "schema0.sqlite3", path)
    return path


def test_new_database_gets_every_migration(db_url, connect):
    db = connect(db_url)
    assert store.schema_version(db) == 0
    assert store.migrate(db) == len(store.MIGRATIONS)
    assert store.migrate(db) == len(store.MIGRATIONS)  # again: nothing to do


def test_old_database_is_upgraded_and_replays_to_its_stored_score(old_db, connect):
    db = connect(old_db)
    assert store.schema_version(db) == 0
    store.init_db(db)
    assert store.schema_version(db) == len(store.MIGRATIONS)
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    # Keys at rest are hashes now; the old plain key still opens the match (below).
    assert store.get_match(db, "old-argentino").key_hash == store.hash_key("k" * 43)
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


def test_failed_migration_rolls_back_and_keeps_the_version(db_url, connect):
    db = connect(db_url)
    steps = ["CREATE TABLE a (x INTEGER);", "CREATE TABLE b (y INTEGER); INSERT INTO nowhere VALUES (1);"]
    with pytest.raises(store.DBAPIError):
        store.migrate(db, steps)
    assert store.schema_version(db) == 1
    with pytest.raises(store.DBAPIError):
        db.execute("SELECT * FROM b")  # its table was rolled back with it (DDL is transactional on both)
    assert store.migrate(db, steps[:1] + ["CREATE TABLE b (y INTEGER);"]) == 2


def test_database_from_a_newer_program_is_refused(tmp_path, connect):
    db = connect(tmp_path / "n.sqlite3")
    db.execute("PRAGMA user_version = 99")
    with pytest.raises(RuntimeError, match="newer"):
        store.migrate(db)


def test_a_later_module_appends_a_table_on_both_backends(db_url, connect):
    """How a later module (tournaments, issue 11) adds its table: one more entry in the
    list, portable SQL, run once on SQLite and on PostgreSQL alike."""
    db = connect(db_url)
    steps = store.MIGRATIONS + [
        "CREATE TABLE IF NOT EXISTS demo_tournament (id TEXT PRIMARY KEY, name TEXT NOT NULL,"
        " match_id TEXT REFERENCES match (id) ON DELETE SET NULL, created DOUBLE PRECISION NOT NULL);"
        "CREATE INDEX IF NOT EXISTS demo_tournament_match ON demo_tournament (match_id)"
    ]
    assert store.migrate(db, steps) == len(store.MIGRATIONS) + 1
    db.execute("INSERT INTO demo_tournament (id, name, created) VALUES ('t', 'Copa', 1.5)")
    assert db.execute("SELECT name FROM demo_tournament").scalar_one() == "Copa"
    assert store.migrate(db, steps) == len(store.MIGRATIONS) + 1  # again: nothing to do
    with pytest.raises(RuntimeError, match="newer"):
        store.migrate(db)  # the program without that step refuses the newer database


def test_two_processes_migrating_at_once_apply_each_step_once(db_url, connect):
    import threading

    counted = []

    def count(db):
        counted.append(1)
        db.execute("CREATE TABLE once (x INTEGER)")

    steps = store.MIGRATIONS + [count]
    errors = []

    def run():
        conn = store.connect(db_url)
        try:
            store.migrate(conn, steps)
        except Exception as e:  # noqa: BLE001 (reported by the assertion)
            errors.append(e)
        finally:
            conn.close()

    threads = [threading.Thread(target=run) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert errors == [] and counted == [1]


def test_the_old_database_copies_to_postgresql_and_replays(old_db, pg_url, connect):
    source = connect(old_db)
    store.init_db(source)
    target = connect(pg_url)
    store.init_db(target)
    for match_id in store.match_ids(source):
        assert store.copy_match(source, target, match_id)
    row = store.get_match(target, "old-argentino")
    assert row == store.get_match(source, "old-argentino") and row.score == (18, 16)
    m = Match.replay(row.variant, row.options, row.mano, store.get_actions(target, row.id))
    assert tuple(m.state()["score"]) == row.score


def test_migration_9_adds_the_dropped_matches_and_marks_no_old_match(db_url, connect):
    """Migration 9 (issue 32, docs/tournaments.md step 5): the matches a reopening dropped, and on
    each match the mark its board's poll reads; a match stored before it is not dropped."""
    db = connect(db_url)
    assert store.migrate(db, store.MIGRATIONS[:8]) == 8
    old = store.create_match(db, variant="truco-15", options={}, names=["A", "B"], mano=0)
    assert store.migrate(db) == len(store.MIGRATIONS)
    assert store.get_match(db, old.id).dropped is False
    assert store.poll_stamp(db, old.id).dropped == 0
    assert db.execute("SELECT COUNT(*) AS n FROM tournament_dropped").fetchone()["n"] == 0


def test_a_stored_match_keeps_the_rules_it_was_played_by(db_url, connect):
    """Migration 10 (issue 33): a venezolano match stored before ``flor_vs_flor`` existed gets the
    compared Flor it was played with (4: docs/rules.md §Flor values), so it replays to its stored
    score; a new match gets the new default (3 per Flor: docs/rules.md §Venezuelan options)."""
    db = connect(db_url)
    store.migrate(db, store.MIGRATIONS[:8])
    actions = [{"type": "call", "side": 0, "call": "flor"}, {"type": "call", "side": 1, "call": "flor"},
               {"type": "envido_winner", "side": 0}]
    old = {"target": 24, "flor_per_player": False}
    row = store.import_match(db, variant="venezolano", options=old, names=("A", "B"), mano=0,
                             actions=actions, score=(4, 0), winner=None)
    assert store.migrate(db) == len(store.MIGRATIONS)
    row = store.get_match(db, row.id)
    assert row.options == {**old, "flor_vs_flor": "compared"}
    assert Match.replay(row.variant, row.options, row.mano, store.get_actions(db, row.id)).score == (4, 0)
    assert Match.replay("venezolano", None, 0, actions).score == (3, 0)


def test_migration_11_keeps_each_games_numbers_by_version(db_url, connect):
    """Migration 11 (issue 31): a game's statistics kept with the version they were counted at; a later version
    wins over an earlier one whichever is written last; gone with the match when it is pruned."""
    db = connect(db_url)
    store.migrate(db)
    row = store.create_match(db, variant="truco-15", options={}, names=["A", "B"], mano=0)
    store.keep_sides(db, [(row.id, 3, "three")])
    assert store.kept_sides(db, {row.id: 3}) == {row.id: "three"}
    assert store.kept_sides(db, {row.id: 4}) == {}  # counted at another version: not these numbers
    store.keep_sides(db, [(row.id, 5, "five")])
    store.keep_sides(db, [(row.id, 4, "four")])  # a slower process's older count
    assert store.kept_sides(db, {row.id: 5}) == {row.id: "five"}
    assert store.prune(db, 0, now=row.updated + 10) == [row.id]
    assert db.execute("SELECT COUNT(*) FROM match_stats").scalar_one() == 0
