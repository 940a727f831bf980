"""The Revanche series a tournament's slots play, read by series id (split from
:mod:`scorer.app.store.tournaments`, which re-exports every function here): which tournament and
slot a series plays, its version, whether its slot's result is taken or a reopening dropped it,
and its games. Portable SQL, no Flask."""

from __future__ import annotations

from scorer.app.store.connection import Database


def slot_of_series(db: Database, series_id: str) -> tuple[str, str] | None:
    """``(tournament id, slot id)`` played by the Revanche series ``series_id``, or None
    (:func:`series_lock` without ``taken``)."""
    found = series_lock(db, series_id)
    return (found[0], found[1]) if found else None


def version_of_series(db: Database, series_id: str) -> int | None:
    """The ``version`` of the tournament whose slot the Revanche series ``series_id``
    plays (bumped by every change of the tournament), or None outside any tournament."""
    r = db.execute("SELECT t.version FROM tournament_slot s JOIN tournament t ON t.id = s.tournament_id"
                   " WHERE s.series_id = :s", {"s": series_id}).fetchone()
    return r["version"] if r else None


def series_lock(db: Database, series_id: str) -> tuple[str, str, bool] | None:
    """``(tournament id, slot id, taken)`` of the slot the Revanche series ``series_id``
    plays (``taken``: the slot holds a result, so no table may change the series), or None."""
    r = db.execute("SELECT tournament_id, slot, result FROM tournament_slot WHERE series_id = :s",
                   {"s": series_id}).fetchone()
    return (r["tournament_id"], r["slot"], r["result"] is not None) if r else None


def series_guard(db: Database, series_id: str) -> tuple[bool, bool] | None:
    """``(taken, dropped)`` of the Revanche series ``series_id`` in its tournament, in one
    query: ``taken`` its slot holds a result, ``dropped`` a reopening took it out of its slot
    (:mod:`scorer.app.store.dropped`); None outside any tournament."""
    r = db.execute("SELECT CASE WHEN result IS NULL THEN 0 ELSE 1 END AS taken, 0 AS dropped FROM tournament_slot"
                   " WHERE series_id = :s UNION ALL SELECT 0, 1 FROM tournament_dropped WHERE series_id = :s",
                   {"s": series_id}).fetchall()
    if not r:
        return None
    return any(x["taken"] for x in r), any(x["dropped"] for x in r)


def series_games(db: Database, series_id: str) -> list[tuple[tuple[int, int], int | None, int]]:
    """Every game of a series, oldest first: ``((score0, score1), winner, version)``."""
    return read_series(db, series_id)[0]


def read_series(db: Database, series_id: str, *, lock: bool = False
                ) -> tuple[list[tuple[tuple[int, int], int | None, int]], str]:
    """Every game of a series as :func:`series_games`, and its marks, read in one
    statement: a text of each game's id, version and Revanche link, which any action,
    Undo or Revanche on the series changes (versions only grow, a link is never removed).

    ``lock``: on PostgreSQL the rows are read ``FOR SHARE`` (the caller is inside a write
    transaction): a table's write on any of them waits until the caller commits, and one
    still uncommitted is waited for and then seen. SQLite's write transaction already
    holds the whole database."""
    sql = "SELECT id, score0, score1, winner, version, rematch FROM match WHERE series = :s ORDER BY created, id"
    if lock and db.dialect == "postgresql":
        sql += " FOR SHARE"
    rows = db.execute(sql, {"s": series_id}).fetchall()
    games = [((r["score0"], r["score1"]), r["winner"], r["version"]) for r in rows]
    return games, ";".join(f"{r['id']}:{r['version']}:{r['rematch'] or ''}" for r in rows)


def series_match_ids(db: Database, series_id: str) -> list[str]:
    """The ids of a series' games, oldest first."""
    return [r["id"] for r in db.execute("SELECT id FROM match WHERE series = :s ORDER BY created, id", {"s": series_id})]
