"""All of the clubs' SQL (issue 32; docs/club.md): clubs, their players and seasons, the
Revanche series and tournaments that belong to a club (with the players of each side), and
each finished club game's facts (``club_game``: when it ended, its sides, its winner and the
sides' call statistics), written when the game ends so that a season table reads one row per
game and replays nothing; and the last season table played through, per season (``club_table``,
with the :func:`games_stamp` it was played from), so an unchanged club is not played again.

A ``club_game`` row counts only while its match is still as it was when the row was written
(the same ``winner`` and ``version``): an Undo of the last point leaves the row behind, and
:func:`club_games` drops it by that join; the game's next end writes it again.

Portable SQL (the tables come from migration 12 of :data:`scorer.app.store.MIGRATIONS`). This
module imports neither Flask nor the engine.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from scorer.app.store.connection import Database, write

#: Migration 12: the clubs' tables.
CLUB_TABLES = (
    "CREATE TABLE club ("
    " id TEXT PRIMARY KEY, organizer_key TEXT NOT NULL, name TEXT NOT NULL, created DOUBLE PRECISION NOT NULL);"
    "CREATE TABLE club_player ("
    " club_id TEXT NOT NULL REFERENCES club (id), player INTEGER NOT NULL, name TEXT NOT NULL,"
    " nickname TEXT NOT NULL, PRIMARY KEY (club_id, player));"
    "CREATE TABLE club_season ("
    " club_id TEXT NOT NULL REFERENCES club (id), season INTEGER NOT NULL, name TEXT NOT NULL,"
    " first_night TEXT NOT NULL, last_night TEXT NOT NULL, PRIMARY KEY (club_id, season));"
    "CREATE TABLE club_series ("
    " series_id TEXT PRIMARY KEY, club_id TEXT NOT NULL REFERENCES club (id), sides TEXT NOT NULL);"
    "CREATE INDEX club_series_club ON club_series (club_id);"
    "CREATE TABLE club_tournament ("
    " tournament_id TEXT PRIMARY KEY, club_id TEXT NOT NULL REFERENCES club (id), teams TEXT NOT NULL);"
    "CREATE INDEX club_tournament_club ON club_tournament (club_id);"
    "CREATE TABLE club_game ("
    " match_id TEXT PRIMARY KEY, club_id TEXT NOT NULL REFERENCES club (id), ended DOUBLE PRECISION NOT NULL,"
    " sides TEXT NOT NULL, winner INTEGER NOT NULL, version INTEGER NOT NULL, stats TEXT NOT NULL);"
    "CREATE INDEX club_game_club ON club_game (club_id, ended);"
    "CREATE TABLE club_table ("
    " club_id TEXT NOT NULL REFERENCES club (id), season INTEGER NOT NULL, stamp TEXT NOT NULL,"
    " games_stamp TEXT NOT NULL, through_ended DOUBLE PRECISION, through_match TEXT, season_data TEXT NOT NULL,"
    " PRIMARY KEY (club_id, season))"
)


@dataclass(frozen=True)
class ClubRow:
    """One stored club: ``organizer_hash`` is the hash of its organizer key (never the key)."""

    id: str
    organizer_hash: str
    name: str
    created: float


@dataclass(frozen=True)
class Player:
    """A club's player: ``player`` (its number in the club, from 1), ``name``, ``nickname``."""

    player: int
    name: str
    nickname: str


@dataclass(frozen=True)
class SeasonRow:
    """A season: ``season`` (its number, from 1), ``name``, nights ``first_night`` to
    ``last_night`` (ISO dates, both included)."""

    season: int
    name: str
    first_night: str
    last_night: str


Sides = tuple[tuple[int, ...], tuple[int, ...]]


def _sides(text: str) -> Sides:
    a, b = json.loads(text)
    return (tuple(a), tuple(b))


def create_club(db: Database, *, cid: str, organizer_hash: str, name: str) -> ClubRow:
    """Store a new club with no players."""
    now = time.time()
    with write(db):
        db.execute("INSERT INTO club (id, organizer_key, name, created) VALUES (:id, :k, :n, :t)",
                   {"id": cid, "k": organizer_hash, "n": name, "t": now})
    return ClubRow(cid, organizer_hash, name, now)


def get_club(db: Database, cid: str) -> ClubRow | None:
    """The club ``cid``, or None."""
    r = db.execute("SELECT id, organizer_key, name, created FROM club WHERE id = :id", {"id": cid}).first()
    return ClubRow(r[0], r[1], r[2], r[3]) if r else None


def add_players(db: Database, cid: str, players: list[tuple[str, str]]) -> list[int]:
    """Add ``players`` (name, nickname) to the club, numbered after its last; their numbers."""
    with write(db):
        last = db.execute("SELECT COALESCE(MAX(player), 0) FROM club_player WHERE club_id = :c", {"c": cid}).scalar_one()
        rows = [{"c": cid, "p": last + i, "n": name, "k": nick} for i, (name, nick) in enumerate(players, start=1)]
        if rows:
            db.execute("INSERT INTO club_player (club_id, player, name, nickname) VALUES (:c, :p, :n, :k)", rows)
    return [r["p"] for r in rows]


def get_players(db: Database, cid: str) -> list[Player]:
    """The club's players by number."""
    return [Player(r[0], r[1], r[2]) for r in db.execute(
        "SELECT player, name, nickname FROM club_player WHERE club_id = :c ORDER BY player", {"c": cid})]


def add_season(db: Database, cid: str, name: str, first_night: str, last_night: str) -> int:
    """Add a season; its number."""
    with write(db):
        number = db.execute("SELECT COALESCE(MAX(season), 0) + 1 FROM club_season WHERE club_id = :c",
                            {"c": cid}).scalar_one()
        db.execute("INSERT INTO club_season (club_id, season, name, first_night, last_night)"
                   " VALUES (:c, :s, :n, :f, :l)", {"c": cid, "s": number, "n": name, "f": first_night, "l": last_night})
    return number


def get_seasons(db: Database, cid: str) -> list[SeasonRow]:
    """The club's seasons, oldest first."""
    return [SeasonRow(r[0], r[1], r[2], r[3]) for r in db.execute(
        "SELECT season, name, first_night, last_night FROM club_season WHERE club_id = :c ORDER BY season", {"c": cid})]


def link_series(db: Database, series_id: str, cid: str, sides: Sides) -> None:
    """The Revanche series ``series_id`` belongs to the club, these players on each side
    (a second link of the same series changes nothing)."""
    with write(db):
        db.execute("INSERT INTO club_series (series_id, club_id, sides) VALUES (:s, :c, :p)"
                   " ON CONFLICT (series_id) DO NOTHING", {"s": series_id, "c": cid, "p": json.dumps(sides)})


def series_club(db: Database, series_id: str) -> tuple[str, Sides] | None:
    """``(club id, sides)`` of a club's series, or None (one primary-key read)."""
    r = db.execute("SELECT club_id, sides FROM club_series WHERE series_id = :s", {"s": series_id}).first()
    return (r[0], _sides(r[1])) if r else None


def rematch_of(db: Database, match_id: str) -> str | None:
    """The series of the match whose Revanche ``match_id`` is (a decided series' Revanche
    starts a series of its own), or None."""
    r = db.execute("SELECT series FROM match WHERE rematch = :id", {"id": match_id}).first()
    return r[0] if r else None


def link_tournament(db: Database, tid: str, cid: str, teams: list[list[int]]) -> None:
    """The tournament ``tid`` belongs to the club; ``teams``: each team's players (entry order)."""
    with write(db):
        db.execute("INSERT INTO club_tournament (tournament_id, club_id, teams) VALUES (:t, :c, :p)",
                   {"t": tid, "c": cid, "p": json.dumps(teams)})


def tournament_club(db: Database, tid: str) -> tuple[str, list[list[int]]] | None:
    """``(club id, each team's players)`` of a club's tournament, or None."""
    r = db.execute("SELECT club_id, teams FROM club_tournament WHERE tournament_id = :t", {"t": tid}).first()
    return (r[0], json.loads(r[1])) if r else None


def club_tournaments(db: Database, cid: str) -> list[tuple[str, str, float]]:
    """The club's tournaments: ``(id, name, created)``, newest first."""
    return [(r[0], r[1], r[2]) for r in db.execute(
        "SELECT t.id, t.name, t.created FROM club_tournament c JOIN tournament t ON t.id = c.tournament_id"
        " WHERE c.club_id = :c ORDER BY t.created DESC", {"c": cid})]


def record_game(db: Database, *, match_id: str, cid: str, ended: float, sides: Sides, winner: int, version: int,
                stats: list[dict[str, int]]) -> None:
    """Write (or write again) the facts of a finished club game."""
    with write(db):
        db.execute(
            "INSERT INTO club_game (match_id, club_id, ended, sides, winner, version, stats)"
            " VALUES (:m, :c, :e, :s, :w, :v, :st) ON CONFLICT (match_id) DO UPDATE SET"
            " club_id = excluded.club_id, ended = excluded.ended, sides = excluded.sides,"
            " winner = excluded.winner, version = excluded.version, stats = excluded.stats",
            {"m": match_id, "c": cid, "e": ended, "s": json.dumps(sides), "w": winner, "v": version,
             "st": json.dumps(stats, separators=(",", ":"))})


#: The counted games: each ``club_game`` row whose match is still as it was when the row was written.
_COUNTED = (" FROM club_game g JOIN match m ON m.id = g.match_id AND m.winner = g.winner AND m.version = g.version"
            " WHERE g.club_id = :c")
#: Games after a point ``(:e, :m)`` of the order they ended in, and up to it.
_AFTER = " AND (g.ended > :e OR (g.ended = :e AND g.match_id > :m))"
_UP_TO = " AND (g.ended < :e OR (g.ended = :e AND g.match_id <= :m))"

Through = tuple[float, str]


def club_games(db: Database, cid: str, after: Through | None = None) -> list[dict[str, Any]]:
    """The club's finished games still as they ended, oldest first: ``{"match_id", "ended",
    "sides", "winner", "stats"}`` (one query); ``after``: only those that ended after that
    ``(ended, match id)``."""
    params = {"c": cid, **({"e": after[0], "m": after[1]} if after else {})}
    return [{"match_id": r[0], "ended": r[1], "sides": _sides(r[2]), "winner": r[3], "stats": json.loads(r[4])}
            for r in db.execute("SELECT g.match_id, g.ended, g.sides, g.winner, g.stats" + _COUNTED
                                + (_AFTER if after else "") + " ORDER BY g.ended, g.match_id", params)]


def club_series_ids(db: Database, cid: str) -> list[tuple[str, Sides]]:
    """Every series that belongs to the club (its own and its tournaments' played ones), with its sides."""
    return [(r[0], _sides(r[1])) for r in db.execute(
        "SELECT series_id, sides FROM club_series WHERE club_id = :c ORDER BY series_id", {"c": cid})]


def put_players(db: Database, cid: str, players: list[tuple[int, str, str]]) -> None:
    """Store players with their own numbers ``(player, name, nickname)`` (an import)."""
    with write(db):
        if players:
            db.execute("INSERT INTO club_player (club_id, player, name, nickname) VALUES (:c, :p, :n, :k)",
                       [{"c": cid, "p": p, "n": n, "k": k} for p, n, k in players])


def games_stamp(db: Database, cid: str, up_to: Through | None = None) -> tuple[str, Through | None]:
    """A text that changes whenever the club's counted games change (a game ended, undone, ended
    again): their count and the sums of their versions, winners, end times and sides' lengths;
    and the last of them, ``(ended, match id)`` (None: no game). ``up_to``: of the games up to
    that point only (one query)."""
    params = {"c": cid, **({"e": up_to[0], "m": up_to[1]} if up_to else {})}
    clause = _UP_TO if up_to else ""
    r = db.execute(
        "SELECT COUNT(*), COALESCE(SUM(g.version), 0), COALESCE(SUM(g.winner), 0), COALESCE(SUM(g.ended), 0),"
        " COALESCE(SUM(LENGTH(g.sides)), 0), MAX(g.ended)" + _COUNTED + clause, params).one()
    last = None
    if r[5] is not None:
        last_id = db.execute("SELECT MAX(g.match_id)" + _COUNTED + clause + " AND g.ended = :last",
                             {**params, "last": r[5]}).scalar()
        last = (float(r[5]), last_id)
    return f"{r[0]}:{r[1]}:{r[2]}:{float(r[3]):.3f}:{r[4]}", last


@dataclass(frozen=True)
class StoredTable:
    """A kept season table: ``stamp`` (games, players and nights it was played from),
    ``games_stamp`` (its games alone, :func:`games_stamp`), ``through`` (its last game, or
    None) and ``data`` (:func:`scorer.core.club.season_to_json` as JSON text)."""

    stamp: str
    games_stamp: str
    through: Through | None
    data: str


def stored_table(db: Database, cid: str, season: int) -> StoredTable | None:
    """The club's last table of ``season`` (0: all games), or None."""
    r = db.execute("SELECT stamp, games_stamp, through_ended, through_match, season_data FROM club_table"
                   " WHERE club_id = :c AND season = :s", {"c": cid, "s": season}).first()
    if r is None:
        return None
    return StoredTable(r[0], r[1], (float(r[2]), r[3]) if r[2] is not None else None, r[4])


def store_table(db: Database, cid: str, season: int, table: StoredTable) -> None:
    """Keep the club's table of ``season``."""
    with write(db):
        db.execute("INSERT INTO club_table (club_id, season, stamp, games_stamp, through_ended, through_match, season_data)"
                   " VALUES (:c, :s, :t, :g, :e, :m, :d) ON CONFLICT (club_id, season) DO UPDATE SET"
                   " stamp = excluded.stamp, games_stamp = excluded.games_stamp, through_ended = excluded.through_ended,"
                   " through_match = excluded.through_match, season_data = excluded.season_data",
                   {"c": cid, "s": season, "t": table.stamp, "g": table.games_stamp,
                    "e": table.through[0] if table.through else None, "m": table.through[1] if table.through else None,
                    "d": table.data})
