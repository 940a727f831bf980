"""What each stake is worth: the Falta Envido under the table's convention, an Envido chain
accepted or refused, a call's stake before it is answered, the Flor exchange. A part of
:class:`~scorer.core.match.Match` (mixed into :class:`~scorer.core.match.calls.Calls`). Units: tentos."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scorer.core.variants import ENVIDO_CALLS, OPEN_RAISE, WINNER_FALTAS
from scorer.core.match.hand import Hand
from scorer.core.match.parts import MatchParts


#: The stake of a Flor comparison paid 3 for each Flor of the better side (option ``flor_vs_flor``).
PER_FLOR = "per_flor"


class Stakes(MatchParts):
    """The worth of the calls (mixed into :class:`~scorer.core.match.Match`)."""

    def _falta_in_play(self) -> bool:
        """Whether Falta Envido is a call at this table: where the variant always has it, or
        where it is the table's option ``falta_envido`` (venezolano: docs/rules.md
        §Venezuelan options)."""
        rules = self.variant.envido
        return rules is not None and (rules.falta or bool(self.options.get("falta_envido")))

    def _flor_compared_stake(self) -> int | str:
        """What a Flor answered by a Flor (or "con flor quiero") is compared for: the variant's
        fixed value (4: docs/rules.md §Flor values), or :data:`PER_FLOR` with the option
        ``flor_vs_flor=per_flor`` (docs/rules.md §Venezuelan options)."""
        flor = self.variant.flor
        assert flor is not None and flor.compared is not None
        return PER_FLOR if self.options.get("flor_vs_flor") == PER_FLOR else flor.compared

    def _flor_comparison_value(self, hand: Hand, stake: int | str, winner: int, score: Sequence[int]) -> int:
        """What a compared Flor exchange pays ``winner`` (tentos): the Falta for a Contraflor al
        resto; with :data:`PER_FLOR` 3 for each Flor ``winner``'s side sang (two allied Flores
        against one: 6; GH-GIAMPIGA's test, docs/rules.md §Venezuelan options); else the stake
        and 3 for each further Flor (docs/rules.md §One Flor per player); and 2 for each "mi
        flor envida" (:attr:`FlorRules.envida`).

        :raise AssertionError: a Falta that depends on an unknown winner (never: ``winner`` is given).
        """
        flor = self.variant.flor
        assert flor is not None
        if stake == "falta":
            value = self._falta(score, winner)
            assert value is not None
            return value
        raised = flor.envida * [call for call, _ in hand.flor_chain].count("flor_envida")  # "mi flor envida", +2 each
        if stake == PER_FLOR:  # a side that answered "con flor quiero" holds its one Flor
            flores = sum(1 for call, side in hand.flor_chain if call == "flor" and side == winner)
            return flor.uncontested * max(1, flores) + raised
        return int(stake) + self._flores_beyond_first(hand) + raised

    def _falta(self, score: Sequence[int], winner: int | None) -> int | None:
        """Accepted Falta Envido (or Contraflor al resto) value under the table's ``falta``
        convention (docs/rules.md §Falta Envido; §Truco to 15 for the 15-point game).

        Returns ``None`` when it depends on a winner not yet known.
        """
        convention = self.options.get("falta", self.variant.falta)
        leader = max(score)
        # The malas; a variant without them is one stage, the whole game.
        half = self.variant.malas_size(self.target) or self.target
        in_malas = leader < half
        if winner is None and convention in WINNER_FALTAS and (in_malas or convention == "loser_lacks"):
            return None
        if convention == "leader_stage" and in_malas:
            value = half - leader
        elif convention == "malas_wins_game" and in_malas:
            assert winner is not None  # a WINNER_FALTAS convention without a winner returned above
            value = self.target - score[winner]
        elif convention == "winner_stage" and in_malas:
            assert winner is not None
            value = half - score[winner]
        elif convention == "loser_lacks":
            assert winner is not None
            value = self.target - score[1 - winner]
        else:
            value = self.target - leader
        # No floor the rule texts do not have: a leader who lacks nothing (gauderio, where a
        # correction made mid-hand can bring the leader to the target) is paid 0.
        return max(value, 0)

    def _chain_points(self, chain: Sequence[str], raises: Sequence[int] = ()) -> int:
        """Accepted value of an Envido chain without Falta (0 for the empty chain): the
        variant's table, or with ``envido_repeat`` 2 for each Envido and 3 for the Real Envido
        (docs/rules.md §Repeated Envido); a chain of the table followed by open raises is worth
        the table's value and the tentos of each raise, the first of ``raises`` (docs/rules.md
        §Open Envido raises).

        Raises:
            KeyError: a chain the variant does not have.
        """
        rules = self.variant.envido
        assert rules is not None
        if not chain:
            return 0
        if self._open_chain(chain):
            opened = list(chain).index(OPEN_RAISE)
            return self._chain_points(chain[:opened]) + sum(raises[: len(chain) - opened])
        if tuple(chain) in rules.chains:
            return rules.chains[tuple(chain)]
        if self._repeated_chain(chain):
            return 2 * chain.count("envido") + 3 * chain.count("real_envido")
        raise KeyError(tuple(chain))

    def _open_chain(self, chain: Sequence[str]) -> bool:
        """Whether ``chain`` is a chain of the variant's table (or a repeated one) followed by
        one or more open raises, where the variant has them (docs/rules.md §Open Envido raises)."""
        rules = self.variant.envido
        if rules is None or not rules.open_raises or OPEN_RAISE not in chain:
            return False
        opened = list(chain).index(OPEN_RAISE)
        base = tuple(chain[:opened])
        return (bool(base) and (base in rules.chains or self._repeated_chain(base))
                and all(call == OPEN_RAISE for call in chain[opened:]))

    def _open_raise_most(self, hand: Hand, score: Sequence[int]) -> int:
        """The most tentos an open raise may add now (0 or less: none): what takes the side
        furthest behind to the target, less what the pending Envido stands at
        (docs/rules.md §Open Envido raises)."""
        return self.target - min(score) - self._chain_points(hand.envido_chain, hand.envido_raises)

    def _falta_raises(self, chain: Sequence[str], raises: Sequence[int]) -> bool:
        """Whether a Falta Envido called over ``chain`` raises it: always, except over open
        raises, where the Falta (the lower of the two sides' under the table's convention)
        must be worth more than the chain (GH-GIAMPIGA: docs/rules.md §Open Envido raises)."""
        if OPEN_RAISE not in chain:
            return True
        faltas = [self._falta(self._core.score, side) for side in (0, 1)]
        return min(f for f in faltas if f is not None) > self._chain_points(chain, raises)

    def _repeated_chain(self, chain: Sequence[str]) -> bool:
        """With ``envido_repeat``: Envido any number of times, then at most one Real Envido."""
        body = list(chain[:-1]) if chain and chain[-1] == "real_envido" else list(chain)
        return bool(self.options.get("envido_repeat")) and bool(chain) and all(c == "envido" for c in body)

    def _envido_value(self, chain: Sequence[str], score: Sequence[int], winner: int | None,
                      raises: Sequence[int] = ()) -> int | None:
        """Accepted value of an envido chain (``None`` for a winner-dependent Falta; ``raises``:
        the tentos of its open raises). With ``falta_adds_stake`` an accepted Falta adds the
        chain accepted before it (docs/rules.md §Falta adds the stake)."""
        if chain and chain[-1] == "falta_envido":
            falta = self._falta(score, winner)
            if falta is None or not self.options.get("falta_adds_stake"):
                return falta
            return falta + self._chain_points(chain[:-1], raises)
        return self._chain_points(chain, raises)

    def _envido_refused(self, chain: Sequence[str], raises: Sequence[int] = ()) -> int:
        """What a refused chain pays its last caller: the chain before its last call, min 1
        (``raises``: the tentos of its open raises; docs/rules.md §Open Envido raises)."""
        try:
            return self._chain_points(chain[:-1], raises) or 1
        except KeyError:
            return 1

    def _call_stake(self, action: Mapping[str, Any]) -> int | None:
        """What a call would be worth if accepted (tentos), or ``None`` if unknown."""
        call, hand = action["call"], self._core.hand
        for step in self.variant.truco_ladder:
            if step.call == call:
                return step.value(self.target)
        if call in ENVIDO_CALLS:
            chain = [*hand.envido_chain, call] if hand.envido_pending else [call]
            raises = [*hand.envido_raises, action["amount"]] if call == OPEN_RAISE else hand.envido_raises
            return self._envido_value(chain, self._core.score, None, raises)
        flor = self.variant.flor
        assert flor is not None
        if call == "flor":
            partner = self._another_players_flor(hand, action["side"])
            if not hand.flor_pending or partner or self._flor_compared_stake() == PER_FLOR:
                return flor.uncontested  # per_flor: a side's one Flor, 3
            return flor.compared
        if call == "contraflor":
            return flor.contraflor
        if call == "flor_envida":  # the comparison's stake and 2 for this raise and each before it
            base = flor.uncontested if self._flor_compared_stake() == PER_FLOR else int(flor.compared or 0)
            return base + flor.envida * (1 + [c for c, _ in hand.flor_chain].count("flor_envida"))
        return self._falta(self._core.score, None)

    def _falta_passed(self, chain: Sequence[str]) -> int | None:
        """With ``envido_repeat``, the Falta Envido's value (tentos, 0 or more) when the raise
        that ends ``chain`` makes the whole chain worth more than it, else ``None``: the chain
        never goes past the Falta's value, the lower of the two sides' under the table's
        convention (docs/rules.md §Repeated Envido). A lone first call is never capped."""
        if not self.options.get("envido_repeat") or len(chain) < 2 or chain[-1] == "falta_envido":
            return None
        faltas = [self._falta(self._core.score, side) for side in (0, 1)]
        falta = min(f for f in faltas if f is not None)
        return falta if self._chain_points(chain) > falta else None


    def _flores_beyond_first(self, hand: Hand) -> int:
        """Tentos the further Flores of a side add to whatever the Flor exchange pays: 3 for
        each Flor beyond the first of its side (docs/rules.md §One Flor per player); 0
        without ``flor_per_player``."""
        flor = self.variant.flor
        assert flor is not None
        sung = [caller for call, caller in hand.flor_chain if call == "flor"]
        return flor.uncontested * (len(sung) - len(set(sung)))
