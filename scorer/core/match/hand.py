"""The hand being played and the score around it (internal state of :class:`~scorer.core.match.Match`),
and who wins a hand from its tricks (:func:`decide_hand`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

SIDES = (0, 1)


@dataclass
class Hand:
    """Everything that belongs to the hand being played (internal, mutable)."""

    number: int
    mano: int
    value: int
    special: str | None = None
    special_side: int | None = None
    no_betting: bool = False
    awaiting: str | None = None  # "special_hand", "envido_winner", "flor_winner"
    truco_level: int = -1  # index in the ladder of the last accepted call
    truco_raise_side: int | None = None  # who may raise next (the side that accepted)
    truco_pending: tuple[int, int] | None = None  # (ladder index, caller)
    envido_chain: list[str] = field(default_factory=list)
    envido_raises: list[int] = field(default_factory=list)  # tentos of each open raise ("N más") in the chain
    envido_caller: int | None = None
    envido_pending: bool = False
    envido_done: bool = False
    flor_chain: list[tuple[str, int]] = field(default_factory=list)
    flor_pending: bool = False
    flor_done: bool = False
    compare_stake: Any = None  # tentos, "falta" or "per_flor"
    tricks: list[int | None] = field(default_factory=list)
    actions: int = 0

    def copy(self) -> Hand:
        """A copy whose lists are its own (every action and every legality trial makes one:
        a plain attribute copy, several times cheaper than ``dataclasses.replace``)."""
        new = object.__new__(Hand)
        new.__dict__.update(self.__dict__)
        new.envido_chain, new.flor_chain, new.tricks = list(self.envido_chain), list(self.flor_chain), list(self.tricks)
        new.envido_raises = list(self.envido_raises)
        return new


@dataclass
class _Core:
    """Score, outcome and the current hand: what one action changes (internal)."""

    score: list[int]
    winner: int | None
    hand: Hand
    paid: list[int] = field(default_factory=lambda: [0, 0])  # tentos awarded, before the cap

    def copy(self) -> _Core:
        return _Core(list(self.score), self.winner, self.hand.copy(), list(self.paid))


def decide_hand(tricks: Sequence[int | None], *, mano: int, all_pardas: str) -> tuple[bool, int | None]:
    """Who wins a hand from its tricks so far.

    Args:
        tricks: up to 3 trick results, each ``0``, ``1`` or ``None`` (parda).
        mano: the side that is mano this hand (wins three pardas under ``"mano"``).
        all_pardas: ``"mano"`` or ``"nobody"`` (docs/rules.md §Pardas).

    Returns:
        ``(decided, winner)``: ``decided`` is False while another trick is needed;
        ``winner`` is ``None`` only for three pardas under ``"nobody"``.

    Rules (docs/rules.md §Pardas): two clear
    wins; a win and a parda in either order; 1-1 then the third decides, a third parda
    goes to the winner of the first trick; two pardas then the third decides.
    """
    first = tricks[0] if tricks else None
    if len(tricks) < 2:
        return False, None
    second = tricks[1]
    if first is not None:
        if second is None or second == first:
            return True, first
        if len(tricks) < 3:
            return False, None
        third = tricks[2]
        return True, first if third is None else third
    if second is not None:
        return True, second
    if len(tricks) < 3:
        return False, None
    third = tricks[2]
    if third is not None:
        return True, third
    return True, mano if all_pardas == "mano" else None
