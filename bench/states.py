"""The board states the "one screen" rule and the steady board are checked in (issue #14):
per variant, the actions that lead from a new match to each state. Shared by the browser
tests (tests/browser/test_steady_board.py) and the bench's board heights (bench/browser.py).

Every variant, call and threshold here is read from the registry (:mod:`scorer.core.variants`):
the bench names no variant and no call (tests/system/test_layers.py checks it).
"""

from __future__ import annotations

import json
from typing import Any

from scorer.core.match import Match
from scorer.core.schema import bare_action
from scorer.core.variants import FLOR_CALLS, OPEN_RAISE, Variant, default_variant, get_variant
from scorer.core.variants import VARIANTS as REGISTRY


def _form(variant: Variant) -> dict[str, str]:
    """The new-match form fields that put everything the variant has in play (its Flor)."""
    return {"flor": "True"} if variant.flor_option else {}


#: Variants as the tests create them: ``(variant id, extra new-match form fields)``, every
#: registered variant in registry order.
VARIANTS: tuple[tuple[str, dict[str, str]], ...] = tuple((v.id, _form(v)) for v in REGISTRY.values())

#: The bench's long match: the first variant with malas and buenas and Flor as an option
#: (the longest game, with every kind of call).
LONG_MATCH: str = next(v.id for v in REGISTRY.values() if v.malas_buenas and v.flor_option)

#: The bench's short match: the default variant (a lone match, a tournament's).
SHORT_MATCH: str = default_variant().id

#: A variant with manilhas from the vira (a new-match form with nothing else to choose).
VIRA_MATCH: str = next(v.id for v in REGISTRY.values() if v.cards.vira_manilhas)


def first_call(variant: str) -> str:
    """The first call of ``variant``'s truco ladder (Truco, Truc...)."""
    return get_variant(variant).truco_ladder[0].call


def call(side: int, name: str) -> dict[str, Any]:
    return {"type": "call", "side": side, "call": name}


def states(variant: str) -> dict[str, list[dict[str, Any]]]:
    """``{state name: actions from a new match}`` for ``variant``: hand start, truco
    pending and accepted, a trick played, and where the variant has them Envido pending,
    Envido points awaited, an open Envido raise pending ("tres más", answered by another),
    Flor pending and the mão de onze/dez (or the Catalan 11)."""
    rules = get_variant(variant)
    first = first_call(variant)
    out = {
        "start": [],
        "truco pending": [call(0, first)],
        "truco accepted": [call(0, first), {"type": "quiero", "side": 1}],
        "trick played": [{"type": "trick", "winner": 0}],
    }
    if rules.envido is not None:
        out["envido pending"] = [call(0, rules.envido.calls[0])]
        out["envido points awaited"] = [call(0, rules.envido.calls[0]), {"type": "quiero", "side": 1}]
    if rules.envido is not None and rules.envido.open_raises:
        out["envido raised"] = [call(0, rules.envido.calls[0]), {**call(1, OPEN_RAISE), "amount": 3}]
    if rules.flor is not None:
        out["flor pending"] = [call(0, rules.flor.calls[0])]
    if rules.special_hand is not None:
        out["special hand"] = [{"type": "adjust", "side": 0, "delta": rules.special_hand.threshold}]
    return out


#: What changes a button's words: the action itself (its type, call, side), what it answers
#: (a Flor, the Flor's or the Envido's winner, the mão de onze or dez) and how many digits
#: its points have (and for whom).
_NOT_ON_THE_PAD = frozenset({"adjust", "undo", "declare_points"})


def _words_keys(state: dict[str, Any]) -> set[tuple[Any, ...]]:
    """One key per pad button of ``state`` (the engine's state): what its words depend on."""
    hand = state["hand"]
    pending = (hand.get("pending") or {}).get("call")
    keys = set()
    for action in state["legal_actions"]:
        kind = action["type"]
        if kind in _NOT_ON_THE_PAD:
            continue
        answers = ""
        if kind in ("quiero", "no_quiero") and pending in FLOR_CALLS:
            answers = "flor"
        elif kind == "envido_winner":
            answers = hand.get("awaiting") or ""
        elif kind == "special_hand":
            answers = hand.get("special") or ""
        points = action.get("points")
        keys.add((json.dumps(bare_action(action), sort_keys=True), answers,
                  None if points is None else len(str(points)), action.get("points_side")))
    return keys


def label_states(variant: str, options: dict[str, Any], depth: int = 5) -> list[list[dict[str, Any]]]:
    """Few states that together put every button the pad can show on screen (issue 19 item 8):
    the actions from a new match (``options``; mano: side 0) to each.

    Explores the engine's legal actions from the start of the match (and from the special
    hand at the threshold, one side or both) up to ``depth`` actions within the first hand
    (at most one trick: calls and answers are what change the words), then keeps a greedy
    cover of the buttons' words (see :func:`_words_keys`). Deterministic.
    """
    rules = get_variant(variant)
    starts: list[list[dict[str, Any]]] = [[]]
    if rules.special_hand:
        at = rules.special_hand.threshold
        starts += [[{"type": "adjust", "side": 0, "delta": at}],
                   [{"type": "adjust", "side": 0, "delta": at}, {"type": "adjust", "side": 1, "delta": at}]]
    seen: set[str] = set()
    found: list[tuple[list[dict[str, Any]], set[tuple[Any, ...]]]] = []
    frontier = starts
    for step in range(depth + 1):
        following = []
        for actions in frontier:
            match = Match.replay(variant, options, 0, actions)
            state = match.state()
            mark = json.dumps([state["hand"], state["score"]], sort_keys=True, default=str)
            if match.winner is not None or mark in seen:
                continue
            seen.add(mark)
            found.append((actions, _words_keys(state)))
            if step == depth or state["hand"]["number"] > 1:
                continue
            tricks = sum(a["type"] == "trick" for a in actions)
            following += [actions + [bare_action(a)] for a in state["legal_actions"]
                          if a["type"] not in _NOT_ON_THE_PAD | {"hand_winner"} and not (a["type"] == "trick" and tricks)]
        frontier = following
    left = set().union(*(keys for _actions, keys in found))
    chosen = []
    while left:
        actions, keys = max(found, key=lambda f: len(f[1] & left))
        chosen.append(actions)
        left -= keys
    return chosen
