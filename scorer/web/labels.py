"""Words on the buttons: the engine's legal actions said the way the table says them.

Game terms keep their table names on every page, with their own punctuation (a Paulista
table says "Seis!", a Rioplatense one "¡Truco!", a Catalan one "Truc!"): they come from the
variant's table words (``scorer.core.variants.TABLE_WORDS``, one source for buttons, log and
messages); generic words ("Trick", "Undo") go through gettext. Points are never computed
here: they come from the engine's ``legal_actions``.
"""

from __future__ import annotations

import json
from typing import Any

from flask_babel import gettext, lazy_gettext

from scorer.core.schema import Offer, State, bare_action
from scorer.core.variants import CHOICE_LABELS as VARIANT_CHOICE_LABELS
from scorer.core.variants import FLOR_CALLS, GLOSSES, TABLE_WORDS, VARIANTS, TableWord, TableWords
from scorer.present.log_words import table_word
from scorer.web.i18n import locale_code


def words_of(variant: str) -> TableWords:
    """The table words of ``variant`` (the Rioplatense ones for an unknown id)."""
    found = VARIANTS.get(variant)
    return found.words if found else TABLE_WORDS["rio"]


def said(word: TableWord) -> str:
    """A table word as this page writes it: as it is, or in the page's language (the
    presentation module's :func:`~scorer.present.log_words.table_word`, as the log says it)."""
    return table_word(word, gettext)


def glossed(text: str, key: str) -> str:
    """On English pages a table word gets a short gloss: "Me voy al mazo (fold)"."""
    gloss = GLOSSES.get(key)
    return f"{text} ({gloss})" if gloss and locale_code() == "en" else text


#: Stages shown on the board.
STAGE_NAMES = {"malas": lazy_gettext("malas"), "buenas": lazy_gettext("buenas")}

#: Option values shown in the new-match form (the variants' own labels, translated).
CHOICE_LABELS = {key: lazy_gettext(text) for key, text in VARIANT_CHOICE_LABELS.items()}

def choice_label(value: Any) -> str:
    """How an option value is shown in the new-match form."""
    if isinstance(value, bool) or value in CHOICE_LABELS:
        return str(CHOICE_LABELS.get(value, value))
    return str(value)


def call_name(variant: str, call: str) -> str:
    """The bare name of a call at this variant's table, for the pending line and the
    spoken text ("Retruco", "Seis", "Vale quatro"), never the button's shout."""
    words = words_of(variant)
    return words.calls.get(call, call.replace("_", " ").capitalize())


def call_shout(variant: str, call: str) -> str:
    """The shout on a call's button, with its own language's punctuation ("¡Truco!" at a
    Rioplatense table on every page, "Seis!" at a Paulista one)."""
    words = words_of(variant)
    return words.shouts.get(call, call_name(variant, call) + "!")


def special_name(variant: str, special: str | None) -> str | None:
    """The board's name of the special hand ("Mão de onze"; Catalan truc: "11-point rule"
    in the page's language), or None."""
    if not special:
        return None
    word = words_of(variant).specials.get(special)
    return said(word) if word is not None else special.replace("_", " ").capitalize()


def action_label(variant: str, action: Offer, names: list[str] | tuple[str, str], state: State) -> str:
    """The words on the button for ``action`` (one of the engine's legal actions), from
    the variant's table words; an answer to a pending Flor says so ("Con flor quiero"),
    and on English pages an answer carries a short gloss ("Me voy al mazo (fold)")."""
    kind = action.get("type")
    words = words_of(variant)
    side = action.get("side")
    hand = state.get("hand") or {}
    pending = (hand.get("pending") or {}).get("call")
    if kind == "call":
        return call_shout(variant, action.get("call", ""))
    if pending in FLOR_CALLS and kind in words.flor_answers:
        return glossed(words.flor_answers[kind], "flor_" + kind)
    if kind in words.answers:
        return glossed(words.answers[kind], kind)
    if kind == "special_hand":
        decision = action.get("decision", "")
        special = special_name(variant, hand.get("special") or "mao_de_onze") or ""
        text = words.decisions.get(decision, decision).format(special=special[:1].lower() + special[1:])
        return glossed(text, decision)
    if kind == "trick":
        if action.get("winner") is None:
            tie = said(words.tie)
            return tie[:1].upper() + tie[1:]
        return gettext("Won the trick")
    if kind == "hand_winner":
        if side is None:
            return gettext("Nobody wins the hand")
        return gettext("Won the hand")
    if kind == "envido_winner":
        if hand.get("awaiting") == "flor_winner":
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
    """The points on a button, from the engine: "+3 Nós", "worth 6" for a call, or "wins the
    game" for a Falta whose worth is what its winner lacks (``points`` None: uruguaio's
    "malas wins the game", docs/rules.md §Falta Envido)."""
    points, side = action.get("points"), action.get("points_side")
    if points is None:
        if action.get("type") == "call" and action.get("call") in ("falta_envido", "contraflor_al_resto"):
            return gettext("wins the game")
        return ""
    if action.get("type") == "call":
        return gettext("worth %(points)s", points=points)
    if side in (0, 1):
        return f"+{points} {names[side]}"
    return f"+{points}"


def action_json(action: Offer) -> str:
    """The action as compact JSON for a hidden form field."""
    return json.dumps(bare_action(action), separators=(",", ":"), sort_keys=True)
