"""The board's buttons: each legal action of the engine made into one :class:`Button`, its words,
its points, the JSON it posts and its place on the pad made together, here and nowhere else.

Game terms keep their table names on every page, with their own punctuation (a Paulista table
says "Seis!", a Rioplatense one "¡Truco!", a Catalan one "Truc!"): they come from the variant's
table words (:attr:`scorer.core.variants.Variant.words`, one source for buttons, log and
messages); generic words ("Won the trick", "Undo") go through the reader's catalog, passed in as
a :class:`Words`. Points are never computed here: they come from the engine's
``legal_actions`` (:class:`~scorer.core.schema.Offer`'s ``points`` and ``points_side``).

Pure: no Flask, no database. The web builds the board with Flask-Babel's catalog
(:mod:`scorer.web.board`); a page without a scorekeeper can run the same code with the standard
library's :mod:`gettext`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, cast

from scorer.core.errors import N_
from scorer.core.schema import DeclarePoints, LegalAction, Offer, bare_action
from scorer.core.variants import FLOR_CALLS, GLOSSES, OPEN_RAISE, TABLE_WORDS, VARIANTS, TableWords, Variant
from scorer.present.log_words import table_word


class Words(Protocol):
    """The reader's catalog: what :func:`gettext.translation` returns, or Flask-Babel's
    ``get_translations()``. Messages are English msgids with ``%(name)s`` placeholders, filled in
    after translation."""

    def gettext(self, message: str, /) -> str:
        """``message`` in the reader's language."""
        ...

    def ngettext(self, singular: str, plural: str, n: int, /) -> str:
        """``singular`` or ``plural`` in the reader's language, as ``n`` asks."""
        ...


def say(words: Words, message: str, **values: Any) -> str:
    """``message`` translated, then filled in with ``values`` (``%``-style, as Flask-Babel's
    ``gettext(message, **values)`` does; a message with no values is left as it is)."""
    text = words.gettext(message)
    return text % values if values else text


def words_of(variant: str) -> TableWords:
    """The table words of ``variant`` (the Rioplatense ones for an unknown id)."""
    found = VARIANTS.get(variant)
    return found.words if found else TABLE_WORDS["rio"]


def call_name(variant: str, call: str, amount: int | None = None) -> str:
    """The bare name of a call at this variant's table, for the pending line and the spoken
    text ("Retruco", "Seis", "Vale quatro"; an open Envido raise of ``amount`` tentos:
    "Tres más"), never the button's shout."""
    if amount is not None:
        text = words_of(variant).raise_by(amount)
        return text[:1].upper() + text[1:]
    return words_of(variant).calls.get(call, call.replace("_", " ").capitalize())


#: The longest number word an open raise's button spells ("¡Catorce más!"); a longer one is
#: written in digits ("¡19 más!"): the raise shares its place with the list of amounts, and
#: every word of a label stays whole in its place at 320 px (issue 19).
BUTTON_NUMBER_LETTERS = 8


def call_shout(variant: str, call: str, amount: int | None = None) -> str:
    """The shout on a call's button, with its own language's punctuation ("¡Truco!" at a
    Rioplatense table on every page, "Seis!" at a Paulista one; an open Envido raise of
    ``amount`` tentos: "¡Tres más!", in digits past :data:`BUTTON_NUMBER_LETTERS` letters)."""
    if amount is not None:
        return words_of(variant).raise_by(amount, shout=True, longest=BUTTON_NUMBER_LETTERS)
    return words_of(variant).shouts.get(call, call_name(variant, call) + "!")


def special_name(variant: str, special: str | None, words: Words) -> str | None:
    """The board's name of the special hand ("Mão de onze"; Catalan truc: "11-point rule" in
    the reader's language), or None."""
    if not special:
        return None
    word = words_of(variant).specials.get(special)
    return table_word(word, words.gettext) if word is not None else special.replace("_", " ").capitalize()


@dataclass(frozen=True)
class Table:
    """What a button's words depend on: the variant, the sides' names, the hand being played
    (the engine's ``state["hand"]``), the reader's catalog and whether table words get a short
    English gloss ("Me voy al mazo (fold)", on English pages)."""

    variant: str
    names: Sequence[str]
    hand: Mapping[str, Any]
    words: Words
    gloss: bool = False

    def glossed(self, text: str, key: str) -> str:
        gloss = GLOSSES.get(key)
        return f"{text} ({gloss})" if gloss and self.gloss else text


def action_label(action: Mapping[str, Any], table: Table) -> str:
    """The words on the button for ``action`` (one of the engine's legal actions), from the
    variant's table words; an answer to a pending Flor says so ("Con flor quiero"), and on
    English pages an answer carries a short gloss ("Me voy al mazo (fold)")."""
    kind, words, hand = action["type"], words_of(table.variant), table.hand
    pending = (hand.get("pending") or {}).get("call")
    if kind == "call":
        call = action.get("call", "")
        if pending == call and call in words.raise_shouts:  # its own words over the same call ("Torne!")
            return words.raise_shouts[call]
        return call_shout(table.variant, call, action.get("amount"))
    if pending in FLOR_CALLS and kind in words.flor_answers:
        return table.glossed(words.flor_answers[kind], "flor_" + kind)
    if kind in words.answers:
        return table.glossed(words.answers[kind], kind)
    if kind == "special_hand":
        decision = action.get("decision", "")
        special = special_name(table.variant, hand.get("special") or "mao_de_onze", table.words) or ""
        text = words.decisions.get(decision, decision).format(special=special[:1].lower() + special[1:])
        return table.glossed(text, decision)
    if kind == "trick" and action.get("winner") is None:
        tie = table_word(words.tie, table.words.gettext)
        return tie[:1].upper() + tie[1:]
    if kind == "envido_winner" and hand.get("awaiting") == "flor_winner":
        return say(table.words, N_("Won the Flor"))
    if kind == "hand_winner" and action.get("side") is None:
        return say(table.words, N_("Nobody wins the hand"))
    if kind == "adjust":
        return f"{int(action.get('delta', 0)):+d}"
    return say(table.words, FIXED_LABELS[kind]) if kind in FIXED_LABELS else str(kind)


#: The words of the buttons that are not table words (the rest of :func:`action_label`'s cases).
FIXED_LABELS = {"trick": N_("Won the trick"), "hand_winner": N_("Won the hand"), "envido_winner": N_("Won the Envido"),
                "undo": N_("Undo")}


def points_note(action: Mapping[str, Any], table: Table) -> str:
    """The points on a button, from the engine: "+3 Nós", "worth 6" for a call, or "wins the
    game" for a Falta whose worth is what its winner lacks (``points`` None: uruguaio's "malas
    wins the game", docs/rules.md §Falta Envido); "" for a correction (its label says it)."""
    points, side = action.get("points"), action.get("points_side")
    if action.get("type") == "adjust":
        return ""
    if points is None:
        if action.get("type") == "call" and action.get("call") in ("falta_envido", "contraflor_al_resto"):
            return say(table.words, N_("wins the game"))
        return ""
    if action.get("type") == "call":
        return say(table.words, N_("worth %(points)s"), points=points)
    if side in (0, 1):
        return f"+{points} {table.names[side]}"
    return f"+{points}"


def action_json(action: Mapping[str, Any]) -> str:
    """The action a button posts, as compact JSON (its form's ``action`` field and its
    ``data-action`` attribute): the offer without what it pays, keys sorted."""
    return json.dumps(bare_action(action), separators=(",", ":"), sort_keys=True)


def pays(action: Mapping[str, Any]) -> tuple[int, int] | None:
    """Tentos the action adds to each side at once (``(0, 3)``), from the engine's ``points`` /
    ``points_side`` (before the cap at the target), or a correction's ``delta``; None for a call
    (its stake is paid later) or where nothing is paid now."""
    if action.get("type") == "adjust":
        delta = int(action.get("delta", 0))
        return (delta, 0) if action.get("side") == 0 else (0, delta)
    side, points = action.get("points_side"), action.get("points")
    if action.get("type") == "call" or side not in (0, 1) or not points:
        return None
    return (int(points), 0) if side == 0 else (0, int(points))


def cell_of(action: Mapping[str, Any]) -> str | None:
    """The name of the cell an action's button sits in (see :data:`ROWS`), or None (off the
    pad: a correction, Undo, or a kind no cell holds)."""
    kind, call = action.get("type"), action.get("call")
    if kind == "hand_winner":
        return "hand" if action.get("side") in (0, 1) else "tie"
    if kind == "trick":
        return "trick" if action.get("winner") in (0, 1) else "parda"
    if kind == "call":
        return CALL_CELLS.get(call or "", "call")  # "call": the truco ladder's calls
    if kind == "special_hand":
        return {"play": "yes", "run": "no"}.get(action.get("decision", ""))
    return KIND_CELLS.get(kind or "")


#: The cells of the Envido and Flor calls (every other call is the truco ladder's: ``"call"``).
CALL_CELLS = {"envido": "envido", "contraflor": "envido", "flor_envida": "envido", "real_envido": "real",
              "contraflor_al_resto": "real", OPEN_RAISE: "real", "falta_envido": "falta", "flor": "flor"}
#: The cells of the answers and the fold.
KIND_CELLS = {"no_flor": "falta", "quiero": "yes", "envido_winner": "yes", "no_quiero": "no", "mazo": "mazo"}


def action_side(action: Mapping[str, Any]) -> int | None:
    """Which side's column a button goes in (None: the shared row)."""
    side = action.get("winner") if action.get("type") == "trick" else action.get("side")
    return side if side in (0, 1) else None


def place_of(action: Mapping[str, Any]) -> str | None:
    """The pad's place for an action's button: ``"<side>-<cell>"`` (``"0-hand"``), ``"s-<cell>"``
    for the shared row (``"s-parda"``), or None off the pad."""
    cell = cell_of(action)
    if cell is None or action.get("type") in ("adjust", "undo"):
        return None
    return f"s-{cell}" if cell in SHARED_CELLS else f"{action_side(action)}-{cell}"


@dataclass(frozen=True)
class Button:
    """One legal action as a button: ``label`` (its words), ``note`` (its points: "+3 Nós",
    "worth 6" or ""), ``json`` (what it posts, also its ``data-action``), ``type`` (the action
    kind, its CSS class ``t-<type>``), ``pays`` (tentos it adds to each side at once, painted
    before the server answers; None) and ``place`` (its pad place, :func:`place_of`; None off
    the pad). An open Envido raise carries its ``amount`` (tentos) and, on the pad, the other
    amounts the engine offers as ``choices`` (one :class:`Button` each, this one among them),
    which the place shows as a list beside the button (:data:`SHOWN_RAISE`)."""

    label: str
    note: str
    json: str
    type: str
    pays: tuple[int, int] | None
    place: str | None
    amount: int | None = None
    choices: tuple[Button, ...] = ()


def make_button(action: Mapping[str, Any], table: Table) -> Button:
    """The :class:`Button` of one of the engine's legal actions (an :class:`~scorer.core.schema.Offer`)."""
    return Button(label=action_label(action, table), note=points_note(action, table), json=action_json(action),
                  type=str(action.get("type")), pays=pays(action), place=place_of(action), amount=action.get("amount"))


SHOWN_RAISE = 3
"""The open Envido raise a place shows first ("¡Tres más!", as GH-GIAMPIGA's pad starts at 3;
"dos más" is worth what "¡Quiero y envido!" beside it is), or the largest offered below it;
the list beside it holds every amount the engine offers (docs/rules.md §Open Envido raises)."""


def one_place(raises: Sequence[Button]) -> Button:
    """The open raises offered for one place (one per amount, smallest first) as one button:
    the one for :data:`SHOWN_RAISE` (or the largest below it) with all of them as its ``choices``."""
    shown = max((b for b in raises if (b.amount or 0) <= SHOWN_RAISE), key=lambda b: b.amount or 0, default=raises[0])
    return Button(shown.label, shown.note, shown.json, shown.type, shown.pays, shown.place, shown.amount, tuple(raises))


#: Each side's places, top to bottom, two cells wide (issue #14: a steady board). A cell holds
#: one kind of action for the whole match; a row only exists where the variant has what it
#: holds. An action that fits no cell goes to ``extra`` (below the pad, never lost).
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


@dataclass(frozen=True)
class Cell:
    """One place of the pad: ``slot`` names it (``"0-hand"``, ``"s-parda"``: the same all match
    long, the element id ``slot-<slot>``), ``side`` (0, 1, or None for the shared row), ``wide``
    (two cells wide), ``button`` (the legal action there now, or None), ``inert`` (the word shown
    greyed when nothing applies there, "" for an empty place) and ``who`` (the side's name, said
    to screen readers after the button's words; "" in the shared row)."""

    slot: str
    side: int | None
    wide: bool
    button: Button | None
    inert: str
    who: str


@dataclass(frozen=True)
class Row:
    """A row of the pad: its ``name`` (one of :data:`ROWS`, or ``"shared"``) and its cells, side
    0's then side 1's."""

    name: str
    cells: tuple[Cell, ...]


@dataclass(frozen=True)
class PointsForm:
    """The small form for typed Envido (or Flor) points: ``what`` (``"envido"`` or ``"flor"``)
    and each side's ``min`` and ``max``."""

    what: str
    min: int
    max: int


@dataclass(frozen=True)
class Buttons:
    """Every control of the board: the pad's ``rows`` (places that never move), ``extra``
    (actions no place holds, below the pad), ``undo``, the corrections ``adjust`` (each side's
    -1 and +1 where legal, in a folded section) and ``envido_points`` (while the engine accepts
    typed points)."""

    rows: tuple[Row, ...]
    extra: tuple[Button, ...]
    undo: Button | None
    adjust: tuple[tuple[Button, ...], tuple[Button, ...]]
    envido_points: PointsForm | None


def wanted_rows(variant: Variant, options: Mapping[str, Any]) -> dict[str, tuple[str, ...]]:
    """The pad's rows for this variant and options, each with its cells (per side): Envido and
    Flor rows only where they are played; without Flor, Falta Envido alone in its row."""
    has_flor = variant.plays_flor(options)
    rows: dict[str, tuple[str, ...]] = {}
    for name, (left, right) in ROWS:
        if name in ("envido", "falta") and variant.envido is None and not has_flor:
            continue
        if name == "falta" and not has_flor:
            right = None
        rows[name] = (left, right) if right else (left,)
    return rows


def arrange(legal: Sequence[LegalAction], table: Table, options: Mapping[str, Any]) -> Buttons:
    """The board's :class:`Buttons` from the engine's ``legal_actions``: each action made into
    its button once, then put in its place (a second action for a place taken goes to ``extra``)."""
    placed: dict[str, Button] = {}
    raises: dict[str, list[Button]] = {}
    extra: list[Button] = []
    undo, points = None, None
    adjust: tuple[list[Button], list[Button]] = ([], [])
    for action in legal:
        if action["type"] == "declare_points":
            declare = cast(DeclarePoints, action)  # its type says so (Offer's type is any str)
            points = PointsForm(what=declare["what"], min=declare["min"], max=declare["max"])
            continue
        offer = cast(Offer, action)  # every legal action but declare_points
        button = make_button(offer, table)
        if button.type == "undo":
            undo = button
        elif button.type == "adjust":
            side = offer.get("side")
            assert side is not None  # an adjust always names its side (scorer.core.schema.Adjust)
            adjust[side].append(button)
        elif button.amount is not None and button.place is not None:  # an open raise: one place, every amount
            raises.setdefault(button.place, []).append(button)
        elif button.place is None or button.place in placed:
            extra.append(button)
        else:
            placed[button.place] = button
    for place, offered in raises.items():
        if place in placed:
            extra.extend(offered)
        else:
            placed[place] = one_place(offered)
    return Buttons(rows=pad_rows(placed, table, options), extra=tuple(extra), undo=undo,
                   adjust=(tuple(adjust[0]), tuple(adjust[1])), envido_points=points)


def pad_rows(placed: Mapping[str, Button], table: Table, options: Mapping[str, Any]) -> tuple[Row, ...]:
    """The pad's rows with the buttons ``placed`` (by place); the hand and trick places say
    greyed what they hold when no button is there, and the shared row follows the trick row."""
    inert = {"hand": {"type": "hand_winner"}, "trick": {"type": "trick"}}
    rows = []
    for name, cells in wanted_rows(VARIANTS[table.variant], options).items():
        row = []
        for side in (0, 1):
            for cell in cells:
                word = action_label({**inert[cell], "side": side, "winner": side}, table) if cell in inert else ""
                row.append(Cell(slot=f"{side}-{cell}", side=side, wide=len(cells) == 1, button=placed.get(f"{side}-{cell}"),
                                inert=word, who=table.names[side]))
        rows.append(Row(name, tuple(row)))
        if name == "trick":
            rows.append(Row("shared", tuple(Cell(slot=f"s-{cell}", side=None, wide=True, button=placed.get(f"s-{cell}"),
                                                 inert="", who="") for cell in SHARED_CELLS)))
    return tuple(rows)
