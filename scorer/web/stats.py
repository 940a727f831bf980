"""The evening in numbers (issue 22): statistics as JSON, CSV and a page.

``GET /api/matches/<id>/stats`` (``{"sides": [...]}``), ``GET /api/matches/<id>/series/stats``
(its Revanche series: ``{"series", "matches", "sides"}``), ``GET /api/tournaments/<id>/stats``
(``{"tournament", "teams": [...]}``), ``GET /matches/<id>/stats.csv``, ``GET /tournaments/<id>/stats.csv`` and the page
``GET /matches/<id>/stats`` (the match and its series, in the request's language). The
numbers are :mod:`scorer.app.stats_service`'s, one source for all of them.
"""

from __future__ import annotations

from flask import Blueprint, jsonify, make_response, render_template
from flask_babel import gettext

from scorer.app import stats_service, store
from scorer.web import charts
from scorer.web.hosting.read_cache import cached_read, match_version, series_version, tournament_version
from scorer.web.common import csv_download, match_view, service
from scorer.web.db import get_db
from scorer.web.stat_words import STAT_ROWS, SOURCE_WORDS
from scorer.web.tournament_view import get_tournament_or_404

bp = Blueprint("stats", __name__)


@bp.get("/api/matches/<match_id>/stats")
@cached_read(match_version)
@match_view
def match_stats(row: store.MatchRow):
    """Both sides' statistics of the match. :raise 404: unknown match."""
    return jsonify(stats_service.match_json(stats_service.match_sides(service(), get_db(), row)))


@bp.get("/api/matches/<match_id>/series/stats")
@cached_read(series_version)
@match_view
def series_stats(row: store.MatchRow):
    """Both sides' statistics over the match's Revanche series. :raise 404: unknown match."""
    return jsonify(stats_service.series_json(service(), get_db(), row))


@bp.get("/api/tournaments/<tid>/stats")
@cached_read(tournament_version)
def tournament_stats(tid: str):
    """Each team's statistics over its games in the tournament. :raise 404: unknown tournament."""
    loaded = get_tournament_or_404(tid)
    return jsonify(stats_service.tournament_json(service(), get_db(), loaded))


@bp.get("/matches/<match_id>/stats.csv")
@cached_read(match_version)
@match_view
def stats_csv(row: store.MatchRow):
    """The match's statistics as CSV: a header of keys, one row per side. :raise 404: unknown match."""
    return csv_download(stats_service.csv_rows(list(row.names), stats_service.match_sides(service(), get_db(), row)),
                        f"truco-{row.id}-stats.csv")


@bp.get("/tournaments/<tid>/stats.csv")
@cached_read(tournament_version)
def tournament_stats_csv(tid: str):
    """Each team's statistics over the tournament as CSV (the numbers of
    ``GET /api/tournaments/<id>/stats``): one row per team, in entry order. :raise 404: unknown tournament."""
    loaded = get_tournament_or_404(tid)
    teams = stats_service.tournament_teams(service(), get_db(), loaded)
    rows = stats_service.csv_rows([name for name, _stats in teams], [stats for _name, stats in teams])
    return csv_download(rows, f"truco-tournament-{loaded.row.id}-stats.csv")


@bp.get("/matches/<match_id>/stats")
@cached_read(series_version)
@match_view
def stats_page(row: store.MatchRow):
    """The page: the match's numbers, and its series' when it has more than one game.
    :raise 404: unknown match."""
    db = get_db()
    sides = stats_service.match_sides(service(), db, row)
    series = stats_service.series_json(service(), db, row)
    games = stats_service.series_rows(db, row.series) if series["matches"] > 1 else [row]
    return render_template("matches/stats.html", row=row, names=list(row.names), match=[s.as_dict() for s in sides],
                           series=series if series["matches"] > 1 else None, rows=STAT_ROWS, sources=SOURCE_WORDS,
                           games=games)


def svg(document: str):
    """An SVG picture response (its own inline style only: :data:`charts.SVG_CSP`)."""
    response = make_response(document)
    response.headers["Content-Type"] = "image/svg+xml; charset=utf-8"
    response.headers["Content-Security-Policy"] = charts.SVG_CSP
    return response


@bp.get("/matches/<match_id>/chart.svg")
@cached_read(match_version)
@match_view
def story_chart(row: store.MatchRow):
    """The score's story as a picture: both scores hand by hand, the deciding calls marked.
    :raise 404: unknown match."""
    story = service().story(get_db(), row)
    title = f"{row.names[0]} {row.score[0]} × {row.score[1]} {row.names[1]}"
    return svg(charts.story_svg(row.variant, list(row.names), story, title))


@bp.get("/matches/<match_id>/series/summary.svg")
@cached_read(series_version)
@match_view
def series_picture(row: store.MatchRow):
    """The series' headline numbers as a picture (one bar per side). :raise 404: unknown match."""
    rows = stats_service.series_rows(get_db(), row.series) or [row]
    sides = stats_service.rows_sides(service(), get_db(), rows)
    title = gettext("%(a)s × %(b)s: %(games)s games", a=row.names[0], b=row.names[1], games=len(rows))
    return svg(charts.numbers_svg(list(row.names), sides, title))


@bp.get("/tournaments/<tid>/summary.svg")
@cached_read(tournament_version)
def tournament_picture(tid: str):
    """The tournament's headline numbers per team as a picture. :raise 404: unknown tournament."""
    loaded = get_tournament_or_404(tid)
    teams = stats_service.tournament_teams(service(), get_db(), loaded)
    return svg(charts.numbers_svg([name for name, _ in teams], [stats for _, stats in teams], loaded.row.name))


@bp.get("/tournaments/<tid>/summary")
@cached_read(tournament_version)
def tournament_summary(tid: str):
    """The night's summary of a tournament: who won what, each team's numbers, the pictures.
    :raise 404: unknown tournament."""
    loaded = get_tournament_or_404(tid)
    teams = stats_service.tournament_teams(service(), get_db(), loaded)
    games = stats_service.tournament_games(get_db(), loaded)
    return render_template("tournaments/summary.html", loaded=loaded, teams=[(n, s.as_dict()) for n, s in teams],
                           rows=STAT_ROWS, sources=SOURCE_WORDS, games=games)
