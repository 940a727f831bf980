"""This phone's cookies: the settings of the last match created on it and the matches opened
on it (ids with their edit keys). The cookie is the phone's to change: anything of an
unexpected shape is dropped, never trusted."""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any, TypedDict, cast

from flask import request

from scorer.app import store
from scorer.core.schema import OptionValue
from scorer.core.series import BEST_OF

LAST_COOKIE = "last"
RECENT_COOKIE = "recent"
RECENT_MAX = 8
COOKIE_AGE = 365 * 24 * 3600


class MatchSettings(TypedDict, total=False):
    """A new match's settings, as the new-match form reads them
    (:func:`scorer.web.forms.settings_from_form`: every key) and this phone's cookie keeps them
    (:func:`last_settings`: the keys of a trusted shape only). ``mano`` is text when the form
    sent something else than 0 or 1 (the engine refuses it); ``shortened``: a typed name was
    cut (the form's only, never kept)."""

    variant: str
    options: dict[str, OptionValue]
    names: list[str]
    mano: int | str
    best_of: int
    players: list[list[str]] | None
    shortened: bool


def _b64(data: Any) -> str:
    raw = json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _unb64(text: str) -> Any:
    try:
        return json.loads(base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)))
    except (binascii.Error, ValueError, UnicodeDecodeError, RecursionError):
        return None


def last_settings() -> MatchSettings:
    """The settings of the last match created on this phone (``{}`` if none).

    The cookie is the phone's to change: each field of an unexpected shape is dropped
    (the form then shows its default), never trusted.
    """
    data = _unb64(request.cookies.get(LAST_COOKIE, ""))
    if not isinstance(data, dict):
        return MatchSettings()
    checks = {
        "variant": lambda v: isinstance(v, str),
        "options": lambda v: isinstance(v, dict) and all(_scalar(x) for x in v.values()),
        "names": lambda v: isinstance(v, list) and len(v) == 2 and all(isinstance(n, str) for n in v),
        "mano": lambda v: v in (0, 1) and type(v) is int,
        "best_of": lambda v: v in BEST_OF and type(v) is int,
        "players": _players_shape,
    }
    # Each key kept is one of MatchSettings', its value checked above: the checker cannot follow the loop.
    return cast(MatchSettings, {key: data[key] for key, ok in checks.items() if key in data and ok(data[key])})


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


def remember(response, settings: MatchSettings | None, row: store.MatchRow, key: str | None = None) -> None:
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
