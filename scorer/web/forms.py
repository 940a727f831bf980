"""Reading forms and this phone's cookies (last settings, recent matches).

Bad input becomes a 422 with a message in the user's language, never a 500.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import unicodedata
from typing import Any

import regex
from flask import abort, request
from flask_babel import gettext
from werkzeug.datastructures import MultiDict

from scorer.app import store
from scorer.core.series import BEST_OF
from scorer.core.variants import VARIANTS, default_variant
from scorer.web import labels
from scorer.web.i18n import default_names

LAST_COOKIE = "last"
RECENT_COOKIE = "recent"
RECENT_MAX = 8
COOKIE_AGE = 365 * 24 * 3600
NAME_MAX = 24
"""The longest side or player name, in characters a reader sees (grapheme clusters)."""
#: The longest choice text a closed select shows whole at 360 px (bold, 16 px).
SELECT_TEXT_MAX = 28


def _b64(data: Any) -> str:
    raw = json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _unb64(text: str) -> Any:
    try:
        return json.loads(base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)))
    except (binascii.Error, ValueError, UnicodeDecodeError, RecursionError):
        return None


def last_settings() -> dict[str, Any]:
    """The settings of the last match created on this phone (``{}`` if none).

    The cookie is the phone's to change: each field of an unexpected shape is dropped
    (the form then shows its default), never trusted.
    """
    data = _unb64(request.cookies.get(LAST_COOKIE, ""))
    if not isinstance(data, dict):
        return {}
    checks = {
        "variant": lambda v: isinstance(v, str),
        "options": lambda v: isinstance(v, dict) and all(_scalar(x) for x in v.values()),
        "names": lambda v: isinstance(v, list) and len(v) == 2 and all(isinstance(n, str) for n in v),
        "mano": lambda v: v in (0, 1) and type(v) is int,
        "best_of": lambda v: v in BEST_OF and type(v) is int,
        "players": _players_shape,
    }
    return {key: data[key] for key, ok in checks.items() if key in data and ok(data[key])}


def _scalar(value: Any) -> bool:
    return value is None or isinstance(value, (str, int, float))


def _players_shape(value: Any) -> bool:
    """Two lists of 2 or 3 player names each, the same length (a 4- or 6-player table)."""
    return (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(side, list) and len(side) in (2, 3) for side in value)
        and len(value[0]) == len(value[1])
        and all(isinstance(n, str) for side in value for n in side)
    )


def recent_matches() -> list[tuple[str, str]]:
    """``(id, edit_key)`` of the matches opened on this phone, newest first."""
    out = []
    for item in request.cookies.get(RECENT_COOKIE, "").split("."):
        match_id, _, key = item.partition(":")
        if match_id and key:
            out.append((match_id, key))
    return out[:RECENT_MAX]


def remember(response, settings: dict[str, Any] | None, row: store.MatchRow, key: str | None = None) -> None:
    """Set this phone's cookies: the last settings (if given) and the recent matches
    (``row``'s id with its edit ``key``, which the database does not keep)."""
    if settings is not None:
        response.set_cookie(LAST_COOKIE, _b64(settings), max_age=COOKIE_AGE, samesite="Lax", httponly=True)
    key = key or row.edit_key  # the key the phone used; a row just created carries its own
    if not key:
        return
    recent = [(row.id, key)] + [r for r in recent_matches() if r[0] != row.id]
    value = ".".join(f"{i}:{k}" for i, k in recent[:RECENT_MAX])
    response.set_cookie(RECENT_COOKIE, value, max_age=COOKIE_AGE, samesite="Lax", httponly=True)


def option_fields(variant_id: str, chosen: dict[str, Any]) -> list[dict[str, Any]]:
    """The option controls of one variant: ``[{"key", "label", "choices": [(value, text, selected)], "long"}]``.

    ``long``: a choice's text is too long for a closed select on a 360 px phone (it
    would be cut off), so the form shows the choices as radio buttons, whose text wraps.
    """
    variant = VARIANTS.get(variant_id)
    if variant is None:
        return []
    fields = []
    for spec in variant.option_specs:
        current = chosen.get(spec.key, spec.default)
        if current not in spec.choices:
            current = spec.default
        choices = [(str(c), labels.choice_label(c), c == current and type(c) is type(current)) for c in spec.choices]
        fields.append(
            {
                "key": spec.key,
                "label": gettext(spec.label),
                "choices": choices,
                "long": any(len(text) > SELECT_TEXT_MAX for _v, text, _s in choices),
            }
        )
    return fields


def new_match_context(variant_id: str, settings: dict[str, Any]) -> dict[str, Any]:
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
        "best_of": settings.get("best_of") if settings.get("best_of") in BEST_OF else 1,
        "best_of_choices": BEST_OF,
        "table_size": 2 * len(players[0]) if players else 2,
        "players": [list(p) + [""] * (3 - len(p)) for p in players] if players else [[""] * 3, [""] * 3],
        "error": None,
    }


def clean_names(raw: list[Any] | tuple[Any, ...] | None) -> list[str]:
    """Two side names, trimmed to ``NAME_MAX`` characters; blanks get the defaults.

    :raise 422: not a list of two strings.
    """
    defaults = default_names()
    if raw is None:
        return list(defaults)
    if not isinstance(raw, (list, tuple)) or len(raw) != 2 or not all(isinstance(n, str) for n in raw):
        abort(422, gettext("Names must be two texts."))
    return [(cut_name(n) or d) for n, d in zip(raw, defaults)]


#: A name's visible characters: one grapheme cluster each (a flag, an emoji family, a letter
#: with its accents), as Unicode's text segmentation says (the ``regex`` module's ``\\X``).
GRAPHEME = regex.compile(r"\X")
#: Invisible characters trimmed from both ends of a name (with the white space).
INVISIBLE = "\u200b\u200c\u200d\u200e\u200f\u2060\ufeff\u00ad"


def _tidy(text: str) -> str:
    """``text`` without control characters (NULs included; tabs and line breaks become
    spaces) and without white space or invisible characters at either end."""
    text = "".join(" " if ch in "\t\n\r" else ch for ch in text if ch in "\t\n\r" or unicodedata.category(ch) != "Cc")
    return text.strip().strip(INVISIBLE).strip()


def cut_name(text: str) -> str:
    """``text`` tidied (:func:`_tidy`) and cut to at most ``NAME_MAX`` visible characters
    (grapheme clusters), so a flag, an emoji sequence or an accented letter is kept whole
    or dropped whole, never cut in half (issue 13 item 8)."""
    text = _tidy(text)
    clusters = GRAPHEME.findall(text)
    if len(clusters) <= NAME_MAX:
        return text
    return "".join(clusters[:NAME_MAX]).rstrip().rstrip(INVISIBLE).rstrip()


def name_length(text: str) -> int:
    """How many characters a reader sees in ``text`` (grapheme clusters)."""
    return len(GRAPHEME.findall(text))


def shortened(raw: Any) -> bool:
    """Whether a JSON ``names`` or ``players`` value holds a name that :func:`cut_name` shortens."""
    if isinstance(raw, str):
        return was_shortened(raw, cut_name(raw))
    if isinstance(raw, (list, tuple)):
        return any(shortened(item) for item in raw)
    return False


def was_shortened(raw: Any, cut: str) -> bool:
    """Whether ``cut_name`` dropped visible characters of ``raw`` (not only spaces or
    invisible ones), so the user is told."""
    return isinstance(raw, str) and name_length(_tidy(raw)) > name_length(cut)


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


def settings_from_form(form: MultiDict) -> dict[str, Any]:
    """Variant, options (typed as the variant's choices), names, mano, series length
    and players from the form.

    Options the variant does not have are ignored; an option value that is not one of
    its choices is passed on as text so the engine refuses it with its own message.
    """
    variant_id = form.get("variant", "")
    options: dict[str, Any] = {}
    variant = VARIANTS.get(variant_id)
    for spec in variant.option_specs if variant else ():
        if spec.key in form:
            text = form[spec.key]
            typed = [c for c in spec.choices if str(c) == text]
            options[spec.key] = typed[0] if typed else text
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


def action_from_form(form: MultiDict) -> tuple[dict[str, Any], int]:
    """The action and the version it was made on, from a button's form.

    A button posts ``action`` (the action as JSON) and ``version``; the declared-Envido
    form posts ``kind=envido_points``, ``points0`` and ``points1``.

    :raise 422: missing or malformed fields.
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
        action = json.loads(form.get("action", ""))
    except (ValueError, RecursionError):
        action = None
    if not isinstance(action, dict):
        abort(422, gettext("The form has no valid action."))
    return action, version


def shown_tag(row: store.MatchRow) -> str:
    """A short digest of what a scoreboard shows besides the version: the side names, the
    players and the series, so a rename reaches the other phones within one poll."""
    text = json.dumps([row.names, row.players, row.best_of, row.series], ensure_ascii=False)
    return hashlib.blake2s(text.encode(), digest_size=6).hexdigest()


def unchanged(row: store.MatchRow) -> bool:
    """Whether the poll's ``version``, ``rematch`` and ``seen`` (:func:`shown_tag`; a poll
    without it compares only the version) match the stored match."""
    shown = request.args.get("version", "")
    has_rematch = "1" if row.rematch else "0"
    seen = request.args.get("seen")
    return (
        shown == str(row.version)
        and request.args.get("rematch", "0") == has_rematch
        and (seen is None or seen == shown_tag(row))
    )
