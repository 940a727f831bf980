"""A Revanche series: best of 1, 3 or 5 games (chicos, partidas).

Best of 3 or 5, a series won by whoever wins 2 or 3 games; a "chico" is one game, often
best of three (docs/rules.md §Series).
Pure: imports neither Flask nor sqlite3.
"""

from __future__ import annotations

from dataclasses import dataclass

#: The series lengths offered (1 = single games, the tally still kept).
BEST_OF = (1, 3, 5)


@dataclass(frozen=True)
class SeriesStatus:
    """Where a series stands.

    ``wins`` games won per side, ``best_of`` 1/3/5, ``needed`` wins that take the
    series, ``game`` the number of the game being (or last) played, 1-based, and
    ``winner`` the side that has taken the series, None while it goes on (always None
    for best of 1, which is just a running tally).
    """

    wins: tuple[int, int]
    best_of: int
    needed: int
    game: int
    winner: int | None

    @property
    def decided(self) -> bool:
        return self.winner is not None


def series_status(wins: tuple[int, int] | list[int], best_of: int, games: int) -> SeriesStatus:
    """The status of a series of length ``best_of`` after ``games`` games started.

    ``wins`` (games won by side 0 and side 1) counts only finished games.

    :raise ValueError: ``best_of`` is not 1, 3 or 5, or the numbers do not fit.
    """
    if best_of not in BEST_OF:
        raise ValueError(f"best_of must be one of {BEST_OF}, not {best_of!r}")
    a, b = int(wins[0]), int(wins[1])
    if a < 0 or b < 0 or a + b > games:
        raise ValueError(f"wins {wins!r} do not fit {games} games")
    needed = best_of // 2 + 1
    winner = None
    if best_of > 1:
        winner = 0 if a >= needed else 1 if b >= needed else None
    return SeriesStatus(wins=(a, b), best_of=best_of, needed=needed, game=max(1, games), winner=winner)
