"""Ratings that understand pairs and threes, from the ``openskill`` package (its
Plackett-Luce model, Weng and Lin 2011; docs/club.md "Ratings"). Nothing here computes a
rating: :func:`rate_game` hands both sides to the library and keeps what it answers.

A rating is ``mu`` (the skill the model believes, 25 for a new player) and ``sigma`` (how
unsure it is, 25/3 for a new player); the table orders players by the library's
``ordinal``, ``mu - 3 * sigma`` (a value the player's skill is above with 99.7% certainty),
so a player rated on few games sits below one proven on many.

>>> a = b = x = y = Rating()
>>> (a, b), (x, y) = rate_game(((a, b), (x, y)), winner=0)
>>> round(a.mu, 6), round(a.sigma, 6), round(x.mu, 6)
(26.964295, 8.177963, 23.035705)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from openskill.models import PlackettLuce

#: The model: openskill's defaults (mu 25, sigma 25/3, beta 25/6), as its manual advises.
MODEL = PlackettLuce()
DEFAULT_MU: float = MODEL.mu
DEFAULT_SIGMA: float = MODEL.sigma

#: Below these sigmas a rating is said to be "settled", then "taking shape"; above, it is
#: "provisional" (docs/club.md "Ratings": a new player starts at 8.3; in a club of 12 drawn into
#: random pairs, a player's sigma passed under 7 after about 11 games and under 5 after about 32).
SETTLED_SIGMA = 5.0
SHAPING_SIGMA = 7.0


@dataclass(frozen=True)
class Rating:
    """One player's rating: ``mu`` and ``sigma`` in openskill's units (points of skill)."""

    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA

    @cached_property
    def ordinal(self) -> float:
        """The library's ordinal (``mu - 3 sigma``): what the season table orders by."""
        return MODEL.rating(mu=self.mu, sigma=self.sigma).ordinal()


def certainty(rating: Rating) -> str:
    """How sure the rating is, as a fact for the edge to say: ``"settled"``, ``"shaping"``
    or ``"provisional"`` (thresholds :data:`SETTLED_SIGMA`, :data:`SHAPING_SIGMA`)."""
    if rating.sigma < SETTLED_SIGMA:
        return "settled"
    if rating.sigma < SHAPING_SIGMA:
        return "shaping"
    return "provisional"


def _rate(teams: list[list[Any]], winner: int) -> list[list[Any]]:
    """openskill's ``rate`` of two teams of the library's ratings, ``winner`` (0 or 1) first:
    "the first team is the winner" (its manual, "Rating"), as its README example calls it."""
    if winner not in (0, 1) or not teams[0] or not teams[1]:
        raise ValueError("a rated game needs two sides and a winner 0 or 1")
    order = teams if winner == 0 else teams[::-1]
    rated = MODEL.rate(order)
    return rated if winner == 0 else rated[::-1]


def rate_game(sides: tuple[tuple[Rating, ...], tuple[Rating, ...]], winner: int
              ) -> tuple[tuple[Rating, ...], tuple[Rating, ...]]:
    """Both sides' ratings after a game ``winner`` (0 or 1) won: openskill's
    ``PlackettLuce.rate`` with the winning side first. Sides of 1, 2 or 3 players.

    :raise ValueError: ``winner`` is not 0 or 1, or a side is empty.
    """
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma) for r in side] for side in sides]
    a, b = ([Rating(p.mu, p.sigma) for p in team] for team in _rate(teams, winner))
    return tuple(a), tuple(b)


class Ratings:
    """The players' ratings as a season goes, kept as the library's own rating objects between
    games (a season of 2,000 games makes no more of them than the library's ``rate`` does);
    ``start``: where each player's rating starts (a stored season going on), new otherwise."""

    def __init__(self, start: Mapping[int, Rating] | None = None) -> None:
        self._now: dict[int, Any] = {}
        self._start = start or {}

    def _current(self, player: int) -> Any:
        if player not in self._now:
            r = self._start.get(player)
            self._now[player] = MODEL.rating() if r is None else MODEL.rating(mu=r.mu, sigma=r.sigma)
        return self._now[player]

    def play(self, sides: tuple[tuple[int, ...], tuple[int, ...]], winner: int
             ) -> tuple[tuple[Rating, ...], tuple[Rating, ...]]:
        """Rate a game between the players (ids) of ``sides`` that side ``winner`` won; both
        sides' new ratings. :raise ValueError: as :func:`rate_game`."""
        teams = [[self._current(p) for p in side] for side in sides]
        rated = _rate(teams, winner)
        out = []
        for side, team in zip(sides, rated):
            for p, r in zip(side, team):
                self._now[p] = r
            out.append(tuple(Rating(r.mu, r.sigma) for r in team))
        return out[0], out[1]
