"""The tournaments' SQL (scorer.app.store.tournaments): migration, guarded writes, audit."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scorer.app import store
from scorer.app.store import tournaments as tstore
from scorer.app.store.migrations import TOURNAMENT_TABLES


@pytest.fixture
def db(tmp_path):
    conn = store.connect(tmp_path / "t.sqlite3")
    store.init_db(conn)
    yield conn
    conn.close()


def new(db, slots=("main:1:1", "main:1:2", "main:2:1")):
    tid = store.new_id()
    return tstore.create_tournament(
        db, tid=tid, organizer_hash=store.hash_key("organizer-" + tid),
        team_hashes=[store.hash_key(f"team-{i}") for i in range(4)], name="Copa", variant="truco-15", options={}, settings={"format": "knockout"},
        teams=["A", "B", "C", "D"], players=[[], [], [], []], seeds=[0, 1, 2, 3], slots=list(slots),
        audit=[("organizer", "create", {"teams": 4})],
    )


def test_migration_is_portable_sql():
    """Plain types and no SQLite-only syntax (the store may also run on PostgreSQL)."""
    assert TOURNAMENT_TABLES in store.MIGRATIONS
    sql = TOURNAMENT_TABLES.upper()
    assert "WITHOUT ROWID" not in sql and "AUTOINCREMENT" not in sql and "PRAGMA" not in sql
    types = set(re.findall(r"\b(TEXT|INTEGER|REAL|BLOB|NUMERIC|BOOLEAN|JSON)\b", sql))
    assert types <= {"TEXT", "INTEGER", "REAL"}


def test_every_query_uses_named_parameters():
    source = Path(tstore.__file__).read_text(encoding="utf-8")
    assert not re.search(r"[=(,]\s*\?", source)  # no qmark placeholders
    assert len(re.findall(r":[a-z_]+\b", source)) > 20


def test_created_with_slots_and_audit(db):
    row = new(db)
    assert (row.name, row.teams, row.version) == ("Copa", ("A", "B", "C", "D"), 0)
    assert [s.slot for s in tstore.get_slots(db, row.id)] == ["main:1:1", "main:1:2", "main:2:1"]
    audit = tstore.get_audit(db, row.id)
    assert [(a["seq"], a["who"], a["kind"]) for a in audit] == [(0, "organizer", "create")]
    assert row.organizer_hash == store.hash_key("organizer-" + row.id) and len(set(row.team_hashes)) == 4


def test_a_slot_is_linked_once(db):
    row = new(db)
    assert tstore.claim_slots(db, row.id, [("main:1:1", "m1", None)], 0) == 1
    assert tstore.claim_slots(db, row.id, [("main:1:1", "m2", None), ("main:1:2", "m3", None)], 0) == 1
    slots = {s.slot: s for s in tstore.get_slots(db, row.id)}
    assert (slots["main:1:1"].match_id, slots["main:1:1"].table_number) == ("m1", 1)
    assert (slots["main:1:2"].match_id, slots["main:1:2"].table_number) == ("m3", 2)


def test_a_result_is_recorded_once_and_audited(db):
    row = new(db)
    result = {"kind": "played", "winner": 0, "tentos": [15, 3], "games": [1, 0], "confirmed": []}
    assert tstore.record_result(db, row.id, "main:1:1", result, "table 1")
    assert not tstore.record_result(db, row.id, "main:1:1", {**result, "winner": 1}, "table 1")
    assert tstore.get_slots(db, row.id)[0].result == result
    last = tstore.get_audit(db, row.id)[-1]
    assert (last["who"], last["kind"], last["slot"], last["before"], last["after"]) == (
        "table 1", "result", "main:1:1", None, result)
    assert tstore.get_tournament(db, row.id).version == 1


def test_reopen_is_guarded_by_the_version(db):
    row = new(db)
    result = {"kind": "walkover", "winner": 0, "tentos": [0, 0], "games": [0, 0], "confirmed": [0, 1]}
    tstore.record_result(db, row.id, "main:1:1", result, "organizer")
    assert not tstore.reopen(db, row.id, "main:1:1", [], 0, "organizer", result, None)  # stale version
    assert tstore.reopen(db, row.id, "main:1:1", ["main:2:1"], 1, "organizer", result, "1-5")
    slot = tstore.get_slots(db, row.id)[0]
    assert slot.result is None and slot.hold == "1-5"


def test_a_request_that_looked_before_a_reopening_changes_nothing(db):
    row = new(db)
    result = {"kind": "walkover", "winner": 0, "tentos": [0, 0], "games": [0, 0], "confirmed": [0, 1]}
    tstore.record_result(db, row.id, "main:1:1", result, "organizer")
    seen = tstore.get_tournament(db, row.id)
    assert tstore.reopen(db, row.id, "main:1:1", ["main:2:1"], seen.version, "organizer", result, None)
    assert tstore.claim_slots(db, row.id, [("main:2:1", "late", None)], seen.epoch) == -1
    assert not tstore.record_result(db, row.id, "main:1:2", result, "table 2", epoch=seen.epoch)
    assert all(s.match_id is None and s.result is None for s in tstore.get_slots(db, row.id))


def test_a_result_is_recorded_only_from_the_games_as_they_still_are(db):
    """Issue 19: the series' marks read with the games are compared again in the write."""
    row = new(db)
    match = store.create_match(db, variant="truco-15", options={}, names=["A", "D"], mano=0)
    tstore.claim_slots(db, row.id, [("main:1:1", match.id, None)], 0)
    assert tstore.series_lock(db, match.series) == (row.id, "main:1:1", False)
    assert tstore.series_lock(db, "no such series") is None
    store.append_action(db, match.id, 0, {"type": "adjust", "side": 0, "delta": 15}, score=(15, 0), winner=0)
    games, marks = tstore.read_series(db, match.series)
    assert games == [((15, 0), 0, 1)] and marks == f"{match.id}:1:"
    store.append_action(db, match.id, 1, {"type": "undo"}, score=(0, 0), winner=None)  # the table moved on
    result = {"kind": "played", "winner": 0, "tentos": [15, 0], "games": [1, 0], "confirmed": []}
    assert not tstore.record_result(db, row.id, "main:1:1", result, "table 1", series=(match.series, marks))
    assert tstore.get_slots(db, row.id)[0].result is None and tstore.get_tournament(db, row.id).version == 1
    _games, now = tstore.read_series(db, match.series)
    assert tstore.record_result(db, row.id, "main:1:1", result, "table 1", series=(match.series, now))
    assert tstore.series_lock(db, match.series) == (row.id, "main:1:1", True)


@pytest.fixture
def any_db(migrated_db_url):
    conn = store.connect(migrated_db_url)
    yield conn
    conn.close()


def test_a_round_of_matches_is_stored_in_one_batch_and_read_back_in_one(any_db):
    """issue 31: a 64-team round robin's 2,016 tables are inserted together, linked together, and
    every game (with its actions, up to its version) is read back in a few statements."""
    t = new(any_db, slots=[f"league:1:{n}" for n in range(1, 601)])
    specs = [{"variant": "truco-15", "options": {}, "names": [f"A{n}", f"B{n}"], "mano": 0, "edit_key": f"key-{n}"}
             for n in range(600)]
    ids = store.create_matches(any_db, specs)
    assert len(set(ids)) == 600
    assert tstore.claim_slots(any_db, t.id, [(f"league:1:{n + 1}", i, n + 1) for n, i in enumerate(ids)], 0) == 600
    assert tstore.claim_slots(any_db, t.id, [("league:1:1", ids[1], 1)], 0) == 0  # linked already: left alone
    store.append_action(any_db, ids[7], 0, {"type": "adjust", "side": 0, "delta": 1}, score=(1, 0), winner=None)
    store.append_action(any_db, ids[7], 1, {"type": "adjust", "side": 1, "delta": 2}, score=(1, 2), winner=None)
    games = tstore.tournament_games(any_db, t.id)
    assert [row.id for _slot, row in games] == ids and games[7][0] == "league:1:8"
    assert [row.id for _slot, row in tstore.tournament_games(any_db, t.id, played=True)] == [ids[7]]
    assert tstore.game_versions(any_db, t.id)[7] == ("league:1:8", ids[7], 2)
    actions = store.actions_of(any_db, {ids[7]: 1, ids[8]: 0, **{i: 0 for i in ids[100:]}})
    assert actions[ids[7]] == [{"type": "adjust", "side": 0, "delta": 1}] and actions[ids[8]] == []
    assert store.get_match(any_db, ids[3]).key_hash == store.hash_key("key-3")
