"""The play: tricks, the hand's winner, mazo, the special hand's decision
(mão de onze, mão de ferro and the like) and score corrections. A part of :class:`~scorer.core.match.Match`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorer.core.errors import N_, RuleError
from scorer.core.match.hand import Hand, _Core, decide_hand
from scorer.core.match.log import LogFact, LogKind
from scorer.core.match.parts import MatchParts


class Plays(MatchParts):
    """The actions of the play itself (mixed into :class:`~scorer.core.match.Match`)."""

    # the play ------------------------------------------------------------

    def _accept_pending_by_playing(self, hand: Hand, facts: list[LogFact]) -> None:
        """Catalan truc: playing on while a bet is pending accepts it (docs/rules.md §Catalan ladder)."""
        if hand.truco_pending and self.variant.trick_accepts_pending:
            index, caller = hand.truco_pending
            hand.truco_level, hand.value = index, self.variant.truco_ladder[index].value(self.target)
            hand.truco_raise_side, hand.truco_pending = 1 - caller, None
            facts.append(LogFact(LogKind.PLAYED_ON, side=1 - caller, call=self.variant.truco_ladder[index].call, value=hand.value))

    def _trick(self, core: _Core, action: Mapping[str, Any]) -> list[LogFact]:
        hand, winner = core.hand, action["winner"]
        self._require_no_pending(hand, truco_ok=self.variant.trick_accepts_pending)
        facts: list[LogFact] = []
        self._accept_pending_by_playing(hand, facts)
        hand.tricks.append(winner)
        number = len(hand.tricks)
        facts.append(LogFact(LogKind.TRICK, side=winner, number=number))
        decided, hand_winner = decide_hand(hand.tricks, mano=hand.mano, all_pardas=self.options.get("all_pardas", self.variant.all_pardas))
        if decided:
            self._end_hand(core, hand_winner, hand.value, facts)
        return facts

    def _hand_winner(self, core: _Core, action: Mapping[str, Any]) -> list[LogFact]:
        hand, side = core.hand, action["side"]
        self._require_no_pending(hand, truco_ok=self.variant.trick_accepts_pending)
        if side is None and self.options.get("all_pardas", self.variant.all_pardas) != "nobody":
            raise RuleError("bad_side", N_("{name} must be 0 or 1."), allowed=[0, 1], name="side")
        facts: list[LogFact] = []
        self._accept_pending_by_playing(hand, facts)
        self._end_hand(core, side, hand.value, facts)
        return facts

    def _mazo(self, core: _Core, action: Mapping[str, Any]) -> list[LogFact]:
        """Fold: refuse what is pending against the folder, then pay the hand (docs/rules.md §Folding)."""
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
        facts: list[LogFact] = [LogFact(LogKind.MAZO, side=side)]
        if hand.flor_pending or hand.envido_pending:
            self._refuse_top(core, facts)
        if core.winner is not None:
            return facts
        if hand.truco_pending and hand.truco_pending[1] == other:
            index = hand.truco_pending[0]
            points = self.variant.truco_ladder[index].refused
            facts.append(LogFact(LogKind.TRUCO_REFUSED, side=side, call=self.variant.truco_ladder[index].call))
        else:
            points = hand.value
        if bonus:
            facts.append(LogFact(LogKind.MAZO_BONUS, side=other))
        self._end_hand(core, other, points + bonus, facts)
        return facts

    def _special_hand(self, core: _Core, action: Mapping[str, Any]) -> list[LogFact]:
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
            return [LogFact(LogKind.SPECIAL_PLAYED, side=side, special=hand.special, value=hand.value)]
        facts: list[LogFact] = [LogFact(LogKind.SPECIAL_RUN, side=side, special=hand.special)]
        self._end_hand(core, 1 - side, special.run_pays, facts)
        return facts

    def _adjust(self, core: _Core, side: int, delta: int) -> list[LogFact]:
        """Manual correction, logged; never below 0, at most the target at once."""
        if delta == 0 or abs(delta) > self.target:
            raise RuleError("bad_delta", N_("A correction must be between -{target} and {target}, not 0."), target=self.target, delta=delta)
        if core.score[side] + delta < 0:
            raise RuleError("below_zero", N_("Score of {side}: {points}; a score cannot go below 0."), side=side, points=core.score[side])
        facts: list[LogFact] = [LogFact(LogKind.CORRECTION, side=side, points=delta)]
        if delta < 0:
            core.score[side] += delta
        else:
            self._award(core, side, delta, facts)
            if not self.variant.ends_at_once and core.hand.actions == 0:
                # Between hands only: mid-hand the target is checked when the hand ends (docs/rules.md §Reaching the target).
                self._check_end_of_hand_target(core, facts)
        hand = core.hand
        if hand.actions == 0 and core.winner is None:
            # Nothing happened in this hand yet: the corrected score decides the special hand.
            core.hand = self._new_hand(hand.number, hand.mano, core.score)
        return facts
