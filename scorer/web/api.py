"""The JSON API: the engine's action and state JSON over HTTP.

``POST /api/matches`` (201), ``GET /api/matches/<id>``, ``POST /api/matches/<id>/actions``
(header ``X-Edit-Key``; 403, 409 with the current state, 422 with the engine's error),
``GET /api/variants``, ``GET /api/envido`` and ``GET /api/manilha`` (the card
helpers' ``--json`` output).
"""

from __future__ import annotations


from flask import Blueprint, abort, jsonify, request
from flask_babel import gettext

from scorer.app import store
from scorer.app.match_service import DUPLICATE, STALE
from scorer.core.envido_points import count_spans
from scorer.core.errors import TrucoError
from scorer.core.variants import VARIANTS
from scorer.web import forms, player_names, tool_args
from scorer.web.common import (
    created_json, error_json, json_body, keyed_match_view, match_state, match_view, said, service,
)
from scorer.web.db import get_db

bp = Blueprint("api", __name__, url_prefix="/api")


@bp.post("/matches")
def create_match():
    """Create a match from ``{"variant", "options", "names", "mano", "best_of", "players"}``
    (``best_of`` 1, 3 or 5; ``players`` None or two lists of 2 or 3 names, as the form);
    201 with its links.

    :raise 422: bad options, names, series length or players.
    """
    data = json_body()
    options = data.get("options")
    options = {} if options is None else options
    if not isinstance(options, dict):
        abort(422, gettext("Options must be a JSON object."))
    names = player_names.clean_names(data.get("names"))
    best_of, players = forms.clean_best_of(data.get("best_of")), forms.clean_players(data.get("players"), names)
    variant, mano = data.get("variant"), data.get("mano", 0)
    try:
        row = service().create(get_db(), variant=variant, options=options, names=names, mano=mano,
                               best_of=best_of, players=players)
    except TrucoError as e:
        return error_json(e)
    return created_json(row, shortened=player_names.shortened([data.get("names"), data.get("players")]))


@bp.get("/matches/<match_id>")
@match_view
def get_match(row: store.MatchRow):
    """The match's state (the engine's state JSON plus ``id`` and ``version``);
    ``?log_limit=N`` keeps only the newest N log entries (the whole log otherwise).

    :raise 404: unknown match. :raise 422: ``log_limit`` is not a whole number from 1 up.
    """
    limit = request.args.get("log_limit")
    if limit is not None and not (limit.isdigit() and 0 < len(limit) < 7 and int(limit) > 0):
        abort(422, gettext("log_limit must be a whole number from 1 up."))
    return jsonify(match_state(row, log_limit=None if limit is None else int(limit)))


@bp.post("/matches/<match_id>/actions")
@keyed_match_view
def post_action(row: store.MatchRow, key: str):
    """Apply ``{"action": {...}, "version": N}``; answers the new state.

    :raise 403: no or wrong ``X-Edit-Key``. :raise 409: stale version, or the same action already
    recorded on it (``already_recorded``; body has the current ``state``). :raise 422: bad JSON or an action the engine refuses.
    """
    data = json_body()
    action, version = data.get("action"), data.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        abort(422, gettext("The body needs the version number the action was made on."))
    try:
        outcome, state = service().act(get_db(), row, action, version)
        state = said(state)
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
    """Every variant with its translated title and description, its call ids (``calls``: the
    ladder, then Envido and Flor), its options, and the Envido and Flor counts a match of it accepts (``[low, high]`` runs from the one
    definition, :func:`scorer.core.envido_points.possible_counts`; None without Envido or Flor)."""
    return jsonify(
        [
            {
                "id": v.id,
                "title": gettext(v.title),
                "description": gettext(v.description),
                "target": v.target,
                "calls": list(v.call_ids()),
                "counts": {
                    "envido": [list(r) for r in count_spans(v.envido.points_range)] if v.envido else None,
                    "flor": [list(r) for r in count_spans(v.flor.points_range)] if v.flor else None,
                },
                "options": [
                    {"key": s.key, "label": gettext(s.label), "help": gettext(s.help) if s.help else "",
                     "choices": list(s.choices), "default": s.default}
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
        return jsonify(tool_args.envido_result(request.args))
    except TrucoError as e:
        return error_json(e)


@bp.get("/manilha")
def manilha():
    """Manilhas and card order for ``vira`` (``deck``, ``variant``): as ``truco manilha --json``."""
    try:
        return jsonify(tool_args.manilha_result(request.args))
    except TrucoError as e:
        return error_json(e)
