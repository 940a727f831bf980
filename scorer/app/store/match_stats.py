"""Each game's statistics as last counted, kept by version (issue 31): the ``match_stats``
table of migration 11 (:data:`scorer.app.store.migrations.MATCH_STATS_TABLE`). The text is the
application's (:mod:`scorer.app.stats_service`); this module only stores and reads it, in a few
statements for a whole tournament's games. Portable SQL, SQLite and PostgreSQL alike."""

from __future__ import annotations

from scorer.app.store.actions import CHUNK
from scorer.app.store.connection import Database, write


def kept_sides(db: Database, versions: dict[str, int]) -> dict[str, str]:
    """The kept text of each match of ``versions`` (match id -> version) whose numbers were
    counted at that very version; a match kept at another version, or not kept, is left out."""
    out: dict[str, str] = {}
    ids = list(versions)
    for start in range(0, len(ids), CHUNK):
        names = {f"id{i}": match_id for i, match_id in enumerate(ids[start:start + CHUNK])}
        marks = ", ".join(":" + n for n in names)
        for match_id, version, sides in db.execute(
                f"SELECT match_id, version, sides FROM match_stats WHERE match_id IN ({marks})", names):
            if versions[match_id] == version:
                out[match_id] = sides
    return out


def keep_sides(db: Database, rows: list[tuple[str, int, str]]) -> None:
    """Keep ``(match id, version, text)`` for each game, in one transaction; a game already kept
    at a later version keeps that one (two processes may count the same game at once)."""
    if not rows:
        return
    with write(db):
        db.execute(
            "INSERT INTO match_stats (match_id, version, sides) VALUES (:m, :v, :s) ON CONFLICT (match_id)"
            " DO UPDATE SET version = excluded.version, sides = excluded.sides"
            " WHERE excluded.version > match_stats.version",
            [{"m": match_id, "v": version, "s": sides} for match_id, version, sides in rows])
