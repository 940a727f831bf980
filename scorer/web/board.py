"""The scoreboard's view model: the engine's state dict arranged for the template.

Nothing here scores: the numbers come from the engine. This only groups the legal
actions into per-side columns with their words, and splits each score into the
squares of five that players draw (malas/buenas where the variant has them).
"""

from __future__ import annotations

from typing import Any

from scorer.web import labels


def squares(n: int) -> list[int]:
    """Palitos in squares of five: 7 -> [5, 2]; 0 -> []."""
    n = max(0, int(n))
    return [5] * (n // 5) + ([n % 5] if n % 5 else [])


def tally(score: int, target: int, split: bool) -> list[dict[str, Any]]:
    """The drawn tally of one side: ``[{"stage", "squares"}]``, one entry per stage.

    ``split`` (malas/buenas variants): the first half of the target are the malas,
    the rest the buenas; otherwise one unnamed stage.
    """
    if not split:
        return [{"stage": None, "squares": squares(score)}]
    half = target // 2
    return [
        {"stage": "malas", "squares": squares(min(score, half))},
        {"stage": "buenas", "squares": squares(max(0, score - half))},
    ]


def buttons(state: dict[str, Any]) -> dict[str, Any]:
    """The legal actions as buttons: ``{"sides": [[...], [...]], "shared": [...],
    "envido_points": bool, "adjust": [[...], [...]]}``.

    Each button is ``{"label", "note", "json", "type"}``. ``envido_points`` says the
    engine accepts declared Envido points now (a small form, not a button); manual
    corrections (``adjust``) are kept apart, shown in a folded section.
    """
    names = state["names"]
    variant = state["variant"]
    out: dict[str, Any] = {"sides": [[], []], "shared": [], "envido_points": False, "adjust": [[], []], "undo": None}
    for action in state.get("legal_actions", []):
        kind = action.get("type")
        if kind == "envido_points":
            out["envido_points"] = True
            continue
        if kind == "adjust":
            # The engine lists a template with a free delta: offer -1 and +1.
            side = action.get("side")
            if side in (0, 1):
                for delta in (-1, 1):
                    fixed = {"type": "adjust", "side": side, "delta": delta}
                    out["adjust"][side].append(
                        {"label": f"{delta:+d}", "note": "", "json": labels.action_json(fixed), "type": kind}
                    )
            continue
        button = {
            "label": labels.action_label(variant, action, names, state),
            "note": labels.points_note(action, names),
            "json": labels.action_json(action),
            "type": kind,
        }
        if kind == "undo":
            out["undo"] = button
            continue
        side = labels.action_side(action)
        if side in (0, 1):
            out["sides"][side].append(button)
        else:
            out["shared"].append(button)
    return out


def view(state: dict[str, Any]) -> dict[str, Any]:
    """Everything the scoreboard fragment shows, from the engine's state."""
    hand = state.get("hand") or {}
    split = bool(state.get("stages"))
    pending = hand.get("pending")
    return {
        "state": state,
        "names": state["names"],
        "score": state["score"],
        "winner": state.get("winner"),
        "hand": hand,
        "pending_call": labels.call_name(state["variant"], pending["call"]) if pending else None,
        "special": labels.SPECIAL_NAMES.get(hand.get("special") or ""),
        "tallies": [tally(s, state["target"], split) for s in state["score"]],
        "stages": state.get("stages"),
        "buttons": buttons(state),
        "log": list(reversed(state.get("log", []))),
    }
