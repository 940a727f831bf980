"""The evening in numbers (issue 22): statistics as JSON, CSV and a page.

``GET /api/matches/<id>/stats`` (``{"sides": [...]}``), ``GET /api/matches/<id>/series/stats``
(its Revanche series: ``{"series", "matches", "sides"}``), ``GET /api/tournaments/<id>/stats``
(``{"tournament", "teams": [...]}``), ``GET /matches/<id>/stats.csv`` and the page
``GET /matches/<id>/stats`` (the match and its series, in the request's language). The
numbers are :mod:`scorer.app.stats_service`'s, one source for all of them.
"""

from __future__ import annotations

import csv
import io

from flask import Blueprint, jsonify, make_response, render_template

from scorer.app import stats_service
from scorer.web.common import FORMULA_START, get_match_or_404, service
from scorer.web.db import get_db
from scorer.web.stat_words import STAT_ROWS, SOURCE_WORDS
from scorer.web.tournament_view import get_tournament_or_404

bp = Blueprint("stats", __name__)


@bp.get("/api/matches/<match_id>/stats")
def match_stats(match_id: str):
    """Both sides' statistics of the match. :raise 404: unknown match."""
    row = get_match_or_404(match_id)
    return jsonify(stats_service.match_json(stats_service.match_sides(service(), get_db(), row)))


@bp.get("/api/matches/<match_id>/series/stats")
def series_stats(match_id: str):
    """Both sides' statistics over the match's Revanche series. :raise 404: unknown match."""
    row = get_match_or_404(match_id)
    return jsonify(stats_service.series_json(service(), get_db(), row))


@bp.get("/api/tournaments/<tid>/stats")
def tournament_stats(tid: str):
    """Each team's statistics over its games in the tournament. :raise 404: unknown tournament."""
    loaded = get_tournament_or_404(tid)
    return jsonify(stats_service.tournament_json(service(), get_db(), loaded))


def _cell(value) -> str | int | float:
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


@bp.get("/matches/<match_id>/stats.csv")
def stats_csv(match_id: str):
    """The match's statistics as CSV: a header of keys, one row per side. :raise 404: unknown match."""
    row = get_match_or_404(match_id)
    sides = stats_service.match_sides(service(), get_db(), row)
    out = io.StringIO()
    writer = csv.writer(out)
    for line in stats_service.csv_rows(list(row.names), sides):
        writer.writerow([_cell(value) for value in line])
    response = make_response(out.getvalue())
    response.headers["Content-Type"] = "text/csv; charset=utf-8"
    response.headers["Content-Disposition"] = f'attachment; filename="truco-{row.id}-stats.csv"'
    return response


@bp.get("/matches/<match_id>/stats")
def stats_page(match_id: str):
    """The page: the match's numbers, and its series' when it has more than one game.
    :raise 404: unknown match."""
    row = get_match_or_404(match_id)
    db = get_db()
    sides = stats_service.match_sides(service(), db, row)
    series = stats_service.series_json(service(), db, row)
    return render_template("matches/stats.html", row=row, names=list(row.names), match=[s.as_dict() for s in sides],
                           series=series if series["matches"] > 1 else None, rows=STAT_ROWS, sources=SOURCE_WORDS)
