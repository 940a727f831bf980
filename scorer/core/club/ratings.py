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

from dataclasses import dataclass

from openskill.models import PlackettLuce

#: The model: openskill's defaults (mu 25, sigma 25/3, beta 25/6), as its manual advises.
MODEL = PlackettLuce()
DEFAULT_MU: float = MODEL.mu
DEFAULT_SIGMA: float = MODEL.sigma

#: Below these sigmas a rating is said to be "settled", then "taking shape"; above, it is
#: "provisional" (docs/club.md "Ratings": a new player starts at 8.3; about 10 games of 2 v 2
#: bring it under 6, about 30 under 4).
SETTLED_SIGMA = 4.0
SHAPING_SIGMA = 6.0


@dataclass(frozen=True)
class Rating:
    """One player's rating: ``mu`` and ``sigma`` in openskill's units (points of skill)."""

    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA

    @property
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


def rate_game(sides: tuple[tuple[Rating, ...], tuple[Rating, ...]], winner: int
              ) -> tuple[tuple[Rating, ...], tuple[Rating, ...]]:
    """Both sides' ratings after a game ``winner`` (0 or 1) won: openskill's
    ``PlackettLuce.rate`` with the winning side ranked first. Sides of 1, 2 or 3 players.

    :raise ValueError: ``winner`` is not 0 or 1, or a side is empty.
    """
    if winner not in (0, 1) or not sides[0] or not sides[1]:
        raise ValueError("a rated game needs two sides and a winner 0 or 1")
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma) for r in side] for side in sides]
    rated = MODEL.rate(teams, ranks=[0, 1] if winner == 0 else [1, 0])
    a, b = ([Rating(p.mu, p.sigma) for p in team] for team in rated)
    return tuple(a), tuple(b)
