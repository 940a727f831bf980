"""The match engine: a Truco match as a fold over the actions the table calls out.

A :class:`Match` starts from a variant (:mod:`scorer.core.variants`), its options and who is
mano in the first hand; :meth:`Match.apply` validates an action (a JSON-shaped dict of
the schema in :mod:`scorer.core.schema`) and applies it, or raises :class:`~scorer.core.errors.RuleError`
and changes nothing. :meth:`Match.state` gives the JSON state the web app, the CLI and
outside tools read: score, hand, pending call, legal actions with the tentos each pays,
and a log that says in words what every action paid.

Sides are ``0`` and ``1``. Every number is in tentos.

Rule sources: seed 000/003 (truco-15), 001 (paulista), 002 (gauderio), 004 (truc), and
``shared/rules/REFERENCE.md`` for argentino-30, uruguaio and mineiro; issue #2 decides
where both are silent.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from scorer.core.envido_points import count_spans, describe_counts
from scorer.core.errors import N_, PageText, RuleError
from scorer.core.schema import ACTION_TYPES, LegalAction, State, bare_action, check_side, normalize_action
from scorer.core.variants import ENVIDO_CALLS, FLOR_CALLS, TABLE_WORDS, PageWord, TableWord, TableWords, Variant, get_variant

__all__ = ["ACTION_TYPES", "CALL_NAMES", "Match", "decide_hand", "normalize_action", "render_lines"]

CALL_NAMES = {  # ids the engine accepts, with a neutral name (the table's words: variants.TABLE_WORDS)
    "truco": "Truco",
    "retruco": "Retruco",
    "vale_cuatro": "Vale Cuatro",
    "seis": "Seis",
    "nove": "Nove",
    "dez": "Dez",
    "doze": "Doze",
    "truc": "Truc",
    "retruc": "Retruc",
    "envido": "Envido",
    "real_envido": "Real Envido",
    "falta_envido": "Falta Envido",
    "flor": "Flor",
    "contraflor": "Contraflor",
    "contraflor_al_resto": "Contraflor al resto",
}
"""How each call is written at the table in the log and in errors (game terms are not
translated). Display only: which calls an action may carry is :data:`scorer.core.schema.CALLS`."""

SIDES = (0, 1)

LogLine = tuple[str, dict[str, Any]]
"""One sentence of the match log: an English template (marked ``N_``) and its params.
A param named ``side`` (or ending in ``_side``) holds a side index and is written as that
side's name; a param named ``call`` (or ``chain``) holds call names."""


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
    envido_caller: int | None = None
    envido_pending: bool = False
    envido_done: bool = False
    flor_chain: list[tuple[str, int]] = field(default_factory=list)
    flor_pending: bool = False
    flor_done: bool = False
    compare_stake: Any = None  # tentos, or "falta"
    tricks: list[int | None] = field(default_factory=list)
    actions: int = 0

    def copy(self) -> Hand:
        return replace(
            self,
            envido_chain=list(self.envido_chain),
            flor_chain=list(self.flor_chain),
            tricks=list(self.tricks),
        )


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
        all_pardas: ``"mano"`` (seeds 000, 002, 004) or ``"nobody"`` (seed 001).

    Returns:
        ``(decided, winner)``: ``decided`` is False while another trick is needed;
        ``winner`` is ``None`` only for three pardas under ``"nobody"``.

    Rules (seed 000 "Quando uma vaza empata", seed 001 "Rodadas e empates"): two clear
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


class Match:
    """A match being scored: the variant, its options, and the fold of every action.

    Args:
        variant_id: a key of :data:`scorer.core.variants.VARIANTS`.
        options: the variant's options (see ``Variant.option_specs``); defaults fill the rest.
        mano: the side that is mano in hand 1 (0 or 1); the mano alternates every hand.

    Raises:
        RuleError: ``bad_variant``, ``bad_option`` or ``bad_side``.
    """

    def __init__(self, variant_id: str, options: Mapping[str, Any] | None = None, mano: int = 0) -> None:
        self.variant: Variant = get_variant(variant_id)
        self.options: dict[str, Any] = self.variant.resolve_options(options)
        check_side(mano, "mano")
        self.first_mano = mano
        self.target: int = self.options.get("target", self.variant.target)
        self.actions: list[dict[str, Any]] = []
        self._core = _Core([0, 0], None, self._new_hand(1, mano, [0, 0]))
        # One entry per effective (not undone) action: (action, core before it, log entry).
        self._history: list[tuple[dict[str, Any], _Core, dict[str, Any]]] = []

    # ----------------------------------------------------------------- public API

    @classmethod
    def replay(
        cls,
        variant_id: str,
        options: Mapping[str, Any] | None,
        mano: int,
        actions: Iterable[Mapping[str, Any]],
    ) -> Match:
        """Build a match by applying ``actions`` in order.

        Raises:
            RuleError: the first illegal action's error, with ``params["index"]`` set to
            its 0-based position in ``actions``.
        """
        match = cls(variant_id, options, mano)
        for index, action in enumerate(actions):
            try:
                match.apply(action)
            except RuleError as error:
                error.params["index"] = index
                raise
        return match

    @property
    def version(self) -> int:
        """How many actions were applied (undo included): the scoreboard's version."""
        return len(self.actions)

    @property
    def score(self) -> tuple[int, int]:
        """The two sides' tentos (capped at the target where the game ends at once)."""
        return self._core.score[0], self._core.score[1]

    @property
    def winner(self) -> int | None:
        """The side that won the game, or ``None`` while it goes on."""
        return self._core.winner

    def apply(self, action: Mapping[str, Any]) -> dict[str, Any]:
        """Validate ``action`` and apply it.

        Returns:
            The log entry it produced (``{"index", "action", "lines", "delta", "score",
            "hand"}``), or for ``undo`` the entry it removed.

        Raises:
            RuleError: malformed or illegal action; the match is unchanged.
        """
        clean = normalize_action(action)
        if clean["type"] == "undo":
            if not self._history:
                raise RuleError("nothing_to_undo", N_("There is nothing to undo."))
            _, before, entry = self._history.pop()
            self._core = before
            self.actions.append(clean)
            return entry
        core = self._core.copy()
        try:
            lines = self._apply(core, clean)
        except RuleError as error:
            if not error.allowed:
                error.allowed = self._allowed_now()
            _use_table_words(error, self.variant.words)
            raise
        entry = {
            "index": len(self._history),
            "action": clean,
            "lines": lines,
            "delta": [core.score[side] - self._core.score[side] for side in SIDES],
            "score": list(core.score),
            "hand": self._core.hand.number,
        }
        self._history.append((clean, self._core, entry))
        self._core = core
        self.actions.append(clean)
        return entry

    def legal_actions(self) -> list[LegalAction]:
        """Every action the rules allow now, each with what it pays.

        Returns:
            :class:`~scorer.core.schema.Offer` entries: concrete actions (as :meth:`apply` takes
            them) plus ``points`` (tentos the action awards at once, before any cap at the
            target, or for a call the stake if accepted; ``None`` where it pays nothing or
            it is not known yet) and ``points_side`` (who gets them). Corrections are
            offered as -1 and +1 per side where legal (any ``delta`` may be posted);
            ``undo`` is listed when there is something to undo. While an Envido or Flor
            waits for its winner, one :class:`~scorer.core.schema.DeclarePoints` entry
            (``{"type": "declare_points", "what", "min", "max"}``) says both sides'
            points may be typed (an ``envido_points`` action).
        """
        legal: list[LegalAction] = []
        hand = self._core.hand
        flor = self.variant.flor
        for candidate in self._candidates():
            if (
                candidate.get("call") == "flor" and hand.flor_pending and flor is not None
                and flor.compared is not None and hand.flor_chain[-1][0] == "flor"
            ):
                # Flor answered by Flor is the same action as "con flor quiero" (both
                # compare for ``compared``): one button for one action (issue 13 item 12).
                # The engine still accepts it when applied.
                continue
            core = self._core.copy()
            try:
                self._apply(core, candidate)
            except RuleError:
                continue
            delta = [core.paid[side] - self._core.paid[side] for side in SIDES]
            if candidate["type"] == "call":
                points, points_side = self._call_stake(candidate), None
            elif any(delta):
                points_side = 0 if delta[0] else 1
                points = delta[points_side]
            else:
                points, points_side = None, None
            legal.append({**candidate, "points": points, "points_side": points_side})  # type: ignore[typeddict-item]
        declare = self._declare_points()
        if declare:
            legal.append(declare)
        if self._history:
            legal.append({"type": "undo", "points": None, "points_side": None})
        return legal

    def _declare_points(self) -> LegalAction | None:
        """The typed-points form while an Envido or Flor waits for its winner, else None."""
        awaiting = self._core.hand.awaiting
        if self._core.winner is not None or awaiting not in ("envido_winner", "flor_winner"):
            return None
        what = "flor" if awaiting == "flor_winner" else "envido"
        rules = self.variant.flor if what == "flor" else self.variant.envido
        assert rules is not None
        return {"type": "declare_points", "what": what, "min": min(rules.points_range), "max": max(rules.points_range)}

    def state(
        self,
        names: Sequence[str] = ("Nós", "Eles"),
        translate: Callable[[str], str] | None = None,
        log_limit: int | None = None,
    ) -> State:
        """The JSON state (issue #2 "The contract"; typed as :class:`~scorer.core.schema.State`).

        Args:
            names: the two sides' names, used in the log.
            translate: a gettext-like callable for the log's sentences (English without it).
            log_limit: keep only the newest ``log_limit`` log entries (all when ``None``), so
                the cost of a scoreboard does not grow with the length of the match.

        Returns:
            ``{"variant", "options", "target", "ends_at_once", "names", "score", "winner",
            "stages", "hand": {"number", "mano", "value", "pending", "pending_truco",
            "special", "special_side", "envido_open", "tricks", "awaiting", "counts"},
            ``counts``: while an Envido or Flor waits for its points, the counts
            ``envido_points`` accepts as ``[low, high]`` runs, else None.
            "legal_actions", "log", "version"}``. ``stages`` is ``None`` or, where the
            variant has malas and buenas, each side's ``{"stage", "points"}``.
        """
        core, hand = self._core, self._core.hand
        return {
            "variant": self.variant.id,
            "options": dict(self.options),
            "target": self.target,
            "ends_at_once": self.variant.ends_at_once,
            "names": list(names),
            "mano_first_hand": self.first_mano,
            "score": list(core.score),
            "winner": core.winner,
            "stages": self._stages(),
            "hand": {
                "number": hand.number,
                "mano": hand.mano,
                "value": hand.value,
                "pending": self._pending(hand),
                "pending_truco": (
                    {"call": self.variant.truco_ladder[hand.truco_pending[0]].call, "side": hand.truco_pending[1]}
                    if hand.truco_pending
                    else None
                ),
                "special": hand.special,
                "special_side": hand.special_side,
                "envido_open": self._envido_open(hand) and core.winner is None,
                "tricks": list(hand.tricks),
                "awaiting": hand.awaiting,
                "counts": self._counts(hand),
            },
            "legal_actions": self.legal_actions(),
            "log": [
                {
                    **{key: value for key, value in entry.items() if key != "lines"},
                    "text": render_lines(entry["lines"], names, translate, self.variant.words),
                }
                for _, _, entry in self._history[-log_limit if log_limit else None :]
            ],
            "version": self.version,
        }

    # ------------------------------------------------------------- rules helpers

    def _new_hand(self, number: int, mano: int, score: Sequence[int]) -> Hand:
        """A fresh hand; decides mão de onze / dez / ferro from ``score`` (seed 001, 004)."""
        hand = Hand(number=number, mano=mano, value=self.variant.base_hand_value)
        special = self.variant.special_hand
        if special is None:
            return hand
        at_threshold = [special.threshold <= score[side] < self.target for side in SIDES]
        if all(at_threshold):
            hand.special, hand.no_betting, hand.value = "mao_de_ferro", True, special.ferro_worth
        elif any(at_threshold):
            hand.special, hand.special_side = special.name, at_threshold.index(True)
            hand.awaiting = "special_hand"
        return hand

    def _flor_in_play(self) -> bool:
        return self.variant.plays_flor(self.options)

    def _envido_open(self, hand: Hand) -> bool:
        """Envido can still be started this hand (seed 000: until the first trick is decided)."""
        rules = self.variant.envido
        return (
            rules is not None
            and not hand.tricks
            and not hand.envido_chain
            and not hand.envido_done
            and not hand.flor_chain
            and hand.awaiting != "special_hand"
            and not (rules.closes_on_truco_accepted and hand.truco_level >= 0)
        )

    def _pending(self, hand: Hand) -> dict[str, Any] | None:
        """The call that must be answered now: flor, then envido, then truco."""
        if hand.flor_pending:
            call, side = hand.flor_chain[-1]
            return {"call": call, "side": side}
        if hand.envido_pending:
            return {"call": hand.envido_chain[-1], "side": hand.envido_caller}
        if hand.truco_pending:
            index, side = hand.truco_pending
            return {"call": self.variant.truco_ladder[index].call, "side": side}
        return None

    def _counts(self, hand: Hand) -> list[list[int]] | None:
        """The counts ``envido_points`` accepts now, as ``[low, high]`` runs (the one
        definition, :func:`scorer.core.envido_points.possible_counts`), or None when no Envido or
        Flor waits for its points."""
        rules = {"envido_winner": self.variant.envido, "flor_winner": self.variant.flor}.get(hand.awaiting or "")
        return [list(span) for span in count_spans(rules.points_range)] if rules is not None else None

    def _stages(self) -> list[dict[str, Any]] | None:
        if not self.variant.malas_buenas:
            return None
        return [self.variant.stage(points, self.target) for points in self._core.score]

    def _falta(self, score: Sequence[int], winner: int | None) -> int | None:
        """Accepted Falta Envido value (REFERENCE.md 1.6; seed 000 for the 15-point game).

        Returns ``None`` when it depends on a winner not yet known.
        """
        convention = self.options.get("falta", self.variant.falta)
        leader = max(score)
        # The malas; a variant without them is one stage, the whole game.
        half = self.variant.malas_size(self.target) or self.target
        if convention == "leader_stage" and leader < half:
            value = half - leader
        elif convention == "malas_wins_game" and leader < half:
            if winner is None:
                return None
            value = self.target - score[winner]
        else:
            value = self.target - leader
        # No floor the rule texts do not have: a leader who lacks nothing (gauderio, where a
        # correction made mid-hand can bring the leader to the target) is paid 0.
        return max(value, 0)

    def _envido_value(self, chain: Sequence[str], score: Sequence[int], winner: int | None) -> int | None:
        """Accepted value of an envido chain (``None`` for a winner-dependent Falta)."""
        if chain and chain[-1] == "falta_envido":
            return self._falta(score, winner)
        assert self.variant.envido is not None
        return self.variant.envido.chains[tuple(chain)]

    def _envido_refused(self, chain: Sequence[str]) -> int:
        """What a refused chain pays its last caller: the chain before its last call, min 1."""
        before = tuple(chain[:-1])
        assert self.variant.envido is not None
        return self.variant.envido.chains.get(before, 1) if before else 1

    def _call_stake(self, action: Mapping[str, Any]) -> int | None:
        """What a call would be worth if accepted (tentos), or ``None`` if unknown."""
        call, hand = action["call"], self._core.hand
        for step in self.variant.truco_ladder:
            if step.call == call:
                return step.worth
        if call in ENVIDO_CALLS:
            chain = [*hand.envido_chain, call] if hand.envido_pending else [call]
            return self._envido_value(chain, self._core.score, None)
        flor = self.variant.flor
        assert flor is not None
        if call == "flor":
            return flor.uncontested if not hand.flor_pending else flor.compared
        if call == "contraflor":
            return flor.contraflor
        return self._falta(self._core.score, None)

    # --------------------------------------------------------------- applying

    def _candidates(self) -> list[dict[str, Any]]:
        """Every concrete action worth trying for ``legal_actions``."""
        calls = [step.call for step in self.variant.truco_ladder]
        if self.variant.envido:
            calls += ENVIDO_CALLS
        if self._flor_in_play():
            calls += FLOR_CALLS
        out: list[dict[str, Any]] = []
        for side in SIDES:
            out += [{"type": "call", "side": side, "call": call} for call in calls]
            out += [{"type": kind, "side": side} for kind in ("quiero", "no_quiero", "no_flor", "envido_winner")]
            out += [{"type": "special_hand", "side": side, "decision": d} for d in ("play", "run")]
            out.append({"type": "mazo", "side": side})
        out += [{"type": "trick", "winner": winner} for winner in (0, 1, None)]
        out += [{"type": "hand_winner", "side": side} for side in (0, 1, None)]
        out += [{"type": "adjust", "side": side, "delta": delta} for side in SIDES for delta in (-1, 1)]
        return out

    def _apply(self, core: _Core, action: dict[str, Any]) -> list[LogLine]:
        """Apply a normalized action to ``core`` (a copy); raise RuleError if illegal."""
        kind = action["type"]
        if core.winner is not None:
            raise RuleError(
                "game_over",
                N_("The game is over; only undo is possible."),
                allowed=[{"type": "undo"}],
            )
        if kind == "adjust":
            return self._adjust(core, action["side"], action["delta"])
        hand = core.hand
        hand.actions += 1
        if hand.awaiting == "special_hand" and kind != "special_hand":
            raise RuleError(
                "special_hand_first",
                N_("{special}: first the decision to play or run, which belongs to {special_side}."),
                allowed=[{"type": "special_hand", "side": hand.special_side, "decision": d} for d in ("play", "run")],
                special_side=hand.special_side,
                special=hand.special,
            )
        handler = {
            "call": self._call,
            "quiero": self._quiero,
            "no_quiero": self._no_quiero,
            "no_flor": self._no_flor,
            "envido_winner": self._compared,
            "envido_points": self._compared,
            "trick": self._trick,
            "hand_winner": self._hand_winner,
            "mazo": self._mazo,
            "special_hand": self._special_hand,
        }[kind]
        return handler(core, action)

    def _award(self, core: _Core, side: int, points: int, lines: list[LogLine]) -> None:
        """Add ``points`` to ``side``; end the game where the target is reached at once."""
        if core.winner is not None or points <= 0:
            return
        core.paid[side] += points
        core.score[side] += points
        if self.variant.ends_at_once and core.score[side] >= self.target:
            counted = points - (core.score[side] - self.target)
            core.score[side] = self.target
            if counted < points and lines:
                # The log says what was counted: the target caps the score (issue 13 item 4).
                template, params = lines[-1]
                key = "points" if params.get("points") == points else "delta" if params.get("delta") == points else None
                if key is not None and params.get("side", side) == side:
                    lines[-1] = (template, {**params, key: counted})
                lines.append((N_("{target} caps the score: {counted} of {points} counted."), {"target": self.target, "counted": counted, "points": points}))
            self._finish(core, side)
            lines.append((N_("{target} for {side}: game over, won by {side}."), {"side": side, "target": self.target}))

    @staticmethod
    def _finish(core: _Core, winner: int) -> None:
        """The game is over: record the winner; nothing in the hand waits any more."""
        core.winner = winner
        hand = core.hand
        hand.awaiting, hand.truco_pending, hand.envido_pending, hand.flor_pending = None, None, False, False

    def _check_end_of_hand_target(self, core: _Core, lines: list[LogLine]) -> None:
        """Gaudério: the target is checked at the end of the hand; the higher total wins,
        equal totals play another hand (seed 002 "Empate" / last paragraph)."""
        a, b = core.score
        if core.winner is not None or max(a, b) < self.target:
            return
        if a == b:
            lines.append((N_("Both sides passed {target} with equal totals: another hand."), {"target": self.target}))
            return
        self._finish(core, 0 if a > b else 1)
        lines.append((N_("Game over, won by {side}: {points} to {other_points}."), {"side": core.winner, "points": max(a, b), "other_points": min(a, b)}))

    def _end_hand(self, core: _Core, winner: int | None, points: int, lines: list[LogLine]) -> None:
        """Pay the hand, then deal the next one (the mano alternates)."""
        hand = core.hand
        if winner is None:
            lines.append((N_("Hand {number}: nobody scores."), {"number": hand.number}))
        else:
            lines.append((N_("Hand {number}: +{points} {side}."), {"number": hand.number, "points": points, "side": winner}))
            self._award(core, winner, points, lines)
        if not self.variant.ends_at_once:
            self._check_end_of_hand_target(core, lines)
        if core.winner is None:
            core.hand = self._new_hand(hand.number + 1, 1 - hand.mano, core.score)

    def _require_side_to_answer(self, hand: Hand, side: int) -> dict[str, Any]:
        pending = self._pending(hand)
        if pending is None:
            raise RuleError("nothing_to_answer", N_("No call is waiting for an answer."))
        if pending["side"] == side:
            raise RuleError(
                "own_call",
                N_("{call} by {side}: the answer belongs to {answer_side}."),
                side=side,
                answer_side=1 - side,
                call=pending["call"],
            )
        return pending

    def _require_no_comparison(self, hand: Hand) -> None:
        if hand.awaiting in ("envido_winner", "flor_winner"):
            raise RuleError(
                "enter_envido_winner",
                N_("Enter who won the {what} (or both sides' points) first."),
                what="Flor" if hand.awaiting == "flor_winner" else "Envido",
            )

    def _require_no_pending(self, hand: Hand, *, truco_ok: bool = False) -> None:
        self._require_no_comparison(hand)
        pending = self._pending(hand)
        if pending and not (truco_ok and not hand.flor_pending and not hand.envido_pending):
            raise RuleError(
                "answer_first",
                N_("{call} by {side} waits for an answer from {answer_side} first."),
                call=pending["call"],
                side=pending["side"],
                answer_side=1 - pending["side"],
            )

    def _allowed_now(self) -> list[dict[str, Any]]:
        """The legal actions, without their points (for error messages)."""
        return [bare_action(action) for action in self.legal_actions()]

    # calls ----------------------------------------------------------------

    def _call(self, core: _Core, action: dict[str, Any]) -> list[LogLine]:
        call, side = action["call"], action["side"]
        ladder = [step.call for step in self.variant.truco_ladder]
        if call in ladder:
            return self._truco_call(core, side, ladder.index(call))
        if call in ENVIDO_CALLS and self.variant.envido is not None:
            return self._envido_call(core, side, call)
        if call in FLOR_CALLS and self._flor_in_play():
            return self._flor_call(core, side, call)
        raise RuleError(
            "no_such_call",
            N_("{call} is not a call in this variant."),
            allowed=ladder + (list(ENVIDO_CALLS) if self.variant.envido else []) + (list(FLOR_CALLS) if self._flor_in_play() else []),
            call=call,
        )

    def _truco_call(self, core: _Core, side: int, index: int) -> list[LogLine]:
        hand, ladder = core.hand, self.variant.truco_ladder
        call = ladder[index].call
        if hand.no_betting:
            raise RuleError(
                "no_betting",
                N_("No {call} in this hand: the {special} is played without betting."),
                call=call,
                special=hand.special,
            )
        self._require_no_pending(hand, truco_ok=True)
        lines: list[LogLine] = []
        if hand.truco_pending:
            pending_index, caller = hand.truco_pending
            if caller == side:
                raise RuleError(
                    "own_call",
                    N_("{call} by {side}: the answer belongs to {answer_side}."),
                    side=side,
                    answer_side=1 - side,
                    call=ladder[pending_index].call,
                )
            expected = pending_index + 1
            if expected >= len(ladder) or index != expected:
                raise RuleError(
                    "bad_raise",
                    N_("{call} cannot answer {pending}."),
                    allowed=[ladder[expected].call] if expected < len(ladder) else [],
                    call=call,
                    pending=ladder[pending_index].call,
                )
            # A raise answering a pending call accepts it and raises in one action.
            hand.truco_level, hand.value = pending_index, ladder[pending_index].worth
            lines.append((N_("{call} {said} by {side}: the hand is worth {value}."), {"side": side, "call": ladder[pending_index].call, "said": "accepted", "value": hand.value}))
        else:
            expected = hand.truco_level + 1
            if expected >= len(ladder):
                raise RuleError("top_reached", N_("{call} is the last raise; nothing is above it."), call=ladder[-1].call)
            if index != expected:
                raise RuleError(
                    "bad_raise",
                    N_("The next call is {expected}, not {call}."),
                    allowed=[ladder[expected].call],
                    expected=ladder[expected].call,
                    call=call,
                )
            if hand.truco_raise_side is not None and hand.truco_raise_side != side:
                raise RuleError(
                    "not_your_raise",
                    N_("The raise to {call} belongs to {raise_side}, the side that accepted the last call."),
                    raise_side=hand.truco_raise_side,
                    call=call,
                )
        hand.truco_pending = (index, side)
        lines.append((N_("{side}: {shout}"), {"side": side, "shout": call}))
        return lines

    def _envido_call(self, core: _Core, side: int, call: str) -> list[LogLine]:
        hand = core.hand
        rules = self.variant.envido
        assert rules is not None
        self._require_no_comparison(hand)
        if hand.flor_chain:
            raise RuleError("flor_sung", N_("A Flor was sung: no Envido this hand."), call=call)
        if hand.envido_pending:
            if hand.envido_caller == side:
                raise RuleError("own_call", N_("{call} by {side}: the answer belongs to {answer_side}."), side=side, answer_side=1 - side, call=hand.envido_chain[-1])
            chain = [*hand.envido_chain, call]
            allowed = [nxt for nxt in ENVIDO_CALLS if self._envido_chain_ok([*hand.envido_chain, nxt])]
            if not self._envido_chain_ok(chain):
                raise RuleError(
                    "bad_raise",
                    N_("{call} cannot answer {pending}."),
                    allowed=allowed,
                    call=call,
                    pending=hand.envido_chain[-1],
                )
        else:
            if not self._envido_open(hand):
                raise RuleError("envido_closed", self._envido_closed_reason(hand), call=call)
            if hand.truco_pending and hand.truco_pending[1] == side:
                raise RuleError(
                    "answer_first",
                    N_("{call} by {side} waits for an answer from {answer_side} first."),
                    call=self.variant.truco_ladder[hand.truco_pending[0]].call,
                    side=side,
                    answer_side=1 - side,
                )
            chain = [call]
            if not self._envido_chain_ok(chain):
                raise RuleError(
                    "bad_raise",
                    N_("{call} cannot be called alone in this variant."),
                    allowed=[c for c in ENVIDO_CALLS if self._envido_chain_ok([c])],
                    call=call,
                )
        hand.envido_chain, hand.envido_caller, hand.envido_pending = chain, side, True
        return [(N_("{side}: {shout}"), {"side": side, "shout": call})]

    def _envido_closed_reason(self, hand: Hand) -> str:
        """Why Envido cannot be started now (the message of ``envido_closed``)."""
        rules = self.variant.envido
        if hand.envido_done:
            return N_("The Envido of this hand was already played.")
        if hand.tricks:
            return N_("Envido is called in the first trick; the first trick is over.")
        if rules is not None and rules.closes_on_truco_accepted and hand.truco_level >= 0:
            return N_("A Truco was accepted: no Envido after it in this variant.")
        return N_("Envido can no longer be called in this hand.")

    def _envido_chain_ok(self, chain: Sequence[str]) -> bool:
        rules = self.variant.envido
        assert rules is not None
        if chain[-1] == "falta_envido":
            before = tuple(chain[:-1])
            return not before or before in rules.chains
        return tuple(chain) in rules.chains

    def _flor_call(self, core: _Core, side: int, call: str) -> list[LogLine]:
        hand = core.hand
        flor = self.variant.flor
        assert flor is not None
        if not (call == "flor" and hand.awaiting == "envido_winner"):
            # An accepted Envido whose winner is still asked for is not settled: a Flor
            # cancels it (below); any other comparison must be entered first.
            self._require_no_comparison(hand)
        lines: list[LogLine] = []
        if not hand.flor_pending:
            if call != "flor":
                self._raise_no_flor_pending(hand, call)
            if hand.flor_done:
                raise RuleError("flor_closed", N_("A Flor was already sung in this hand."), reason="flor_done")
            if hand.tricks:
                raise RuleError("flor_closed", N_("Flor is sung in the first trick; the first trick is over."), reason="tricks")
            if hand.envido_done:
                raise RuleError("flor_closed", N_("The Envido is already settled: no Flor after it."), reason="envido_done")
            if hand.envido_chain:
                # Seed 002 "Flor": a Flor "anula qualquer pedido de Envido ... feito anteriormente":
                # called, pending, or accepted and not yet settled (REFERENCE.md 1.7).
                lines.append((N_("The Flor cancels the {chain}."), {"chain": hand.envido_chain}))
                hand.envido_chain, hand.envido_pending, hand.envido_caller = [], False, None
                if hand.awaiting == "envido_winner":
                    hand.awaiting = None
            hand.envido_done = True
            hand.flor_chain, hand.flor_pending = [("flor", side)], True
            lines.append((N_("{side}: {shout}"), {"side": side, "shout": call}))
            return lines
        last_call, last_side = hand.flor_chain[-1]
        if last_side == side:
            raise RuleError("own_call", N_("{call} by {side}: the answer belongs to {answer_side}."), side=side, answer_side=1 - side, call=last_call)
        allowed = {"flor": ["contraflor", "contraflor_al_resto"] + (["flor"] if flor.compared else []), "contraflor": ["contraflor_al_resto"]}
        if not flor.contraflor_answered:
            allowed["contraflor"] = []
        if call not in allowed.get(last_call, []):
            raise RuleError(
                "bad_raise",
                N_("{call} cannot answer {pending}."),
                allowed=allowed.get(last_call, []),
                call=call,
                pending=last_call,
            )
        hand.flor_chain.append((call, side))
        lines.append((N_("{side}: {shout}"), {"side": side, "shout": call}))
        if call == "flor":  # flor answered by flor: compared at once
            self._start_comparison(hand, flor.compared)
        elif not flor.contraflor_answered:  # gauderio: contraflor is compared at once
            self._start_comparison(hand, flor.contraflor if call == "contraflor" else "falta")
        return lines

    def _raise_no_flor_pending(self, hand: Hand, call: str) -> None:
        """Refuse an answer to a Flor (``no_flor``, ``contraflor``...) when no bare Flor waits,
        naming what is true instead: the Contraflor that is pending, the Flor already
        settled, or no Flor at all."""
        if hand.flor_pending:
            pending, caller = hand.flor_chain[-1]
            raise RuleError(
                "no_flor_pending",
                N_("{call} answers a bare Flor; the call waiting is {pending} by {side}, answered with quiero or no quiero."),
                call=call,
                pending=pending,
                side=caller,
                answer_side=1 - caller,
            )
        if hand.flor_chain:
            raise RuleError("no_flor_pending", N_("{call} answers a Flor; this hand's Flor is already settled."), call=call)
        raise RuleError("no_flor_pending", N_("{call} answers a Flor; nobody sang one."), allowed=["flor"], call=call)

    def _start_comparison(self, hand: Hand, stake: Any) -> None:
        hand.flor_pending = False
        hand.awaiting, hand.compare_stake = "flor_winner", stake

    # answers --------------------------------------------------------------

    def _quiero(self, core: _Core, action: dict[str, Any]) -> list[LogLine]:
        hand, side = core.hand, action["side"]
        self._require_no_comparison(hand)
        pending = self._require_side_to_answer(hand, side)
        call = pending["call"]
        lines: list[LogLine] = [(N_("{call} {said} by {side}."), {"side": side, "call": call, "said": "accepted"})]
        if hand.flor_pending:
            flor = self.variant.flor
            assert flor is not None
            if call == "flor" and flor.compared is None:
                raise RuleError(
                    "bad_answer",
                    N_("In this variant a Flor is answered with no_flor, contraflor, contraflor_al_resto or no_quiero."),
                )
            stake = {"flor": flor.compared, "contraflor": flor.contraflor}.get(call, "falta")
            self._start_comparison(hand, stake)
        elif hand.envido_pending:
            hand.envido_pending = False
            hand.awaiting = "envido_winner"
        else:
            assert hand.truco_pending is not None
            index, _ = hand.truco_pending
            hand.truco_level, hand.value = index, self.variant.truco_ladder[index].worth
            hand.truco_raise_side, hand.truco_pending = side, None
            lines[-1] = (N_("{call} {said} by {side}: the hand is worth {value}."), {"side": side, "call": call, "said": "accepted", "value": hand.value})
        return lines

    def _no_quiero(self, core: _Core, action: dict[str, Any]) -> list[LogLine]:
        hand, side = core.hand, action["side"]
        self._require_no_comparison(hand)
        self._require_side_to_answer(hand, side)
        lines: list[LogLine] = []
        self._refuse_top(core, lines)
        return lines

    def _refuse_top(self, core: _Core, lines: list[LogLine]) -> None:
        """Refuse the call on top: flor, else envido, else truco (which ends the hand)."""
        hand = core.hand
        if hand.flor_pending:
            flor = self.variant.flor
            assert flor is not None
            call, caller = hand.flor_chain[-1]
            if call == "flor":
                points = flor.refused
            elif call == "contraflor":
                points = flor.contraflor_refused
            else:
                before = hand.flor_chain[-2][0]
                points = flor.resto_refused_after_flor if before == "flor" else flor.resto_refused_after_contraflor
            hand.flor_pending, hand.flor_done = False, True
            lines.append((N_("{call}: {said}, +{points} {side}."), {"call": call, "said": "refused", "points": points, "side": caller}))
            self._award(core, caller, points, lines)
        elif hand.envido_pending:
            points = self._envido_refused(hand.envido_chain)
            caller = hand.envido_caller
            assert caller is not None
            hand.envido_pending, hand.envido_done = False, True
            lines.append((N_("{chain}: {said}, +{points} {side}."), {"chain": hand.envido_chain, "said": "refused", "points": points, "side": caller}))
            self._award(core, caller, points, lines)
        else:
            assert hand.truco_pending is not None
            index, caller = hand.truco_pending
            step = self.variant.truco_ladder[index]
            lines.append((N_("{call}: {said}."), {"call": step.call, "said": "refused"}))
            hand.truco_pending = None
            self._end_hand(core, caller, step.refused, lines)

    def _no_flor(self, core: _Core, action: dict[str, Any]) -> list[LogLine]:
        hand, side = core.hand, action["side"]
        self._require_no_comparison(hand)
        if not hand.flor_pending or hand.flor_chain[-1][0] != "flor":
            self._raise_no_flor_pending(hand, "no_flor")
        self._require_side_to_answer(hand, side)
        flor = self.variant.flor
        assert flor is not None
        caller = hand.flor_chain[-1][1]
        hand.flor_pending, hand.flor_done = False, True
        lines: list[LogLine] = [(N_("Flor uncontested (no Flor for {other}): +{points} {side}."), {"other": side, "points": flor.uncontested, "side": caller})]
        self._award(core, caller, flor.uncontested, lines)
        return lines

    def _compared(self, core: _Core, action: dict[str, Any]) -> list[LogLine]:
        """Settle an accepted Envido or compared Flor: a winner, or both sides' points."""
        hand = core.hand
        if hand.awaiting not in ("envido_winner", "flor_winner"):
            raise RuleError("nothing_to_compare", N_("No Envido or Flor is waiting for a winner."))
        is_flor = hand.awaiting == "flor_winner"
        if action["type"] == "envido_points":
            points = action["points"]
            rules = self.variant.flor if is_flor else self.variant.envido
            assert rules is not None
            for declared in points:
                if declared not in rules.points_range:
                    raise RuleError(
                        "bad_points",
                        N_("{points} is not a possible {what} count; the possible counts are {counts}."),
                        allowed=[list(span) for span in count_spans(rules.points_range)],
                        points=declared,
                        what="Flor" if is_flor else "Envido",
                        counts=describe_counts(rules.points_range),
                    )
            # Equal points go to the mano (REFERENCE.md 0, seed 000 leaves ties unstated).
            winner = hand.mano if points[0] == points[1] else (0 if points[0] > points[1] else 1)
            detail = (N_("{winner_points} to {loser_points}"), {"winner_points": points[winner], "loser_points": points[1 - winner]})
        else:
            winner, detail = action["side"], None
        if is_flor:
            chain = [call for call, _ in hand.flor_chain]
            stake = hand.compare_stake
            value = self._falta(core.score, winner) if stake == "falta" else stake
            hand.flor_done = True
        else:
            chain = list(hand.envido_chain)
            value = self._envido_value(chain, core.score, winner)
            hand.envido_done = True
        assert value is not None
        hand.awaiting, hand.compare_stake = None, None
        lines: list[LogLine] = [(N_("{chain}: {said}, +{points} {side}."), {"chain": chain, "said": "accepted", "points": value, "side": winner})]
        if detail:
            lines = [(N_("{chain}: {said}, {winner_points} to {loser_points}, +{points} {side}."), {"chain": chain, "said": "accepted", "points": value, "side": winner, **detail[1]})]
        self._award(core, winner, value, lines)
        return lines

    # the play ------------------------------------------------------------

    def _accept_pending_by_playing(self, hand: Hand, lines: list[LogLine]) -> None:
        """Catalan truc: playing on while a bet is pending accepts it (seed 004)."""
        if hand.truco_pending and self.variant.trick_accepts_pending:
            index, caller = hand.truco_pending
            hand.truco_level, hand.value = index, self.variant.truco_ladder[index].worth
            hand.truco_raise_side, hand.truco_pending = 1 - caller, None
            lines.append((N_("{call}: {said} by playing on, the hand is worth {value}."), {"call": self.variant.truco_ladder[index].call, "said": "accepted", "value": hand.value}))

    def _trick(self, core: _Core, action: dict[str, Any]) -> list[LogLine]:
        hand, winner = core.hand, action["winner"]
        self._require_no_pending(hand, truco_ok=self.variant.trick_accepts_pending)
        lines: list[LogLine] = []
        self._accept_pending_by_playing(hand, lines)
        hand.tricks.append(winner)
        number = len(hand.tricks)
        if winner is None:
            lines.append((N_("Trick {number}: {said}."), {"number": number, "said": "tie"}))
        else:
            lines.append((N_("Trick {number}: {side}."), {"number": number, "side": winner}))
        decided, hand_winner = decide_hand(hand.tricks, mano=hand.mano, all_pardas=self.options.get("all_pardas", self.variant.all_pardas))
        if decided:
            self._end_hand(core, hand_winner, hand.value, lines)
        return lines

    def _hand_winner(self, core: _Core, action: dict[str, Any]) -> list[LogLine]:
        hand, side = core.hand, action["side"]
        self._require_no_pending(hand, truco_ok=self.variant.trick_accepts_pending)
        if side is None and self.options.get("all_pardas", self.variant.all_pardas) != "nobody":
            raise RuleError("bad_side", N_("{name} must be 0 or 1."), allowed=[0, 1], name="side")
        lines: list[LogLine] = []
        self._accept_pending_by_playing(hand, lines)
        self._end_hand(core, side, hand.value, lines)
        return lines

    def _mazo(self, core: _Core, action: dict[str, Any]) -> list[LogLine]:
        """Fold: refuse what is pending against the folder, then pay the hand (seed 000 "Desistir")."""
        hand, side = core.hand, action["side"]
        self._require_no_comparison(hand)
        pending = self._pending(hand)
        if pending and pending["side"] == side:
            raise RuleError(
                "own_call_pending",
                N_("{call} by {side} waits for an answer from {answer_side}: no mazo for {side} before it."),
                answer_side=1 - side,
                side=side,
                call=pending["call"],
            )
        other = 1 - side
        bonus = 1 if self.options.get("mazo_primera") and self._envido_open(hand) else 0
        lines: list[LogLine] = [(N_("{answer}: {side}."), {"answer": "mazo", "side": side})]
        if hand.flor_pending or hand.envido_pending:
            self._refuse_top(core, lines)
        if core.winner is not None:
            return lines
        if hand.truco_pending and hand.truco_pending[1] == other:
            index = hand.truco_pending[0]
            points = self.variant.truco_ladder[index].refused
            lines.append((N_("{call}: {said}."), {"call": self.variant.truco_ladder[index].call, "said": "refused"}))
        else:
            points = hand.value
        if bonus:
            lines.append((N_("Folded before the Envido: +1 more."), {}))
        self._end_hand(core, other, points + bonus, lines)
        return lines

    def _special_hand(self, core: _Core, action: dict[str, Any]) -> list[LogLine]:
        """Mão de onze / dez / the Catalan 11: play (worth more, no betting) or run."""
        hand, side, decision = core.hand, action["side"], action["decision"]
        special = self.variant.special_hand
        if hand.awaiting != "special_hand" or special is None:
            raise RuleError("no_special_hand", N_("No special hand waits for a decision to play or run."))
        if side != hand.special_side:
            raise RuleError(
                "not_your_decision",
                N_("The decision to play this hand belongs to {special_side}."),
                special_side=hand.special_side,
            )
        hand.awaiting = None
        if decision == "play":
            hand.value, hand.no_betting = special.play_worth, True
            return [(N_("{special} played by {side}: the hand is worth {value}, no betting."), {"side": side, "special": hand.special, "value": hand.value})]
        lines: list[LogLine] = [(N_("{special} refused by {side}."), {"side": side, "special": hand.special})]
        self._end_hand(core, 1 - side, special.run_pays, lines)
        return lines

    def _adjust(self, core: _Core, side: int, delta: int) -> list[LogLine]:
        """Manual correction, logged; never below 0, at most the target at once."""
        if delta == 0 or abs(delta) > self.target:
            raise RuleError("bad_delta", N_("A correction must be between -{target} and {target}, not 0."), target=self.target, delta=delta)
        if core.score[side] + delta < 0:
            raise RuleError("below_zero", N_("Score of {side}: {points}; a score cannot go below 0."), side=side, points=core.score[side])
        lines: list[LogLine] = [(N_("Correction: {delta:+d} {side}."), {"delta": delta, "side": side})]
        if delta < 0:
            core.score[side] += delta
        else:
            self._award(core, side, delta, lines)
            if not self.variant.ends_at_once and core.hand.actions == 0:
                # Between hands only: mid-hand the target is checked when the hand ends (seed 002).
                self._check_end_of_hand_target(core, lines)
        hand = core.hand
        if hand.actions == 0 and core.winner is None:
            # Nothing happened in this hand yet: the corrected score decides the special hand.
            core.hand = self._new_hand(hand.number, hand.mano, core.score)
        return lines


def table_word(word: TableWord, translate: Callable[[str], str] | None = None) -> str:
    """A table word as written: a ``str`` as it is, a :class:`PageWord` in the page's
    language (``translate``; English without it)."""
    if isinstance(word, PageWord):
        return translate(word.msgid) if translate else word.msgid
    return word


def _use_table_words(error: RuleError, words: TableWords) -> None:
    """Write call and special-hand ids in an error's params as the variant's table says
    them (``vale_cuatro`` -> ``Vale cuatro``, ``mao_de_onze`` -> ``Mão de onze``; Catalan
    truc's 11-point rule in the page's language)."""
    for key in ("call", "pending", "expected"):
        if isinstance(error.params.get(key), str):
            error.params[key] = words.calls.get(error.params[key], CALL_NAMES.get(error.params[key], error.params[key]))
    special = error.params.get("special")
    if isinstance(special, str):
        word = words.specials.get(special, special)
        # Inside a sentence: "the mão de onze" (the board's label says "Mão de onze").
        error.params["special"] = PageText(word.msgid) if isinstance(word, PageWord) else word[:1].lower() + word[1:]


# ------------------------------------------------------------------ log text


def render_lines(
    lines: Sequence[LogLine],
    names: Sequence[str],
    translate: Callable[[str], str] | None = None,
    words: TableWords | None = None,
) -> str:
    """Write a log entry's sentences in words, with the sides' names and the table's words.

    Args:
        lines: ``(template, params)`` pairs from :meth:`Match.apply`.
        names: the two sides' names.
        translate: gettext-like callable applied to each template (English without it).
        words: the variant's table words (:attr:`scorer.core.variants.Variant.words`); the
            Rioplatense ones without it. Params: ``call``/``chain`` (call ids, their bare
            names), ``shout`` (a call id, its shout), ``answer`` (``mazo``...), ``said``
            (``accepted``, ``refused`` or ``tie``), ``special`` (a special hand's id).
    """
    words = words or TABLE_WORDS["rio"]
    out = []
    for template, params in lines:
        values = {}
        for key, value in params.items():
            if key == "side" or key.endswith("_side") or key == "other":
                values[key] = names[value] if value in SIDES else "?"
            elif key in ("call", "chain"):
                calls = value if isinstance(value, list) else [value]
                values[key] = ", ".join(words.calls.get(c, CALL_NAMES.get(c, c)) for c in calls)
            elif key == "shout":
                values[key] = words.shouts.get(value, CALL_NAMES.get(value, value) + "!")
            elif key == "answer":
                values[key] = words.answers.get(value, value)
            elif key == "said":
                values[key] = table_word(getattr(words, value), translate)
            elif key == "special":
                values[key] = table_word(words.specials.get(value, value), translate)
            else:
                values[key] = value
        out.append((translate(template) if translate else template).format(**values))
    return " ".join(out)
