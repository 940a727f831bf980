"""A club's pages (issue 32; docs/club.md "Club and season"): create a club, the organizer's
page (players, seasons, a club match), the night's check-in and draw, the season table and a
player's page with the rating chart.

``/clubs/new`` and ``POST /clubs``; the organizer's pages live under ``/k/<id>/<organizer
key>`` (the key in the path, as a tournament's); the season table ``/club/<id>`` (no key,
``?season=N``) and a player's page ``/club/<id>/player/<n>``. Views are thin:
:mod:`scorer.app.club_service` does the work, :mod:`scorer.web.club_view` puts it in words.
"""

from __future__ import annotations

import re
import secrets
from typing import Any

from flask import Blueprint, abort, make_response, redirect, render_template, request, url_for
from flask_babel import gettext

from scorer.app import club_service as clubs
from scorer.core.errors import TrucoError
from scorer.core.variants import default_variant
from scorer.web import charts, forms
from scorer.web.club_view import (
    STAT_TITLES, club_organizer_view, get_club_or_404, night_rows, number, pair_lines, table_lines,
)
from scorer.web.common import public_base, service
from scorer.web.db import get_db
from scorer.web.i18n import translate
from scorer.web.tournament_view import tournament_keys

bp = Blueprint("clubs", __name__)

#: Seats a side may have on the club's match form and the draw (a table of 2, 4 or 6).
SEATS = (1, 2, 3)


@bp.get("/clubs/new")
def new():
    """The create-a-club form."""
    return render_template("clubs/new.html", error=None, name="", players="")


@bp.post("/clubs")
def create():
    """Create a club (and its first players, one per line, ``Name: nickname``) and go to its
    organizer page. :raise 422: no name or a bad player (the form again, saying why)."""
    form = request.form
    try:
        players = parse_players(form.get("players", ""))
        for name, nick in players:
            clubs.clean_player(name, nick)
        row, key = clubs.create(get_db(), form.get("name", ""))
        club = clubs.load(get_db(), row.id)
        clubs.add_players(get_db(), club, players)
    except TrucoError as e:
        return render_template("clubs/new.html", error=e.render(translate), name=form.get("name", ""),
                               players=form.get("players", "")), 422
    return redirect(url_for("clubs.organizer", cid=row.id, key=key), 303)


def parse_players(text: str) -> list[tuple[str, str]]:
    """Players typed one per line, ``Name: nickname`` (the nickname optional)."""
    out = []
    for line in text.splitlines():
        if line.strip():
            name, _, nick = line.partition(":")
            out.append((name.strip(), nick.strip()))
    return out


def organizer_context(club: clubs.Club, key: str, **extra: Any) -> dict[str, Any]:
    """The organizer page's context: the club, its links, the match form's variants."""
    variant = request.values.get("variant") or default_variant().id
    ctx = dict(forms.new_match_context(variant, {"variant": variant}))
    ctx.update(club=club, key=key, error=None, seats=SEATS, tournaments=clubs.tournaments(get_db(), club),
               table_url=public_base() + url_for("clubs.season", cid=club.row.id),
               organizer_url=public_base() + url_for("clubs.organizer", cid=club.row.id, key=key))
    ctx.update(extra)
    return ctx


@bp.get("/k/<cid>/<key>")
@club_organizer_view
def organizer(club: clubs.Club, key: str):
    """The organizer page: players, seasons, a club match, the night's check-in.

    :raise 404: unknown club. :raise 403: wrong organizer key."""
    return render_template("clubs/organizer.html", **organizer_context(club, key))


def refused(club: clubs.Club, key: str, e: TrucoError):
    """The organizer page again with the error said (422)."""
    return render_template("clubs/organizer.html", **organizer_context(club, key, error=e.render(translate))), 422


@bp.post("/k/<cid>/<key>/players")
@club_organizer_view
def add_players(club: clubs.Club, key: str):
    """Add the players typed (one per line, ``Name: nickname``). :raise 422: a bad player."""
    try:
        clubs.add_players(get_db(), club, parse_players(request.form.get("players", "")))
    except TrucoError as e:
        return refused(club, key, e)
    return redirect(url_for("clubs.organizer", cid=club.row.id, key=key), 303)


@bp.post("/k/<cid>/<key>/seasons")
@club_organizer_view
def add_season(club: clubs.Club, key: str):
    """Add a season (a name, its first and last night). :raise 422: not dates, or reversed."""
    form = request.form
    try:
        clubs.add_season(get_db(), club, form.get("name", ""), form.get("first_night"), form.get("last_night"))
    except TrucoError as e:
        return refused(club, key, e)
    return redirect(url_for("clubs.organizer", cid=club.row.id, key=key), 303)


def whole(text: str | None) -> int | None:
    """A form's number: 1 to 9 ASCII digits (``"²"`` is a digit to ``str.isdigit``, not to ``int``), else None."""
    return int(text) if text and re.fullmatch(r"[0-9]{1,9}", text) else None


def side_from_form(form, side: int) -> list[int]:
    """The players chosen for a side (``side0_1``..``side0_3``), blanks left out."""
    return [n for seat in SEATS if (n := whole(form.get(f"side{side}_{seat}"))) is not None]


@bp.post("/k/<cid>/<key>/matches")
@club_organizer_view
def start_match(club: clubs.Club, key: str):
    """Start a club match with the players chosen on each side and go to its scoreboard.

    :raise 422: bad sides, variant or options (the page again, saying why)."""
    settings = forms.settings_from_form(request.form)
    try:
        row = clubs.start_match(get_db(), service(), club, [side_from_form(request.form, 0),
                                                            side_from_form(request.form, 1)],
                                variant=settings["variant"], options=settings["options"],
                                best_of=settings.get("best_of", 1))
    except TrucoError as e:
        return refused(club, key, e)
    return redirect(url_for("matches.scoreboard", match_id=row.id, key=row.edit_key), 303)


# ---------------------------------------------------------------- the night's check-in


@bp.get("/k/<cid>/<key>/checkin")
@club_organizer_view
def checkin(club: clubs.Club, key: str):
    """The check-in: tick who came, choose pairs or threes (and a seed), draw."""
    return render_template("clubs/checkin.html", club=club, key=key, error=None, ticked=set(),
                           seed=secrets.randbelow(10**6), size=2)


def draw_context(club: clubs.Club, key: str, teams: list, form, error: str | None = None) -> dict[str, Any]:
    """The draw page's context: the teams (players' numbers), their strengths, the settings."""
    season = clubs.season_of(club, form.get("season"))
    played = {r.player: r for r in clubs.play(get_db(), club, season).rows}
    variant = form.get("variant") or default_variant().id
    ctx = dict(forms.new_match_context(variant, {"variant": variant}))
    ticked = sorted({p for t in teams for p in t})
    ctx.update(club=club, key=key, teams=teams, ticked=ticked, error=error, seed=form.get("seed", ""),
               size=len(teams[0]) if teams else 2, season=season,
               strength={p: table_strength(played, p) for p in ticked},
               totals=[table_strength_sum(played, t) for t in teams])
    return ctx


def table_strength(played: dict, p: int) -> str:
    """A player's strength as the draw uses it (the rating's ``mu``), in words."""
    return number(played[p].rating.mu) if p in played else "?"


def table_strength_sum(played: dict, team) -> str:
    """A team's total strength in words (the draw balances these)."""
    return number(sum(played[p].rating.mu for p in team if p in played))


@bp.post("/k/<cid>/<key>/draw")
@club_organizer_view
def draw(club: clubs.Club, key: str):
    """Draw balanced teams from the players ticked and show them, each seat a choice the
    organizer may change (a swap). :raise 422: too few, uneven or unknown players."""
    form = request.form
    ticked = [n for p in form.getlist("player") if (n := whole(p)) is not None]
    size, seed = whole(form.get("size")) or 0, whole(form.get("seed")) or 0
    try:
        teams = clubs.draw(get_db(), club, ticked, size, seed, clubs.season_of(club, form.get("season")))
    except TrucoError as e:
        return render_template("clubs/checkin.html", club=club, key=key, error=e.render(translate),
                               ticked=set(ticked), seed=seed, size=size), 422
    return render_template("clubs/draw.html", **draw_context(club, key, teams, form))


def teams_from_form(form) -> list[list[int]]:
    """The teams as the draw page's seats now say (``team<i>_<n>``)."""
    teams = []
    for i in range(1, clubs.MAX_PLAYERS + 1):
        seats = [form.get(f"team{i}_{n}") for n in SEATS]
        if seats[0] is None:
            break
        teams.append([n for v in seats if (n := whole(v)) is not None])
    return teams


@bp.post("/k/<cid>/<key>/night")
@club_organizer_view
def start_night(club: clubs.Club, key: str):
    """Create the night's tournament from the teams on the draw page in one step and go to
    its organizer page. :raise 422: a player twice, or what creating a tournament refuses."""
    form = request.form
    teams = teams_from_form(form)
    settings = forms.settings_from_form(form)
    data = {"name": form.get("name", ""), "variant": settings["variant"], "options": settings["options"],
            "format": form.get("format", "round_robin"), "best_of": settings.get("best_of", 1)}
    try:
        loaded = clubs.create_night(get_db(), club, teams, data, default_name=gettext("Club night"),
                                    keys=tournament_keys())
    except TrucoError as e:
        return render_template("clubs/draw.html", **draw_context(club, key, teams, form, e.render(translate))), 422
    return redirect(url_for("tournaments.organizer", tid=loaded.row.id, key=loaded.organizer_key), 303)


# ---------------------------------------------------------------- season table, player page


@bp.get("/club/<cid>")
def season(cid: str):
    """The season table (``?season=N``; all games without one): ratings, games, wins, the
    call statistics per player, and the best and worst partnerships. :raise 404: unknown club."""
    club = get_club_or_404(cid)
    chosen = clubs.season_of(club, request.args.get("season"))
    played = clubs.play(get_db(), club, chosen)
    return render_template("clubs/season.html", club=club, season=chosen, lines=table_lines(club, played),
                           best=pair_lines(club, played.best), worst=pair_lines(club, played.worst),
                           games=played.games, stat_titles=STAT_TITLES, sure=number(99.7) + "%")


@bp.get("/club/<cid>/player/<int:player>")
def player(cid: str, player: int):
    """A player's page: the rating over the nights (a chart) and the statistics night by
    night. :raise 404: unknown club or player."""
    club = get_club_or_404(cid)
    if player not in club.players:
        abort(404, gettext("There is no such player in this club."))
    chosen = clubs.season_of(club, request.args.get("season"))
    played = clubs.play(get_db(), club, chosen)
    line = next(x for x in table_lines(club, played) if x.player == player)
    return render_template("clubs/player.html", club=club, season=chosen, p=club.players[player], line=line,
                           nights=night_rows(played.nights.get(player, [])), stat_titles=STAT_TITLES)


@bp.get("/club/<cid>/player/<int:player>/rating.svg")
def rating_chart(cid: str, player: int):
    """The player's rating over the nights as an SVG picture. :raise 404: unknown club or player."""
    club = get_club_or_404(cid)
    if player not in club.players:
        abort(404, gettext("There is no such player in this club."))
    played = clubs.play(get_db(), club, clubs.season_of(club, request.args.get("season")))
    nights = [(n.night, n.rating.ordinal, n.rating.mu) for n in played.nights.get(player, [])]
    return svg_response(charts.rating_svg(nights, club.players[player].name))


def svg_response(document: str):
    """An SVG picture response (its own inline style only: :data:`charts.SVG_CSP`)."""
    response = make_response(document)
    response.headers["Content-Type"] = "image/svg+xml; charset=utf-8"
    response.headers["Content-Security-Policy"] = charts.SVG_CSP
    return response
