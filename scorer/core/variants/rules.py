"""The parts a variant is built from: the truco ladder's steps, the Envido and Flor rules,
the special hand, an option's description, and how Falta Envido is valued. Units: tentos."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Literal

from scorer.core.card_rules import PiezaRules

#: Envido-type calls, in the order a chain may use them.
ENVIDO_CALLS = ("envido", "real_envido", "envido_mas", "falta_envido")
#: The open Envido raise ("dos más", "N más"): a call that carries its ``amount`` in tentos,
#: where :attr:`EnvidoRules.open_raises` (docs/rules.md §Venezuelan options).
OPEN_RAISE = "envido_mas"
#: Flor-type calls.
FLOR_CALLS = ("flor", "contraflor", "contraflor_al_resto", "flor_envida")

GAME: Literal["game"] = "game"
"""A ladder step's worth that is the whole game: the hand pays what the target is, so its
winner reaches the target (Venezuelan "vale juego")."""


@dataclass(frozen=True)
class TrucoStep:
    """One rung of a truco ladder.

    Attributes:
        call: the call's id as players say it (``truco``, ``seis``, ``retruc``...).
        worth: what the hand is worth once this call is accepted (tentos), or :data:`GAME`.
        refused: what the caller scores if it is refused (tentos).
    """

    call: str
    worth: int | Literal["game"]
    refused: int

    def value(self, target: int) -> int:
        """What the hand is worth once this call is accepted, in a game to ``target`` tentos:
        ``worth``, or ``target`` for a step worth the game (the score is capped at the target)."""
        return target if self.worth == GAME else int(self.worth)


@dataclass(frozen=True)
class EnvidoRules:
    """Envido chains and their values.

    Attributes:
        chains: accepted value of each legal chain without Falta (tuple of calls -> tentos).
            A refused chain pays its last caller the accepted value of the chain minus its
            last call, or 1 when that is empty (docs/rules.md §Envido chains).
            ``falta_envido`` may end any of these chains (or stand alone) where ``falta``.
        closes_on_truco_accepted: Envido can no longer be called once a Truco is accepted
            (argentino-30, uruguaio; docs/rules.md §When Envido can be called) -- otherwise it stays open until the
            first trick is decided (same section).
        pieces: the hands are counted with these piezas (a turned-up card), else ``None``.
        falta: Falta Envido is always a call of this variant (``False``: left out, or an option).
        falta_option: Falta Envido is a call only where the table turns on the option
            ``falta_envido`` (venezolano: docs/rules.md §Venezuelan options).
        open_raises: the side answering an Envido may raise it by any whole number of tentos
            (:data:`OPEN_RAISE`, "N más"), again and again, the sides taking turns; refused, a
            raise pays what stood before it (venezolano: docs/rules.md §Open Envido raises).
    """

    chains: Mapping[tuple[str, ...], int]
    closes_on_truco_accepted: bool = False
    pieces: PiezaRules | None = None
    falta: bool = True
    falta_option: bool = False
    open_raises: bool = False

    @property
    def calls(self) -> tuple[str, ...]:
        """The Envido-type call ids this variant can use, in :data:`ENVIDO_CALLS` order (the
        Falta Envido also where it is an option; the open raise where the variant has it)."""
        used = {call for chain in self.chains for call in chain}
        used |= {"falta_envido"} if self.falta or self.falta_option else set()
        used |= {OPEN_RAISE} if self.open_raises else set()
        return tuple(call for call in ENVIDO_CALLS if call in used)

    @property
    def points_range(self) -> frozenset[int]:
        """Envido counts a hand can declare (for ``envido_points``): the calculator's own
        definition, :func:`scorer.core.envido_points.possible_counts`."""
        from scorer.core.envido_points import possible_counts

        return possible_counts("envido", pieces=self.pieces)


ARGENTINE_ENVIDO_CHAINS = MappingProxyType(
    {
        ("envido",): 2,
        ("envido", "envido"): 4,
        ("real_envido",): 3,
        ("envido", "real_envido"): 5,
        ("envido", "envido", "real_envido"): 7,
    }
)
"""docs/rules.md §Envido chains."""

GAUDERIO_ENVIDO_CHAINS = MappingProxyType(
    {
        ("envido",): 2,
        ("real_envido",): 5,
        ("envido", "real_envido"): 5,
    }
)
"""Envido 2/1, Real Envido 5/1, Envido-Real 5/2: docs/rules.md §Gaudério Envido."""


@dataclass(frozen=True)
class FlorRules:
    """Flor values.

    Attributes:
        uncontested: a Flor the other side answers with ``no_flor`` (3).
        compared: flor answered by flor, compared; the better one scores this (4), or
            ``None`` where a second flor is not an answer (gauderio: contraflor instead).
        refused: the flor caller's gain when the other side refuses (``no_quiero``):
            "con flor me achico" (3) or gauderio's "fugir" (4).
        contraflor: a compared contraflor pays the better flor this (6).
        contraflor_answered: contraflor / contraflor_al_resto wait for quiero/no_quiero
            (argentino-30, uruguaio) instead of being compared at once (gauderio; docs/rules.md §Flor values).
        contraflor_refused: a refused contraflor pays its caller this (4).
        resto_refused_after_flor / resto_refused_after_contraflor: a refused
            contraflor_al_resto pays its caller 4 after a flor, 6 after a contraflor.
        pieces: the hands are counted with these piezas (a turned-up card), else ``None``.
        raises: the calls that may answer a Flor besides a Flor (``contraflor``,
            ``contraflor_al_resto``; venezolano's ``flor_envida``, "mi flor envida"); empty
            where the variant has none.
        envida: what each "mi flor envida" adds to the Flor exchange (2: docs/rules.md
            §Venezuelan options); it answers a Flor or another "mi flor envida".
    """

    uncontested: int = 3
    compared: int | None = 4
    refused: int = 3
    contraflor: int = 6
    contraflor_answered: bool = True
    contraflor_refused: int = 4
    resto_refused_after_flor: int = 4
    resto_refused_after_contraflor: int = 6
    pieces: PiezaRules | None = None
    raises: tuple[str, ...] = ("contraflor", "contraflor_al_resto")
    envida: int = 2

    @property
    def calls(self) -> tuple[str, ...]:
        """The Flor-type call ids of this variant: ``flor`` and its ``raises``."""
        return ("flor", *self.raises)

    @property
    def points_range(self) -> frozenset[int]:
        """Flor counts a hand can declare: :func:`scorer.core.envido_points.possible_counts`."""
        from scorer.core.envido_points import possible_counts

        return possible_counts("flor", pieces=self.pieces)


@dataclass(frozen=True)
class SpecialHandRules:
    """The hand at 11 (or 10): mão de onze / mão de dez / the Catalan 11-point rule.

    Attributes:
        threshold: a side with at least this many tentos (and below the target) is "at 11".
        name: ``mao_de_onze`` or ``mao_de_dez`` when exactly one side is at the threshold.
        play_worth: the hand's worth when that side decides to play (no truco calls).
        run_pays: what the other side scores when it decides to run.
        ferro_worth: the hand's worth when both sides are at the threshold (mão de ferro,
            no truco calls, no decision).
    """

    threshold: int
    name: str
    play_worth: int
    run_pays: int
    ferro_worth: int


@dataclass(frozen=True)
class OptionSpec:
    """A setting a table chooses before the match.

    Attributes:
        key: the option's name in ``options``.
        choices: the accepted values.
        default: the value used when the option is not given.
        label: English label (translated by the web layer).
        help: one English line saying what the option does (translated by the web layer),
            shown under the control and in ``GET /api/variants``; empty for none.
        before: the value a match stored before this option existed plays by, where that is
            not the default (``None``: the default); see :meth:`Variant.options_before`.
    """

    key: str
    choices: tuple[Any, ...]
    default: Any
    label: str
    help: str = ""
    before: Any = None


FALTA_CONVENTIONS = (
    "target_minus_leader", "leader_stage", "whole_game", "malas_wins_game", "winner_stage", "loser_lacks",
)
"""How an accepted Falta Envido (and a Contraflor al resto) is valued, with T the target, H the
malas (half of T), L the leader's score, W the Envido winner's and Lo the loser's, all before
the Envido is paid (docs/rules.md §Falta Envido):

* ``target_minus_leader`` / ``whole_game``: F = T - L (convention A).
* ``leader_stage``: L < H -> F = H - L; else T - L (B).
* ``malas_wins_game``: L < H -> F = T - W (the winner reaches the target); else T - L (C).
* ``winner_stage``: L < H -> F = H - W (the winner completes its malas); else T - L (D).
* ``loser_lacks``: F = T - Lo, what the loser lacks for the game (E).
"""

WINNER_FALTAS = frozenset({"malas_wins_game", "winner_stage", "loser_lacks"})
"""The conventions whose value can depend on who wins the Envido."""
