"""The play: tricks, the hand's winner, mazo, the special hand's decision
(mão de onze, mão de ferro and the like) and score corrections. A part of :class:`~scorer.core.match.Match`."""

from __future__ import annotations

from typing import Any

from scorer.core.errors import N_, RuleError
from scorer.core.match.hand import Hand, LogLine, _Core, decide_hand


class Plays:
    """The actions of the play itself (mixed into :class:`~scorer.core.match.Match`)."""

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
