"""A compact way to write action sequences in rule tables.

Tokens (space separated):
  ``0:truco``       side 0 calls truco (any call name)
  ``1:envido_mas+3``  side 1 calls with an amount (the open Envido raise, "tres más")
  ``1:quiero`` ``1:no_quiero`` ``1:no_flor`` ``1:mazo``
  ``ew0``           side 0 won the envido/flor comparison
  ``ep27-30``       both sides' declared points, side 0 first
  ``t0`` ``t1`` ``tp``  a trick won by 0, by 1, or parda
  ``w0`` ``w1`` ``wn``  the hand won by 0, by 1, or by nobody
  ``s0:play`` ``s0:run``  the special-hand decision of side 0
  ``a0+12`` ``a1-1``  manual corrections
  ``undo``
"""

from __future__ import annotations

from typing import Any

from scorer.core.match import Match

ANSWERS = {"quiero", "no_quiero", "no_flor", "mazo"}


def action(token: str) -> dict[str, Any]:
    """One token -> one action dict."""
    if token == "undo":
        return {"type": "undo"}
    if token.startswith("ew"):
        return {"type": "envido_winner", "side": int(token[2])}
    if token.startswith("ep"):
        first, second = token[2:].split("-")
        return {"type": "envido_points", "points": [int(first), int(second)]}
    if token[0] == "t" and len(token) == 2:
        return {"type": "trick", "winner": None if token[1] == "p" else int(token[1])}
    if token[0] == "w" and len(token) == 2:
        return {"type": "hand_winner", "side": None if token[1] == "n" else int(token[1])}
    if token[0] == "s":
        side, decision = token[1:].split(":")
        return {"type": "special_hand", "side": int(side), "decision": decision}
    if token[0] == "a":
        return {"type": "adjust", "side": int(token[1]), "delta": int(token[2:])}
    side, word = token.split(":")
    if word in ANSWERS:
        return {"type": word, "side": int(side)}
    if "+" in word:
        call, amount = word.split("+")
        return {"type": "call", "side": int(side), "call": call, "amount": int(amount)}
    return {"type": "call", "side": int(side), "call": word}


def actions(script: str) -> list[dict[str, Any]]:
    """A whole script -> the list of actions."""
    return [action(token) for token in script.split()]


def play(variant: str, script: str, *, options: dict[str, Any] | None = None, mano: int = 0,
         players_per_side: int | None = None) -> Match:
    """Replay ``script`` on a new match (``players_per_side``: the seats' count, None unknown)."""
    return Match.replay(variant, options or {}, mano, actions(script), players_per_side)
