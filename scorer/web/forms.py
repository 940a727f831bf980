"""Reading forms: a new match's settings and options, players, the best-of, an action
from a button, the double-tap guard, the board's version tag. This phone's cookies are in
:mod:`scorer.web.cookies`, names in :mod:`scorer.web.player_names`.

Bad input becomes a 422 with a message in the user's language, never a 500.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any, TypedDict

from flask import abort, request
from flask_babel import gettext
from werkzeug.datastructures import MultiDict

from scorer.app import store
from scorer.core.schema import OptionValue
from scorer.core.series import BEST_OF
from scorer.core.variants import CHOICE_LABELS, VARIANTS, Variant, default_variant
from scorer.web.cookies import MatchSettings, _players_shape
from scorer.web.i18n import default_names
from scorer.web.player_names import clean_names, cut_name, was_shortened

#: The longest choice text a closed select shows whole at 360 px (bold, 16 px).
SELECT_TEXT_MAX = 28


def choice_label(value: Any) -> str:
    """How an option value is shown in the new-match form: a word of the variants' choices
    (:data:`scorer.core.variants.CHOICE_LABELS`, translated), anything else as it is."""
    if isinstance(value, bool) or value in CHOICE_LABELS:
        label = CHOICE_LABELS.get(value)
        return gettext(label) if label is not None else str(value)
    return str(value)


class OptionField(TypedDict):
    """One option's control in the new-match form (see :func:`option_fields`)."""

    key: str
    label: str
    help: str
    choices: list[tuple[str, str, bool]]
    long: bool


def option_fields(variant_id: str, chosen: Mapping[str, OptionValue]) -> list[OptionField]:
    """The option controls of one variant: ``[{"key", "label", "help", "choices": [(value, text, selected)], "long"}]``
    (``help``: the option's one line saying what it does, or empty).

    ``long``: a choice's text is too long for a closed select on a 360 px phone (it
    would be cut off), so the form shows the choices as radio buttons, whose text wraps.
    """
    variant = VARIANTS.get(variant_id)
    if variant is None:
        return []
    fields: list[OptionField] = []
    for spec in variant.option_specs:
        current = chosen.get(spec.key, spec.default)
        if current not in spec.choices:
            current = spec.default
        choices = [(str(c), choice_label(c), c == current and type(c) is type(current)) for c in spec.choices]
        fields.append(
            {
                "key": spec.key,
                "label": gettext(spec.label),
                "help": gettext(spec.help) if spec.help else "",
                "choices": choices,
                "long": any(len(text) > SELECT_TEXT_MAX for _v, text, _s in choices),
            }
        )
    return fields


class NewMatchForm(TypedDict, total=False):
    """The new-match form's template context (:func:`new_match_context` gives all but
    ``recent`` and ``recent_keys``, this phone's recent matches, which the page adds):
    ``variants`` (``(id, title, description)`` each), the chosen ``variant`` and its option
    ``fields``, the sides' ``names``, ``mano``, ``best_of``, the ``table_size`` and its
    ``players`` (three places a side), and the ``error`` of a refused form."""

    variants: list[tuple[str, str, str]]
    variant_titles: dict[str, str]
    variant: Variant
    description: str
    fields: list[OptionField]
    names: list[str]
    mano: int | str
    best_of: int
    best_of_choices: tuple[int, ...]
    table_size: int
    players: list[list[str]]
    error: str | None
    recent: list[store.MatchRow]
    recent_keys: dict[str, str]


def new_match_context(variant_id: str, settings: MatchSettings) -> NewMatchForm:
    """Template context of the new-match form for ``variant_id`` and remembered ``settings``."""
    if variant_id not in VARIANTS:
        variant_id = default_variant().id
    same = settings.get("variant") == variant_id
    names = settings.get("names") if isinstance(settings.get("names"), list) else None
    players = settings.get("players")
    if not (isinstance(players, list) and len(players) == 2 and all(isinstance(p, list) for p in players)):
        players = None
    return {
        "variants": [(v.id, gettext(v.title), gettext(v.description)) for v in VARIANTS.values()],
        "variant_titles": {v.id: gettext(v.title) for v in VARIANTS.values()},
        "variant": VARIANTS[variant_id],
        "description": gettext(VARIANTS[variant_id].description),
        "fields": option_fields(variant_id, settings.get("options", {}) if same else {}),
        "names": names or list(default_names()),
        "mano": settings.get("mano", 0) if settings.get("mano") in (0, 1) else 0,
        "best_of": settings.get("best_of", 1) if settings.get("best_of") in BEST_OF else 1,
        "best_of_choices": BEST_OF,
        "table_size": 2 * len(players[0]) if players else 2,
        "players": [list(p) + [""] * (3 - len(p)) for p in players] if players else [[""] * 3, [""] * 3],
        "error": None,
    }


def players_from_form(form: MultiDict, names: list[str]) -> list[list[str]] | None:
    """The players per side for a table of 4 or 6 (``table_size``), else None.

    Fields ``player<side>_<i>`` (``i`` 0-2, in each side's order of play); a blank name
    becomes "<side name> <i+1>".

    :raise 422: a table size other than 2, 4 or 6.
    """
    size = form.get("table_size", "2") or "2"
    if size not in ("2", "4", "6"):
        abort(422, gettext("A table has 2, 4 or 6 players."))
    if size == "2":
        return None
    per_side = int(size) // 2
    return _fill_players([[form.get(f"player{side}_{i}", "") for i in range(per_side)] for side in (0, 1)], names)


def _fill_players(players: list[list[str]], names: list[str]) -> list[list[str]]:
    """Each player's name cut to ``NAME_MAX``; a blank one becomes "<side name> <i+1>"."""
    return [[(cut_name(p) or f"{names[side]} {i + 1}") for i, p in enumerate(players[side])] for side in (0, 1)]


def clean_players(raw: Any, names: list[str]) -> list[list[str]] | None:
    """The players per side from JSON (an export): None, or two lists of 2 or 3 names
    each, the same length (a 4- or 6-player table), cleaned as the new-match form does.

    :raise 422: any other shape.
    """
    if raw is None:
        return None
    if not _players_shape(raw):
        abort(422, gettext("Players must be two lists of 2 or 3 names, the same number on each side."))
    return _fill_players(raw, names)


def clean_best_of(raw: Any) -> int:
    """The series length from JSON (an export): 1 (also when missing), 3 or 5.

    :raise 422: anything else.
    """
    if raw is None:
        return 1
    if type(raw) is not int or raw not in BEST_OF:
        abort(422, gettext("A series is best of 1, 3 or 5."))
    return raw


def options_from_form(form: MultiDict) -> dict[str, OptionValue]:
    """The chosen variant's options from the form, typed as its choices; options the
    variant does not have are ignored, a value that is not one of its choices is kept as
    text (the engine refuses it with its own message). Empty for an unknown variant."""
    options: dict[str, OptionValue] = {}
    variant = VARIANTS.get(form.get("variant", ""))
    for spec in variant.option_specs if variant else ():
        if spec.key in form:
            text = form[spec.key]
            typed = [c for c in spec.choices if str(c) == text]
            options[spec.key] = typed[0] if typed else text
    return options


def settings_from_form(form: MultiDict) -> MatchSettings:
    """Variant, options (typed as the variant's choices), names, mano, series length
    and players from the form.

    Options the variant does not have are ignored; an option value that is not one of
    its choices is passed on as text so the engine refuses it with its own message.
    """
    variant_id = form.get("variant", "")
    options = options_from_form(form)
    mano_text = form.get("mano", "0")
    mano = int(mano_text) if mano_text in ("0", "1") else mano_text
    best_of_text = form.get("best_of", "1") or "1"
    if best_of_text not in {str(n) for n in BEST_OF}:
        abort(422, gettext("A series is best of 1, 3 or 5."))
    typed = [form.get("name0", ""), form.get("name1", "")]
    names = clean_names(typed)
    players = players_from_form(form, names)
    typed_players = [form.get(f"player{side}_{i}", "") for side in (0, 1) for i in range(3)]
    return {
        "variant": variant_id,
        "options": options,
        "names": names,
        "mano": mano,
        "best_of": int(best_of_text),
        "players": players,
        "shortened": any(was_shortened(t, cut_name(t)) for t in typed + typed_players),
    }


def ghost_tap(form: MultiDict, now: float, window: float) -> bool:
    """Whether a button's tap came less than ``window`` seconds after its board was shown.

    Every action button carries ``shown`` (the server's clock, in seconds, when it rendered
    that board). A finger's double tap lands its second tap on the board the first one
    brought (a new page without JavaScript, a swapped board with it): a different button,
    or the same one on a new version, that the server could not otherwise tell from a
    real tap. Forms without ``shown`` (the JSON API) are never ghost taps.
    """
    try:
        shown = float(form.get("shown", ""))
    except ValueError:
        return False
    return 0 <= now - shown < window


#: How long a page waits for a tap's answer before it keeps the tap as pending, to send it
#: again once the scorekeeper answers (htmx's ``defaultTimeout``, :func:`scorer.web.assets.htmx_config`;
#: the tap's key makes the repeat safe: issue 24).
TAP_TIMEOUT_SECONDS = 8.0


def action_from_form(form: MultiDict) -> tuple[dict[str, Any], int]:
    """The action and the version it was made on, from a button's form.

    A button posts ``action`` (the action as JSON) and ``version``; the declared-Envido
    form posts ``kind=envido_points``, ``points0`` and ``points1``.

    :raise 422: missing or malformed fields, or a text in the action that is not text (a lone
        surrogate, as :func:`scorer.web.common.json_body` refuses it).
    """
    try:
        version = int(form.get("version", ""))
    except ValueError:
        abort(422, gettext("The form has no valid version number."))
    if form.get("kind") == "envido_points":
        try:
            action = {"type": "envido_points", "points": [int(form["points0"]), int(form["points1"])]}
        except (KeyError, ValueError):
            abort(422, gettext("Type both sides' Envido points as numbers."))
        return action, version
    try:
        posted = json.loads(form.get("action", ""))
    except (ValueError, RecursionError):
        posted = None
    if not isinstance(posted, dict):
        abort(422, gettext("The form has no valid action."))
    try:  # JSON's \ud800 escape is half of a UTF-16 pair: no page (nor message quoting it) can hold it
        json.dumps(posted, ensure_ascii=False).encode()
    except UnicodeEncodeError:
        abort(422, gettext("The body holds a character that is not text (a lone surrogate such as \\ud800): "
                           "send every text as UTF-8."))
    return posted, version


def shown_tag(row: store.MatchRow | store.PollStamp, tournament: int | None = None) -> str:
    """A short digest of what a scoreboard shows besides the version: the side names, the
    players and the series, so a rename reaches the other phones within one poll; and
    ``tournament``, the version of a finished game's tournament
    (:func:`scorer.app.tournament_context.board_stamp`), so a result taken or reopened
    and the next match reach it too; and whether its tournament dropped the match (issue 32), so
    its board says so within one poll."""
    text = json.dumps([row.names, row.players, row.best_of, row.series, tournament, bool(row.dropped)],
                      ensure_ascii=False)
    return hashlib.blake2s(text.encode(), digest_size=6).hexdigest()


def unchanged(row: store.MatchRow, tag: str) -> bool:
    """Whether the poll's ``version``, ``rematch`` and ``seen`` (``tag``, the match's
    :func:`shown_tag`; a poll without it compares only the version) match the stored match."""
    shown = request.args.get("version", "")
    has_rematch = "1" if row.rematch else "0"
    seen = request.args.get("seen")
    return (
        shown == str(row.version)
        and request.args.get("rematch", "0") == has_rematch
        and (seen is None or seen == tag)
    )
