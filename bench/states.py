"""The board states the "one screen" rule and the steady board are checked in (issue #14):
per variant, the actions that lead from a new match to each state. Shared by the browser
tests (tests/browser/test_steady_board.py) and the bench's board heights (bench/browser.py).
"""

from __future__ import annotations

from typing import Any

#: Variants as the tests create them: ``(variant id, extra new-match form fields)``.
VARIANTS: tuple[tuple[str, dict[str, str]], ...] = (
    ("truco-15", {}),
    ("argentino-30", {"flor": "True"}),
    ("uruguaio", {}),
    ("paulista", {}),
    ("mineiro", {}),
    ("gauderio", {}),
    ("truc", {}),
)


def call(side: int, name: str) -> dict[str, Any]:
    return {"type": "call", "side": side, "call": name}


def states(variant: str) -> dict[str, list[dict[str, Any]]]:
    """``{state name: actions from a new match}`` for ``variant``: hand start, truco
    pending and accepted, a trick played, and where the variant has them Envido pending,
    Envido points awaited, Flor pending and the mão de onze/dez (or the Catalan 11)."""
    first = "truc" if variant == "truc" else "truco"
    out = {
        "start": [],
        "truco pending": [call(0, first)],
        "truco accepted": [call(0, first), {"type": "quiero", "side": 1}],
        "trick played": [{"type": "trick", "winner": 0}],
    }
    if variant in ("truco-15", "argentino-30", "uruguaio", "gauderio"):
        out["envido pending"] = [call(0, "envido")]
        out["envido points awaited"] = [call(0, "envido"), {"type": "quiero", "side": 1}]
    if variant in ("argentino-30", "uruguaio", "gauderio"):
        out["flor pending"] = [call(0, "flor")]
    threshold = {"paulista": 11, "mineiro": 10, "truc": 11}.get(variant)
    if threshold:
        out["special hand"] = [{"type": "adjust", "side": 0, "delta": threshold}]
    return out
