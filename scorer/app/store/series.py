"""Revanche series: the Revanche of a finished match (created once) and a series' tally."""

from __future__ import annotations

import json
from collections.abc import Callable

from scorer.app.store.connection import Database, write
from scorer.app.store.matches import MatchRow, _insert_match, _players, get_match
from scorer.core.errors import N_, RuleError


def create_rematch(db: Database, match_id: str, *, new_series: bool = False,
                   guard: Callable[[Database], None] | None = None) -> MatchRow | None:
    """The Revanche of a match: same settings, same series, same edit key, created once.

    The first call creates it and links it from the old match; later calls (another
    phone, a double tap) return that same one. None if ``match_id`` does not exist.
    ``new_series`` (the old series is decided): the Revanche starts a series of its own,
    of the same length. The winner is checked again by the guarded update that links
    it (as an append checks the version), so a phone that still shows the game over cannot start it after
    another phone's Undo. The Revanche keeps the match's edit key (its hash): every
    phone that could record the game can record the Revanche.

    ``guard`` (None = none): called inside the transaction once the guarded update that
    links a new Revanche holds the old match row's lock (as :func:`append_action`'s);
    whatever it raises refuses the Revanche (nothing stored) and is raised here.

    :raise RuleError: ``game_not_over``, the match has no winner (nothing stored).
    """
    for _attempt in range(3):
        try:
            with write(db):
                old = db.execute("SELECT * FROM match WHERE id = :id", {"id": match_id}).mappings().first()
                if old is None:
                    return None
                new = old["rematch"]
                if new is None and old["winner"] is None:  # rolled back by write()
                    raise RuleError("game_not_over", N_("The game is not over: the Revanche starts once a side has won."))
                if new is None:
                    new = _insert_match(
                        db, old["variant"], json.loads(old["options"]), json.loads(old["names"]),
                        old["mano"], None if new_series else old["series"], old["best_of"],
                        _players(old["players"]), old["edit_key"],
                    )
                    # Guarded like an append: on PostgreSQL another process may have
                    # undone the last action (or started the Revanche) since the read.
                    linked = db.execute(
                        "UPDATE match SET rematch = :new WHERE id = :id AND rematch IS NULL AND winner IS NOT NULL",
                        {"new": new, "id": match_id},
                    )
                    if linked.rowcount != 1:
                        raise _Moved
                    if guard is not None:
                        guard(db)  # raises to refuse: rolled back by write()
        except _Moved:
            continue  # rolled back; read again
        break
    return get_match(db, new)


class _Moved(Exception):
    """The match changed between a write transaction's read and its guarded update."""


def series_tally(db: Database, series: str) -> tuple[int, int]:
    """Games won by side 0 and by side 1 over every match of a Revanche series."""
    r = db.execute(
        "SELECT COALESCE(SUM(CASE WHEN winner = 0 THEN 1 ELSE 0 END), 0),"
        " COALESCE(SUM(CASE WHEN winner = 1 THEN 1 ELSE 0 END), 0) FROM match WHERE series = :series",
        {"series": series},
    ).one()
    return (int(r[0]), int(r[1]))


def series_games(db: Database, series: str) -> int:
    """How many matches (games, chicos) a Revanche series has started so far."""
    return db.execute("SELECT COUNT(*) FROM match WHERE series = :series", {"series": series}).scalar_one()
