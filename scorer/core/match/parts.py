"""What :class:`~scorer.core.match.calls.Calls` and :class:`~scorer.core.match.plays.Plays` use of
the :class:`~scorer.core.match.Match` they are mixed into, said once for the type checker
(issue 35 item 3). Nothing here runs: the attributes are set by ``Match.__init__`` and the
methods are ``Match``'s own (``scorer/core/match/engine.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from scorer.core.match.hand import Hand, _Core
from scorer.core.match.log import LogFact
from scorer.core.variants import Variant


class MatchParts:
    """The match's attributes and the engine's helpers the mixins call (declared, not defined)."""

    variant: Variant
    options: dict[str, Any]
    target: int
    players_per_side: int | None
    _core: _Core

    if TYPE_CHECKING:
        def _new_hand(self, number: int, mano: int, score: Sequence[int]) -> Hand: ...
        def _flor_in_play(self) -> bool: ...
        def _envido_open(self, hand: Hand) -> bool: ...
        def _pending(self, hand: Hand) -> dict[str, Any] | None: ...
        def _award(self, core: _Core, side: int, points: int, facts: list[LogFact]) -> None: ...
        def _check_end_of_hand_target(self, core: _Core, facts: list[LogFact]) -> None: ...
        def _end_hand(self, core: _Core, winner: int | None, points: int, facts: list[LogFact]) -> None: ...
        def _require_side_to_answer(self, hand: Hand, side: int) -> dict[str, Any]: ...
        def _require_no_comparison(self, hand: Hand) -> None: ...
        def _require_no_pending(self, hand: Hand, *, truco_ok: bool = False) -> None: ...
        def _refuse_top(self, core: _Core, facts: list[LogFact]) -> None: ...
