"""Engine timings: card parsing, Envido of all 9,880 hands, replay of a 300-action match.

Pure Python, no server: :mod:`scorer.core.cards`, :mod:`scorer.core.envido_points` and
:meth:`scorer.core.match.Match.replay`. Each figure is the median of several timed runs.
"""

from __future__ import annotations

import random
import statistics
import time
from itertools import combinations
from typing import Any

from bench.states import LONG_MATCH

from scorer.core.cards import DECK, parse_card
from scorer.core.envido_points import envido_points
from scorer.core.errors import RuleError
from scorer.core.match import Match

#: Cards as players type them (issue 3's accepted forms), parsed round-robin.
TYPED = [
    "7 de oro", "7 oro", "7o", "7 de ouros", "7♦", "ancho de espada", "as de espadas", "Ás de paus",
    "1e", "sota de copa", "caballo de basto", "rey de oros", "12b", "Q de copas", "QC", "K♠",
    "3 de copas", "2 de bastos", "6e", "5 de ouros",
]

PLAYABLE = {"call", "quiero", "no_quiero", "no_flor", "envido_winner", "trick", "hand_winner", "special_hand", "mazo"}


def long_match(n: int = 300, variant: str = LONG_MATCH, seed: int = 7) -> list[dict[str, Any]]:
    """``n`` legal actions of one match: a seeded random walk over what the engine allows
    (calls, answers, tricks, hands, declared Envido points), with a score correction
    whenever a side gets near the target (and an undo if a Falta ends the game), so the
    game goes on for ``n`` actions."""
    rng = random.Random(seed)
    m = Match(variant)
    while m.version < n:
        if m.winner is not None:  # a Falta ended it: undo and play on
            m.apply({"type": "undo"})
            continue
        high = [side for side in (0, 1) if m.score[side] >= m.target - 6]
        if high:
            m.apply({"type": "adjust", "side": high[0], "delta": -(m.score[high[0]] - 2)})
            continue
        legal = m.legal_actions()
        choices = [a for a in legal if a["type"] in PLAYABLE]
        if any(a["type"] == "declare_points" for a in legal):
            choices.append({"type": "envido_points", "points": [rng.randint(20, 33), rng.randint(20, 33)]})
        action = {k: v for k, v in rng.choice(choices).items() if k not in ("points_side",)}
        if action["type"] != "envido_points":
            action.pop("points", None)
        try:
            m.apply(action)
        except RuleError:  # e.g. equal declared points the variant does not break: try again
            continue
    return list(m.actions)


def _rate(fn, units: int, runs: int, min_seconds: float) -> dict[str, Any]:
    """Median units/second over ``runs`` runs, each repeating ``fn`` for ``min_seconds``."""
    rates = []
    for _ in range(runs):
        done, t0 = 0, time.perf_counter()
        while True:
            fn()
            done += units
            elapsed = time.perf_counter() - t0
            if elapsed >= min_seconds:
                break
        rates.append(done / elapsed)
    return {"per_s": statistics.median(rates), "runs": [round(r, 1) for r in rates]}


def run(runs: int = 3, min_seconds: float = 0.4) -> dict[str, Any]:
    """``{"card_parse", "envido_hands", "replay_300"}``, each ``{"per_s", "runs"}``."""
    hands = list(combinations(DECK, 3))
    assert len(hands) == 9880
    actions = long_match(300)

    def parse_all() -> None:
        for text in TYPED:
            parse_card(text)

    def envido_all() -> None:
        for hand in hands:
            envido_points(hand, flor=True)

    def replay() -> None:
        Match.replay(LONG_MATCH, {}, 0, actions)

    return {
        "card_parse": _rate(parse_all, len(TYPED), runs, min_seconds),
        "envido_hands": _rate(envido_all, len(hands), runs, min_seconds),
        "replay_300": _rate(replay, 1, runs, min_seconds),
        "replay_action_types": sorted({a["type"] for a in actions}),
    }
