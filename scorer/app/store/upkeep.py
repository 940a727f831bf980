"""What ``truco db`` does to a whole database: list and copy matches between databases, and
prune the idle Revanche series.
"""

from __future__ import annotations

import time

from scorer.app.store.connection import Database, write

#: Columns of ``match`` copied as they are by :func:`copy_match`.
MATCH_COLUMNS = ("id", "edit_key", "series", "variant", "options", "names", "mano", "version", "score0",
                 "score1", "winner", "rematch", "created", "updated", "best_of", "players")


def match_ids(db: Database) -> list[str]:
    """Every stored match id, oldest first."""
    return list(db.execute("SELECT id FROM match ORDER BY created, id").scalars())


def copy_match(source: Database, target: Database, match_id: str) -> bool:
    """Copy one match (its row, key hash, series, players, every action with its
    time) from ``source`` to ``target`` in one transaction, keeping its id. False
    (nothing written) when ``target`` already has a match with that id.

    :raise LookupError: ``source`` has no such match.
    """
    row = source.execute("SELECT * FROM match WHERE id = :id", {"id": match_id}).mappings().first()
    if row is None:
        raise LookupError(match_id)
    actions = source.execute(
        "SELECT seq, body, created FROM action WHERE match_id = :id ORDER BY seq", {"id": match_id}
    ).mappings().all()
    with write(target):
        if target.execute("SELECT 1 FROM match WHERE id = :id", {"id": match_id}).first() is not None:
            return False
        cols = ", ".join(MATCH_COLUMNS)
        marks = ", ".join(":" + c for c in MATCH_COLUMNS)
        target.execute(f"INSERT INTO match ({cols}) VALUES ({marks})", {c: row[c] for c in MATCH_COLUMNS})
        if actions:
            target.execute(
                "INSERT INTO action (match_id, seq, body, created) VALUES (:id, :seq, :body, :created)",
                [{"id": match_id, "seq": a["seq"], "body": a["body"], "created": a["created"]} for a in actions],
            )
    return True


def prune(db: Database, idle_seconds: float, *, dry_run: bool = False, now: float | None = None) -> list[str]:
    """Delete the matches of every Revanche series in which nothing changed for
    ``idle_seconds`` (finished and abandoned alike; a series goes whole, so a tally is
    never cut), with their actions. Returns the ids deleted (or, with ``dry_run``, that
    would be), oldest first.
    """
    cutoff = (time.time() if now is None else now) - idle_seconds
    idle = ("SELECT id FROM match WHERE series IN"
            " (SELECT series FROM match GROUP BY series HAVING MAX(updated) < :cutoff)")
    with write(db):
        ids = list(db.execute(idle + " ORDER BY created, id", {"cutoff": cutoff}).scalars())
        if ids and not dry_run:
            db.execute(f"DELETE FROM action WHERE match_id IN ({idle})", {"cutoff": cutoff})
            db.execute(f"DELETE FROM match WHERE id IN ({idle})", {"cutoff": cutoff})
    return ids
