"""A club's records and JSON (issue 32 item 5; docs/club.md "Export and import"):

``GET /api/clubs/<id>/export`` (the club with its history, no key; as a tournament's export),
``POST /api/clubs/import`` (201 ``{"id", "organizer_key", "organizer_url", "table_url"}``; 422 with
a message in the reader's language, nothing created; 413 over ``CLUB_IMPORT_MAX_BYTES``),
``GET /api/clubs/<id>/season`` (the season table as JSON, ``?season=N``) and
``GET /club/<id>/season.csv``.
"""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify, request, url_for

from scorer.app import club_records, club_service as clubs
from scorer.core.errors import TrucoError
from scorer.web.club_view import get_club_or_404
from scorer.web.common import csv_download, error_json, json_body, public_base, service
from scorer.web.db import get_db

bp = Blueprint("club_api", __name__)

#: Bytes a club import may have (a club's whole history; other bodies keep ``MAX_CONTENT_LENGTH``).
CLUB_IMPORT_MAX_BYTES = 8 * 1024 * 1024


@bp.get("/api/clubs/<cid>/export")
def export(cid: str):
    """The club with its players, seasons and every finished game (settings and actions) as a
    JSON file; never a key. :raise 404: unknown club."""
    club = get_club_or_404(cid)
    response = jsonify(club_records.export(get_db(), club))
    response.headers["Content-Disposition"] = f'attachment; filename="club-{club.row.id}.json"'
    return response


@bp.post("/api/clubs/import")
def import_club():
    """A new club rebuilt from an export: 201 with its links.

    :raise 422: not a club export, bad players, seasons or sides, a game the rules refuse
        or that ends otherwise (nothing created). :raise 413: the file is too large.
    """
    request.max_content_length = current_app.config.get("CLUB_IMPORT_MAX_BYTES", CLUB_IMPORT_MAX_BYTES)
    data = json_body()
    try:
        row, key = club_records.import_club(get_db(), service(), data, max_actions=current_app.config["MAX_ACTIONS"])
    except TrucoError as e:
        return error_json(e)
    base = public_base()
    return jsonify(id=row.id, organizer_key=key,
                   organizer_url=base + url_for("clubs.organizer", cid=row.id, key=key),
                   table_url=base + url_for("clubs.season", cid=row.id)), 201


@bp.get("/api/clubs/<cid>/season")
def season_json(cid: str):
    """The season table as JSON: ``{"club", "season", "games", "rows": [{"player", "name",
    "nickname", "rating", "mu", "sigma", "certainty", "matches", "wins", ...statistics}],
    "best_pairs", "worst_pairs": [{"players", "matches", "wins"}]}``. :raise 404: unknown club."""
    club = get_club_or_404(cid)
    chosen = clubs.season_of(club, request.args.get("season"))
    played = clubs.play(get_db(), club, chosen)
    header, *rows = club_records.season_csv(club, played)
    return jsonify(club=club.row.id, season=chosen.season if chosen else None, games=played.games,
                   rows=[dict(zip(header[1:], r[1:])) for r in rows],
                   best_pairs=[{"players": list(p.players), "matches": p.matches, "wins": p.wins} for p in played.best],
                   worst_pairs=[{"players": list(p.players), "matches": p.matches, "wins": p.wins} for p in played.worst])


@bp.get("/club/<cid>/season.csv")
def season_csv(cid: str):
    """The season table as CSV (``?season=N``). :raise 404: unknown club."""
    club = get_club_or_404(cid)
    chosen = clubs.season_of(club, request.args.get("season"))
    name = f"club-{club.row.id}" + (f"-season-{chosen.season}" if chosen else "") + ".csv"
    return csv_download(club_records.season_csv(club, clubs.play(get_db(), club, chosen)), name)

