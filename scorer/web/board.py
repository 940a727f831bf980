"""The scoreboard's view model: the engine's state dict arranged for the template.

Nothing here scores: the numbers come from the engine. This only groups the legal
actions into per-side columns with their words, and splits each score into the
squares of five that players draw (malas/buenas where the variant has them).
"""

from __future__ import annotations

import re
from typing import Any

from flask_babel import gettext

from scorer import seats as seating
from scorer.series import SeriesStatus
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
                        {"label": f"{delta:+d}", "note": "", "json": labels.action_json(fixed), "type": kind,
                         "id": button_id(fixed)}
                    )
            continue
        button = {
            "label": labels.action_label(variant, action, names, state),
            "note": labels.points_note(action, names),
            "json": labels.action_json(action),
            "type": kind,
            "id": button_id(action),
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


def button_id(action: dict[str, Any]) -> str:
    """A stable element id for an action's button (``act-call-0-truco``), so htmx keeps
    the keyboard focus on it across a swap while it is still legal."""
    parts = [str(v) for _k, v in sorted(labels.bare_action(action).items())]
    return "act-" + re.sub(r"[^A-Za-z0-9_-]+", "_", "-".join(parts))


def score_sentence(state: dict[str, Any]) -> str:
    """Both scores in words, side 0 first: "Nós 12, Eles 9" (", em buenas" after a side
    that has entered the buenas, where the variant has them)."""
    parts = []
    for side, name in enumerate(state["names"]):
        stage = (state.get("stages") or [None, None])[side]
        if stage and stage.get("stage") == "buenas":
            parts.append(gettext("%(name)s %(score)s, in buenas", name=name, score=state["score"][side]))
        else:
            parts.append(gettext("%(name)s %(score)s", name=name, score=state["score"][side]))
    return ", ".join(parts)


def announcement(state: dict[str, Any], log: list[dict[str, Any]], undone: bool = False) -> str:
    """What the live region says after a change: the scores, then the newest log
    entry (what just happened), "undone" or the winner."""
    text = score_sentence(state) + "."
    if state.get("winner") is not None:
        return text + " " + gettext("%(name)s won the game!", name=state["names"][state["winner"]])
    if undone:
        return text + " " + gettext("The last action was undone.")
    if log:
        return text + " " + log[0]["text"]
    return text


def spoken(state: dict[str, Any], pending_call: str | None, special: str | None,
           series: dict[str, Any] | None, hand_seats: dict[str, Any] | None) -> str:
    """What "read the score aloud" says: the scores and the hand's state in words."""
    names, hand = state["names"], state.get("hand") or {}
    out = [score_sentence(state) + "."]
    if state.get("winner") is not None:
        out.append(gettext("%(name)s won the game!", name=names[state["winner"]]))
    else:
        out.append(gettext("Hand %(n)s, worth %(points)s.", n=hand.get("number"), points=hand.get("value")))
        if special:
            out.append(special + ".")
        if pending_call:
            out.append(gettext("%(call)s by %(name)s: answer it", call=pending_call,
                               name=names[hand["pending"]["side"]]) + ".")
        if hand_seats:
            out.append(hand_seats["sentence"])
    if series:
        out.append(series["sentence"])
    return " ".join(out)


def last_delta(log: list[dict[str, Any]], undone: bool = False) -> list[int]:
    """Tentos each side gained with the newest action (``[0, 0]`` if none or after an
    undo), for the brief highlight of what changed; the engine's log carries it as
    ``delta``."""
    if not log or undone:
        return [0, 0]
    return [int(d) for d in log[0].get("delta") or (0, 0)]


def series_view(status: SeriesStatus | None, names: list[str]) -> dict[str, Any] | None:
    """The series line of the board, or None for a first single game with no tally."""
    if status is None:
        return None
    a, b = status.wins
    if status.best_of > 1:
        title = gettext("Best of %(n)s", n=status.best_of)
        sentence = gettext("Series, best of %(n)s: %(name0)s %(a)s, %(name1)s %(b)s.",
                           n=status.best_of, name0=names[0], a=a, name1=names[1], b=b)
    else:
        title = gettext("Series")
        sentence = gettext("Series: %(name0)s %(a)s, %(name1)s %(b)s.", name0=names[0], a=a, name1=names[1], b=b)
    if status.winner is not None:
        sentence += " " + gettext("%(name)s won the series!", name=names[status.winner])
    return {"status": status, "title": title, "wins": status.wins, "game": status.game,
            "winner": status.winner, "sentence": sentence}


def seats_view(players, first_mano: int, state: dict[str, Any]) -> dict[str, Any] | None:
    """Who is mano and who deals this hand (and redonda / pica-pica), or None without
    players or once the game is over."""
    if not players or state.get("winner") is not None:
        return None
    hand = state.get("hand") or {}
    h = seating.hand_seats(players, first_mano, int(hand.get("number") or 1), variant=state["variant"],
                           score=state["score"], target=state["target"])
    rounds = {"redonda": gettext("redonda (teams)"), "pica-pica": gettext("pica-pica (one against one)")}
    sentence = gettext("%(mano)s is mano, %(dealer)s deals.", mano=h.mano.name, dealer=h.dealer.name)
    if h.round:
        sentence += " " + gettext("This hand is played %(round)s.", round=rounds[h.round])
    return {"mano": h.mano, "dealer": h.dealer, "round": h.round, "round_label": rounds.get(h.round or ""),
            "duels": h.duels, "sentence": sentence}


def view(state: dict[str, Any], last_action: dict[str, Any] | None = None) -> dict[str, Any]:
    """Everything the scoreboard fragment shows, from the engine's state
    (``last_action``: the newest stored action, to tell an undo from a new entry)."""
    undone = bool(last_action) and last_action.get("type") == "undo"
    hand = state.get("hand") or {}
    split = bool(state.get("stages"))
    pending = hand.get("pending")
    log = list(reversed(state.get("log", [])))
    return {
        "state": state,
        "names": state["names"],
        "score": state["score"],
        "winner": state.get("winner"),
        "hand": hand,
        "pending_call": labels.call_name(state["variant"], pending["call"]) if pending else None,
        "special": labels.special_name(state["variant"], hand.get("special")),
        "tallies": [tally(s, state["target"], split) for s in state["score"]],
        "stages": state.get("stages"),
        "buttons": buttons(state),
        "log": log,
        "delta": last_delta(log, undone),
        "announce": announcement(state, log, undone),
    }
