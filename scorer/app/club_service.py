"""The clubs' application service (issue 32; docs/club.md "Club and season"): create a club
and its players and seasons, start a club match (or a night's tournament from the check-in's
draw), keep each finished club game's facts, and read a season's table, partnerships and a
player's nights through :mod:`scorer.core.club`.

A club is created like a tournament: a name and an organizer key (random, 256 bits, given
once, stored as its hash); no accounts. A match, its Revanche series or a tournament belongs to
a club with the players (numbers in the club) of each side. :func:`on_action` is the match
service's listener: when a club game ends it writes the game's facts (``club_game``), so a
season table reads one row per game and replays nothing. Export and import:
:mod:`scorer.app.club_records`.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from scorer.app import store, tournament_service
from scorer.app.match_service import MatchService
from scorer.app.store import clubs as cstore
from scorer.app.store import tournaments as tstore
from scorer.app.tournament_keys import TournamentKeys
from scorer.core import club as core
from scorer.core.errors import N_, TrucoError
from scorer.core.schema import Options
from scorer.core.tournament import check_text

log = logging.getLogger(__name__)

#: Longest club name, player name and nickname (characters).
NAME_MAX, PLAYER_MAX, NICK_MAX = 60, 40, 16
#: Most players a club may have.
MAX_PLAYERS = 500


class ClubError(TrucoError):
    """Bad club input (nothing is changed): ``bad_name``, ``bad_player``, ``too_many_players``,
    ``unknown_player``, ``bad_sides``, ``bad_season``, ``bad_teams``."""


@dataclass(frozen=True)
class Club:
    """A club as a page needs it: its ``row``, its ``players`` by number, its ``seasons``."""

    row: cstore.ClubRow
    players: dict[int, cstore.Player]
    seasons: list[cstore.SeasonRow]

    def side_name(self, side: Sequence[int]) -> str:
        """A side's name: its players' nicknames joined by " & "."""
        return " & ".join(self.players[p].nickname for p in side)


def create(db: store.Database, name: Any) -> tuple[cstore.ClubRow, str]:
    """Store a new club; ``(row, organizer key)`` (the key's hash is stored, never the key).

    :raise ClubError: ``bad_name``.
    """
    if not isinstance(name, str) or not check_text(name).strip():
        raise ClubError("bad_name", N_("A club needs a name."))
    key = store.new_edit_key()
    row = cstore.create_club(db, cid=store.new_id(), organizer_hash=store.hash_key(key),
                             name=check_text(name).strip()[:NAME_MAX])
    return row, key


def load(db: store.Database, cid: str) -> Club | None:
    """The club ``cid`` with its players and seasons, or None."""
    row = cstore.get_club(db, cid)
    if row is None:
        return None
    return Club(row, {p.player: p for p in cstore.get_players(db, cid)}, cstore.get_seasons(db, cid))


def clean_player(name: Any, nickname: Any = "") -> tuple[str, str]:
    """A player's ``(name, nickname)``, tidied and cut (the nickname defaults to the name's first word).

    :raise ClubError: ``bad_player`` (no name, or not texts).
    """
    if not isinstance(name, str) or not isinstance(nickname, str) or not check_text(name).strip():
        raise ClubError("bad_player", N_("A player needs a name (and may have a nickname)."))
    name = " ".join(check_text(name).split())[:PLAYER_MAX]
    nickname = " ".join(check_text(nickname).split())[:NICK_MAX] or name.split()[0][:NICK_MAX]
    return name, nickname


def add_players(db: store.Database, club: Club, players: Sequence[tuple[Any, Any]]) -> list[int]:
    """Add players ``(name, nickname)``; their numbers.

    :raise ClubError: ``bad_player``, ``too_many_players`` (over :data:`MAX_PLAYERS`).
    """
    clean = [clean_player(n, k) for n, k in players]
    if len(club.players) + len(clean) > MAX_PLAYERS:
        raise ClubError("too_many_players", N_("A club can have at most {limit} players."), limit=MAX_PLAYERS)
    return cstore.add_players(db, club.row.id, clean)


def add_season(db: store.Database, club: Club, name: Any, first_night: Any, last_night: Any, *,
               store_it: bool = True) -> int:
    """Add a season (nights ``first_night`` to ``last_night``, ISO dates); its number (0
    with ``store_it=False``: only checked).

    :raise ClubError: ``bad_season`` (not dates, or the last before the first).
    """
    from datetime import date

    try:
        first, last = date.fromisoformat(str(first_night)), date.fromisoformat(str(last_night))
    except ValueError:
        raise ClubError("bad_season", N_("A season needs a first and a last night (dates).")) from None
    if last < first:
        raise ClubError("bad_season", N_("A season's last night cannot come before its first."))
    title = check_text(name).strip()[:NAME_MAX] if isinstance(name, str) else ""
    if not store_it:
        return 0
    return cstore.add_season(db, club.row.id, title or f"{first.isoformat()} – {last.isoformat()}",
                             first.isoformat(), last.isoformat())


def check_sides(club: Club, sides: Any) -> cstore.Sides:
    """Two sides of 1 to 3 of the club's players each, as many on each side, none twice.

    :raise ClubError: ``bad_sides`` or ``unknown_player``.
    """
    if (not isinstance(sides, (list, tuple)) or len(sides) != 2
            or not all(isinstance(s, (list, tuple)) and all(isinstance(p, int) for p in s) for s in sides)):
        raise ClubError("bad_sides", N_("A club match needs two sides of 1, 2 or 3 players."))
    a, b = (tuple(s) for s in sides)
    if not 1 <= len(a) <= 3 or len(a) != len(b) or len(set(a + b)) != len(a + b):
        raise ClubError("bad_sides", N_("Each side needs 1, 2 or 3 players, as many on each side, nobody twice."))
    for p in a + b:
        if p not in club.players:
            raise ClubError("unknown_player", N_("Player {player} is not in this club."), player=p)
    return a, b


def start_match(db: store.Database, matches: MatchService, club: Club, sides: Any, *, variant: str,
                options: Options, best_of: int = 1) -> store.MatchRow:
    """Create a club match: sides named after their players' nicknames, the seats set for
    a table of 4 or 6 (the players' nicknames), the series linked to the club.

    :raise ClubError: bad sides. :raise RuleError: bad variant, options or best_of.
    """
    a, b = check_sides(club, sides)
    seats = [[club.players[p].nickname for p in s] for s in (a, b)] if len(a) > 1 else None
    row = matches.create(db, variant=variant, options=options, names=[club.side_name(a), club.side_name(b)],
                         mano=0, best_of=best_of, players=seats)
    cstore.link_series(db, row.series, club.row.id, (a, b))
    return row


def club_of(db: store.Database, row: store.MatchRow) -> tuple[str, cstore.Sides] | None:
    """The club and sides of a match: its series' link, else (first end of a game of a club's
    tournament, or a Revanche that started a series of its own) found and linked now."""
    found = cstore.series_club(db, row.series)
    if found is not None:
        return found
    slot = tstore.slot_of_series(db, row.series)
    if slot is not None:
        linked = cstore.tournament_club(db, slot[0])
        loaded = tournament_service.load(db, slot[0]) if linked else None
        if linked is None or loaded is None or slot[1] not in loaded.view.slots:
            return None
        a, b = loaded.view.slots[slot[1]].teams
        if a is None or b is None:
            return None
        found = (linked[0], (tuple(linked[1][a]), tuple(linked[1][b])))
    else:
        before = cstore.rematch_of(db, row.id)
        found = cstore.series_club(db, before) if before else None
        if found is None:
            return None
    cstore.link_series(db, row.series, *found)
    return found


def record(db: store.Database, matches: MatchService, row: store.MatchRow, cid: str, sides: cstore.Sides,
           ended: float | None = None) -> None:
    """Write the facts of the finished club game ``row`` (its sides' call statistics from its log)."""
    stats = matches.stats(db, row)
    assert row.winner is not None  # a finished game
    cstore.record_game(db, match_id=row.id, cid=cid, ended=row.updated if ended is None else ended, sides=sides,
                       winner=row.winner, version=row.version,
                       stats=[{k: getattr(s, k) for k in core.PLAYER_STATS} for s in stats])


def on_action(db: store.Database, row: store.MatchRow, *, matches: MatchService) -> None:
    """The match service's listener: a club game that has just ended writes its facts. Only a
    finished game costs a read; never raises (the action is stored; logged instead)."""
    if row is None or row.winner is None:
        return
    try:
        found = club_of(db, row)
        if found is not None:
            record(db, matches, row, *found)
    except Exception:  # noqa: BLE001 - logged; the game's facts are written again at its next end
        log.exception("recording club game %s failed", row.id)


def games(db: store.Database, cid: str, after: cstore.Through | None = None) -> list[core.ClubGame]:
    """The club's finished games as the core's values, oldest first (``after``: only those that
    ended after that ``(ended, match id)``)."""
    return [core.ClubGame(g["match_id"], g["ended"], g["sides"], g["winner"], (g["stats"][0], g["stats"][1]))
            for g in cstore.club_games(db, cid, after)]


def season_of(club: Club, number: Any) -> cstore.SeasonRow | None:
    """The season numbered ``number`` (an int or its text), or None (every game: all time)."""
    try:
        number = int(number)
    except (TypeError, ValueError):
        return None
    return next((s for s in club.seasons if s.season == number), None)


def play(db: store.Database, club: Club, season: cstore.SeasonRow | None) -> core.Season:
    """The season played through (all the club's games when ``season`` is None), kept per
    season (docs/club.md "Where the code is"): read back when the club's games, players and
    the season's nights are as it was played from; gone on from, rating only the new games,
    when its games are still the first ones; else played again from every game."""
    number = season.season if season else 0
    first, last = (season.first_night, season.last_night) if season else (None, None)
    games_now, through = cstore.games_stamp(db, club.row.id)
    stamp = f"{games_now}|{len(club.players)}|{first or ''}|{last or ''}"
    kept = cstore.stored_table(db, club.row.id, number)
    stored = _read(kept)
    if kept is not None and stored is not None and kept.stamp == stamp:
        return stored
    if (kept is not None and stored is not None and kept.stamp.endswith(f"|{first or ''}|{last or ''}")
            and kept.through is not None
            and cstore.games_stamp(db, club.row.id, up_to=kept.through)[0] == kept.games_stamp):
        played = core.play_season(games(db, club.row.id, after=kept.through), club.players, first_night=first,
                                  last_night=last, start=stored)
    else:
        played = core.play_season(games(db, club.row.id), club.players, first_night=first, last_night=last)
    data = json.dumps(core.season_to_json(played), separators=(",", ":"))
    cstore.store_table(db, club.row.id, number, cstore.StoredTable(stamp, games_now, through, data))
    return played


def _read(kept: cstore.StoredTable | None) -> core.Season | None:
    """A kept table's season, or None (none kept, or an older shape)."""
    if kept is None:
        return None
    try:
        return core.season_from_json(json.loads(kept.data))
    except (KeyError, ValueError, TypeError):
        return None


def draw(db: store.Database, club: Club, ticked: Sequence[int], size: int, seed: int,
         season: cstore.SeasonRow | None = None) -> list[tuple[int, ...]]:
    """The night's balanced teams from the players ``ticked`` (their ratings' ``mu`` in
    ``season``, all time if None; :func:`scorer.core.club.draw_teams`).

    :raise DrawError: see :class:`scorer.core.club.DrawError`. :raise ClubError: ``unknown_player``.
    """
    for p in ticked:
        if p not in club.players:
            raise ClubError("unknown_player", N_("Player {player} is not in this club."), player=p)
    rows = {r.player: r.rating.mu for r in play(db, club, season).rows}
    return core.draw_teams(list(ticked), rows, size, seed=seed)


def create_night(db: store.Database, club: Club, teams: Sequence[Sequence[int]], data: dict[str, Any], *,
                 default_name: str, keys: TournamentKeys) -> tournament_service.Loaded:
    """The night's tournament from ``teams`` (players' numbers) in one step: teams named
    after their players, with them as the seats, created by
    :func:`scorer.app.tournament_service.create_from` with ``data``'s settings, and linked to the club.

    :raise ClubError: ``bad_teams`` (a player twice or unknown, sizes differ).
    :raise TrucoError: what creating a tournament refuses.
    """
    flat = [p for t in teams for p in t]
    sizes = {len(t) for t in teams}
    if len(teams) < 2 or len(set(flat)) != len(flat) or len(sizes) != 1 or not sizes <= {1, 2, 3} \
            or any(p not in club.players for p in flat):
        raise ClubError("bad_teams", N_("Each player in one team only, all teams the same size (1, 2 or 3)."))
    body = {**data, "teams": [{"name": club.side_name(t), "players": [club.players[p].nickname for p in t]}
                              for t in teams]}
    loaded = tournament_service.create_from(db, body, default_name=default_name, keys=keys)
    cstore.link_tournament(db, loaded.row.id, club.row.id, [list(t) for t in teams])
    return loaded


def tournaments(db: store.Database, club: Club) -> list[tuple[str, str, float]]:
    """The club's tournaments, newest first: ``(id, name, created)``."""
    return cstore.club_tournaments(db, club.row.id)
