"""The scoreboard's view model: the engine's state dict arranged for the template.

Nothing here scores: the numbers come from the engine. This only groups the legal
actions into per-side columns with their words, and splits each score into the
squares of five that players draw (malas/buenas where the variant has them).
"""

from __future__ import annotations

import re
from typing import Any

from flask_babel import gettext

from scorer.core import seats as seating
from scorer.core.schema import State, bare_action
from scorer.core.series import SeriesStatus
from scorer.core.variants import Variant, get_variant
from scorer.web import labels


def squares(n: int) -> list[int]:
    """Palitos in squares of five: 7 -> [5, 2]; 0 -> []."""
    n = max(0, int(n))
    return [5] * (n // 5) + ([n % 5] if n % 5 else [])


def tally(score: int, target: int, variant: Variant) -> list[dict[str, Any]]:
    """The drawn tally of one side: ``[{"stage", "squares"}]``, one entry per stage
    (malas and buenas where the variant splits the score, else one unnamed stage)."""
    return [{"stage": stage, "squares": squares(points)} for stage, points in variant.score_parts(score, target)]


def buttons(state: State) -> dict[str, Any]:
    """The legal actions as buttons: ``{"sides": [[...], [...]], "shared": [...],
    "envido_points": DeclarePoints | None, "adjust": [[...], [...]]}``.

    Each button is ``{"label", "note", "json", "type"}``. ``envido_points`` is the engine's
    ``declare_points`` entry while it accepts declared Envido points (a small form, not a
    button); manual corrections (``adjust``, -1 and +1 where legal) are kept apart, shown
    in a folded section.
    """
    names = state["names"]
    variant = state["variant"]
    out: dict[str, Any] = {"sides": [[], []], "shared": [], "envido_points": None, "adjust": [[], []], "undo": None}
    for action in state.get("legal_actions", []):
        kind = action.get("type")
        if kind == "declare_points":
            out["envido_points"] = action
            continue
        if kind == "adjust":
            side, delta = action["side"], action["delta"]
            out["adjust"][side].append(
                {"label": f"{delta:+d}", "note": "", "json": labels.action_json(action), "type": kind,
                 "id": button_id(action), "pays": [delta, 0] if side == 0 else [0, delta]}
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


#: Each side's places, top to bottom, two cells wide (issue #14: a steady board). A cell
#: holds one kind of action for the whole match; a row only exists where the variant has
#: what it holds. An action that fits no cell goes to ``extra`` (below the pad, never lost).
ROWS = (
    ("hand", ("hand", None)),          # won the hand (one cell, two wide)
    ("trick", ("trick", None)),        # won the trick
    ("answer", ("yes", "no")),         # quiero / no quiero, play / run, won the Envido
    ("ladder", ("call", "mazo")),      # Truco! (or the raise) / fold
    ("envido", ("envido", "real")),    # Envido / Real Envido (Contraflor / ... al resto)
    ("falta", ("falta", "flor")),      # Falta Envido (No tengo flor) / Flor
)
#: The shared row (parda trick, a hand nobody wins), below the two sides' trick cells.
SHARED_CELLS = ("parda", "tie")


def cell_of(action: dict[str, Any]) -> str | None:
    """The name of the cell an action's button sits in (see :data:`ROWS`), or None."""
    kind, call = action.get("type"), action.get("call")
    if kind == "hand_winner":
        return "hand" if action.get("side") in (0, 1) else "tie"
    if kind == "trick":
        return "trick" if action.get("winner") in (0, 1) else "parda"
    if kind == "call":
        if call in ("envido", "contraflor"):
            return "envido"
        if call in ("real_envido", "contraflor_al_resto"):
            return "real"
        if call == "falta_envido":
            return "falta"
        if call == "flor":
            return "flor"
        return "call"  # the truco ladder's calls
    if kind == "no_flor":
        return "falta"
    if kind in ("quiero", "envido_winner") or (kind == "special_hand" and action.get("decision") == "play"):
        return "yes"
    if kind in ("no_quiero",) or (kind == "special_hand" and action.get("decision") == "run"):
        return "no"
    if kind == "mazo":
        return "mazo"
    return None


def pays(action: dict[str, Any]) -> list[int] | None:
    """Tentos the action adds to each side at once (``[0, 3]``), from the engine's
    ``points``/``points_side`` (before the cap at the target); None for a call (its
    stake is paid later) or where nothing is paid now."""
    side, points = action.get("points_side"), action.get("points")
    if action.get("type") == "call" or side not in (0, 1) or not points:
        return None
    out = [0, 0]
    out[side] = int(points)
    return out


def pad(state: dict[str, Any]) -> dict[str, Any]:
    """The steady board's places: ``{"rows": [{"name", "cells": [cell, ...]}], "extra": [...]}``.

    Every row has four cells (side 0's two, then side 1's); a cell is ``{"slot": "0-hand",
    "wide": bool, "button": button or None, "inert": label}``: ``slot`` names the place
    (the same all match long), ``button`` is the legal action there now (see
    :func:`buttons` for its shape, plus ``pays``), ``inert`` the word shown greyed when
    nothing applies there ("" for an empty place). The shared row (parda, nobody) comes
    after the trick row. Rows the variant never uses (Envido, Flor) are left out.
    """
    names, variant_id = state["names"], state["variant"]
    variant = get_variant(variant_id)
    has_flor = variant.plays_flor(state.get("options") or {})
    wanted = {"hand", "trick", "answer", "ladder"}
    if variant.envido is not None:
        wanted |= {"envido", "falta"}
    elif has_flor:
        wanted |= {"envido", "falta"}
    placed: dict[str, dict[str, Any]] = {}
    extra = []
    for action in state.get("legal_actions", []):
        kind = action.get("type")
        if kind in ("declare_points", "adjust", "undo"):
            continue
        cell = cell_of(action)
        side = labels.action_side(action)
        key = f"{side}-{cell}" if cell not in SHARED_CELLS else f"s-{cell}"
        button = make_button(variant_id, action, names, state)
        if cell is None or key in placed:
            extra.append(button)
        else:
            placed[key] = button

    def inert(side: int, cell: str) -> str:
        if cell == "hand":
            return labels.action_label(variant_id, {"type": "hand_winner", "side": side}, names, state)
        if cell == "trick":
            return labels.action_label(variant_id, {"type": "trick", "winner": side}, names, state)
        return ""

    rows = []
    for name, (left, right) in ROWS:
        if name not in wanted:
            continue
        if name == "falta" and not has_flor and variant.envido is not None:
            right = None  # no Flor: Falta Envido alone
        cells = []
        for side in (0, 1):
            for cell in (left, right) if right else (left,):
                cells.append({"slot": f"{side}-{cell}", "wide": right is None and cell == left,
                              "button": placed.get(f"{side}-{cell}"), "inert": inert(side, cell)})
        rows.append({"name": name, "cells": cells})
        if name == "trick":
            rows.append({"name": "shared", "cells": [
                {"slot": f"s-{cell}", "wide": True, "button": placed.get(f"s-{cell}"), "inert": ""}
                for cell in SHARED_CELLS]})
    return {"rows": rows, "extra": extra}


def make_button(variant_id: str, action: dict[str, Any], names, state: dict[str, Any]) -> dict[str, Any]:
    """One action's button: ``{"label", "note", "json", "type", "id", "pays"}``."""
    return {
        "label": labels.action_label(variant_id, action, names, state),
        "note": labels.points_note(action, names),
        "json": labels.action_json(action),
        "type": action.get("type"),
        "id": button_id(action),
        "pays": pays(action),
    }


def button_id(action: dict[str, Any]) -> str:
    """A stable element id for an action's button (``act-call-0-truco``), so htmx keeps
    the keyboard focus on it across a swap while it is still legal."""
    parts = [str(v) for _k, v in sorted(bare_action(action).items())]
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
        "tallies": [tally(s, state["target"], get_variant(state["variant"])) for s in state["score"]],
        "stages": state.get("stages"),
        "buttons": buttons(state),
        "pad": pad(state),
        "cap": state["target"] if state.get("ends_at_once") else 0,
        "log": log,
        "delta": last_delta(log, undone),
        "announce": announcement(state, log, undone),
        # What Undo would drop, named in its confirmation ("Undo «Eles: Quero»?").
        "undo_what": log[0]["text"] if log else None,
        # A correction keeps its panel open (without JavaScript too: the page is new).
        "adjust_open": bool(last_action) and last_action.get("type") == "adjust",
    }
