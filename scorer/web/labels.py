"""Words on the buttons: the engine's legal actions said the way the table says them.

Game terms keep their table names in every language (a Paulista table says "Seis!",
a Catalan one "Truc!"); generic words ("Trick", "Undo") go through gettext. Points are
never computed here: they come from the engine's ``legal_actions``.
"""

from __future__ import annotations

import json
from typing import Any

from flask_babel import gettext, lazy_gettext

from scorer.schema import Offer, State, bare_action
from scorer.variants import FLOR_CALLS
from scorer.web.i18n import locale_code

#: Which table's words each variant uses.
FAMILY = {
    "truco-15": "rio",
    "argentino-30": "rio",
    "uruguaio": "rio",
    "paulista": "br",
    "mineiro": "br",
    "gauderio": "gaucho",
    "truc": "cat",
}

#: Calls, by call name (the same at every table that has the call).
CALLS = {
    "truco": "Truco!",
    "retruco": "Quiero retruco!",
    "vale_cuatro": "Quiero vale cuatro!",
    "seis": "Seis!",
    "nove": "Nove!",
    "dez": "Dez!",
    "doze": "Doze!",
    "truc": "Truc!",
    "retruc": "Retruc!",
    "envido": "Envido",
    "real_envido": "Real Envido",
    "falta_envido": "Falta Envido",
    "flor": "Flor!",
    "contraflor": "Contraflor",
    "contraflor_al_resto": "Contraflor al resto",
}
#: Gaúcho tables say the Argentine ladder in Portuguese.
CALLS_GAUCHO = {"retruco": "Retruco!", "vale_cuatro": "Vale quatro!"}

#: Answers and folds, by family.
WORDS = {
    "rio": {"quiero": "Quiero", "no_quiero": "No quiero", "mazo": "Me voy al mazo", "no_flor": "No tengo flor"},
    "br": {"quiero": "Quero!", "no_quiero": "Não quero", "mazo": "Corremos da mão", "no_flor": "Não tenho flor"},
    "gaucho": {"quiero": "Quero", "no_quiero": "Não quero", "mazo": "Vou pro mazo", "no_flor": "Não tenho flor"},
    "cat": {"quiero": "Vull", "no_quiero": "No vull", "mazo": "Me'n vaig", "no_flor": "No tinc flor"},
}
#: Answers to a pending Flor (or Contraflor), by family: "Quiero" and "No quiero" alone
#: read like answers to the Truco, and "No quiero" would look like "No tengo flor".
FLOR_ANSWERS = {
    "rio": {"quiero": "Con flor quiero", "no_quiero": "Con flor me achico"},
    "br": {"quiero": "Com flor quero", "no_quiero": "Fugir"},
    "gaucho": {"quiero": "Com flor quero", "no_quiero": "Fugir"},
    "cat": {"quiero": "Amb flor vull", "no_quiero": "Amb flor me'n vaig"},
}

#: The special hand's two decisions, by special-hand name.
SPECIAL = {
    "mao_de_onze": {"play": "Jogamos a mão de onze", "run": "Corremos"},
    "mao_de_dez": {"play": "Jogamos a mão de dez", "run": "Corremos"},
    "mao_de_ferro": {"play": "Jogamos", "run": "Corremos"},
}
SPECIAL_CAT = {"play": "Juguem", "run": "Ens n'anem"}

#: Names of the special hands, pending states and stages shown on the board.
SPECIAL_NAMES = {
    "mao_de_onze": "Mão de onze",
    "mao_de_dez": "Mão de dez",
    "mao_de_ferro": "Mão de ferro",
}
STAGE_NAMES = {"malas": lazy_gettext("malas"), "buenas": lazy_gettext("buenas")}

#: Option values shown in the new-match form.
CHOICE_LABELS = {
    True: lazy_gettext("Yes"),
    False: lazy_gettext("No"),
    "nobody": lazy_gettext("nobody scores"),
    "mano": lazy_gettext("the mano wins"),
    "target_minus_leader": lazy_gettext("what the leader lacks"),
    "leader_stage": lazy_gettext("what the leader lacks in its stage (malas/buenas)"),
    "whole_game": lazy_gettext("what the leader lacks for the game"),
    "malas_wins_game": lazy_gettext("the game, when the leader is in the malas"),
}

def choice_label(value: Any) -> str:
    """How an option value is shown in the new-match form."""
    if isinstance(value, bool) or value in CHOICE_LABELS:
        return str(CHOICE_LABELS.get(value, value))
    return str(value)


def exclaim(text: str) -> str:
    """``text`` as the page's language writes a shout: Spanish opens it with "¡"
    ("¡Flor!", "¡Quiero retruco!"); other languages leave it as it is."""
    if text.endswith("!") and not text.startswith("¡") and locale_code() == "es":
        return "¡" + text
    return text


def call_name(variant: str, call: str) -> str:
    """The table's word for a call ("Seis!", "Real Envido"; "¡Seis!" on a Spanish page)."""
    if FAMILY.get(variant) == "gaucho" and call in CALLS_GAUCHO:
        return exclaim(CALLS_GAUCHO[call])
    return exclaim(CALLS.get(call, call.replace("_", " ").title()))


def action_label(variant: str, action: Offer, names: list[str] | tuple[str, str], state: State) -> str:
    """The words on the button for ``action`` (one of the engine's legal actions).

    An answer to a pending Flor says so ("Con flor quiero", "Con flor me achico"), and
    on a Spanish page a shout opens with "¡".
    """
    kind = action.get("type")
    family = FAMILY.get(variant, "rio")
    words = WORDS[family]
    side = action.get("side")
    pending = ((state.get("hand") or {}).get("pending") or {}).get("call")
    if kind == "call":
        return call_name(variant, action.get("call", ""))
    if pending in FLOR_CALLS and kind in FLOR_ANSWERS[family]:
        return FLOR_ANSWERS[family][kind]
    if kind in words:
        return exclaim(words[kind])
    if kind == "special_hand":
        if variant == "truc":
            return SPECIAL_CAT.get(action.get("decision"), "")
        special = (state.get("hand") or {}).get("special") or "mao_de_onze"
        return SPECIAL.get(special, SPECIAL["mao_de_onze"]).get(action.get("decision"), "")
    if kind == "trick":
        if action.get("winner") is None:
            return gettext("Parda")
        return gettext("Won the trick")
    if kind == "hand_winner":
        if side is None:
            return gettext("Nobody wins the hand")
        return gettext("Won the hand")
    if kind == "envido_winner":
        if (state.get("hand") or {}).get("awaiting") == "flor_winner":
            return gettext("Won the Flor")
        return gettext("Won the Envido")
    if kind == "adjust":
        delta = int(action.get("delta", 0))
        return f"{delta:+d}"
    if kind == "undo":
        return gettext("Undo")
    return str(kind)


def action_side(action: Offer) -> int | None:
    """Which side's column a button goes in (None: the shared row)."""
    if action.get("type") == "trick":
        return action.get("winner")
    side = action.get("side")
    return side if side in (0, 1) else None


def points_note(action: Offer, names: list[str] | tuple[str, str]) -> str:
    """The points on a button, from the engine: "+3 Nós", or "worth 6" for a call."""
    points, side = action.get("points"), action.get("points_side")
    if points is None:
        return ""
    if action.get("type") == "call":
        return gettext("worth %(points)s", points=points)
    if side in (0, 1):
        return f"+{points} {names[side]}"
    return f"+{points}"


def action_json(action: Offer) -> str:
    """The action as compact JSON for a hidden form field."""
    return json.dumps(bare_action(action), separators=(",", ":"), sort_keys=True)
