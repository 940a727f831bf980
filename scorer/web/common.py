"""What every view shares: the application service, loading a match, the edit key, the
public address, reading a JSON body and answering JSON errors.

Views import this module (and :mod:`scorer.web.forms`), never each other.
"""

from __future__ import annotations

import hmac
from typing import Any

from flask import abort, current_app, jsonify, request, url_for
from flask_babel import gettext

from scorer import store
from scorer.errors import TrucoError
from scorer.web.db import get_db
from scorer.web.engine import MatchService
from scorer.web.i18n import translate, translator


def service() -> MatchService:
    """The app's application service for matches (with its cache of replayed matches)."""
    return current_app.extensions["truco_matches"]


def get_match_or_404(match_id: str) -> store.MatchRow:
    """The stored match ``match_id`` (the request's one read of it).

    :raise 404: no match has that id.
    """
    row = service().get(get_db(), match_id)
    if row is None:
        abort(404, gettext("There is no match with this address."))
    return row


def check_key(row: store.MatchRow, key: str | None) -> None:
    """Compare ``key`` with the match's edit key in constant time.

    :raise 403: the key is missing or wrong.
    """
    if not key or not hmac.compare_digest(key.encode(), row.edit_key.encode()):
        abort(403, gettext("This link cannot change the match: the edit key is missing or wrong."))


def is_htmx() -> bool:
    """Whether htmx made this request (it then wants a fragment, not a page)."""
    return request.headers.get("HX-Request") == "true"


def public_base() -> str:
    """The base URL for links other phones open (``PUBLIC_URL`` or this request's)."""
    return (current_app.config.get("PUBLIC_URL") or request.host_url).rstrip("/")


def error_json(e: TrucoError, status: int = 422, names: Any = None):
    """``{"error": {"code", "message", "allowed"}}`` with ``status`` (``names``: the sides' names)."""
    return jsonify(error=e.to_json(translate, names)), status


def json_body() -> dict[str, Any]:
    """The request's JSON object.

    :raise 422: the body is not a JSON object.
    """
    try:
        data = request.get_json(silent=True)
    except RecursionError:  # nested too deep for the parser: not a JSON object we can read
        data = None
    if not isinstance(data, dict):
        abort(422, gettext("The body must be a JSON object."))
    return data


def created_json(row: store.MatchRow):
    """201 ``{"id", "edit_key", "edit_url", "watch_url", "state"}`` for a match just stored."""
    base = public_base()
    return jsonify(
        id=row.id,
        edit_key=row.edit_key,
        edit_url=base + url_for("matches.scoreboard", match_id=row.id, key=row.edit_key),
        watch_url=base + url_for("matches.watch", match_id=row.id),
        state=service().state(get_db(), row, translator()),
    ), 201
