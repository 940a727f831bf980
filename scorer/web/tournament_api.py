"""The tournaments' JSON API and records.

``POST /api/tournaments`` (201 ``{"id", "organizer_key", "organizer_url", "tv_url",
"state"}``; 422 with a message, nothing created), ``GET /api/tournaments/<id>`` (the
state; ``edit_url`` of each match only with ``X-Organizer-Key``),
``POST /api/tournaments/<id>/corrections`` (``X-Organizer-Key``),
``GET /api/tournaments/<id>/export`` (JSON: settings, teams, every match with its
actions, the audit; no keys) and ``GET /api/tournaments/<id>/results.csv``.
"""

from __future__ import annotations

from flask import Blueprint, jsonify, request, url_for
from flask_babel import gettext

from scorer.app import tournament_corrections as corrections, tournament_service as service
from scorer.app.store import tournaments as tstore
from scorer.app.tournament_keys import organizer_fits
from scorer.core.errors import TrucoError
from scorer.web.common import csv_download, error_json, json_body, public_base
from scorer.web.tournament_view import describe_tournament, get_tournament_or_404, organizer_view, tournament_keys
from scorer.web.db import get_db
from scorer.web.hosting.read_cache import cached_read, tournament_version

bp = Blueprint("tournament_api", __name__, url_prefix="/api")


def organizer_key(loaded: service.Loaded) -> str | None:
    """The request's ``X-Organizer-Key`` if it is the right one (hashes compared in
    constant time), else None."""
    key = request.headers.get("X-Organizer-Key", "")
    return key if organizer_fits(loaded.row.organizer_hash, key) else None


@bp.post("/tournaments")
def create():
    """Create a tournament; 201 with its links and state, or 422 (nothing created)."""
    data = json_body()
    try:
        loaded = service.create_from(get_db(), data, default_name=gettext("Tournament"), keys=tournament_keys())
    except TrucoError as e:
        return error_json(e)
    base = public_base()
    row = loaded.row
    return jsonify(
        id=row.id,
        organizer_key=loaded.organizer_key,
        organizer_url=base + url_for("tournaments.organizer", tid=row.id, key=loaded.organizer_key),
        tv_url=base + url_for("tournaments.tv", tid=row.id),
        state=describe_tournament(loaded, organizer=loaded.organizer_key),
    ), 201


def organizer_header_fits(tid: str, **_values) -> bool:
    """Whether the request's ``X-Organizer-Key`` is the tournament's (what its kept state shows)."""
    row = tstore.get_tournament(get_db(), tid)
    return row is not None and organizer_fits(row.organizer_hash, request.headers.get("X-Organizer-Key", ""))


@bp.get("/tournaments/<tid>")
@cached_read(tournament_version, vary=organizer_header_fits,
             public=lambda **values: not organizer_header_fits(**values))  # the tables' edit links: no-store
def state(tid: str):
    """The tournament now (issue 11's shape); ``edit_url`` only for the organizer.

    :raise 404: unknown tournament.
    """
    loaded = get_tournament_or_404(tid)
    return jsonify(describe_tournament(loaded, organizer=organizer_key(loaded)))


@bp.post("/tournaments/<tid>/corrections")
@organizer_view
def correct(loaded: service.Loaded, key: str):
    """Apply a correction (walkover, abandonment, reopen, rename, confirm); answers
    ``{"undone", "state"}``.

    :raise 403: no or wrong ``X-Organizer-Key``. :raise 409: ``confirm_cascade`` (the
    matches it would undo are in ``allowed``; send ``"confirmed": true``),
    ``changed_meanwhile`` (another correction came first, or the tournament is no longer
    at the ``version`` sent), ``already_done`` or ``already_confirmed`` (nothing to
    change). :raise 422: a bad correction.
    """
    tid, data = loaded.row.id, json_body()
    try:
        done = corrections.correct(get_db(), tid, data, keys=tournament_keys())
    except TrucoError as e:
        return error_json(e, 409 if e.code in corrections.CONFLICTS else 422)
    return jsonify(undone=done["undone"], state=describe_tournament(get_tournament_or_404(tid), organizer=key))


@bp.get("/tournaments/<tid>/export")
@cached_read(tournament_version)
def export(tid: str):
    """The whole tournament as a JSON file: settings, teams, seeds, lots, every slot
    with its result and its games' actions, and the audit log. Never a key."""
    loaded = get_tournament_or_404(tid)
    row = loaded.row
    data = service.export(get_db(), loaded)
    response = jsonify(data)
    response.headers["Content-Disposition"] = f'attachment; filename="tournament-{row.id}.json"'
    return response


@bp.get("/tournaments/<tid>/results.csv")
@cached_read(tournament_version)
def results_csv(tid: str):
    """Results as CSV: one line per decided or playing match."""
    loaded = get_tournament_or_404(tid)
    rows: list[list[object]] = [["stage", "round", "match", "team0", "team1", "kind", "winner", "tentos0", "tentos1",
                                 "games0", "games1"]]
    teams = loaded.row.teams
    for slot in loaded.t.slots:
        sv = loaded.view.slots[slot.id]
        first, second = sv.teams
        if first is None or second is None:
            continue
        res = sv.result
        rows.append([slot.stage, slot.round, slot.number, teams[first], teams[second],
                     res.kind if res else "", teams[(first, second)[res.winner]] if res else "",
                     res.tentos[0] if res else "", res.tentos[1] if res else "",
                     res.games[0] if res else "", res.games[1] if res else ""])
    return csv_download(rows, f"tournament-{tid}.csv")
