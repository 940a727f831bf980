"""All of the tournaments' SQL: tournaments, their slots (matches) and their audit log.

Portable SQL on purpose (``TEXT``/``INTEGER``/``REAL`` columns, ``:name`` parameters, no
SQLite-only syntax), so the store can also run on PostgreSQL. The tables come from
migration 5 of :data:`scorer.app.store.MIGRATIONS`
(:data:`scorer.app.store.migrations.TOURNAMENT_TABLES`).

A tournament row holds the settings, teams, seed order and drawn lots (JSON) and a
``version`` bumped by every change, which the TV page polls. A slot row links one slot
of the layout (:mod:`scorer.core.tournament`) to the ordinary match playing it
(``match_id``, the first game; ``series_id``, the Revanche series its later games join)
and keeps its result once decided. Writes are guarded (``... IS NULL``), so two
requests advancing one tournament at once never create or record a slot twice.

This module imports neither Flask nor the engine.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypedDict

from scorer.app.store import dropped
from scorer.app.store.connection import Database, write
from scorer.app.store.matches import MatchRow, row_of
from scorer.app.store.tournament_series import (read_series, series_games, series_guard, series_lock,  # noqa: F401 - the store's API
                                                series_match_ids, slot_of_series, version_of_series)

if TYPE_CHECKING:  # types only: the engine is not imported
    from scorer.core.schema import Options
    from scorer.core.tournament.model import ResultJSON


@dataclass(frozen=True)
class TournamentRow:
    """One stored tournament: ``settings`` (JSON form of :class:`scorer.core.tournament.Settings`),
    ``teams`` names (entry order), ``players`` per team (lists, maybe empty), ``seeds`` team
    indexes in seed order, ``lots`` drawn numbers by team, ``organizer_hash`` and
    ``team_hashes`` the hashes of the organizer's key and of each team's confirmation key
    (:mod:`scorer.app.tournament_keys`; never a key), ``version`` bumped by every change, ``epoch`` by every reopening (a
    request that looked before a reopening may no longer link matches or record results)."""

    id: str
    organizer_hash: str
    name: str
    variant: str
    options: Options
    settings: dict[str, Any]
    teams: tuple[str, ...]
    players: tuple[tuple[str, ...], ...]
    seeds: tuple[int, ...]
    lots: dict[int, int]
    team_hashes: tuple[str, ...]
    version: int
    created: float
    updated: float
    epoch: int = 0


@dataclass(frozen=True)
class SlotRow:
    """One slot's link to its match: ``match_id`` (first game), ``series_id``,
    ``table_number`` and ``result`` (JSON form of :class:`scorer.core.tournament.Result`, or None)."""

    slot: str
    position: int
    match_id: str | None
    series_id: str | None
    table_number: int | None
    result: ResultJSON | None
    hold: str | None = None


@dataclass(frozen=True)
class LiveGame:
    """The latest game of a slot's series: its id, version, score and winner (for the TV),
    and ``games`` won per side over the whole series so far."""

    slot: str
    match_id: str
    version: int
    score: tuple[int, int]
    winner: int | None
    games: tuple[int, int] = (0, 0)


def _tournament(r) -> TournamentRow:
    return TournamentRow(
        id=r["id"], organizer_hash=r["organizer_key"], name=r["name"], variant=r["variant"],
        options=json.loads(r["options"]), settings=json.loads(r["settings"]),
        teams=tuple(json.loads(r["teams"])),
        players=tuple(tuple(p) for p in json.loads(r["players"] or "[]")),
        seeds=tuple(json.loads(r["seeds"])),
        lots={int(k): v for k, v in json.loads(r["lots"]).items()},
        team_hashes=tuple(json.loads(r["team_keys"])),
        version=r["version"], created=r["created"], updated=r["updated"], epoch=r["epoch"],
    )


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def create_tournament(db: Database, *, tid: str, organizer_hash: str, team_hashes: list[str], name: str,
                      variant: str, options: Options, settings: dict[str, Any], teams: list[str],
                      players: list[list[str]], seeds: list[int], slots: list[str],
                      audit: list[tuple[str, str, Any]]) -> TournamentRow:
    """Store a new tournament ``tid`` (from :func:`scorer.app.store.new_id`) with the
    hashes of its keys, its ``slots`` (ids, layout order) and first audit entries
    (``(who, kind, after)``), all or nothing; return it."""
    now = time.time()
    with write(db):
        db.execute(
            "INSERT INTO tournament (id, organizer_key, name, variant, options, settings, teams, players,"
            " seeds, lots, team_keys, version, created, updated) VALUES (:id, :key, :name, :variant, :options,"
            " :settings, :teams, :players, :seeds, :lots, :team_keys, 0, :now, :now)",
            {"id": tid, "key": organizer_hash, "name": name, "variant": variant, "options": _dumps(options),
             "settings": _dumps(settings), "teams": _dumps(teams), "players": _dumps(players),
             "seeds": _dumps(seeds), "lots": "{}",
             "team_keys": _dumps(team_hashes), "now": now},
        )
        db.executemany(
            "INSERT INTO tournament_slot (tournament_id, slot, position) VALUES (:t, :slot, :position)",
            [{"t": tid, "slot": s, "position": i} for i, s in enumerate(slots)],
        )
        for who, kind, after in audit:
            _audit(db, tid, who, kind, None, None, after, now)
    created = get_tournament(db, tid)
    assert created is not None  # stored just above
    return created


def get_tournament(db: Database, tid: str) -> TournamentRow | None:
    """The tournament ``tid``, or None."""
    r = db.execute("SELECT * FROM tournament WHERE id = :id", {"id": tid}).fetchone()
    return _tournament(r) if r else None


def get_slots(db: Database, tid: str) -> list[SlotRow]:
    """The tournament's slots in layout order (columns named, rows unpacked as tuples: a 64-team
    round robin has 2,016 and every heavy read that computes loads them)."""
    return [SlotRow(slot, position, match_id, series_id, table, json.loads(result) if result else None, hold)
            for slot, position, match_id, series_id, table, result, hold in db.execute(
                "SELECT slot, position, match_id, series_id, table_number, result, hold FROM tournament_slot"
                " WHERE tournament_id = :t ORDER BY position", {"t": tid})]


def tournament_games(db: Database, tid: str, *, played: bool = False) -> list[tuple[str, MatchRow]]:
    """Every game of every slot series of the tournament in one statement: ``(slot id,
    match row)`` each, slot by slot in layout order, each series' games oldest first (the
    summary of a 64-team round robin reads 2,016 games: issue 31). ``played``: only the games
    with at least one action."""
    rows = db.execute(
        "SELECT s.slot AS slot_id, m.* FROM tournament_slot s JOIN match m ON m.series = s.series_id"
        " WHERE s.tournament_id = :t" + (" AND m.version > 0" if played else "")
        + " ORDER BY s.position, m.created, m.id", {"t": tid}).mappings()
    return [(r["slot_id"], row_of(r)) for r in rows]


def game_versions(db: Database, tid: str) -> list[tuple[str, str, int]]:
    """Every game of every slot series of the tournament as ``(slot id, match id,
    version)``, in :func:`tournament_games`' order: one statement of plain tuples (what a
    tournament's statistics need to find each game's kept numbers: issue 31)."""
    return [(slot, match_id, version) for slot, match_id, version in db.execute(
        "SELECT s.slot, m.id, m.version FROM tournament_slot s JOIN match m ON m.series = s.series_id"
        " WHERE s.tournament_id = :t ORDER BY s.position, m.created, m.id", {"t": tid})]


def slots_with_finished_games(db: Database, tid: str) -> set[str]:
    """Slots without a result whose series has at least one finished game (the only ones
    whose result may be ready to record), in one query."""
    return {r["slot"] for r in db.execute(
        "SELECT DISTINCT s.slot FROM tournament_slot s JOIN match m ON m.series = s.series_id"
        " WHERE s.tournament_id = :t AND s.result IS NULL AND m.winner IS NOT NULL", {"t": tid})}


def live_games(db: Database, tid: str) -> dict[str, LiveGame]:
    """The latest game of every slot that has a match, by slot id (one query)."""
    out: dict[str, LiveGame] = {}
    games: dict[str, list[int]] = {}
    for slot, match_id, version, score0, score1, winner, _created in db.execute(
        "SELECT s.slot, m.id, m.version, m.score0, m.score1, m.winner, m.created FROM tournament_slot s"
        " JOIN match m ON m.series = s.series_id WHERE s.tournament_id = :t ORDER BY m.created",
        {"t": tid},
    ):
        won = games.setdefault(slot, [0, 0])
        if winner in (0, 1):
            won[winner] += 1
        out[slot] = LiveGame(slot, match_id, version, (score0, score1), winner, (won[0], won[1]))
    return out


def stamp(db: Database, tid: str) -> str | None:
    """A short text that changes whenever the tournament or any of its games changes
    (the TV page's poll compares it); None if there is no such tournament."""
    # One pass over the tournament's games (a 64-team round robin has 2,016): every kept heavy
    # read and every TV poll reads it first (scorer/web/hosting/read_cache.py).
    r = db.execute(
        "SELECT t.version AS v, COALESCE(SUM(m.version), 0) AS g, COUNT(m.id) AS n FROM tournament t"
        " LEFT JOIN tournament_slot s ON s.tournament_id = t.id LEFT JOIN match m ON m.series = s.series_id"
        " WHERE t.id = :t GROUP BY t.version",
        {"t": tid},
    ).fetchone()
    return f"{r['v']}-{r['g']}-{r['n']}" if r else None


def claim_slots(db: Database, tid: str, claims: list[tuple[str, str, int | None]], epoch: int) -> int:
    """Link slots to their new matches, ``(slot, match id, table number)`` each, in one
    transaction; a table number None gets the lowest one free among the undecided
    slots. A slot another request linked first is left as it is (its match stays
    unused). Returns how many slots were linked, or -1 (nothing linked) if the
    tournament was reopened since ``epoch``: the caller looks again."""
    linked = 0
    with write(db):
        _lock(db, tid)
        if _epoch(db, tid) != epoch:
            return -1
        used = {r["table_number"] for r in db.execute(
            "SELECT table_number FROM tournament_slot WHERE tournament_id = :t AND match_id IS NOT NULL"
            " AND result IS NULL AND table_number IS NOT NULL", {"t": tid})}
        # The slots still unlinked, read once under the tournament's lock (every writer of its
        # slots takes it first), then every link in one batch: a 64-team round robin links
        # 2,016 at its creation (issue 31).
        free = {r["slot"] for r in db.execute(
            "SELECT slot FROM tournament_slot WHERE tournament_id = :t AND match_id IS NULL", {"t": tid})}
        links, taken = [], []
        for slot, match_id, table in claims:
            if slot not in free:
                continue
            if table is None:
                table = next(n for n in range(1, len(used) + 2) if n not in used)
            free.discard(slot)
            used.add(table)
            links.append({"m": match_id, "n": table, "t": tid, "slot": slot})
            taken.append(slot)
        if links:
            db.execute("UPDATE tournament_slot SET match_id = :m, series_id = :m, table_number = :n"
                       " WHERE tournament_id = :t AND slot = :slot AND match_id IS NULL", links)
            linked = len(links)
            if epoch:  # reopened at least once: a match it dropped earlier will not come back
                for slot in taken:
                    dropped.replaced(db, tid, slot)
            _bump(db, tid)
    return linked


def record_result(db: Database, tid: str, slot: str, result: ResultJSON, who: str,
                  kind: str = "result", epoch: int | None = None, series: tuple[str, str] | None = None) -> bool:
    """Store the first result of a slot and audit it; False (nothing stored) if it already
    had one, if ``epoch`` is given and the tournament was reopened since, or if ``series``
    (``(series id, marks)`` as :func:`read_series` gave them with the games the result
    was read from) is given and any game of the series changed since.

    The series is read again under lock in this transaction, before the slot is written:
    a table's Undo either committed first (its new version is seen: nothing recorded) or
    waits for this commit, then finds the result taken and is refused
    (:func:`scorer.app.tournament_service.guard`, run inside the Undo's write)."""
    with write(db):
        _lock(db, tid)
        if epoch is not None and _epoch(db, tid) != epoch:
            return False
        if series is not None and read_series(db, series[0], lock=True)[1] != series[1]:
            return False
        cur = db.execute(
            "UPDATE tournament_slot SET result = :r, hold = NULL WHERE tournament_id = :t AND slot = :slot"
            " AND result IS NULL",
            {"r": _dumps(result), "t": tid, "slot": slot},
        )
        if cur.rowcount != 1:
            return False
        _audit(db, tid, who, kind, slot, None, result)
        _bump(db, tid)
    return True


def update_result(db: Database, tid: str, slot: str, before: ResultJSON | None,
                  after: ResultJSON | None, who: str, kind: str) -> bool:
    """Replace a slot's result (``before`` must still be the stored one), audited; False
    (nothing changed) if it no longer is."""
    with write(db):
        _lock(db, tid)
        r = db.execute("SELECT result FROM tournament_slot WHERE tournament_id = :t AND slot = :slot",
                       {"t": tid, "slot": slot}).fetchone()
        if r is None or (json.loads(r["result"]) if r["result"] else None) != before:
            return False
        db.execute("UPDATE tournament_slot SET result = :r WHERE tournament_id = :t AND slot = :slot",
                   {"r": _dumps(after) if after is not None else None, "t": tid, "slot": slot})
        _audit(db, tid, who, kind, slot, before, after)
        _bump(db, tid)
    return True


def reopen(db: Database, tid: str, slot: str, undone: list[str], version: int, who: str,
           before: ResultJSON | None, hold: str | None,
           teams: dict[str, tuple[int | None, int | None]] | None = None) -> bool:
    """Reopen ``slot`` (its result cleared, its match kept and held at ``hold``, the
    series' stamp: its finished state is not read again until the table changes it) and void the ``undone``
    dependent slots (result and match link cleared; their matches stay in the database,
    outside the tournament, each dropped with its slot's ``teams`` then, table and result:
    :func:`scorer.app.store.dropped.drop`), in one transaction, audited. Guarded by the tournament's
    ``version``: False, nothing changed, if anything changed since the caller looked."""
    with write(db):
        _lock(db, tid)
        cur = db.execute("UPDATE tournament SET version = version + 1, epoch = epoch + 1, updated = :now"
                         " WHERE id = :t AND version = :v", {"now": time.time(), "t": tid, "v": version})
        if cur.rowcount != 1:
            return False
        db.execute("UPDATE tournament_slot SET result = NULL, hold = :hold WHERE tournament_id = :t AND slot = :slot",
                   {"t": tid, "slot": slot, "hold": hold})
        for d in undone:
            had = db.execute("SELECT series_id, table_number, result FROM tournament_slot WHERE tournament_id = :t"
                             " AND slot = :slot", {"t": tid, "slot": d}).fetchone()
            if had is not None and had["series_id"]:
                dropped.drop(db, tid, d, had["series_id"], (teams or {}).get(d, (None, None)), had["table_number"],
                             json.loads(had["result"]) if had["result"] else None)
            db.execute(
                "UPDATE tournament_slot SET result = NULL, match_id = NULL, series_id = NULL, table_number = NULL,"
                " hold = NULL"
                " WHERE tournament_id = :t AND slot = :slot", {"t": tid, "slot": d})
        _audit(db, tid, who, "reopen", slot, {"result": before}, {"undone": undone})
    return True


def restore(db: Database, tid: str, row: dropped.DroppedRow, table: int | None, epoch: int,
            who: str) -> bool:
    """Put the dropped series ``row`` back on its slot, as it was (its match, ``table`` and
    result; issue 32), audited: the reopened match ended with the same teams in that slot.
    False (nothing changed) if the slot has a match or a result meanwhile, or the tournament
    was reopened since ``epoch``."""
    with write(db):
        _lock(db, tid)
        if _epoch(db, tid) != epoch:
            return False
        cur = db.execute(
            "UPDATE tournament_slot SET match_id = :m, series_id = :m, table_number = :n, result = :r, hold = NULL"
            " WHERE tournament_id = :t AND slot = :slot AND match_id IS NULL AND result IS NULL",
            {"m": row.series_id, "n": table, "r": _dumps(row.result) if row.result is not None else None,
             "t": tid, "slot": row.slot})
        if cur.rowcount != 1:
            return False
        dropped.forget(db, tid, row.series_id)
        _audit(db, tid, who, "restore", row.slot, None, row.result)
        _bump(db, tid)
    return True


def rename_team(db: Database, tid: str, team: int, name: str, who: str) -> list[str]:
    """Rename team ``team`` (index), audited; returns the match ids whose side names the
    caller should update too (every game of every slot series)."""
    with write(db):
        _lock(db, tid)
        row = get_tournament(db, tid)
        assert row is not None  # the caller's tournament, locked above
        teams = list(row.teams)
        before, teams[team] = teams[team], name
        db.execute("UPDATE tournament SET teams = :teams WHERE id = :t", {"teams": _dumps(teams), "t": tid})
        _audit(db, tid, who, "rename", None, {"team": team, "name": before}, {"team": team, "name": name})
        _bump(db, tid)
    return [r["id"] for r in db.execute(
        "SELECT m.id FROM tournament_slot s JOIN match m ON m.series = s.series_id WHERE s.tournament_id = :t",
        {"t": tid})]


def set_lots(db: Database, tid: str, drawn: dict[int, int], who: str, group: list[int]) -> None:
    """Add drawn lots (team -> number) for a tie that needed them, audited (teams that
    already have a lot keep it)."""
    with write(db):
        _lock(db, tid)
        row = get_tournament(db, tid)
        assert row is not None  # the caller's tournament, locked above
        lots = dict(row.lots)
        new = {t: n for t, n in drawn.items() if t not in lots}
        if not new:
            return
        lots.update(new)
        db.execute("UPDATE tournament SET lots = :lots WHERE id = :t",
                   {"lots": _dumps({str(k): v for k, v in lots.items()}), "t": tid})
        _audit(db, tid, who, "lots", None, {"tied": group}, {str(k): v for k, v in new.items()})
        _bump(db, tid)


class AuditEntry(TypedDict):
    """One change of a tournament as its audit log keeps it: its ``seq`` (order), when
    (``at``, seconds since the epoch), ``who`` made it, its ``kind``, the ``slot`` it concerns (None for the whole
    tournament), and the values ``before`` and ``after`` (JSON, None where there is none)."""

    seq: int
    at: float
    who: str
    kind: str
    slot: str | None
    before: Any
    after: Any


def get_audit(db: Database, tid: str) -> list[AuditEntry]:
    """The audit log, oldest first."""
    return [
        {"seq": r["seq"], "at": r["at"], "who": r["who"], "kind": r["kind"], "slot": r["slot"],
         "before": json.loads(r["before_value"]) if r["before_value"] else None,
         "after": json.loads(r["after_value"]) if r["after_value"] else None}
        for r in db.execute("SELECT * FROM tournament_audit WHERE tournament_id = :t ORDER BY seq", {"t": tid})
    ]


@contextmanager
def locked(db: Database, tid: str) -> Iterator[TournamentRow | None]:
    """One write transaction that holds the tournament ``tid`` (None if there is none) for
    itself: every other write to that tournament waits until it commits, so what the
    caller reads inside it is still true when it writes (a correction decides on the state
    as it is, and two corrections or confirmations never work from the same old state).
    The writes above join it. SQLite's ``BEGIN IMMEDIATE`` already lets one writer in at a
    time; PostgreSQL locks the tournament's row (``FOR UPDATE``)."""
    with write(db):
        _lock(db, tid)
        yield get_tournament(db, tid)


def _lock(db: Database, tid: str) -> None:
    """Lock the tournament's row for this write transaction (PostgreSQL; SQLite's writers
    already wait for each other). Every write to a tournament takes it first, so writers
    always lock in the same order (tournament, then its slots and audit): no deadlock, and
    the audit's next ``seq`` is read by one writer at a time."""
    if db.dialect != "sqlite":
        db.execute("SELECT id FROM tournament WHERE id = :t FOR UPDATE", {"t": tid})


def _epoch(db: Database, tid: str) -> int:
    """The tournament's ``epoch`` (bumped by every reopening), read inside the caller's write."""
    return db.execute("SELECT epoch FROM tournament WHERE id = :t", {"t": tid}).fetchone()["epoch"]


def _bump(db: Database, tid: str) -> None:
    db.execute("UPDATE tournament SET version = version + 1, updated = :now WHERE id = :t",
               {"now": time.time(), "t": tid})


def _audit(db, tid, who, kind, slot, before, after, now=None) -> None:
    seq = db.execute("SELECT COALESCE(MAX(seq), -1) + 1 AS n FROM tournament_audit WHERE tournament_id = :t",
                     {"t": tid}).fetchone()["n"]
    db.execute(
        "INSERT INTO tournament_audit (tournament_id, seq, at, who, kind, slot, before_value, after_value)"
        " VALUES (:t, :seq, :at, :who, :kind, :slot, :before, :after)",
        {"t": tid, "seq": seq, "at": now or time.time(), "who": who, "kind": kind, "slot": slot,
         "before": None if before is None else _dumps(before), "after": None if after is None else _dumps(after)},
    )
