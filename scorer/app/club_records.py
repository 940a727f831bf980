"""A club's records (issue 32 item 5; docs/club.md "Export and import"): the whole club with
its history as JSON, a new club rebuilt from it, and the season table as CSV rows.

The export holds the club's name, players, seasons and every finished game that counts
(sides, winner, when it ended, and the match's settings and actions); never a key. An import
replays every game with the engine (an action the rules refuse is refused, naming the game),
so only a valid club is stored, with its own id and organizer key.
"""

from __future__ import annotations

from typing import Any

from scorer.app import club_service as clubs, store
from scorer.app.match_service import MatchService
from scorer.app.store import clubs as cstore
from scorer.core import club as core
from scorer.core.errors import N_, TrucoError
from scorer.core.match import Match

#: The ``format`` field of a club export.
EXPORT_FORMAT = "truco-scorer-club/1"
#: Most games an import may hold.
MAX_GAMES = 5000


def export(db: store.Database, club: clubs.Club) -> dict[str, Any]:
    """``{"format", "id", "name", "players": [{"player", "name", "nickname"}], "seasons":
    [{"season", "name", "first_night", "last_night"}], "games": [{"sides", "winner", "ended",
    "night", ...the match's export (variant, options, mano, names, best_of, players, actions)}]}``."""
    out = []
    for g in cstore.club_games(db, club.row.id):
        row = store.get_match(db, g["match_id"])
        if row is None:
            continue
        out.append({"sides": [list(s) for s in g["sides"]], "winner": g["winner"], "ended": g["ended"],
                    "night": core.night_of(g["ended"]), **MatchService.export(db, row)})
    return {"format": EXPORT_FORMAT, "id": club.row.id, "name": club.row.name,
            "players": [{"player": p.player, "name": p.name, "nickname": p.nickname} for p in club.players.values()],
            "seasons": [{"season": s.season, "name": s.name, "first_night": s.first_night,
                         "last_night": s.last_night} for s in club.seasons],
            "games": out}


def _bad(template: str, **params: Any) -> clubs.ClubError:
    return clubs.ClubError("bad_export", template, **params)


def _check(data: dict[str, Any], max_actions: int) -> tuple[list, list, list]:
    """The export's players, seasons and games, their shapes checked.

    :raise ClubError: ``bad_export``.
    """
    if data.get("format") != EXPORT_FORMAT:
        raise _bad(N_("This is not a club exported by truco-scorer (format {format})."), format=EXPORT_FORMAT)
    players, seasons, games = data.get("players"), data.get("seasons", []), data.get("games")
    if not (isinstance(players, list) and isinstance(seasons, list) and isinstance(games, list)):
        raise _bad(N_("A club export needs players, seasons and games (lists)."))
    if len(players) > clubs.MAX_PLAYERS or len(games) > MAX_GAMES:
        raise _bad(N_("A club export can hold at most {players} players and {games} games."),
                   players=clubs.MAX_PLAYERS, games=MAX_GAMES)
    for g in games:
        if (not isinstance(g, dict) or not isinstance(g.get("actions"), list) or not isinstance(g.get("options"), dict)
                or g.get("winner") not in (0, 1) or not isinstance(g.get("ended"), (int, float))
                or isinstance(g.get("ended"), bool)):
            raise _bad(N_("Each game needs its sides, winner, end time, options and actions."))
        if len(g["actions"]) > max_actions:
            raise _bad(N_("A game can hold at most {limit} actions."), limit=max_actions)
    return players, seasons, games


def import_club(db: store.Database, matches: MatchService, data: dict[str, Any], *, max_actions: int
                ) -> tuple[cstore.ClubRow, str]:
    """A new club rebuilt from an export: ``(row, organizer key)``.

    :raise ClubError: not a club export, bad players, seasons or sides, or a game that does
        not end as the export says. :raise RuleError: an action the rules refuse.
    """
    players, seasons, games = _check(data, max_actions)
    numbers = []
    for p in players:
        if not isinstance(p, dict) or not isinstance(p.get("player"), int) or isinstance(p.get("player"), bool):
            raise _bad(N_("Each player needs a number, a name and a nickname."))
        numbers.append(p["player"])
    if len(set(numbers)) != len(numbers) or any(n < 1 for n in numbers):
        raise _bad(N_("Each player needs a number, a name and a nickname."))
    clean = [clubs.clean_player(p.get("name"), p.get("nickname", "")) for p in players]
    ghost = clubs.Club(cstore.ClubRow("", "", "", 0.0), {n: cstore.Player(n, *c) for n, c in zip(numbers, clean)}, [])
    checked = [_replay(ghost, index, g) for index, g in enumerate(games)]  # all checked before anything is stored
    for s in seasons:
        if not isinstance(s, dict):
            raise _bad(N_("A season needs a first and a last night (dates)."))
        clubs.add_season(db, ghost, s.get("name", ""), s.get("first_night"), s.get("last_night"), store_it=False)
    row, key = clubs.create(db, data.get("name"))
    cstore.put_players(db, row.id, [(n, *c) for n, c in zip(numbers, clean)])
    club = clubs.load(db, row.id)
    assert club is not None
    for s in seasons:
        clubs.add_season(db, club, s.get("name", ""), s.get("first_night"), s.get("last_night"))
    for g, sides in checked:
        game = matches.import_match(db, variant=g["variant"], options=g["options"],
                                    names=[club.side_name(sides[0]), club.side_name(sides[1])],
                                    mano=g.get("mano", 0) if g.get("mano") in (0, 1) else 0, actions=g["actions"])
        cstore.link_series(db, game.series, club.row.id, sides)
        clubs.record(db, matches, game, club.row.id, sides, ended=float(g["ended"]))
    return row, key


def _replay(club: clubs.Club, index: int, g: dict[str, Any]) -> tuple[dict[str, Any], cstore.Sides]:
    """Check one exported game against the club's players and the rules, without storing it.

    :raise ClubError: bad sides, an action the rules refuse, or another end than the export's.
    """
    sides = clubs.check_sides(club, g.get("sides"))
    try:
        MatchService.check_settings(g.get("variant"), g["options"], 0)
        m = Match.replay(g["variant"], g["options"], g.get("mano", 0) if g.get("mano") in (0, 1) else 0, g["actions"])
    except TrucoError as e:
        raise _bad(N_("Game {index} cannot be replayed: {reason}"), index=index + 1, reason=e.message) from None
    if m.winner != g["winner"]:
        raise _bad(N_("Game {index} does not end as the export says."), index=index + 1)
    return g, sides


def season_csv(club: clubs.Club, season: core.Season) -> list[list[Any]]:
    """The season table as CSV rows: a header, then one row per player (rank first)."""
    rows: list[list[Any]] = [["rank", "player", "name", "nickname", "rating", "mu", "sigma", "certainty",
                              "matches", "wins", *core.PLAYER_STATS]]
    for rank, r in enumerate(season.rows, start=1):
        p = club.players.get(r.player)
        rows.append([rank, r.player, p.name if p else "", p.nickname if p else "", round(r.rating.ordinal, 2),
                     round(r.rating.mu, 2), round(r.rating.sigma, 2), r.certainty, r.matches, r.wins,
                     *(r.stats[k] for k in core.PLAYER_STATS)])
    return rows
