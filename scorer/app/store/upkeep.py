"""What ``truco db`` does to a whole database: list and copy matches and tournaments between
databases, and prune the idle Revanche series and tournaments.

A tournament is one unit here: copied whole (its row, slots and audit; the matches its
slots link to are ordinary matches, copied by :func:`copy_match`), and pruned whole, with
its matches, once nothing happened in it or any of its matches for the idle time; until
then none of its matches is pruned.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from scorer.app.store.connection import Database, write

#: Columns of ``match`` copied as they are by :func:`copy_match`.
MATCH_COLUMNS = ("id", "edit_key", "series", "variant", "options", "names", "mano", "version", "score0",
                 "score1", "winner", "rematch", "created", "updated", "best_of", "players",
                 "dropped")


def match_ids(db: Database) -> list[str]:
    """Every stored match id, oldest first."""
    return list(db.execute("SELECT id FROM match ORDER BY created, id").scalars())


def copy_match(source: Database, target: Database, match_id: str) -> bool:
    """Copy one match (its row, key hash, series, players, every action with its
    time, and the keys of the taps recorded on it, so a phone's repeat is still
    recognised on the copy) from ``source`` to ``target`` in one transaction, keeping
    its id. False (nothing written) when ``target`` already has a match with that id.

    :raise LookupError: ``source`` has no such match.
    """
    row = source.execute("SELECT * FROM match WHERE id = :id", {"id": match_id}).mappings().first()
    if row is None:
        raise LookupError(match_id)
    actions = source.execute(
        "SELECT seq, body, created FROM action WHERE match_id = :id ORDER BY seq", {"id": match_id}
    ).mappings().all()
    taps = source.execute("SELECT tap_key, seq, created FROM tap WHERE match_id = :id ORDER BY seq",
                          {"id": match_id}).mappings().all()
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
        if taps:
            target.execute("INSERT INTO tap (match_id, tap_key, seq, created) VALUES (:id, :k, :seq, :created)",
                           [{"id": match_id, "k": t["tap_key"], "seq": t["seq"], "created": t["created"]} for t in taps])
    return True


#: The tables of a tournament, copied row by row as stored (every column: keys, JSON, times).
TOURNAMENT_TABLES = (("tournament", "id", "id"), ("tournament_slot", "tournament_id", "position"),
                     ("tournament_audit", "tournament_id", "seq"), ("tournament_dropped", "tournament_id", "series_id"))
#: The series a tournament's slots play, or played until a reopening dropped them (their matches belong to
#: the tournament).
_TOURNAMENT_SERIES = ("SELECT series_id FROM tournament_slot WHERE series_id IS NOT NULL"
                      " UNION SELECT series_id FROM tournament_dropped")
#: A club's tournaments and series: its history, never pruned (docs/club.md "Export and import").
_CLUB_TOURNAMENTS = "SELECT tournament_id FROM club_tournament"
_CLUB_SERIES = "SELECT series_id FROM club_series"
#: The matches of tournament ``:t`` (its slots' series).
_TOURNAMENT_MATCHES = ("SELECT m.id FROM match m WHERE m.series IN (SELECT series_id FROM tournament_slot"
                       " WHERE tournament_id = :t)")


def tournament_ids(db: Database) -> list[str]:
    """Every stored tournament id, oldest first."""
    return list(db.execute("SELECT id FROM tournament ORDER BY created, id").scalars())


def copy_tournament(source: Database, target: Database, tid: str) -> bool:
    """Copy one tournament from ``source`` to ``target`` in one transaction, keeping its id
    and every column as stored: settings, teams, players, seeds, lots, the organizer's and
    the teams' keys, version and times; its slots with their match links, tables, results
    and holds; its audit. Its matches are copied apart (:func:`copy_match`); copy the
    tournament first, so every match it links to exists by the time the matches are
    copied. False (nothing written) when ``target`` already has a tournament with that id.

    :raise LookupError: ``source`` has no such tournament.
    """
    rows = {table: source.execute(f"SELECT * FROM {table} WHERE {key} = :id ORDER BY {order}",
                                  {"id": tid}).mappings().all()
            for table, key, order in TOURNAMENT_TABLES}
    if not rows["tournament"]:
        raise LookupError(tid)
    with write(target):
        if target.execute("SELECT 1 FROM tournament WHERE id = :id", {"id": tid}).first() is not None:
            return False
        for table, _key, _order in TOURNAMENT_TABLES:
            if rows[table]:
                cols = list(rows[table][0])  # the schema's own column names, the same on both databases
                target.execute(f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({', '.join(':' + c for c in cols)})",
                               [dict(r) for r in rows[table]])
    return True


#: The tables of a club, copied row by row as stored (its kept season tables are not: the target
#: plays each season again at its first read).
CLUB_TABLES = (("club", "id", "id"), ("club_player", "club_id", "player"), ("club_season", "club_id", "season"),
               ("club_series", "club_id", "series_id"), ("club_tournament", "club_id", "tournament_id"),
               ("club_game", "club_id", "match_id"))


def club_ids(db: Database) -> list[str]:
    """Every stored club id, oldest first."""
    return list(db.execute("SELECT id FROM club ORDER BY created, id").scalars())


def copy_club(source: Database, target: Database, cid: str) -> bool:
    """Copy one club from ``source`` to ``target`` in one transaction, keeping its id and every
    column as stored (the organizer key's hash, players, seasons, the series and tournaments that
    belong to it, its finished games' facts). Its matches and tournaments are copied apart. False
    (nothing written) when ``target`` already has a club with that id.

    :raise LookupError: ``source`` has no such club.
    """
    rows = {table: source.execute(f"SELECT * FROM {table} WHERE {key} = :id ORDER BY {order}",
                                  {"id": cid}).mappings().all()
            for table, key, order in CLUB_TABLES}
    if not rows["club"]:
        raise LookupError(cid)
    with write(target):
        if target.execute("SELECT 1 FROM club WHERE id = :id", {"id": cid}).first() is not None:
            return False
        for table, _key, _order in CLUB_TABLES:
            if rows[table]:
                cols = list(rows[table][0])
                target.execute(f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({', '.join(':' + c for c in cols)})",
                               [dict(r) for r in rows[table]])
    return True


def unlinked_matches(db: Database, tid: str) -> list[str]:
    """The match ids a tournament's slots link to that ``db`` does not have (none once a
    copy is whole: every table link opens its match)."""
    return list(db.execute(
        "SELECT s.match_id FROM tournament_slot s WHERE s.tournament_id = :t AND s.match_id IS NOT NULL"
        " AND NOT EXISTS (SELECT 1 FROM match m WHERE m.id = s.match_id) ORDER BY s.position", {"t": tid}).scalars())


@dataclass(frozen=True)
class PrunedTournament:
    """A tournament :func:`prune_tournaments` deleted (or would): ``id``, ``name``, and the
    ids of its matches."""

    id: str
    name: str
    matches: tuple[str, ...]


def prune_tournaments(db: Database, idle_seconds: float, *, dry_run: bool = False,
                      now: float | None = None) -> list[PrunedTournament]:
    """Delete every tournament in which nothing happened for ``idle_seconds``: no change
    to the tournament itself (its ``updated``: results, corrections, confirmations, new
    matches) and no action on any of its matches. It goes whole: its row, slots, audit,
    and the matches of its slots' series with their actions and recorded taps. A club's tournament
    stays (its games are the club's history). Returns them (or, with ``dry_run``, those that
    would go), oldest first."""
    cutoff = (time.time() if now is None else now) - idle_seconds
    idle = ("SELECT t.id FROM tournament t WHERE t.updated < :cutoff AND NOT EXISTS (SELECT 1 FROM tournament_slot s"
            " JOIN match m ON m.series = s.series_id WHERE s.tournament_id = t.id AND m.updated >= :cutoff)"
            f" AND t.id NOT IN ({_CLUB_TOURNAMENTS})")
    out: list[PrunedTournament] = []
    with write(db):
        for tid, name in db.execute(f"SELECT id, name FROM tournament WHERE id IN ({idle}) ORDER BY created, id",
                                    {"cutoff": cutoff}).all():
            ids = tuple(db.execute(_TOURNAMENT_MATCHES + " ORDER BY m.created, m.id", {"t": tid}).scalars())
            out.append(PrunedTournament(tid, name, ids))
            if not dry_run:
                for statement in ("DELETE FROM action WHERE match_id IN ({m})", "DELETE FROM tap WHERE match_id IN ({m})",
                                  "DELETE FROM match_stats WHERE match_id IN ({m})",
                                  "DELETE FROM match WHERE id IN ({m})",
                                  "DELETE FROM tournament_audit WHERE tournament_id = :t",
                                  "DELETE FROM tournament_slot WHERE tournament_id = :t",
                                  "DELETE FROM tournament_dropped WHERE tournament_id = :t",
                                  "DELETE FROM tournament WHERE id = :t"):
                    db.execute(statement.format(m=_TOURNAMENT_MATCHES), {"t": tid})
    return out


def prune(db: Database, idle_seconds: float, *, dry_run: bool = False, now: float | None = None) -> list[str]:
    """Delete the matches of every Revanche series in which nothing changed for
    ``idle_seconds`` (finished and abandoned alike; a series goes whole, so a tally is
    never cut), with their actions and recorded taps, except a tournament's (:func:`prune_tournaments`
    deletes those with their tournament) and a club's (its history: kept). Returns the ids deleted (or, with ``dry_run``,
    that would be), oldest first.
    """
    cutoff = (time.time() if now is None else now) - idle_seconds
    idle = ("SELECT id FROM match WHERE series IN"
            " (SELECT series FROM match GROUP BY series HAVING MAX(updated) < :cutoff)"
            f" AND series NOT IN ({_TOURNAMENT_SERIES}) AND series NOT IN ({_CLUB_SERIES})")
    with write(db):
        ids = list(db.execute(idle + " ORDER BY created, id", {"cutoff": cutoff}).scalars())
        if ids and not dry_run:
            db.execute(f"DELETE FROM action WHERE match_id IN ({idle})", {"cutoff": cutoff})
            db.execute(f"DELETE FROM tap WHERE match_id IN ({idle})", {"cutoff": cutoff})
            db.execute(f"DELETE FROM match_stats WHERE match_id IN ({idle})", {"cutoff": cutoff})
            db.execute(f"DELETE FROM match WHERE id IN ({idle})", {"cutoff": cutoff})
    return ids
