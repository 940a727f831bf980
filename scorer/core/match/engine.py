"""The match engine: a Truco match as a fold over the actions the table calls out.

A :class:`Match` starts from a variant (:mod:`scorer.core.variants`), its options and who is
mano in the first hand; :meth:`Match.apply` validates an action (a JSON-shaped dict of
the schema in :mod:`scorer.core.schema`) and applies it, or raises :class:`~scorer.core.errors.RuleError`
and changes nothing. :meth:`Match.state` gives the state the web app, the CLI and
outside tools read: score, hand, pending call, legal actions with the tentos each pays,
and the log as data (:mod:`.log`: who acted, what happened, what it paid, the score after),
which the edges say in words (:mod:`scorer.present.log_words`).

Sides are ``0`` and ``1``. Every number is in tentos.

Rule sources: ``docs/rules.md`` (the project's rules reference, every value with its public source
or the user's rule text it comes from); issue #2 decides
where both are silent.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal, cast

from scorer.core.envido_points import count_spans
from scorer.core.errors import N_, RuleError
from scorer.core.schema import (
    ACTION_TYPES, Action, DeclarePoints, LegalAction, Offer, Side, Stage, State, bare_action, check_side,
    normalize_action,
)
from scorer.core.variants import OPEN_RAISE, Variant, get_variant
from scorer.core.match.calls import Calls
from scorer.core.match.error_words import CALL_NAMES, use_table_words
from scorer.core.match.hand import SIDES, Hand, _Core, decide_hand
from scorer.core.match.log import LogEntry, LogFact, LogKind
from scorer.core.match.log import entry as log_entry
from scorer.core.match.plays import Plays

__all__ = ["ACTION_TYPES", "CALL_NAMES", "Match", "decide_hand", "normalize_action"]

PAYING = frozenset({LogKind.HAND, LogKind.CHAIN_WON, LogKind.ENVIDO_REFUSED, LogKind.FLOR_REFUSED,
                    LogKind.FLOR_UNCONTESTED, LogKind.CORRECTION})
"""Facts that say the tentos just paid: where the target caps the score, the last of them
says what counted (issue 13 item 4)."""


class Match(Calls, Plays):
    """A match being scored: the variant, its options, and the fold of every action.

    Args:
        variant_id: a key of :data:`scorer.core.variants.VARIANTS`.
        options: the variant's options (see ``Variant.option_specs``); defaults fill the rest.
        mano: the side that is mano in hand 1 (0 or 1); the mano alternates every hand.
        players_per_side: how many players sit on each side (1, 2 or 3) when the seats are
            given, else ``None`` (unknown: the rules allow what a table of 6 could do). With
            ``flor_per_player`` a side sings at most one Flor per player
            (docs/rules.md §One Flor per player).

    Raises:
        RuleError: ``bad_variant``, ``bad_option`` or ``bad_side``.
    """

    def __init__(self, variant_id: str, options: Mapping[str, Any] | None = None, mano: int = 0,
                 players_per_side: int | None = None) -> None:
        self.variant: Variant = get_variant(variant_id)
        self.options: dict[str, Any] = self.variant.resolve_options(options)
        check_side(mano, "mano")
        if players_per_side not in (None, 1, 2, 3):
            raise RuleError("bad_players", N_("A table has 2, 4 or 6 players."), allowed=[1, 2, 3])
        self.first_mano = mano
        self.players_per_side = players_per_side
        self.target: int = self.options.get("target", self.variant.target)
        self.actions: list[Action] = []
        self._core = _Core([0, 0], None, self._new_hand(1, mano, [0, 0]))
        # One entry per effective (not undone) action: (action, core before it, log entry).
        self._history: list[tuple[Action, _Core, LogEntry]] = []

    # ----------------------------------------------------------------- public API

    @classmethod
    def replay(
        cls,
        variant_id: str,
        options: Mapping[str, Any] | None,
        mano: int,
        actions: Iterable[Mapping[str, Any]],
        players_per_side: int | None = None,
    ) -> Match:
        """Build a match by applying ``actions`` in order (``players_per_side`` as in :class:`Match`).

        Raises:
            RuleError: the first illegal action's error, with ``params["index"]`` set to
            its 0-based position in ``actions``.
        """
        match = cls(variant_id, options, mano, players_per_side)
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
    def log(self) -> list[LogEntry]:
        """The log: one :class:`~scorer.core.match.log.LogEntry` per action that counts, oldest first."""
        return [entry for _, _, entry in self._history]

    @property
    def winner(self) -> int | None:
        """The side that won the game, or ``None`` while it goes on."""
        return self._core.winner

    def apply(self, action: Mapping[str, Any]) -> LogEntry:
        """Validate ``action`` and apply it.

        Returns:
            The :class:`~scorer.core.match.log.LogEntry` it produced (who acted, the facts,
            the tentos each side won, the score after), or for ``undo`` the entry it removed.

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
            facts = self._apply(core, clean)
        except RuleError as error:
            if not error.allowed:
                error.allowed = self._allowed_now()
            use_table_words(error, self.variant.words)
            raise
        entry = log_entry(len(self._history), clean, self._core.hand.number, self.score, (core.score[0], core.score[1]), facts)
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
            offered as -1 and +1 per side where legal (any ``delta`` may be posted); an open
            Envido raise once per ``amount`` it may carry (docs/rules.md §Open Envido raises);
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
                and candidate.get("side") != hand.flor_chain[-1][1]  # a partner's own Flor stays
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
            legal.append(cast(Offer, {**candidate, "points": points, "points_side": points_side}))
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
        what: Literal["envido", "flor"] = "flor" if awaiting == "flor_winner" else "envido"
        rules = self.variant.flor if what == "flor" else self.variant.envido
        assert rules is not None
        return DeclarePoints(type="declare_points", what=what, min=min(rules.points_range), max=max(rules.points_range))

    def state(self, names: Sequence[str] = ("Nós", "Eles"), log_limit: int | None = None) -> State:
        """The state (issue #2 "The contract"; typed as :class:`~scorer.core.schema.State`):
        JSON values, except the log, whose entries are data
        (:class:`~scorer.core.match.log.LogEntry`); the edges say them in words
        (:func:`scorer.present.log_words.say_state` gives the JSON form).

        Args:
            names: the two sides' names (the state's ``names``; the log holds side indexes).
            log_limit: keep only the newest ``log_limit`` log entries (all when ``None``), so
                the cost of a scoreboard does not grow with the length of the match.

        Returns:
            ``{"variant", "options", "target", "ends_at_once", "names", "score", "winner",
            "stages", "hand": {"number", "mano", "value", "pending", "pending_truco",
            "special", "special_side", "envido_open", "tricks", "awaiting", "counts"},
            ``counts``: while an Envido or Flor waits for its points, the counts
            ``envido_points`` accepts as ``[low, high]`` runs, else None.
            "legal_actions", "log", "version"}``. ``stages`` is ``None`` or, where the
            variant has malas and buenas, each side's ``{"stage", "points"}``; ``log``, the
            entries oldest first.
        """
        core, hand = self._core, self._core.hand
        return {
            "variant": self.variant.id,
            "options": dict(self.options),
            "target": self.target,
            "ends_at_once": self.variant.ends_at_once,
            "names": list(names),
            "mano_first_hand": cast(Side, self.first_mano),
            "score": list(core.score),
            "winner": cast("Side | None", core.winner),
            "stages": self._stages(),
            "hand": {
                "number": hand.number,
                "mano": cast(Side, hand.mano),
                "value": hand.value,
                "pending": self._pending(hand),
                "pending_truco": (
                    {"call": self.variant.truco_ladder[hand.truco_pending[0]].call, "side": hand.truco_pending[1]}
                    if hand.truco_pending
                    else None
                ),
                "special": hand.special,
                "special_side": cast("Side | None", hand.special_side),
                "envido_open": self._envido_open(hand) and core.winner is None,
                "tricks": cast("list[Side | None]", list(hand.tricks)),
                "awaiting": hand.awaiting,
                "counts": self._counts(hand),
            },
            "legal_actions": self.legal_actions(),
            "log": [entry for _, _, entry in self._history[-log_limit if log_limit else None :]],
            "version": self.version,
        }

    # ------------------------------------------------------------- rules helpers

    def _new_hand(self, number: int, mano: int, score: Sequence[int]) -> Hand:
        """A fresh hand; decides mão de onze / dez / ferro from ``score`` (docs/rules.md §Special hands)."""
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
        """Envido can still be started this hand (until the first trick is decided: docs/rules.md §When Envido can be called)."""
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
        if hand.envido_pending and hand.envido_chain[-1] == OPEN_RAISE:  # "tres más": with its amount
            return {"call": OPEN_RAISE, "side": hand.envido_caller, "amount": hand.envido_raises[-1]}
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

    def _stages(self) -> list[Stage] | None:
        if not self.variant.malas_buenas:
            return None
        return [cast(Stage, self.variant.stage(points, self.target)) for points in self._core.score]

    # --------------------------------------------------------------- applying

    def _candidates(self) -> list[dict[str, Any]]:
        """Every concrete action worth trying for ``legal_actions``."""
        calls = [step.call for step in self.variant.truco_ladder]
        if self.variant.envido:
            calls += self.variant.envido.calls
        if self._flor_in_play() and self.variant.flor:
            calls += self.variant.flor.calls
        out: list[dict[str, Any]] = []
        for side in SIDES:
            out += [{"type": "call", "side": side, "call": call} for call in calls if call != OPEN_RAISE]
            out += self._open_raises(side)  # one per amount
            out += [{"type": kind, "side": side} for kind in ("quiero", "no_quiero", "no_flor", "envido_winner")]
            out += [{"type": "special_hand", "side": side, "decision": d} for d in ("play", "run")]
            out.append({"type": "mazo", "side": side})
        out += [{"type": "trick", "winner": winner} for winner in (0, 1, None)]
        out += [{"type": "hand_winner", "side": side} for side in (0, 1, None)]
        out += [{"type": "adjust", "side": side, "delta": delta} for side in SIDES for delta in (-1, 1)]
        return out

    def _apply(self, core: _Core, action: Mapping[str, Any]) -> list[LogFact]:
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

    def _award(self, core: _Core, side: int, points: int, facts: list[LogFact]) -> None:
        """Add ``points`` to ``side``; end the game where the target is reached at once."""
        if core.winner is not None or points <= 0:
            return
        core.paid[side] += points
        core.score[side] += points
        if self.variant.ends_at_once and core.score[side] >= self.target:
            counted = points - (core.score[side] - self.target)
            core.score[side] = self.target
            if counted < points and facts:
                # The log says what was counted: the target caps the score (issue 13 item 4).
                last = facts[-1]
                if last.kind in PAYING and last.points == points and last.side == side:
                    facts[-1] = last._replace(points=counted)
                facts.append(LogFact(LogKind.CAPPED, target=self.target, counted=counted, points=points))
            self._finish(core, side)
            facts.append(LogFact(LogKind.GAME_OVER, side=side, target=self.target))

    @staticmethod
    def _finish(core: _Core, winner: int) -> None:
        """The game is over: record the winner; nothing in the hand waits any more."""
        core.winner = winner
        hand = core.hand
        hand.awaiting, hand.truco_pending, hand.envido_pending, hand.flor_pending = None, None, False, False

    def _check_end_of_hand_target(self, core: _Core, facts: list[LogFact]) -> None:
        """Gaudério: the target is checked at the end of the hand; the higher total wins,
        equal totals play another hand (docs/rules.md §Reaching the target)."""
        a, b = core.score
        if core.winner is not None or max(a, b) < self.target:
            return
        if a == b:
            facts.append(LogFact(LogKind.TIE_PLAYS_ON, target=self.target))
            return
        self._finish(core, 0 if a > b else 1)
        facts.append(LogFact(LogKind.GAME_OVER_AT_HAND_END, side=core.winner, totals=(max(a, b), min(a, b))))

    def _end_hand(self, core: _Core, winner: int | None, points: int, facts: list[LogFact]) -> None:
        """Pay the hand, then deal the next one (the mano alternates)."""
        hand = core.hand
        if winner is None:
            facts.append(LogFact(LogKind.HAND, number=hand.number, points=0))
        else:
            facts.append(LogFact(LogKind.HAND, side=winner, number=hand.number, points=points))
            self._award(core, winner, points, facts)
        if not self.variant.ends_at_once:
            self._check_end_of_hand_target(core, facts)
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
