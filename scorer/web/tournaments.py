"""Tournament pages: create, organizer page, corrections, printable table cards, TV page,
team confirmation links.

``/tournaments/new`` (form), ``POST /tournaments``; the organizer's pages live under
``/t/<id>/<organizer_key>`` (key in the path, like a match's edit link); the TV page
``/tv/<id>`` needs no key and polls ``/tv/<id>/live`` every 2 s (204 while unchanged).
Views are thin: :mod:`scorer.app.tournament_service` does the work;
:func:`scorer.web.tournament_view.describe_tournament` is the one view model both the pages and
the JSON API use.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, TypedDict

from flask import Blueprint, abort, make_response, redirect, render_template, request, url_for
from flask_babel import gettext

from scorer.app import tournament_corrections as corrections, tournament_service as service
from scorer.app.tournament_context import organizer_poll
from scorer.core import tournament as core
from scorer.core.errors import N_, TrucoError
from scorer.core.variants import default_variant
from scorer.web import forms, qr
from scorer.web import tournament_words as words_
from scorer.web.common import public_base
from scorer.web.tournament_view import (
    AuditEntry, TournamentMatch, TournamentRow, TournamentState, check_organizer_key,
    describe_tournament, fold_rounds, get_tournament_or_404, organizer_view, stage_title, tournament_keys,
)
from scorer.web.db import get_db
from scorer.web.hosting.read_cache import cached_read, tournament_version
from scorer.web.i18n import translate

bp = Blueprint("tournaments", __name__)

#: TV page poll interval (seconds); the issue asks for updates within 2 s.
TV_POLL_SECONDS = 2
#: The audit lines the organizer's page shows, newest first (a played 64-team round robin has
#: over 2,000; the export holds every one).
AUDIT_SHOWN = 100


#: Words for the audit's kinds of change.
AUDIT_KINDS = {
    "create": N_("created"), "draw": N_("seeding drawn at random"), "result": N_("result"),
    "walkover": N_("walkover"), "abandonment": N_("abandonment"), "reopen": N_("reopened"),
    "rename": N_("renamed"), "lots": N_("draw of lots"), "confirm": N_("confirmed"),
    "take": N_("result taken from the scoreboard"),
    "restore": N_("kept as it was (the reopened match kept its winner)"),
}


def audit_who(who: str) -> str:
    """Who made a change, in words: the organizer, table n, a team, the draw, or the tournament itself."""
    if who == "organizer":
        return gettext("Organizer")
    if who == "draw":
        return gettext("draw of lots")
    if who == service.TOURNAMENT:
        return gettext("Tournament")
    kind, _, rest = who.partition(" ")
    if kind == "table" and rest.isdigit():
        return gettext("Table %(n)s", n=rest)
    if kind == "team":
        return gettext("Team") + " " + rest
    return who


class AuditLine(TypedDict):
    """One line of the audit log in words: when (``at``, seconds since the epoch), ``who``, ``what``, the ``match`` it
    concerns ("" for the whole tournament), and what it was ``before`` and ``after``."""

    at: float
    who: str
    what: str
    match: str
    before: str
    after: str


def audit_lines(loaded: service.Loaded, audit: list[AuditEntry]) -> list[AuditLine]:
    """The audit log in words (newest first)."""
    teams = loaded.row.teams

    def name(i: Any) -> str:
        return teams[i] if isinstance(i, int) and 0 <= i < len(teams) else "…"

    def match_of(slot: str | None) -> str:
        sv = loaded.view.slots.get(slot or "")
        if sv is None:
            return slot or ""
        return f"{name(sv.teams[0])} v {name(sv.teams[1])} ({stage_title(sv.slot.stage)}, {sv.slot.round})"

    def result(slot: str | None, res: Any) -> str:
        if not isinstance(res, dict) or "winner" not in res:
            return ""
        sv = loaded.view.slots.get(slot or "")
        sides = sv.teams if sv else (None, None)
        won, lost = name(sides[res["winner"]]), name(sides[1 - res["winner"]])
        if res["kind"] == "walkover":
            return gettext("W.O.: %(team)s absent", team=lost)
        if res["kind"] == "abandonment":
            return gettext("%(team)s left the match", team=lost)
        a, b = res.get("tentos", (0, 0))
        text = gettext("won by %(team)s", team=won) + f" ({a}–{b})"
        if res.get("confirmed"):
            text += " ✓" + ",".join(name(sides[s]) for s in res["confirmed"] if s in (0, 1))
        return text

    out: list[AuditLine] = []
    for a in reversed(audit):
        before, after, kind = a["before"], a["after"], a["kind"]
        if kind == "create":
            words = (gettext("Tournament: %(count)s teams, %(format)s", count=len(after["teams"]),
                             format=words_.format_name(after["settings"]["format"])), "")
        elif kind == "draw":
            words = (", ".join(name(i) for i in after["seeds"]), "")
        elif kind == "rename":
            words = (before["name"], after["name"])
        elif kind == "lots":
            words = (", ".join(name(i) for i in before["tied"]),
                     ", ".join(f"{name(int(k))}: {v}" for k, v in after.items()))
        elif kind == "reopen":
            words = (result(a["slot"], (before or {}).get("result")),
                     ", ".join(match_of(s) for s in after.get("undone", [])))
        else:
            words = (result(a["slot"], before), result(a["slot"], after))
        out.append({"at": a["at"], "who": audit_who(a["who"]), "what": gettext(AUDIT_KINDS.get(kind, kind)), "match": match_of(a["slot"]) if a["slot"] else "",
                    "before": words[0], "after": words[1]})
    return out


class TournamentPage(TypedDict):
    """The organizer and TV pages' template context (:func:`page_context`): the tournament
    ``t`` (:func:`~scorer.web.tournament_view.describe_tournament`), its ``live`` matches and
    how many (``live_size``), the bracket's ``board_size``, its ``row``, ``team`` (an index's
    name), the tiebreaks' names and notes, and the TV poll's ``stamp`` and period."""

    t: TournamentState
    live: list[TournamentMatch]
    live_size: str
    board_size: str
    row: TournamentRow
    team: Callable[[int | None], str]
    tiebreak_names: list[str]
    tie_notes: Callable[[Any], list[str]]
    level_on: str
    stamp: str
    poll_seconds: int


def page_context(loaded: service.Loaded, *, organizer: str | None) -> TournamentPage:
    """Template context shared by the organizer and TV pages (``organizer``: the checked
    organizer key, or None)."""
    data = describe_tournament(loaded, organizer=organizer)
    stages = [{"rounds": data["rounds"]}] + data["stages"]
    live = [m for stage in stages for rnd in stage["rounds"] for m in rnd["matches"] if m["live"]]
    return {
        "t": data,
        "live": live,
        "live_size": {1: "one", 2: "two", 3: "few", 4: "few"}.get(len(live), "some" if len(live) <= 8 else "many"),
        "board_size": next(size for size, most in (("s", 8), ("m", 16), ("l", 32), ("xl", None))
                           if most is None or len(data["teams"]) <= most),
        "row": loaded.row,
        "team": lambda i: data["teams"][i] if i is not None else "?",
        "tiebreak_names": [gettext(words_.TIEBREAK_NAMES[c]) for c in data["tiebreaks"]],
        "tie_notes": lambda rows: words_.tie_notes(rows, lambda i: data["teams"][i], data["tiebreaks"]),
        "level_on": words_.first_criterion(data["tiebreaks"]),
        "stamp": loaded_stamp(loaded),
        "poll_seconds": TV_POLL_SECONDS,
    }


def loaded_stamp(loaded: service.Loaded) -> str:
    """The TV poll's stamp of the tournament as it is now."""
    return service.stamp(get_db(), loaded.row.id) or ""


# ---------------------------------------------------------------- create


class NewTournamentForm(forms.NewMatchForm, total=False):
    """The create-a-tournament form's template context: the new-match form's, plus the
    ``form`` as typed, the ``formats``, the tiebreak chosen at each position and the
    ``choosable`` ones with their short names."""

    form: Any
    formats: tuple[str, ...]
    tiebreak_choices: list[str]
    choosable: list[tuple[str, str]]


def create_form_context(error: str | None = None, form: Any = None) -> NewTournamentForm:
    form = form or {}
    variant = form.get("variant") or default_variant().id  # unknown: the default
    # The variant's options as typed (a refused form, or the no-JavaScript reload) stay chosen.
    match_form = forms.new_match_context(variant, {"variant": variant, "options": forms.options_from_form(form)})
    return {**match_form, "error": error, "form": form, "formats": core.FORMATS,
            "tiebreak_choices": words_.tiebreak_choices(form),
            "choosable": [(c, gettext(words_.TIEBREAK_SHORT[c])) for c in words_.CHOOSABLE]}


@bp.get("/tournaments/new")
def new():
    """The create-a-tournament form; with a query (the form's no-JavaScript "Show this
    variant's options" button), the form again as typed, with that variant's options."""
    return render_template("tournaments/new.html", **create_form_context(form=request.args))


def parse_teams(text: str) -> tuple[list[str], list[list[str]]]:
    """Teams typed one per line, ``Name: player, player`` for optional players."""
    teams, players = [], []
    for line in text.splitlines():
        if not line.strip():
            continue
        name, _, rest = line.partition(":")
        teams.append(name.strip())
        players.append([p.strip()[:24] for p in rest.split(",") if p.strip()])
    return teams, players


def data_from_form(form) -> dict[str, Any]:
    """The create form as the API's body."""
    teams, players = parse_teams(form.get("teams", ""))
    settings = forms.settings_from_form(form)

    def number(key: str, default: int | None) -> Any:
        text = form.get(key, "").strip()
        if re.fullmatch(r"-?[0-9]{1,6}", text):
            return int(text)
        return default if not text else text  # the core refuses it with a message

    rep = form.get("repescagem", "")
    tiebreaks, _error = words_.tiebreaks_from_form(form)
    return {
        "name": form.get("name", ""),
        "variant": settings["variant"],
        "options": settings["options"],
        "teams": [{"name": n, "players": p} for n, p in zip(teams, players)],
        "format": form.get("format", "knockout"),
        "best_of": number("best_of", 1),
        "final_best_of": number("final_best_of", None),
        "legs": number("legs", 1),
        "groups": number("groups", 2),
        "advance": number("advance", 2),
        "best_extra": number("best_extra", 0),
        "repescagem": None if not rep else ("apart" if rep == "apart" else number("repescagem", None)),
        "confirm": form.get("confirm") == "on",
        "draw": form.get("draw") == "on",
        "points": {k: number(f"points_{k}", v) for k, v in vars(core.Points()).items()},
        "tiebreaks": tiebreaks,
    }


@bp.post("/tournaments")
def create():
    """Create a tournament from the form and go to its organizer page.

    :raise 422: bad input (the form again, saying what was wrong; nothing created).
    """
    _tiebreaks, repeated = words_.tiebreaks_from_form(request.form)
    if repeated:  # the criteria are chosen in order; each once
        return render_template("tournaments/new.html", **create_form_context(repeated, request.form)), 422
    try:
        loaded = service.create_from(get_db(), data_from_form(request.form), default_name=gettext("Tournament"),
                                     keys=tournament_keys())
    except TrucoError as e:
        ctx = create_form_context(e.render(translate), request.form)
        return render_template("tournaments/new.html", **ctx), 422
    return redirect(url_for("tournaments.organizer", tid=loaded.row.id, key=loaded.organizer_key), 303)


# ---------------------------------------------------------------- organizer


@bp.get("/t/<tid>/<key>")
@cached_read(tournament_version, vary=lambda **_: (request.args.get("msg"), request.args.get("round")), public=False)
@organizer_view
def organizer(loaded: service.Loaded, key: str):
    """The organizer page: bracket or table, every table's links, corrections, audit. A big
    stage shows one round (``?round=stage:number``, else the round being played), the others
    as links (:func:`~scorer.web.tournament_view.fold_rounds`); the audit its newest
    :data:`AUDIT_SHOWN` lines (all of it is in the export).

    :raise 404: unknown tournament. :raise 403: wrong organizer key.
    """
    tid = loaded.row.id
    ctx = page_context(loaded, organizer=key)
    ctx["t"] = fold_rounds(ctx["t"], request.args.get("round"))
    audit = service.audit(get_db(), tid)
    team_links = [public_base() + url_for("tournaments.team_page", tid=tid, team=i, key=tournament_keys().team(tid, i))
                  for i in range(len(loaded.row.teams))]
    return render_template("tournaments/organizer.html", **ctx, key=key, team_links=team_links,
                           audit=audit_lines(loaded, audit[-AUDIT_SHOWN:]),
                           audit_older=max(0, len(audit) - AUDIT_SHOWN), message=request.args.get("msg"),
                           base=public_base())


@bp.get("/t/<tid>/<key>/changed")
def organizer_changed(tid: str, key: str):
    """The organizer page's change notice, polled like the TV page: 204 while the ``stamp``
    the page shows is current, else a notice with a link that reloads the page (the page's
    forms are never replaced while being filled in).

    :raise 404: unknown tournament. :raise 403: wrong organizer key.
    """
    found = organizer_poll(get_db(), tid)
    if found is None:
        abort(404, gettext("There is no tournament with this address."))
    row, now = found
    check_organizer_key(row, key)
    if request.args.get("stamp", "") == now:
        return "", 204
    return render_template("tournaments/_changed.html", tid=tid, key=key)


@bp.get("/t/<tid>/<key>/cards")
@cached_read(tournament_version, public=False)
@organizer_view
def cards(loaded: service.Loaded, key: str):
    """Printable A4 page: one card per table now playing, with its QR code (edit link),
    table number, teams and match."""
    ctx = page_context(loaded, organizer=key)
    tables: list[dict[str, Any]] = []
    stages = [{"rounds": ctx["t"]["rounds"]}] + ctx["t"]["stages"]
    for stage in stages:
        for rnd in stage["rounds"]:
            for m in rnd["matches"]:
                if m["edit_url"] and m["table"] and m["result"] is None:
                    tables.append({**m, "round": rnd["title"],
                                   "qr": qr.svg(m["edit_url"], gettext("QR code to score this match"))})
    tables.sort(key=lambda m: m["table"])
    return render_template("tournaments/cards.html", **ctx, key=key, tables=tables)


@bp.get("/t/<tid>/<key>/reopen/<slot>")
@organizer_view
def confirm_reopen(loaded: service.Loaded, key: str, slot: str):
    """The confirmation page of a reopening (or a changed result), listing the later
    matches it undoes."""
    try:
        undone = corrections.preview_reopen(loaded, slot)
    except TrucoError as e:
        abort(422, e.render(translate))
    kind = request.args.get("kind", "reopen")
    side = request.args.get("side", "")
    ctx = page_context(loaded, organizer=key)
    return render_template("tournaments/reopen.html", **ctx, key=key, slot=slot, undone=undone, kind=kind, side=side,
                           slot_teams=loaded.view.slots[slot].teams,
                           undone_teams=[loaded.view.slots[u].teams for u in undone])


@bp.post("/t/<tid>/<key>/corrections")
@organizer_view
def correct(loaded: service.Loaded, key: str):
    """Apply one correction from the organizer page's forms, then back to the page."""
    tid, form = loaded.row.id, request.form
    data: dict[str, Any] = {"kind": form.get("kind"), "slot": form.get("slot"),
                            "confirmed": form.get("confirmed") == "1", "name": form.get("name")}
    for field in ("absent", "abandoned", "side", "team", "version"):
        if form.get(field, "").isdigit():
            data[field] = int(form[field])
    try:
        corrections.correct(get_db(), tid, data, keys=tournament_keys())
    except TrucoError as e:
        if e.code == "confirm_cascade":
            return redirect(url_for("tournaments.confirm_reopen", tid=tid, key=key, slot=data["slot"],
                                    kind=data["kind"], side=form.get("absent") or form.get("abandoned") or ""), 303)
        return redirect(url_for("tournaments.organizer", tid=tid, key=key, msg=e.render(translate)), 303)
    return redirect(url_for("tournaments.organizer", tid=tid, key=key), 303)


# ---------------------------------------------------------------- TV


@bp.get("/tv/<tid>")
@cached_read(tournament_version)
def tv(tid: str):
    """The TV page (no key): bracket or standings and every live table's score."""
    loaded = get_tournament_or_404(tid)
    return render_template("tournaments/tv.html", **page_context(loaded, organizer=None))


@bp.get("/tv/<tid>/live")
def tv_live(tid: str):
    """The TV page's poll: 204 while the ``stamp`` shown is current, else the fragment."""
    if request.args.get("stamp", "") == tournament_version(tid):  # 404 for an unknown tournament
        return "", 204
    return tv_board(tid=tid)


@cached_read(tournament_version)
def tv_board(tid: str):
    """The TV poll's fragment, kept per version of the tournament (scorer/web/hosting/read_cache.py:
    every TV of the tournament gets the one rendered after a change)."""
    loaded = get_tournament_or_404(tid)
    response = make_response(render_template("tournaments/_tv_board.html", **page_context(loaded, organizer=None)))
    response.headers["Vary"] = "HX-Request, Cookie, Accept-Language"
    return response


# ---------------------------------------------------------------- teams


def check_team(row: TournamentRow, team: int, key: str) -> None:
    """:raise 403: wrong team key. :raise 404: no such team."""
    if not 0 <= team < len(row.teams):
        abort(404, gettext("There is no such team."))
    if not tournament_keys().team_fits(row.id, row.team_hashes, team, key):
        abort(403, gettext("This link is not this team's."))


def team_context(loaded: service.Loaded, team: int, key: str) -> dict[str, Any]:
    """The team page's template context: the TV's (:func:`page_context`), the team ``me``, its
    ``key`` and its matches (``mine``: ``(slot id, SlotView)`` in layout order)."""
    ctx: dict[str, Any] = dict(page_context(loaded, organizer=None))
    ctx.update(me=team, key=key, mine=[(sid, sv) for sid, sv in loaded.view.slots.items() if team in sv.teams])
    return ctx


@bp.get("/t/<tid>/team/<int:team>/<key>")
@cached_read(tournament_version, public=False)
def team_page(tid: str, team: int, key: str):
    """A team's page: its matches with their scores, and a button to confirm each finished result."""
    loaded = get_tournament_or_404(tid)
    check_team(loaded.row, team, key)
    return render_template("tournaments/team.html", **team_context(loaded, team, key))


@bp.get("/t/<tid>/team/<int:team>/<key>/matches")
def team_matches(tid: str, team: int, key: str):
    """The team page's poll (issue 32): 204 while the ``stamp`` shown is current, else its list of
    matches, so a confirmation (the other team's, the organizer's) shows within one poll.

    :raise 404: no such tournament or team. :raise 403: wrong team key."""
    found = organizer_poll(get_db(), tid)
    if found is None:
        abort(404, gettext("There is no tournament with this address."))
    row, now = found
    check_team(row, team, key)
    if request.args.get("stamp", "") == now:
        return "", 204
    loaded = get_tournament_or_404(tid)
    response = make_response(render_template("tournaments/_team_matches.html", **team_context(loaded, team, key)))
    response.headers["Vary"] = "HX-Request, Cookie, Accept-Language"
    return response


@bp.post("/t/<tid>/team/<int:team>/<key>/confirm")
def team_confirm(tid: str, team: int, key: str):
    """The team confirms a finished match's result.

    :raise 409: its confirmation (or the organizer's) was already there, or the result
        changed meanwhile: nothing written. :raise 422: not this team's match, no result.
    """
    loaded = get_tournament_or_404(tid)
    check_team(loaded.row, team, key)
    slot = request.form.get("slot", "")
    sv = loaded.view.slots.get(slot)
    if sv is None or team not in sv.teams:
        abort(422, gettext("This team does not play that match."))
    try:
        corrections.correct(get_db(), tid, {"kind": "confirm", "slot": slot, "side": sv.teams.index(team)},
                        who=f"team {loaded.row.teams[team]}", keys=tournament_keys())
    except TrucoError as e:
        abort(409 if e.code in corrections.CONFLICTS else 422, e.render(translate))
    return redirect(url_for("tournaments.team_page", tid=tid, team=team, key=key), 303)


@bp.app_template_filter("timestamp")
def timestamp(seconds: float) -> str:
    """Seconds since the epoch as a short date and time in the user's language."""
    from datetime import datetime, timezone

    from flask_babel import format_datetime

    return format_datetime(datetime.fromtimestamp(seconds, timezone.utc), "short")
