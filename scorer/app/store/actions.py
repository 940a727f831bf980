"""A match's action list: reading the stored actions and appending one, guarded by the version,
with the key of the tap that made it (recorded once: issue 24)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from sqlalchemy.exc import IntegrityError

from scorer.app.store.connection import Database, write

if TYPE_CHECKING:  # a type only: the store does not import the engine
    from scorer.core.schema import Action


class KnownTap(Exception):
    """The tap's key is already recorded for this match (a repeat): nothing was stored."""


def tap_seq(db: Database, match_id: str, tap_key: str) -> int | None:
    """The action (0-based ``seq``) the tap ``tap_key`` stored on the match, or None for a
    key the match has not recorded."""
    return db.execute("SELECT seq FROM tap WHERE match_id = :id AND tap_key = :k",
                      {"id": match_id, "k": tap_key}).scalar()


def get_actions(db: Database, match_id: str, since: int = 0, until: int | None = None) -> list[Action]:
    """The match's stored actions from index ``since`` on (up to, not including,
    ``until`` when given), oldest first."""
    if until is None:
        rows = db.execute("SELECT body FROM action WHERE match_id = :id AND seq >= :since ORDER BY seq",
                          {"id": match_id, "since": since})
    else:
        rows = db.execute("SELECT body FROM action WHERE match_id = :id AND seq >= :since AND seq < :until"
                          " ORDER BY seq", {"id": match_id, "since": since, "until": until})
    return [json.loads(body) for (body,) in rows]


def actions_of(db: Database, versions: dict[str, int]) -> dict[str, list[Action]]:
    """The stored actions of many matches at once, each up to (not including) its version in
    ``versions`` (match id -> version), oldest first: a few statements for a whole tournament's
    games instead of one per game (issue 31). A match with no actions maps to ``[]``."""
    out: dict[str, list[Action]] = {match_id: [] for match_id in versions}
    ids = [match_id for match_id, version in versions.items() if version > 0]
    for start in range(0, len(ids), CHUNK):
        names = {f"id{i}": match_id for i, match_id in enumerate(ids[start:start + CHUNK])}
        marks = ", ".join(":" + n for n in names)
        for match_id, seq, body in db.execute(
                f"SELECT match_id, seq, body FROM action WHERE match_id IN ({marks}) ORDER BY match_id, seq", names):
            if seq < versions[match_id]:
                out[match_id].append(json.loads(body))
    return out


#: Ids one statement names at most (SQLite's default limit of variables is 32,766; PostgreSQL's 65,535).
CHUNK = 500


def get_action(db: Database, match_id: str, seq: int) -> Action | None:
    """The action stored at index ``seq`` (0-based), or None."""
    body = db.execute(
        "SELECT body FROM action WHERE match_id = :id AND seq = :seq", {"id": match_id, "seq": seq}
    ).scalar()
    return json.loads(body) if body is not None else None


def append_action(
    db: Database,
    match_id: str,
    version: int,
    action: Action,
    *,
    score: tuple[int, int] | list[int],
    winner: int | None,
    no_rematch: bool = False,
    tap_key: str | None = None,
    guard: Callable[[Database], None] | None = None,
) -> bool:
    """Store ``action`` as the match's action number ``version`` and commit.

    Succeeds (True) only if the match is still at ``version`` (and, with
    ``no_rematch``, still has no Revanche); returns False, storing nothing, when
    another action (or the Revanche) got there first, in this process or another. The
    guarded ``UPDATE`` takes the match row's lock, so a concurrent writer waits and
    then finds the version moved; the primary key ``(match_id, seq)`` refuses a second
    action at one place even so. ``score`` and ``winner`` are the state after the
    action, kept on the match row for lists and the Revanche series tally.

    ``tap_key`` (None = none): the key the phone made for this tap, recorded in the same
    transaction (table ``tap``, primary key ``(match_id, tap_key)``), so a tap is stored
    once whatever the number of times it is sent.

    ``guard`` (None = none): called inside the transaction once the guarded ``UPDATE`` holds
    the match row's lock, so what it reads is checked against every writer that changes
    the match (a tournament taking its result, see
    :func:`scorer.app.tournament_service.guard`); whatever it raises refuses the action:
    rolled back, nothing stored, and raised here.

    :raise KnownTap: ``tap_key`` is already recorded for the match; rolled back, nothing stored.
    """
    now = time.time()
    with write(db):
        cur = db.execute(
            "UPDATE match SET version = version + 1, score0 = :s0, score1 = :s1, winner = :winner,"
            " updated = :now WHERE id = :id AND version = :version" + (" AND rematch IS NULL" if no_rematch else ""),
            {"s0": int(score[0]), "s1": int(score[1]), "winner": winner, "now": now, "id": match_id,
             "version": version},
        )
        if cur.rowcount != 1:
            return False  # nothing was written
        if guard is not None:
            guard(db)  # raises to refuse: rolled back by write()
        if tap_key is not None:
            try:
                db.execute("INSERT INTO tap (match_id, tap_key, seq, created) VALUES (:id, :k, :seq, :now)",
                           {"id": match_id, "k": tap_key, "seq": version, "now": now})
            except IntegrityError as e:
                raise KnownTap(tap_key) from e  # rolled back by write()
        db.execute(
            "INSERT INTO action (match_id, seq, body, created) VALUES (:id, :seq, :body, :now)",
            {"id": match_id, "seq": version, "body": json.dumps(action, sort_keys=True), "now": now},
        )
    return True
