"""The JSON API: the engine's action and state JSON over HTTP.

``POST /api/matches`` (201), ``GET /api/matches/<id>``, ``POST /api/matches/<id>/actions``
(header ``X-Edit-Key``; 403, 409 with the current state, 422 with the engine's error),
``GET /api/variants``, ``GET /api/envido`` and ``GET /api/manilha`` (the card
helpers' ``--json`` output).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, jsonify, request, url_for
from flask_babel import gettext

from scorer import store
from scorer.errors import TrucoError
from scorer.variants import VARIANTS
from scorer.web import forms, tools
from scorer.web.db import get_db
from scorer.web.engine import DUPLICATE, STALE
from scorer.web.i18n import translate, translator
from scorer.web.matches import check_key, get_match_or_404, public_base, service

bp = Blueprint("api", __name__, url_prefix="/api")


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


@bp.post("/matches")
def create_match():
    """Create a match from ``{"variant", "options", "names", "mano"}``; 201 with its links."""
    data = json_body()
    options = data.get("options")
    options = {} if options is None else options
    if not isinstance(options, dict):
        abort(422, gettext("Options must be a JSON object."))
    names = forms.clean_names(data.get("names"))
    variant, mano = data.get("variant"), data.get("mano", 0)
    try:
        m = service().check_settings(variant, options, mano)
    except TrucoError as e:
        return error_json(e)
    row = store.create_match(get_db(), variant=variant, options=m.options, names=names, mano=mano)
    return created_json(row)


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


@bp.get("/matches/<match_id>")
def get_match(match_id: str):
    """The match's state (the engine's state JSON plus ``id`` and ``version``);
    ``?log_limit=N`` keeps only the newest N log entries (the whole log otherwise).

    :raise 422: ``log_limit`` is not a whole number from 1 up.
    """
    row = get_match_or_404(match_id)
    limit = request.args.get("log_limit")
    if limit is not None and not (limit.isdigit() and 0 < len(limit) < 7 and int(limit) > 0):
        abort(422, gettext("log_limit must be a whole number from 1 up."))
    return jsonify(service().state(get_db(), row, translator(), log_limit=None if limit is None else int(limit)))


@bp.post("/matches/<match_id>/actions")
def post_action(match_id: str):
    """Apply ``{"action": {...}, "version": N}``; answers the new state.

    :raise 403: no or wrong ``X-Edit-Key``. :raise 409: stale version, or the same action already
    recorded on it (``already_recorded``; body has the current ``state``). :raise 422: bad JSON or an action the engine refuses.
    """
    row = get_match_or_404(match_id)
    check_key(row, request.headers.get("X-Edit-Key"))
    data = json_body()
    action, version = data.get("action"), data.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        abort(422, gettext("The body needs the version number the action was made on."))
    try:
        outcome, state = service().act(get_db(), row.id, action, version, translator())
    except TrucoError as e:
        return error_json(e, names=row.names)
    if outcome == STALE:
        message = gettext("Another phone recorded something first. This is the scoreboard now: check and tap again.")
        return jsonify(error={"code": "stale_version", "message": message, "allowed": []}, state=state), 409
    if outcome == DUPLICATE:  # a double tap or a retry: recorded once, by the first request
        message = gettext("This action was already recorded on that version; nothing was added.")
        return jsonify(error={"code": "already_recorded", "message": message, "allowed": []}, state=state), 409
    return jsonify(state)


@bp.get("/variants")
def variants():
    """Every variant with its translated description and its options."""
    return jsonify(
        [
            {
                "id": v.id,
                "title": v.title,
                "description": gettext(v.description),
                "target": v.target,
                "options": [
                    {"key": s.key, "label": gettext(s.label), "choices": list(s.choices), "default": s.default}
                    for s in v.option_specs
                ],
            }
            for v in VARIANTS.values()
        ]
    )


@bp.get("/envido")
def envido():
    """Envido (and Flor) points of ``cards``, with ``flor`` and ``muestra``: as ``truco envido --json``."""
    try:
        return jsonify(tools.envido_result(request.args))
    except TrucoError as e:
        return error_json(e)


@bp.get("/manilha")
def manilha():
    """Manilhas and card order for ``vira`` (``deck``, ``variant``): as ``truco manilha --json``."""
    try:
        return jsonify(tools.manilha_result(request.args))
    except TrucoError as e:
        return error_json(e)
