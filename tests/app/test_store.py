"""scorer.app.store on both backends (SQLite in WAL, PostgreSQL): version-guarded appends,
Revanche series, hashed keys, copy and prune, database URLs."""

import os
import stat
import threading

import pytest

from scorer.app import store


@pytest.fixture
def db(migrated_db_url):
    conn = store.connect(migrated_db_url)
    store.init_db(conn)
    conn.url = migrated_db_url
    yield conn
    conn.close()


def new(db, **kw):
    args = dict(variant="paulista", options={"all_pardas": "nobody"}, names=["Nós", "Eles"], mano=1)
    args.update(kw)
    return store.create_match(db, **args)


def test_wal_and_idempotent_schema(db):
    if db.dialect == "sqlite":
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    store.init_db(db)  # twice is fine
    assert store.schema_version(db) == len(store.MIGRATIONS)


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


def test_a_taps_key_is_recorded_once_with_its_action(db):
    """Issue 24 (replaces the deadline test: a tap the phone gave up on is no longer refused,
    its key makes the repeat harmless). The key goes in with the action, in one transaction; the
    same key again stores nothing, on any version, and leaves the match as it was."""
    row = new(db)
    assert store.append_action(db, row.id, 0, {"type": "trick", "winner": 0}, score=[0, 0], winner=None,
                               tap_key="phone-tap-1")
    assert store.tap_seq(db, row.id, "phone-tap-1") == 0 and store.tap_seq(db, row.id, "phone-tap-2") is None
    with pytest.raises(store.KnownTap):
        store.append_action(db, row.id, 1, {"type": "trick", "winner": 0}, score=[0, 0], winner=None,
                            tap_key="phone-tap-1")
    assert store.get_match(db, row.id).version == 1 and store.get_actions(db, row.id) == [{"type": "trick", "winner": 0}]
    assert store.append_action(db, row.id, 1, {"type": "trick", "winner": 1}, score=[0, 0], winner=None,
                               tap_key="phone-tap-2")
    other = new(db)  # keys are per match
    assert store.append_action(db, other.id, 0, {"type": "undo"}, score=[0, 0], winner=None, tap_key="phone-tap-1")
    assert store.tap_seq(db, row.id, "phone-tap-2") == 1 and store.tap_seq(db, other.id, "phone-tap-1") == 0


def test_committed_for_another_connection(db):
    row = new(db)
    store.append_action(db, row.id, 0, {"type": "undo"}, score=[0, 0], winner=None)
    other = store.connect(db.url)
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
    with pytest.raises(store.IntegrityError):
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
    with pytest.raises(store.IntegrityError):
        new(db, best_of=4)
    assert not db.in_transaction


# ------------------------------------------------------------------ issue 12


def test_the_database_refuses_a_second_action_at_one_place(db):
    """The version guard is the database's: even a writer that skips the guarded
    UPDATE cannot store two actions at one (match, seq)."""
    row = new(db)
    assert store.append_action(db, row.id, 0, {"type": "undo"}, score=[0, 0], winner=None)
    with pytest.raises(store.IntegrityError):
        with store.write(db):
            db.execute("INSERT INTO action (match_id, seq, body, created) VALUES (:id, 0, '{}', 0)", {"id": row.id})
    assert store.get_actions(db, row.id) == [{"type": "undo"}]


def test_concurrent_appends_on_one_version_store_one(db):
    """Eight connections append at the same version at once: exactly one is stored."""
    row = new(db)
    gate, results = threading.Barrier(8), []

    def append(n):
        conn = store.connect(db.url)
        try:
            gate.wait(timeout=10)
            results.append(store.append_action(conn, row.id, 0, {"type": "trick", "winner": n % 2},
                                               score=[0, 0], winner=None))
        finally:
            conn.close()

    threads = [threading.Thread(target=append, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert sorted(results) == [False] * 7 + [True]
    assert len(store.get_actions(db, row.id)) == 1 and store.get_match(db, row.id).version == 1


def test_edit_keys_are_stored_hashed(db):
    row = new(db)
    assert row.edit_key and row.key_hash == store.hash_key(row.edit_key) != row.edit_key
    stored = db.execute("SELECT edit_key FROM match WHERE id = :id", {"id": row.id}).scalar_one()
    assert stored == row.key_hash and row.edit_key not in stored
    assert store.get_match(db, row.id).edit_key is None  # never read back


def test_the_revanche_keeps_the_key(db):
    row = new(db)
    store.append_action(db, row.id, 0, {"type": "adjust"}, score=[12, 3], winner=0)
    assert store.create_rematch(db, row.id).key_hash == row.key_hash


def test_revanche_after_an_undo_in_between_is_refused(db):
    """The Revanche's link is guarded like an append: no winner any more, no Revanche."""
    row = new(db)
    store.append_action(db, row.id, 0, {"type": "adjust"}, score=[12, 3], winner=0)
    store.append_action(db, row.id, 1, {"type": "undo"}, score=[0, 0], winner=None)
    with pytest.raises(store.RuleError):
        store.create_rematch(db, row.id)
    assert store.series_games(db, row.series) == 1


def test_copy_keeps_everything(db, tmp_path):
    row = new(db, best_of=3, players=[["Ana", "Beto"], ["Caio", "Duda"]])
    for v in range(3):
        store.append_action(db, row.id, v, {"type": "trick", "winner": v % 2}, score=[v, 0], winner=None)
    other = store.connect(tmp_path / "copy.sqlite3")
    store.init_db(other)
    assert store.copy_match(db, other, row.id) is True
    assert store.copy_match(db, other, row.id) is False  # already there: nothing written
    assert store.get_match(other, row.id) == store.get_match(db, row.id)
    assert store.get_actions(other, row.id) == store.get_actions(db, row.id)
    other.close()


def test_prune_deletes_idle_series_whole(db):
    old, fresh = new(db), new(db)
    store.append_action(db, old.id, 0, {"type": "adjust"}, score=[12, 0], winner=0)
    rematch = store.create_rematch(db, old.id)
    day = 86400
    db.execute("UPDATE match SET updated = :t WHERE id IN (:a, :b)", {"t": old.updated - 200 * day, "a": old.id,
                                                                       "b": rematch.id})
    assert store.prune(db, 180 * day, dry_run=True) == [old.id, rematch.id]
    assert store.get_match(db, old.id) is not None  # a dry run deletes nothing
    assert store.prune(db, 180 * day) == [old.id, rematch.id]
    assert store.get_match(db, old.id) is None and store.get_actions(db, old.id) == []
    assert store.get_match(db, fresh.id) is not None
    assert store.prune(db, 180 * day) == []


def test_a_series_with_a_recent_game_is_kept_whole(db):
    old = new(db)
    store.append_action(db, old.id, 0, {"type": "adjust"}, score=[12, 0], winner=0)
    store.create_rematch(db, old.id)
    db.execute("UPDATE match SET updated = 0 WHERE id = :a", {"a": old.id})
    assert store.prune(db, 86400) == []


def test_a_new_sqlite_file_is_private(tmp_path):
    path = tmp_path / "new" / "private.sqlite3"
    conn = store.connect(path)
    store.init_db(conn)
    conn.close()
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    for suffix in ("-wal", "-shm"):
        if os.path.exists(str(path) + suffix):
            assert stat.S_IMODE(os.stat(str(path) + suffix).st_mode) & 0o077 == 0


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("postgresql://truco@db.example:5432/truco", "postgresql+psycopg://truco@db.example:5432/truco"),
        ("postgres://u:secret@127.0.0.1/t", "postgresql+psycopg://u:secret@127.0.0.1/t"),
        ("postgresql+psycopg://u@h/d", "postgresql+psycopg://u@h/d"),
    ],
)
def test_database_urls_name_postgresql(given, expected):
    assert store.database_url(given) == expected


def test_database_urls_name_sqlite_files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert store.database_url("t.sqlite3") == f"sqlite:///{tmp_path}/t.sqlite3"
    assert store.database_url("sqlite:///t.sqlite3") == f"sqlite:///{tmp_path}/t.sqlite3"
    assert store.database_url(f"sqlite:///{tmp_path}/x.db") == f"sqlite:///{tmp_path}/x.db"
    assert store.database_url(None) == f"sqlite:///{tmp_path}/truco.sqlite3"
    assert store.describe(store.database_url("postgresql://u:secret@h/d")) == "postgresql://u:***@h/d"


@pytest.mark.parametrize("bad", ["mysql://u@h/d", "", "sqlite://", "sqlite:///:memory:"])
def test_unsupported_databases_are_named(bad):
    with pytest.raises(store.DatabaseURLError, match="postgresql://USER@HOST:PORT/DB"):
        store.database_url(bad)


def test_a_connection_lost_mid_write_fails_as_unavailable_and_the_next_one_works(pg_url, postgres):
    db = store.connect(pg_url)
    store.init_db(db)
    row = new(db)
    pid = db.execute("SELECT pg_backend_pid()").scalar_one()
    postgres.admin(f"SELECT pg_terminate_backend({int(pid)})")
    with pytest.raises(store.UNAVAILABLE):
        store.append_action(db, row.id, 0, {"type": "undo"}, score=[0, 0], winner=None)
    assert db.broken
    with pytest.raises(store.OperationalError):
        store.get_match(db, row.id)  # fails fast, never a half-used connection
    db.invalidate()
    again = store.connect(pg_url)  # the pool opens a fresh one
    try:
        assert store.append_action(again, row.id, 0, {"type": "undo"}, score=[0, 0], winner=None)
    finally:
        again.close()


@pytest.mark.parametrize(("ci", "outcome"), [("true", pytest.fail.Exception), ("", pytest.skip.Exception)])
def test_missing_postgresql_skips_only_outside_ci(monkeypatch, tmp_path, ci, outcome):
    import pg_cluster

    monkeypatch.setattr(pg_cluster, "BIN", tmp_path / "no-postgresql")
    monkeypatch.setenv("CI", ci)
    with pytest.raises(outcome):
        pg_cluster.require()


@pytest.mark.parametrize("change", [
    {},
    {"players": (("Ana", "Bia"), ("Caio", "Davi"))},
    {"names": ["Nós \U0001f0a1", "Eles"], "best_of": 3},
])
def test_a_poll_stamp_holds_what_the_match_row_holds(db, change):
    """The poll shortcut's lean read (``poll_stamp``) gives the same values as ``get_match``
    for everything the poll compares, on both backends; an unknown match is None."""
    made = new(db, **change)
    row, stamp = store.get_match(db, made.id), store.poll_stamp(db, made.id)
    for name in ("id", "key_hash", "version", "rematch", "winner", "series", "names", "players", "best_of"):
        assert getattr(stamp, name) == getattr(row, name), name
    assert store.poll_stamp(db, "nope") is None


def test_first_values_is_the_first_row_as_a_plain_tuple(db):
    assert db.first_values("SELECT 1 + 1, 'a'") == (2, "a")
    assert db.first_values("SELECT id FROM match WHERE id = :id", {"id": "nope"}) is None
