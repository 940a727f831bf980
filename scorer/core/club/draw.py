"""The night's draw: balanced pairs or threes from the players who came (docs/club.md
"The night's check-in").

The players are ordered by strength (their rating's ``mu``, the skill the model believes),
equal strengths in an order drawn with the seed, then dealt snake-wise: for pairs the
strongest with the weakest, the second with the second weakest...; for threes the first
third forwards, the second backwards, the last forwards. Then any swap of two players
between two teams that narrows the spread (the strongest team's total less the weakest's)
is made, until none does. The spread is never wider than the strongest player's strength
less the weakest's (docs/club.md proves it for the deal; a swap only narrows it).

>>> draw_teams([1, 2, 3, 4], {1: 30.0, 2: 20.0, 3: 26.0, 4: 24.0}, 2, seed=7)
[(1, 2), (3, 4)]
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from scorer.core.errors import N_, NP_, TrucoError

#: Team sizes a club night can draw (a table of 4 or of 6).
TEAM_SIZES = (2, 3)


class DrawError(TrucoError):
    """The players ticked cannot be drawn into teams: ``uneven`` (not a multiple of the
    team size), ``too_few`` (fewer than two teams), ``bad_size``, ``repeated_player``."""


def team_strength(team: Sequence[int], strengths: Mapping[int, float]) -> float:
    """The sum of a team's strengths."""
    return sum(strengths[p] for p in team)


def spread(teams: Sequence[Sequence[int]], strengths: Mapping[int, float]) -> float:
    """The strongest team's total less the weakest's (0.0 for one team)."""
    totals = [team_strength(t, strengths) for t in teams]
    return max(totals) - min(totals) if totals else 0.0


def _check(players: Sequence[int], size: int) -> None:
    if size not in TEAM_SIZES:
        raise DrawError("bad_size", N_("Teams are of 2 or 3 players."))
    if len(set(players)) != len(players):
        raise DrawError("repeated_player", N_("A player is in the draw twice."))
    if len(players) < 2 * size:
        raise DrawError("too_few", NP_("Tick at least {count} player.", "Tick at least {count} players."),
                        count=2 * size)
    if len(players) % size:
        raise DrawError("uneven", NP_("{ticked} players cannot be split into teams of {count}: tick or untick one.",
                                      "{ticked} players cannot be split into teams of {count}: tick or untick some."),
                        ticked=len(players), count=size)


def _score(teams: Sequence[Sequence[int]], strengths: Mapping[int, float]) -> tuple[float, float]:
    """What a swap must lower: the spread first, then the sum of the teams' squared distances
    from their mean (a swap between two middle teams can open the way for the spread)."""
    totals = [team_strength(t, strengths) for t in teams]
    mean = sum(totals) / len(totals)
    return (round(max(totals) - min(totals), 9), round(sum((x - mean) ** 2 for x in totals), 9))


def _improve(teams: list[list[int]], strengths: Mapping[int, float]) -> None:
    """Swap players between teams while a swap lowers :func:`_score` (each swap lowers it and
    never widens the spread, so this ends and keeps the deal's bound)."""
    improved = True
    while improved:
        improved = False
        best = _score(teams, strengths)
        for i in range(len(teams)):
            for j in range(i + 1, len(teams)):
                for a in range(len(teams[i])):
                    for b in range(len(teams[j])):
                        teams[i][a], teams[j][b] = teams[j][b], teams[i][a]
                        now = _score(teams, strengths)
                        if now < best:
                            best, improved = now, True
                        else:
                            teams[i][a], teams[j][b] = teams[j][b], teams[i][a]


def draw_teams(players: Sequence[int], strengths: Mapping[int, float], size: int, *, seed: int
               ) -> list[tuple[int, ...]]:
    """Teams of ``size`` (2 or 3) from ``players`` (ids; a player missing from ``strengths``
    has 0.0), balanced as the module says; the same ``seed`` gives the same teams. Teams
    come strongest first, each team's players strongest first.

    :raise DrawError: see :class:`DrawError`.
    """
    _check(players, size)
    power = {p: float(strengths.get(p, 0.0)) for p in players}
    order = sorted(players)  # the order ticked does not matter; the seed alone orders equals
    random.Random(seed).shuffle(order)
    order.sort(key=lambda p: -power[p])  # stable: equal strengths keep the seed's order
    count = len(order) // size
    teams: list[list[int]] = [[] for _ in range(count)]
    for block in range(size):
        chunk = order[block * count:(block + 1) * count]
        for i, p in enumerate(reversed(chunk) if block % 2 else chunk):
            teams[i].append(p)
    _improve(teams, power)
    ranked = [tuple(sorted(t, key=lambda p: (-power[p], order.index(p)))) for t in teams]
    return sorted(ranked, key=lambda t: (-team_strength(t, power), order.index(t[0])))
