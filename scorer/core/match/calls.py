"""The calls and their answers: the truco ladder, Envido and Flor (calls, quiero / no quiero,
the comparison of counts) and what each stake is worth. A part of :class:`~scorer.core.match.Match`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scorer.core.envido_points import count_spans, describe_counts
from scorer.core.errors import N_, RuleError
from scorer.core.variants import ENVIDO_CALLS, OPEN_RAISE
from scorer.core.match.hand import Hand, _Core
from scorer.core.match.log import LogFact, LogKind
from scorer.core.match.stakes import Stakes


class Calls(Stakes):
    """Calling truco, Envido or Flor and answering them (mixed into :class:`~scorer.core.match.Match`)."""

    # calls ----------------------------------------------------------------

    def _call(self, core: _Core, action: Mapping[str, Any]) -> list[LogFact]:
        call, side = action["call"], action["side"]
        if "amount" in action and call != OPEN_RAISE:
            raise RuleError("bad_amount", N_("Only a raise of the Envido by some tentos (N más) carries an amount; "
                                             "{call} does not."), call=call)
        ladder = [step.call for step in self.variant.truco_ladder]
        if call in ladder:
            return self._truco_call(core, side, ladder.index(call))
        envido_calls = [c for c in self.variant.envido.calls if c != "falta_envido" or self._falta_in_play()] \
            if self.variant.envido else []
        flor_calls = list(self.variant.flor.calls) if self.variant.flor and self._flor_in_play() else []
        if call == OPEN_RAISE and call in envido_calls:
            return self._open_raise(core, side, action.get("amount"))
        if call in envido_calls:
            return self._envido_call(core, side, call)
        if call in flor_calls:
            return self._flor_call(core, side, call)
        raise RuleError(
            "no_such_call",
            N_("{call} is not a call in this variant."),
            allowed=ladder + envido_calls + flor_calls,
            call=call,
        )

    def _truco_call(self, core: _Core, side: int, index: int) -> list[LogFact]:
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
        facts: list[LogFact] = []
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
            hand.truco_level, hand.value = pending_index, ladder[pending_index].value(self.target)
            facts.append(LogFact(LogKind.QUIERO, side=side, call=ladder[pending_index].call, value=hand.value))
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
        facts.append(LogFact(LogKind.CALL, side=side, call=call))
        return facts

    def _envido_call(self, core: _Core, side: int, call: str) -> list[LogFact]:
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
            allowed = [nxt for nxt in ENVIDO_CALLS if self._envido_chain_ok([*hand.envido_chain, nxt], hand.envido_raises)]
            falta = self._falta_passed(chain) if self._envido_chain_known(chain) else None
            if falta is not None:
                raise RuleError(
                    "bad_raise",
                    N_("{call} would make the Envido worth {value}, more than the Falta Envido's {falta}: "
                       "the Falta Envido is the raise left."),
                    allowed=allowed,
                    call=call,
                    value=self._chain_points(chain),
                    falta=falta,
                )
            if not self._envido_chain_ok(chain, hand.envido_raises):
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
        # A call over the same call carries its chain: some tables have words of their own for it
        # ("¡Quiero y envido!", "Torne!": TableWords.raise_shouts).
        over = tuple(chain) if chain[-2:-1] == [call] else ()
        return [LogFact(LogKind.CALL, side=side, call=call, chain=over)]

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

    def _envido_chain_ok(self, chain: Sequence[str], raises: Sequence[int] = ()) -> bool:
        """Whether ``chain`` may be called (``raises``: the tentos of the open raises before
        its last call; an open raise's own amount is checked by :meth:`_open_raise`)."""
        rules = self.variant.envido
        assert rules is not None
        if chain[-1] == "falta_envido":
            before = tuple(chain[:-1])
            return self._falta_in_play() and (
                not before or before in rules.chains or self._repeated_chain(before)
                or (self._open_chain(before) and self._falta_raises(before, raises)))
        return self._envido_chain_known(chain) and self._falta_passed(chain) is None

    def _envido_chain_known(self, chain: Sequence[str]) -> bool:
        """Whether ``chain`` (no Falta in it) is in the variant's table, a repeated chain, or
        one of them followed by open raises."""
        rules = self.variant.envido
        assert rules is not None
        return chain[-1] != "falta_envido" and (
            tuple(chain) in rules.chains or self._repeated_chain(chain) or self._open_chain(chain))

    def _open_raise(self, core: _Core, side: int, amount: int | None) -> list[LogFact]:
        """``side`` raises the pending Envido by ``amount`` tentos ("dos más", "N más"): from 1
        to what takes the side furthest behind to the target (docs/rules.md §Open Envido raises).

        Raises:
            RuleError: ``bad_amount`` (no amount, or more than the game leaves), ``bad_raise``
            (no Envido pending, or a Falta Envido pending), ``own_call`` or ``top_reached``.
        """
        hand = core.hand
        self._require_no_comparison(hand)
        if amount is None:
            raise RuleError("bad_amount", N_("{call} needs an amount: how many tentos more."), allowed=[1, 2, 3],
                            call=OPEN_RAISE)
        if not hand.envido_pending:
            raise RuleError("bad_raise", N_("{call} raises an Envido that waits for an answer; none does."),
                            call=OPEN_RAISE)
        if hand.envido_caller == side:
            raise RuleError("own_call", N_("{call} by {side}: the answer belongs to {answer_side}."), side=side,
                            answer_side=1 - side, call=hand.envido_chain[-1])
        if not self._envido_chain_known([*hand.envido_chain, OPEN_RAISE]):
            raise RuleError("bad_raise", N_("{call} cannot answer {pending}."), call=OPEN_RAISE,
                            pending=hand.envido_chain[-1])
        most = self._open_raise_most(hand, core.score)
        if most < 1:
            raise RuleError("top_reached", N_("The Envido is already worth what the side furthest behind lacks "
                                              "for the game: there is nothing left to raise."))
        if amount > most:
            raise RuleError("bad_amount", N_("{amount} more is too many: the Envido may be raised by {most} at most, "
                                             "up to what the side furthest behind lacks for the game."),
                            allowed=[1, most], amount=amount, most=most)
        hand.envido_chain.append(OPEN_RAISE)
        hand.envido_raises.append(amount)
        hand.envido_caller = side
        return [LogFact(LogKind.CALL, side=side, call=OPEN_RAISE, amounts=(amount,))]

    def _open_raises(self, side: int) -> list[dict[str, Any]]:
        """The open raises ``side`` could make now, one per amount from 1 to the most the game
        leaves (``legal_actions``' candidates; empty where the variant has none or no Envido
        waits for ``side``'s answer)."""
        hand, rules = self._core.hand, self.variant.envido
        if rules is None or not rules.open_raises or not hand.envido_pending or hand.envido_caller == side:
            return []
        if not self._envido_chain_known([*hand.envido_chain, OPEN_RAISE]):
            return []  # a Falta Envido waits: nothing is raised over it
        most = self._open_raise_most(hand, self._core.score)
        return [{"type": "call", "side": side, "call": OPEN_RAISE, "amount": n} for n in range(1, most + 1)]

    def _flor_call(self, core: _Core, side: int, call: str) -> list[LogFact]:
        hand = core.hand
        flor = self.variant.flor
        assert flor is not None
        if call == "flor" and self._another_players_flor(hand, side):
            hand.flor_chain.append(("flor", side))
            return [LogFact(LogKind.CALL, side=side, call=call)]
        if not (call == "flor" and hand.awaiting == "envido_winner"):
            # An accepted Envido whose winner is still asked for is not settled: a Flor
            # cancels it (below); any other comparison must be entered first.
            self._require_no_comparison(hand)
        facts: list[LogFact] = []
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
                # A Flor "anula qualquer pedido de Envido ... feito anteriormente": called, pending,
                # or accepted and not yet settled (docs/rules.md §Flor cancels Envido).
                facts.append(LogFact(LogKind.FLOR_CANCELS_ENVIDO, chain=tuple(hand.envido_chain),
                                     amounts=tuple(hand.envido_raises)))
                hand.envido_chain, hand.envido_pending, hand.envido_caller = [], False, None
                hand.envido_raises = []
                if hand.awaiting == "envido_winner":
                    hand.awaiting = None
            hand.envido_done = True
            hand.flor_chain, hand.flor_pending = [("flor", side)], True
            facts.append(LogFact(LogKind.CALL, side=side, call=call))
            return facts
        last_call, last_side = hand.flor_chain[-1]
        if last_side == side:
            raise RuleError("own_call", N_("{call} by {side}: the answer belongs to {answer_side}."), side=side, answer_side=1 - side, call=last_call)
        allowed = {"flor": [c for c in ("contraflor", "contraflor_al_resto", "flor_envida") if c in flor.raises]
                   + (["flor"] if flor.compared else []),
                   "contraflor": [c for c in ("contraflor_al_resto",) if c in flor.raises],
                   "flor_envida": [c for c in ("flor_envida",) if c in flor.raises]}
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
        facts.append(LogFact(LogKind.CALL, side=side, call=call))
        if call == "flor":  # flor answered by flor: compared at once
            self._start_comparison(hand, self._flor_compared_stake())
        elif not flor.contraflor_answered:  # gauderio: contraflor is compared at once
            self._start_comparison(hand, flor.contraflor if call == "contraflor" else "falta")
        return facts

    def _another_players_flor(self, hand: Hand, side: int) -> bool:
        """With ``flor_per_player``: a second (or third) player of a side that already sang
        Flor sings one too, while only Flores were sung and none is settled (docs/rules.md
        §One Flor per player). At most one per player of the side: the seats' count when
        they are given (``players_per_side``), else 3 (a table of 6)."""
        sung = [caller for call, caller in hand.flor_chain]
        return (
            bool(self.options.get("flor_per_player"))
            and side in sung
            and sung.count(side) < (self.players_per_side or 3)
            and not hand.flor_done
            and all(call == "flor" for call, _ in hand.flor_chain)
            and ((hand.flor_pending and sung[-1] == side) or hand.awaiting == "flor_winner")
        )

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

    def _quiero(self, core: _Core, action: Mapping[str, Any]) -> list[LogFact]:
        hand, side = core.hand, action["side"]
        self._require_no_comparison(hand)
        pending = self._require_side_to_answer(hand, side)
        call = pending["call"]
        raised = (hand.envido_raises[-1],) if call == OPEN_RAISE else ()  # "tres más" accepted: said with its tentos
        facts: list[LogFact] = [LogFact(LogKind.QUIERO, side=side, call=call, amounts=raised)]
        if hand.flor_pending:
            flor = self.variant.flor
            assert flor is not None
            if call == "flor" and flor.compared is None:
                raise RuleError(
                    "bad_answer",
                    N_("In this variant a Flor is answered with no_flor, contraflor, contraflor_al_resto or no_quiero."),
                )
            stake = {"flor": self._flor_compared_stake(), "flor_envida": self._flor_compared_stake(),
                     "contraflor": flor.contraflor}.get(call, "falta")
            self._start_comparison(hand, stake)
        elif hand.envido_pending:
            hand.envido_pending = False
            hand.awaiting = "envido_winner"
        else:
            assert hand.truco_pending is not None
            index, _ = hand.truco_pending
            hand.truco_level, hand.value = index, self.variant.truco_ladder[index].value(self.target)
            hand.truco_raise_side, hand.truco_pending = side, None
            facts[-1] = LogFact(LogKind.QUIERO, side=side, call=call, value=hand.value)
        return facts

    def _no_quiero(self, core: _Core, action: Mapping[str, Any]) -> list[LogFact]:
        hand, side = core.hand, action["side"]
        self._require_no_comparison(hand)
        self._require_side_to_answer(hand, side)
        facts: list[LogFact] = []
        self._refuse_top(core, facts)
        return facts

    def _refuse_top(self, core: _Core, facts: list[LogFact]) -> None:
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
            elif call == "flor_envida":  # what was bet before this raise: the Flor's 3 and the earlier raises
                points = flor.uncontested + flor.envida * ([c for c, _ in hand.flor_chain].count("flor_envida") - 1)
            else:
                before = hand.flor_chain[-2][0]
                points = flor.resto_refused_after_flor if before == "flor" else flor.resto_refused_after_contraflor
            points += self._flores_beyond_first(hand)
            hand.flor_pending, hand.flor_done = False, True
            facts.append(LogFact(LogKind.FLOR_REFUSED, side=caller, call=call, points=points))
            self._award(core, caller, points, facts)
        elif hand.envido_pending:
            points = self._envido_refused(hand.envido_chain, hand.envido_raises)
            assert hand.envido_caller is not None
            caller = hand.envido_caller
            hand.envido_pending, hand.envido_done = False, True
            facts.append(LogFact(LogKind.ENVIDO_REFUSED, side=caller, chain=tuple(hand.envido_chain),
                                 amounts=tuple(hand.envido_raises), points=points))
            self._award(core, caller, points, facts)
        else:
            assert hand.truco_pending is not None
            index, caller = hand.truco_pending
            step = self.variant.truco_ladder[index]
            facts.append(LogFact(LogKind.TRUCO_REFUSED, side=1 - caller, call=step.call))
            hand.truco_pending = None
            self._end_hand(core, caller, step.refused, facts)

    def _no_flor(self, core: _Core, action: Mapping[str, Any]) -> list[LogFact]:
        hand, side = core.hand, action["side"]
        self._require_no_comparison(hand)
        if not hand.flor_pending or hand.flor_chain[-1][0] != "flor":
            self._raise_no_flor_pending(hand, "no_flor")
        self._require_side_to_answer(hand, side)
        flor = self.variant.flor
        assert flor is not None
        caller = hand.flor_chain[-1][1]
        points = flor.uncontested + self._flores_beyond_first(hand)
        hand.flor_pending, hand.flor_done = False, True
        facts: list[LogFact] = [LogFact(LogKind.FLOR_UNCONTESTED, side=caller, points=points)]
        self._award(core, caller, points, facts)
        return facts

    def _compared(self, core: _Core, action: Mapping[str, Any]) -> list[LogFact]:
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
            # Equal points go to the mano (docs/rules.md §Envido ties).
            winner = hand.mano if points[0] == points[1] else (0 if points[0] > points[1] else 1)
            counts: tuple[int, int] | None = (points[winner], points[1 - winner])
        else:
            winner, counts = action["side"], None
        if is_flor:
            chain = [call for call, _ in hand.flor_chain]
            stake = hand.compare_stake
            value: int | None = self._flor_comparison_value(hand, stake, winner, core.score)
            hand.flor_done = True
        else:
            chain = list(hand.envido_chain)
            value = self._envido_value(chain, core.score, winner, hand.envido_raises)
            hand.envido_done = True
        amounts = () if is_flor else tuple(hand.envido_raises)
        assert value is not None
        hand.awaiting, hand.compare_stake = None, None
        facts: list[LogFact] = [LogFact(LogKind.CHAIN_WON, side=winner, chain=tuple(chain), amounts=amounts,
                                        points=value, counts=counts)]
        self._award(core, winner, value, facts)
        return facts
