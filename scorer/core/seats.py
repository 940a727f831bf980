"""Seats at a table of 4 or 6: who deals and who is mano in each hand.

Partners sit alternately, so the order of play goes mano side, other side, mano side...
With the players of each side listed in their order of play, the seats in order of
play are ``[m1, o1, m2, o2(, m3, o3)]``, where ``m`` is the side that is mano in hand 1
and ``m1`` is that hand's mano. The mano moves one seat on each hand ("a cada nova
mão, o mão passa para o jogador seguinte": docs/rules.md §Seats and pica-pica), so the mano's
side alternates, as the engine's does; the dealer (the "pé") is the seat before the
mano and plays last.

For a variant with pica-pica (``Variant.pica_pica``: argentino-30) with 6 players, hands alternate between "redonda" (the teams play
together) and "pica-pica" (three 1-v-1 face-offs, each player against the one sitting
opposite), "until the last 5 points, then only team play" (docs/rules.md §Seats and pica-pica).
This module starts with a redonda and counts "the last 5 points" from the moment either
side has ``target - 5`` or more.

Pure: imports neither Flask nor sqlite3.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scorer.core.variants import Variant, get_variant

#: Table sizes that have seats (2 players need none: each side is one player).
SIZES = (4, 6)
#: Points before the target from which only redonda is played.
PICA_PICA_STOPS_BEFORE = 5


@dataclass(frozen=True)
class Seat:
    """One player: ``name``, ``side`` (0/1) and ``index`` in the order of play (0-based)."""

    name: str
    side: int
    index: int


@dataclass(frozen=True)
class HandSeats:
    """Who is mano and who deals in one hand, plus the 6-player round where it applies.

    ``round`` is ``"redonda"``, ``"pica-pica"`` or None (not a 6-player table of a
    variant with pica-pica); ``duels`` lists the pica-pica face-offs as ``(side-0 seat, side-1 seat)``.
    """

    mano: Seat
    dealer: Seat
    round: str | None
    duels: tuple[tuple[Seat, Seat], ...]


def players_per_side(players: Sequence[Sequence[str]] | None) -> int | None:
    """How many players sit on each side (2 or 3) when the seats are given, else ``None``:
    what :class:`~scorer.core.match.Match` takes as ``players_per_side``."""
    return len(players[0]) if players and players[0] else None


def play_order(players: Sequence[Sequence[str]], first_mano: int) -> list[Seat]:
    """The seats in order of play, starting with the mano of hand 1.

    ``players`` is two equal-length lists of names (side 0's, side 1's), 2 or 3 each;
    ``first_mano`` the side that is mano in hand 1.

    :raise ValueError: not 2 or 3 players a side, or ``first_mano`` not 0 or 1.
    """
    if first_mano not in (0, 1):
        raise ValueError(f"first_mano must be 0 or 1, not {first_mano!r}")
    if len(players) != 2 or len(players[0]) != len(players[1]) or 2 * len(players[0]) not in SIZES:
        raise ValueError("players must be two lists of 2 or 3 names")
    order: list[Seat] = []
    for i in range(len(players[0])):
        for side in (first_mano, 1 - first_mano):
            order.append(Seat(players[side][i], side, len(order)))
    return order


def _variant(variant: str | Variant) -> Variant:
    return variant if isinstance(variant, Variant) else get_variant(variant)


def six_player_round(variant: str | Variant, hand_number: int, score: Sequence[int], target: int) -> str:
    """``"redonda"`` or ``"pica-pica"`` for a hand of a 6-player ``variant`` game.

    Odd hands are redonda, even ones pica-pica, until a side has ``target - 5``
    tentos; from then on every hand is redonda. Variants without pica-pica: redonda.
    """
    if not _variant(variant).pica_pica or max(score) >= target - PICA_PICA_STOPS_BEFORE:
        return "redonda"
    return "redonda" if hand_number % 2 == 1 else "pica-pica"


def hand_seats(
    players: Sequence[Sequence[str]],
    first_mano: int,
    hand_number: int,
    *,
    variant: str | Variant,
    score: Sequence[int],
    target: int,
) -> HandSeats:
    """Mano, dealer and (6 players) the round of hand ``hand_number`` (1-based).

    :raise ValueError: as :func:`play_order`, or ``hand_number`` < 1.
    :raise RuleError: ``bad_variant`` for an unknown variant id.
    """
    if hand_number < 1:
        raise ValueError(f"hand_number must be 1 or more, not {hand_number!r}")
    order = play_order(players, first_mano)
    n = len(order)
    start = (hand_number - 1) % n
    mano, dealer = order[start], order[start - 1]
    rnd: str | None = None
    duels: tuple[tuple[Seat, Seat], ...] = ()
    if n == 6 and _variant(variant).pica_pica:
        rnd = six_player_round(variant, hand_number, score, target)
        if rnd == "pica-pica":
            pairs = [(order[(start + k) % n], order[(start + k + 3) % n]) for k in range(3)]
            duels = tuple((a, b) if a.side == 0 else (b, a) for a, b in pairs)
    return HandSeats(mano=mano, dealer=dealer, round=rnd, duels=duels)
