"""A season of a club: its finished games played in order through the ratings, the season
table, the partnerships and each player's nights (docs/club.md "Season table").

Every game of a season counts once, in the order the games ended. A side's call statistics
(docs/statistics.md: ``envido_won``, ``truco_called``, ``truco_refused``, ``folds``) are the
side's, so each player of the side is credited with them: the log knows which side called,
never which of its players (docs/club.md "Per player").

>>> g = ClubGame("m1", 0.0 + 86400 * 30, ((1,), (2,)), 0, ({"envido_won": 1}, {"folds": 2}))
>>> s = play_season([g], [1, 2, 3])
>>> [(r.player, r.matches, r.wins) for r in s.rows]
[(1, 1, 1), (3, 0, 0), (2, 1, 0)]
>>> s.rows[0].stats["envido_won"], s.rows[2].stats["folds"]
(1, 2)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, MutableMapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from itertools import combinations
from typing import Any

from scorer.core.club.ratings import Rating, Ratings, certainty

#: The call statistics a side's players are credited with (keys of
#: :class:`scorer.core.stats.SideStats`, docs/statistics.md).
PLAYER_STATS = ("envido_won", "truco_called", "truco_refused", "folds")

#: A night runs from 06:00 UTC to 06:00 UTC the next day: a game ended at 01:30 belongs to
#: the night before (docs/club.md "Nights and seasons").
NIGHT_SHIFT = timedelta(hours=6)

#: Fewest games together for a partnership to be ranked among the best and worst.
MIN_PAIR_MATCHES = 2
#: How many best and worst partnerships the table shows.
SHOWN_PAIRS = 3


def night_of(ended: float) -> str:
    """The night (ISO date, ``"2026-11-27"``) of a game that ended at ``ended`` (seconds
    since the epoch), shifted by :data:`NIGHT_SHIFT`."""
    return (datetime.fromtimestamp(ended, timezone.utc) - NIGHT_SHIFT).date().isoformat()


def _zero() -> dict[str, int]:
    return dict.fromkeys(PLAYER_STATS, 0)


@dataclass(frozen=True)
class ClubGame:
    """One finished game of a club: its match id, when it ended (seconds since the epoch),
    the players (ids) of each side (1 to 3 each), the winning side (0 or 1) and each side's
    call statistics (a mapping with the keys of :data:`PLAYER_STATS`; a missing key is 0)."""

    match_id: str
    ended: float
    sides: tuple[tuple[int, ...], tuple[int, ...]]
    winner: int
    stats: tuple[Mapping[str, int], Mapping[str, int]]

    @property
    def night(self) -> str:
        """The night it was played (:func:`night_of`)."""
        return night_of(self.ended)


@dataclass
class PlayerRow:
    """A player's line of the season table: rating, games, wins and call statistics."""

    player: int
    rating: Rating = field(default_factory=Rating)
    matches: int = 0
    wins: int = 0
    stats: dict[str, int] = field(default_factory=_zero)

    @property
    def certainty(self) -> str:
        """:func:`scorer.core.club.ratings.certainty` of the rating."""
        return certainty(self.rating)


@dataclass
class PairRow:
    """Two players (ids, smaller first) who sat on the same side: games and wins together."""

    players: tuple[int, int]
    matches: int = 0
    wins: int = 0

    @property
    def losses(self) -> int:
        return self.matches - self.wins

    @property
    def share(self) -> float:
        """Wins over games (0.0 to 1.0)."""
        return self.wins / self.matches if self.matches else 0.0


@dataclass
class NightLine:
    """One night of a player: games, wins, call statistics, and the rating after it."""

    night: str
    rating: Rating
    matches: int = 0
    wins: int = 0
    stats: dict[str, int] = field(default_factory=_zero)


@dataclass
class Season:
    """A season played through: ``rows`` (best ordinal first; then more wins, then the
    player id), ``pairs`` (every partnership, best first), ``best`` and ``worst`` (at most
    :data:`SHOWN_PAIRS` each, among partnerships of :data:`MIN_PAIR_MATCHES` games or more,
    never the same one in both), ``nights`` (player id -> their nights, oldest first) and
    ``games`` (how many games counted)."""

    rows: list[PlayerRow]
    pairs: list[PairRow]
    best: list[PairRow]
    worst: list[PairRow]
    nights: MutableMapping[int, list[NightLine]]  # a season played on from this one adds to them
    games: int


def play_season(games: Iterable[ClubGame], players: Iterable[int] = (), *, first_night: str | None = None,
                last_night: str | None = None, start: Season | None = None) -> Season:
    """Play ``games`` in the order they ended (then by match id) through the ratings, from
    fresh ratings, keeping only those of nights ``first_night`` to ``last_night`` (ISO dates,
    both included; None: no bound). ``players``: ids listed even without a game.

    ``start``: a season these games go on from (every one of them ended after its last game):
    its rows, partnerships and nights are taken over (and changed) and its ratings are where
    each player starts, so the result is the season of its games and these together.
    """
    chosen = sorted((g for g in games if (first_night is None or g.night >= first_night)
                     and (last_night is None or g.night <= last_night)), key=lambda g: (g.ended, g.match_id))
    rows: dict[int, PlayerRow] = {r.player: r for r in start.rows} if start else {}
    for p in players:
        rows.setdefault(p, PlayerRow(p))
    pairs: dict[tuple[int, int], PairRow] = {p.players: p for p in start.pairs} if start else {}
    nights: MutableMapping[int, list[NightLine]] = start.nights if start else {}
    ratings = Ratings({p: r.rating for p, r in rows.items()} if start else None)
    for game in chosen:
        after = ratings.play(game.sides, game.winner)
        night = game.night
        for s, side in enumerate(game.sides):
            won = int(s == game.winner)
            stats = [int(game.stats[s].get(k, 0)) for k in PLAYER_STATS]
            for p, rating in zip(side, after[s]):
                row = rows.get(p) or rows.setdefault(p, PlayerRow(p))
                row.rating, row.matches, row.wins = rating, row.matches + 1, row.wins + won
                line = nights[p] if p in nights else nights.setdefault(p, [])
                if not line or line[-1].night != night:
                    line.append(NightLine(night, rating))
                last = line[-1]
                last.rating, last.matches, last.wins = rating, last.matches + 1, last.wins + won
                for key, value in zip(PLAYER_STATS, stats):
                    row.stats[key] += value
                    last.stats[key] += value
            for a, b in combinations(sorted(side), 2):
                pair = pairs.get((a, b)) or pairs.setdefault((a, b), PairRow((a, b)))
                pair.matches, pair.wins = pair.matches + 1, pair.wins + won
    table = sorted(rows.values(), key=lambda r: (-r.rating.ordinal, -r.wins, r.player))
    ranked = sorted(pairs.values(), key=lambda p: (-p.share, -p.wins, p.losses, p.players))
    eligible = [p for p in ranked if p.matches >= MIN_PAIR_MATCHES]
    best = eligible[:min(SHOWN_PAIRS, (len(eligible) + 1) // 2)]  # the upper half at most: worst gets the rest
    rest = eligible[len(best):]
    worst = sorted(rest, key=lambda p: (p.share, -p.losses, p.wins, p.players))[:SHOWN_PAIRS]
    return Season(table, ranked, best, worst, nights, len(chosen) + (start.games if start else 0))


def season_to_json(season: Season) -> dict[str, Any]:
    """The season as JSON data (what a stored copy keeps; :func:`season_from_json` reads it back)."""
    def stats(d: dict[str, int]) -> list[int]:
        return [d[k] for k in PLAYER_STATS]

    return {"games": season.games,
            "rows": [[r.player, r.rating.mu, r.rating.sigma, r.matches, r.wins, stats(r.stats)] for r in season.rows],
            "pairs": [[*p.players, p.matches, p.wins] for p in season.pairs],
            "best": [list(p.players) for p in season.best], "worst": [list(p.players) for p in season.worst],
            "nights": season.nights.raw() if isinstance(season.nights, StoredNights) else
            {str(p): [[n.night, n.rating.mu, n.rating.sigma, n.matches, n.wins, stats(n.stats)] for n in lines]
             for p, lines in season.nights.items()}}


class StoredNights(MutableMapping[int, list[NightLine]]):
    """The nights of every player as :func:`season_to_json` wrote them, a player's made into
    :class:`NightLine` values only when asked for (a season table never reads them; a player's
    page reads one player's; a season going on, those of the players of its new games)."""

    def __init__(self, raw: dict[str, list[Any]]) -> None:
        self._raw = raw
        self._made: dict[int, list[NightLine]] = {}

    def __getitem__(self, player: int) -> list[NightLine]:
        if player not in self._made:
            self._made[player] = [NightLine(night, Rating(mu, sigma), m, w, dict(zip(PLAYER_STATS, st)))
                                  for night, mu, sigma, m, w, st in self._raw[str(player)]]
        return self._made[player]

    def __setitem__(self, player: int, lines: list[NightLine]) -> None:
        self._made[player] = lines

    def __delitem__(self, player: int) -> None:
        self._made.pop(player, None)
        self._raw.pop(str(player), None)

    def __contains__(self, player: object) -> bool:
        return player in self._made or str(player) in self._raw

    def __iter__(self) -> Iterator[int]:
        return iter(sorted({int(p) for p in self._raw} | set(self._made)))

    def __len__(self) -> int:
        return len({int(p) for p in self._raw} | set(self._made))

    def raw(self) -> dict[str, list[Any]]:
        """The JSON data of every player's nights (those made: written again from their values)."""
        out = dict(self._raw)
        for p, lines in self._made.items():
            out[str(p)] = [[n.night, n.rating.mu, n.rating.sigma, n.matches, n.wins, [n.stats[k] for k in PLAYER_STATS]]
                           for n in lines]
        return out


def season_from_json(data: dict[str, Any]) -> Season:
    """A season from :func:`season_to_json`'s data (its nights made when read: :class:`StoredNights`).

    :raise KeyError, ValueError, TypeError: not such data.
    """
    def stats(values: list[int]) -> dict[str, int]:
        return dict(zip(PLAYER_STATS, values))

    pairs = {(a, b): PairRow((a, b), m, w) for a, b, m, w in data["pairs"]}
    return Season(rows=[PlayerRow(p, Rating(mu, sigma), m, w, stats(st)) for p, mu, sigma, m, w, st in data["rows"]],
                  pairs=list(pairs.values()), best=[pairs[(a, b)] for a, b in data["best"]],
                  worst=[pairs[(a, b)] for a, b in data["worst"]],
                  nights=StoredNights(data["nights"]),
                  games=data["games"])


def player_nights(season: Season, player: int) -> list[NightLine]:
    """The nights of ``player`` in ``season`` (oldest first; empty if none)."""
    return season.nights.get(player, [])
