"""scorer.store: SQLite in WAL, version-guarded appends, Revanche series."""

import sqlite3

import pytest

from scorer import store


@pytest.fixture
def db(tmp_path):
    conn = store.connect(tmp_path / "store.sqlite3")
    store.init_db(conn)
    yield conn
    conn.close()


def new(db, **kw):
    args = dict(variant="paulista", options={"all_pardas": "nobody"}, names=["Nós", "Eles"], mano=1)
    args.update(kw)
    return store.create_match(db, **args)


def test_wal_and_idempotent_schema(db):
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    store.init_db(db)  # twice is fine


def test_create_and_get(db):
    row = new(db)
    again = store.get_match(db, row.id)
    assert again == row
    assert row.names == ("Nós", "Eles") and row.mano == 1 and row.version == 0
    assert row.options == {"all_pardas": "nobody"} and row.series == row.id
    assert store.get_match(db, "nope") is None


def test_ids_and_keys_are_random_and_long(db):
    rows = [new(db) for _ in range(5)]
    assert len({r.id for r in rows}) == 5 and len({r.edit_key for r in rows}) == 5
    assert all(len(r.edit_key) >= 43 for r in rows)  # 32 bytes base64url = 256 bits


def test_append_guarded_by_version(db):
    row = new(db)
    assert store.append_action(db, row.id, 0, {"type": "trick", "winner": 0}, score=[0, 0], winner=None)
    assert not store.append_action(db, row.id, 0, {"type": "trick", "winner": 1}, score=[0, 0], winner=None)
    assert store.append_action(db, row.id, 1, {"type": "trick", "winner": 0}, score=[1, 0], winner=None)
    assert store.get_actions(db, row.id) == [{"type": "trick", "winner": 0}] * 2
    assert store.get_actions(db, row.id, since=1) == [{"type": "trick", "winner": 0}]
    assert store.get_action(db, row.id, 5) is None
    assert store.get_match(db, row.id).version == 2
    assert store.get_match(db, row.id).score == (1, 0)


def test_committed_for_another_connection(db, tmp_path):
    row = new(db)
    store.append_action(db, row.id, 0, {"type": "undo"}, score=[0, 0], winner=None)
    other = store.connect(tmp_path / "store.sqlite3")
    assert store.get_match(other, row.id).version == 1
    other.close()


def test_get_matches_keeps_order_and_skips_missing(db):
    a, b = new(db), new(db)
    assert [r.id for r in store.get_matches(db, [b.id, "gone", a.id])] == [b.id, a.id]
    assert store.get_matches(db, []) == []


def test_rematch_created_once_and_series_tally(db):
    row = new(db)
    store.append_action(db, row.id, 0, {"type": "adjust"}, score=[12, 3], winner=0)
    first = store.create_rematch(db, row.id)
    assert store.create_rematch(db, row.id) == first
    assert first.series == row.id and first.variant == row.variant and first.names == row.names
    assert first.version == 0
    store.append_action(db, first.id, 0, {"type": "adjust"}, score=[5, 12], winner=1)
    store.append_action(db, new(db).id, 0, {"type": "adjust"}, score=[12, 0], winner=0)
    assert store.series_tally(db, row.id) == (1, 1)
    assert store.create_rematch(db, "nope") is None


def test_constraints(db):
    with pytest.raises(sqlite3.IntegrityError):
        new(db, mano=2)


def test_series_length_and_players_are_stored_and_kept_by_the_revanche(db):
    players = [["Ana", "Beto", "Caio"], ["Duda", "Eva", "Fábio"]]
    row = new(db, best_of=3, players=players)
    assert row.best_of == 3
    assert row.players == (("Ana", "Beto", "Caio"), ("Duda", "Eva", "Fábio"))
    store.append_action(db, row.id, 0, {"type": "adjust"}, score=[12, 3], winner=0)
    again = store.create_rematch(db, row.id)
    assert (again.best_of, again.players, again.series) == (3, row.players, row.series)
    assert store.series_games(db, row.series) == 2


def test_revanche_after_a_decided_series_starts_a_new_one(db):
    row = new(db, best_of=3)
    store.append_action(db, row.id, 0, {"type": "adjust"}, score=[12, 3], winner=0)
    fresh = store.create_rematch(db, row.id, new_series=True)
    assert fresh.series == fresh.id != row.series
    assert fresh.best_of == 3 and store.series_games(db, fresh.series) == 1


def test_defaults_without_series_or_players(db):
    row = new(db)
    assert (row.best_of, row.players) == (1, None)


def test_series_length_is_checked_by_the_database(db):
    with pytest.raises(sqlite3.IntegrityError):
        new(db, best_of=4)
