"""The board states the "one screen" rule and the steady board are checked in (issue #14):
per variant, the actions that lead from a new match to each state. Shared by the browser
tests (tests/browser/test_steady_board.py) and the bench's board heights (bench/browser.py).

Every variant, call and threshold here is read from the registry (:mod:`scorer.core.variants`):
the bench names no variant and no call (tests/system/test_layers.py checks it).
"""

from __future__ import annotations

from typing import Any

from scorer.core.variants import VARIANTS as REGISTRY
from scorer.core.variants import Variant, default_variant, get_variant


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
    Envido points awaited, Flor pending and the mão de onze/dez (or the Catalan 11)."""
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
    if rules.flor is not None:
        out["flor pending"] = [call(0, rules.flor.calls[0])]
    if rules.special_hand is not None:
        out["special hand"] = [{"type": "adjust", "side": 0, "delta": rules.special_hand.threshold}]
    return out
