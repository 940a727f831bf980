"""The match log as data: what each action did, in facts, never in words.

:meth:`~scorer.core.match.Match.apply` records one :class:`LogEntry` per action that counts:
who acted, the action, the tentos each side won and the score after, and the
:class:`LogFact` values that say what happened, in order (a call, an answer, a trick, the
hand paid, the score capped at the target, the game over...). The edges say them in a
language with the sides' names and the variant's table words (:mod:`scorer.present.log_words`);
nothing here is a sentence.

Sides are ``0`` and ``1``; every number of points is in tentos. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType
from typing import Any, NamedTuple


class LogKind(StrEnum):
    """What one fact of the log says happened (a closed set; each needs the fields of
    :data:`NEEDS`). "The side" is :attr:`LogFact.side`."""

    CALL = "call"
    """The side called ``call`` (a truco raise, an Envido or a Flor call)."""
    QUIERO = "quiero"
    """The side accepted ``call``; ``value``: the hand's worth now, for a truco call (None
    for an Envido or Flor, which waits for its comparison)."""
    PLAYED_ON = "played_on"
    """Catalan truc: playing a trick while ``call`` was pending accepted it (the side is the
    one that played on); ``value``: the hand's worth now (docs/rules.md §Catalan ladder)."""
    TRUCO_REFUSED = "truco_refused"
    """The side refused the truco ``call`` (the hand it ends follows as :attr:`HAND`)."""
    ENVIDO_REFUSED = "envido_refused"
    """The Envido ``chain`` was refused: ``points`` to the side (its last caller)."""
    FLOR_REFUSED = "flor_refused"
    """The Flor ``call`` (flor, contraflor, contraflor_al_resto) was refused: ``points`` to
    the side (who sang it)."""
    FLOR_UNCONTESTED = "flor_uncontested"
    """The other side had no Flor (``no_flor``): ``points`` to the side (who sang it)."""
    FLOR_CANCELS_ENVIDO = "flor_cancels_envido"
    """A Flor cancelled the Envido ``chain`` called before it (docs/rules.md §Flor cancels Envido)."""
    CHAIN_WON = "chain_won"
    """The accepted Envido or compared Flor ``chain`` went to the side: ``points``; ``counts``
    (the winner's count, the loser's) when both were typed, else None."""
    TRICK = "trick"
    """Trick ``number`` (1-3) won by the side; side None: a parda (tie)."""
    HAND = "hand"
    """Hand ``number`` paid ``points`` to the side; side None: nobody scores (three pardas
    under ``all_pardas="nobody"``; points 0)."""
    MAZO = "mazo"
    """The side folded (went to the mazo)."""
    MAZO_BONUS = "mazo_bonus"
    """Folding in the first trick before the Envido gives the side 1 more (option
    ``mazo_primera``); it is counted in the :attr:`HAND` that follows."""
    SPECIAL_PLAYED = "special_played"
    """The side chose to play the ``special`` hand (``mao_de_onze``...): it is worth ``value``,
    no betting (docs/rules.md §Special hands)."""
    SPECIAL_RUN = "special_run"
    """The side ran from the ``special`` hand (the hand it ends follows as :attr:`HAND`)."""
    CORRECTION = "correction"
    """A manual correction of ``points`` (signed, never 0) to the side's score."""
    CAPPED = "capped"
    """The ``target`` caps the score: ``counted`` of the ``points`` just paid count."""
    GAME_OVER = "game_over"
    """The side reached the ``target`` where the game ends at once: it won."""
    GAME_OVER_AT_HAND_END = "game_over_at_hand_end"
    """Gaudério: past the target at the end of the hand, the side won with ``totals``
    (its score, the other's; docs/rules.md §Reaching the target)."""
    TIE_PLAYS_ON = "tie_plays_on"
    """Gaudério: both sides passed the ``target`` with equal totals: another hand."""


NEEDS: Mapping[LogKind, tuple[str, ...]] = MappingProxyType({
    LogKind.CALL: ("side", "call"),
    LogKind.QUIERO: ("side", "call"),
    LogKind.PLAYED_ON: ("side", "call", "value"),
    LogKind.TRUCO_REFUSED: ("side", "call"),
    LogKind.ENVIDO_REFUSED: ("side", "chain", "points"),
    LogKind.FLOR_REFUSED: ("side", "call", "points"),
    LogKind.FLOR_UNCONTESTED: ("side", "points"),
    LogKind.FLOR_CANCELS_ENVIDO: ("chain",),
    LogKind.CHAIN_WON: ("side", "chain", "points"),
    LogKind.TRICK: ("number",),
    LogKind.HAND: ("number", "points"),
    LogKind.MAZO: ("side",),
    LogKind.MAZO_BONUS: ("side",),
    LogKind.SPECIAL_PLAYED: ("side", "special", "value"),
    LogKind.SPECIAL_RUN: ("side", "special"),
    LogKind.CORRECTION: ("side", "points"),
    LogKind.CAPPED: ("target", "counted", "points"),
    LogKind.GAME_OVER: ("side", "target"),
    LogKind.GAME_OVER_AT_HAND_END: ("side", "totals"),
    LogKind.TIE_PLAYS_ON: ("target",),
})
"""The fields each kind must have (not None, not empty); the others stay at their defaults
(:meth:`LogFact.missing`; ``tests/core/match/test_log.py`` checks every fact the engine makes)."""


class LogFact(NamedTuple):
    """One thing an action made happen, as data (its ``kind`` says which fields it has:
    :data:`NEEDS`; the others keep their defaults). Immutable (a named tuple: made once per
    fact on every action and every legality trial, so it must be cheap).

    Attributes:
        kind: what happened (:class:`LogKind`).
        side: the side it is about (who called, answered, folded, decided, won or was
            paid; see the kind), 0 or 1; None where the kind says so (a parda, nobody scores).
        call: a call id (:data:`scorer.core.schema.CALLS`).
        chain: the Envido or Flor calls in order (call ids); on a ``CALL``, the Envido chain it
            ends when it repeats the call before it (a second Envido), else empty.
        amounts: the tentos of each open Envido raise ("N más") of ``chain``, in order; on the
            ``CALL`` or ``QUIERO`` of an open raise, its own amount; else empty.
        points: tentos paid to ``side`` (already cut to what counted where the target caps
            the score); for a correction, its signed delta.
        value: the hand's worth in tentos after it.
        number: the trick (1-3) or hand (1-based) number.
        special: the special hand's id (``mao_de_onze``, ``mao_de_dez``, ``mao_de_ferro``).
        target: the variant's target (tentos).
        counted: tentos of ``points`` that counted under the cap.
        counts: the Envido or Flor counts typed, the winner's first.
        totals: final scores at a gaudério end of game, the winner's first.
    """

    kind: LogKind
    side: int | None = None
    call: str | None = None
    chain: tuple[str, ...] = ()
    amounts: tuple[int, ...] = ()
    points: int | None = None
    value: int | None = None
    number: int | None = None
    special: str | None = None
    target: int | None = None
    counted: int | None = None
    counts: tuple[int, int] | None = None
    totals: tuple[int, int] | None = None

    def missing(self) -> tuple[str, ...]:
        """The fields its kind needs (:data:`NEEDS`) that it lacks (empty when complete)."""
        return tuple(name for name in NEEDS[self.kind] if getattr(self, name) in (None, ()))

    def as_dict(self) -> dict[str, Any]:
        """The fields it has (those not at their defaults), ``kind`` first."""
        defaults = self._field_defaults
        return {key: value for key, value in zip(self._fields, self) if key == "kind" or value != defaults[key]}

    def __repr__(self) -> str:
        """``LogFact(LogKind.HAND, side=0, points=2, number=1)``: only the fields it has."""
        rest = "".join(f", {key}={value!r}" for key, value in self.as_dict().items() if key != "kind")
        return f"LogFact(LogKind.{self.kind.name}{rest})"


class LogEntry(NamedTuple):
    """One action that counts (undo removes the entry of the action it undoes). Immutable.

    Attributes:
        index: 0-based position among the actions that count.
        action: the action as applied (normalised; :data:`scorer.core.schema.Action`), read-only.
        side: who acted (the caller, the answerer, who folded, decided or was corrected), or
            None where the table entered a result (a trick, the hand's or the Envido's winner,
            the typed counts).
        hand: the number of the hand the action was made in (1-based).
        delta: tentos each side won by it (``(side 0, side 1)``; a correction may be negative;
            what counted, after any cap at the target).
        score: both sides' tentos after it.
        facts: what happened, in order (:class:`LogFact`).
    """

    index: int  # type: ignore[assignment]  # a field named as tuple's own index(), as it always was
    action: Mapping[str, Any]
    side: int | None
    hand: int
    delta: tuple[int, int]
    score: tuple[int, int]
    facts: tuple[LogFact, ...]


ACTING_KINDS = frozenset({"call", "quiero", "no_quiero", "no_flor", "mazo", "special_hand", "adjust"})
"""Action types whose ``side`` is the side that acted (the others' ``side`` is a result)."""


def entry(index: int, action: Mapping[str, Any], hand: int, before: tuple[int, int], after: tuple[int, int],
          facts: list[LogFact]) -> LogEntry:
    """The :class:`LogEntry` of ``action`` (made in hand ``hand``), from the scores before
    and after it (tentos) and the facts it produced."""
    side = action.get("side") if action["type"] in ACTING_KINDS else None
    delta = (after[0] - before[0], after[1] - before[1])
    return LogEntry(index, MappingProxyType(action), side, hand, delta, after, tuple(facts))
