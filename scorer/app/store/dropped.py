"""The SQL of the matches a tournament dropped (issue 32): a reopening takes the later slots'
series out of the tournament (:func:`scorer.app.store.tournaments.reopen`); each keeps a row
here with what its slot had (teams, table, result), and its games carry ``match.dropped``, the
mark their boards' polls and the tournament's guard read.

A row is ``kept`` until its slot gets another match: while it is, the match comes back as it
was if the reopened match ends with the same teams in that slot
(:func:`scorer.app.store.tournaments.restore`). The functions here run inside the caller's write
transaction (they never open one), except the reads. The table comes from migration 9
(:data:`scorer.app.store.migrations.DROPPED_TABLE`). Portable SQL; no Flask, no engine.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from scorer.app.store.connection import Database

if TYPE_CHECKING:  # a type only: no engine
    from scorer.core.tournament.model import ResultJSON


@dataclass(frozen=True)
class DroppedRow:
    """One dropped series: its ``tournament_id``, ``series_id`` (its first game's id), the
    ``slot`` it played, the slot's ``teams`` then (team indexes, sides 0 and 1), its
    ``table_number`` and ``result`` (JSON form of :class:`scorer.core.tournament.Result`, or
    None), and ``kept`` (the slot has no other match yet: it may come back)."""

    tournament_id: str
    series_id: str
    slot: str
    teams: tuple[int | None, int | None]
    table_number: int | None
    result: ResultJSON | None
    kept: bool


def _dropped(r) -> DroppedRow:
    teams = json.loads(r["teams"])
    return DroppedRow(r["tournament_id"], r["series_id"], r["slot"], (teams[0], teams[1]), r["table_number"],
                      json.loads(r["result"]) if r["result"] else None, bool(r["kept"]))


def drop(db: Database, tid: str, slot: str, series_id: str, teams: Sequence[int | None], table: int | None,
         result: ResultJSON | None) -> None:
    """Record that ``series_id`` no longer plays ``slot`` and mark its games (inside the
    caller's write transaction)."""
    db.execute("DELETE FROM tournament_dropped WHERE tournament_id = :t AND series_id = :s",
               {"t": tid, "s": series_id})
    db.execute("INSERT INTO tournament_dropped (tournament_id, series_id, slot, teams, table_number, result, kept, at)"
               " VALUES (:t, :s, :slot, :teams, :n, :r, 1, :at)",
               {"t": tid, "s": series_id, "slot": slot, "teams": json.dumps(list(teams)), "n": table,
                "r": json.dumps(result, sort_keys=True) if result is not None else None, "at": time.time()})
    db.execute("UPDATE match SET dropped = 1 WHERE series = :s", {"s": series_id})


def replaced(db: Database, tid: str, slot: str) -> None:
    """``slot`` has another match now: its dropped series will not come back (inside the
    caller's write transaction)."""
    db.execute("UPDATE tournament_dropped SET kept = 0 WHERE tournament_id = :t AND slot = :slot AND kept = 1",
               {"t": tid, "slot": slot})


def forget(db: Database, tid: str, series_id: str) -> None:
    """``series_id`` plays its slot again: no longer dropped (inside the caller's write transaction)."""
    db.execute("DELETE FROM tournament_dropped WHERE tournament_id = :t AND series_id = :s",
               {"t": tid, "s": series_id})
    db.execute("UPDATE match SET dropped = 0 WHERE series = :s", {"s": series_id})


def kept(db: Database, tid: str) -> list[DroppedRow]:
    """The tournament's dropped series that may still come back, newest first."""
    return [_dropped(r) for r in db.execute(
        "SELECT * FROM tournament_dropped WHERE tournament_id = :t AND kept = 1 ORDER BY at DESC", {"t": tid})]


def of_series(db: Database, series_id: str) -> DroppedRow | None:
    """The dropped row of ``series_id``, or None (it plays a slot, or never played one)."""
    r = db.execute("SELECT * FROM tournament_dropped WHERE series_id = :s", {"s": series_id}).fetchone()
    return _dropped(r) if r else None
