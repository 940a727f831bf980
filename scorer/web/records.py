"""Records of a match: export as JSON, restore from it, the log as CSV, and renaming.

``GET /api/matches/<id>/export`` (variant, options, mano, names, series length,
players, actions: everything needed to rebuild the match; never the edit key),
``POST /api/matches/import`` (201, a new match at the same state, with its own id and
key), ``GET /api/matches/<id>/log.csv``
and ``POST /api/matches/<id>/names`` (``X-Edit-Key``; 403 without it).
"""

from __future__ import annotations

import json

from flask import Blueprint, abort, current_app, jsonify
from flask_babel import gettext

from scorer.app import store
from scorer.core.errors import TrucoError
from scorer.web import forms, player_names
from scorer.web.common import (
    csv_download,
    created_json,
    error_json,
    json_body,
    keyed_match_view,
    match_state,
    match_view,
    service,
    shortened_note,
)
from scorer.app.match_service import EXPORT_FORMAT as FORMAT
from scorer.web.db import get_db
from scorer.web.hosting.read_cache import cached_read, match_version

bp = Blueprint("records", __name__, url_prefix="/api")


@bp.get("/matches/<match_id>/export")
@cached_read(match_version)
@match_view
def export(row: store.MatchRow):
    """The match as a JSON file to keep or to import elsewhere.

    :raise 404: unknown match.
    """
    response = jsonify(service().export(get_db(), row))
    response.headers["Content-Disposition"] = f'attachment; filename="truco-{row.id}.json"'
    return response


@bp.post("/matches/import")
def restore():
    """A new match rebuilt from an export: 201 with its links and state, like creating one.

    :raise 422: not an export, bad settings, or an action the rules refuse (the
    engine's error; ``index`` in its params says which). :raise 413: the file is too large.
    ``best_of`` and ``players`` are optional (exports made before they existed: a lone
    game, no seats) and checked as when a match is created.
    """
    data = json_body()
    if data.get("format") != FORMAT:
        abort(422, gettext("This is not a match exported by truco-scorer (format {format}).").format(format=FORMAT))
    actions, options = data.get("actions"), data.get("options")
    if not isinstance(actions, list) or not isinstance(options, dict):
        abort(422, gettext("An export needs options (an object) and actions (a list)."))
    if len(actions) > current_app.config["MAX_ACTIONS"]:
        abort(422, gettext("An export can hold at most {limit} actions.").format(limit=current_app.config["MAX_ACTIONS"]))
    names, mano = player_names.clean_names(data.get("names")), data.get("mano", 0)
    best_of, players = forms.clean_best_of(data.get("best_of")), forms.clean_players(data.get("players"), names)
    try:
        row = service().import_match(get_db(), variant=data.get("variant"), options=options, names=names, mano=mano,
                                     actions=actions, best_of=best_of, players=players)
    except TrucoError as e:
        return error_json(e)
    return created_json(row)


def compact_json(value) -> str:
    """``value`` as compact JSON text (no spaces, keys sorted, non-ASCII kept as is)."""
    return json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)


@bp.get("/matches/<match_id>/log.csv")
@cached_read(match_version)
@match_view
def log_csv(row: store.MatchRow):
    """The match log as CSV: one row per action that counts (number, hand, what was said,
    tentos each side won, the score after, the action as compact JSON).

    :raise 404: unknown match.
    """
    state = match_state(row)
    a, b = row.names
    rows: list[list[object]] = [["n", "hand", "log", f"won: {a}", f"won: {b}", a, b, "action"]]
    rows += [[entry["index"] + 1, entry["hand"], entry["text"], *entry["delta"], *entry["score"],
              compact_json(entry["action"])] for entry in state["log"]]
    return csv_download(rows, f"truco-{row.id}.csv")


@bp.post("/matches/<match_id>/names")
@keyed_match_view
def rename(row: store.MatchRow, key: str):
    """Rename the two sides from ``{"names": [a, b]}``; answers the state.

    :raise 403: no or wrong ``X-Edit-Key``. :raise 422: not two texts.
    """
    data = json_body()
    if "names" not in data:
        abort(422, gettext("Names must be two texts."))
    row = service().rename(get_db(), row, player_names.clean_names(data["names"]))
    state = match_state(row)
    return jsonify({**state, "notes": [shortened_note()] if player_names.shortened(data["names"]) else []})
