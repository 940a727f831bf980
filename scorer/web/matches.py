"""Pages of a match: new match, scoreboard, actions, share, watch, live polling.

Every control is a real form that posts and redirects; htmx makes the same forms
swap the ``#scoreboard`` fragment in place. Views read the request, call the engine
(through :mod:`scorer.app.match_service`) and the store, and render.
"""

from __future__ import annotations

import time
from typing import Any

from flask import (
    Blueprint,
    current_app,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext

from scorer.app import store, tournament_context
from scorer.core.errors import RuleError
from scorer.web import board, board_cache, cookies, forms, qr, table_words
from scorer.web.common import (
    check_key, get_match_or_404, is_htmx, key_fits, said, service, share_base, shortened_note,
)
from scorer.app.match_service import APPLIED, DUPLICATE, STALE, DeadlinePassed
from scorer.web.db import get_db
from scorer.web.i18n import default_names, translate

bp = Blueprint("matches", __name__)

#: Log entries shown on a scoreboard (newest first), so a page's cost stays flat.
LOG_LIMIT = 40


def rematch_url(row: store.MatchRow, key: str | None) -> str | None:
    """Where this phone goes for the match's Revanche, once one exists: its scoreboard
    (with its own edit key) for a phone that could record here, else its watch page."""
    if not row.rematch:
        return None
    if key is None:
        return url_for("matches.watch", match_id=row.rematch)
    new = service().get(get_db(), row.rematch)
    if new is None:
        return None
    # A Revanche keeps its match's key; one made before keys were hashed has its own,
    # which this phone may not have: it then goes to the watch page.
    if key_fits(new, key):
        return url_for("matches.scoreboard", match_id=new.id, key=key)
    return url_for("matches.watch", match_id=new.id)


def board_context(row: store.MatchRow, *, key: str | None, message: str | None = None) -> dict[str, Any]:
    """Template context of the scoreboard fragment (``key`` None = watch only)."""
    db = get_db()
    state = said(service().state(db, row, log_limit=LOG_LIMIT))
    ctx = board.view(state, service().last_action(db, row))
    ctx.update(
        row=row,
        key=key,
        message=message,
        series=board.series_view(service().series(db, row), state["names"]),
        seats=board.seats_view(row.players, row.mano, state),
        rematch_url=rematch_url(row, key),
        oob=is_htmx(),
        seen=board_tag(row),
        shown=f"{time.time():.3f}",
        # The double-tap guard's window after a redraw (ms; 0 = off, as ``--ghost-tap-ms 0``).
        guard_ms=round(current_app.config["GHOST_TAP_SECONDS"] * 1000),
    )
    # A tournament's match says which one it is (the page's header line) and, once over or
    # taken (a walkover while the game went on), what comes next; read for a whole page, a
    # finished game or a taken slot only (one short query), never on a poll's 204.
    full = ctx["winner"] is not None or not is_htmx() or tournament_context.result_taken(db, row)
    ctx["tournament"] = table_words.board_tournament(row) if full else None
    ctx["say"] = board.spoken(state, ctx["pending_call"], ctx["special"], ctx["series"], ctx["seats"])
    return ctx


def board_tag(row: store.MatchRow) -> str:
    """The board's ``seen`` tag (:func:`scorer.web.forms.shown_tag`), with its
    tournament's version once the game is over."""
    return forms.shown_tag(row, tournament_context.board_stamp(get_db(), row))


def render_board(row: store.MatchRow, *, key: str | None, message: str | None = None, status: int = 200):
    """The scoreboard fragment for htmx, or the whole page otherwise."""
    ctx = board_context(row, key=key, message=message)
    template = "partials/_scoreboard.html" if is_htmx() else (
        "matches/scoreboard.html" if key else "matches/watch.html"
    )
    response = make_response(render_template(template, **ctx), status)
    response.headers["Vary"] = "HX-Request, Cookie, Accept-Language"
    return response


@bp.get("/")
def new():
    """The new-match form (variant from the query, else the last one used here)."""
    settings = cookies.last_settings()
    variant = request.args.get("variant") or settings.get("variant") or ""
    ctx = forms.new_match_context(variant, settings)
    ctx["recent"] = service().recent(get_db(), [i for i, _k in cookies.recent_matches()])
    ctx["recent_keys"] = dict(cookies.recent_matches())
    return render_template("matches/new.html", **ctx)


@bp.get("/options")
def options():
    """The options fragment of one variant (htmx swaps it in when the variant changes)."""
    ctx = forms.new_match_context(request.args.get("variant", ""), cookies.last_settings())
    return render_template("partials/_options.html", **ctx)


@bp.post("/matches")
def create():
    """Create a match from the form and go to its scoreboard.

    :raise 422: unknown variant, bad option, names or mano (the form is shown again).
    """
    settings = forms.settings_from_form(request.form)
    shortened = settings.pop("shortened")
    try:
        row = service().create(get_db(), **settings)
    except RuleError as e:
        ctx = forms.new_match_context(settings["variant"], settings)
        ctx.update(error=e.render(translate), recent=[], recent_keys={})
        return render_template("matches/new.html", **ctx), 422
    note = {"note": "shortened"} if shortened else {}
    response = redirect(url_for("matches.scoreboard", match_id=row.id, key=row.edit_key, **note), 303)
    cookies.remember(response, settings, row, row.edit_key)
    return response


@bp.get("/m/<match_id>/<key>")
def scoreboard(match_id: str, key: str):
    """The scoreboard page of a match, with its controls.

    :raise 404: unknown match. :raise 403: wrong edit key.
    """
    row = get_match_or_404(match_id)
    check_key(row, key)
    response = render_board(row, key=key, message=shortened_notice() or revanche_notice())
    cookies.remember(response, None, row, key)
    return response


def shortened_notice() -> str | None:
    """The notice of a new match's first page when a name was cut (``?note=shortened``,
    set by :func:`create`)."""
    return shortened_note() if request.args.get("note") == "shortened" else None


def revanche_notice() -> str | None:
    """The short notice of a page that a poll moved to the Revanche (``?revanche=1``)."""
    if request.args.get("revanche") != "1":
        return None
    return gettext("The Revanche has started: this is its scoreboard.")


@bp.get("/m/<match_id>/<key>/board")
def poll(match_id: str, key: str):
    """Live update: 204 when the shown ``version`` is current, else the fragment."""
    row = get_match_or_404(match_id)
    check_key(row, key)
    if forms.unchanged(row, board_tag(row)):
        return "", 204
    return follow_revanche(row, board_cache.poll_board(row, key, render_board), key)


def follow_revanche(row: store.MatchRow, response, key: str | None):
    """A poll from a phone (or TV) that did not yet know the Revanche of this finished
    match: ``response`` (the board, with its link to the Revanche) also tells htmx to go
    there (``HX-Redirect``), where the page says so (``?revanche=1``)."""
    target = rematch_url(row, key) if row.rematch and request.args.get("rematch", "0") == "0" else None
    if target and is_htmx():
        response.headers["HX-Redirect"] = target + "?revanche=1"
    return response


@bp.post("/m/<match_id>/<key>/actions")
def act(match_id: str, key: str):
    """Record one action made on the version the phone showed.

    Answers the new scoreboard (htmx) or redirects to it; a stale version answers 409
    and an illegal action 422, both with the current scoreboard and a short message; so
    does a tap that arrives after its page stopped waiting for it (409, :func:`forms.late_tap`).
    Undo without ``confirmed`` shows a confirmation page first.

    :raise 404: unknown match. :raise 403: wrong edit key. :raise 422: bad form.
    """
    row = get_match_or_404(match_id)
    check_key(row, key)
    action, version = forms.action_from_form(request.form)
    late = forms.late_tap(request.form, time.time())
    if late is not None:
        return late_tap_answer(row, key, late)
    if forms.ghost_tap(request.form, time.time(), current_app.config["GHOST_TAP_SECONDS"]):
        message = gettext("That tap came right after the scoreboard changed, so it was not recorded. Tap again if you meant it.")
        return render_board(row, key=key, message=message, status=409)
    if action.get("type") == "undo" and not request.form.get("confirmed"):
        return undo_page(row, key, version)
    try:
        # The view renders the board itself (once, log cut to LOG_LIMIT): no state here.
        result = service().act(get_db(), row, action, version, with_state=False,
                               deadline=forms.tap_deadline(request.form))  # a write kept waiting too long
    except DeadlinePassed as e:
        return late_tap_answer(service().get(get_db(), row.id), key, forms.LATE_TAP_SECONDS + e.late)
    except RuleError as e:
        row = service().get(get_db(), row.id)  # as it is now (a Revanche may have just started)
        return render_board(row, key=key, message=e.render(translate, row.names), status=422)
    outcome, row = result.outcome, result.row
    if outcome == STALE:
        message = gettext("Another phone recorded something first. This is the scoreboard now: check and tap again.")
        return render_board(row, key=key, message=message, status=409)
    assert outcome in (APPLIED, DUPLICATE)
    if is_htmx():
        return render_board(row, key=key)
    return redirect(url_for("matches.scoreboard", match_id=row.id, key=key), 303)


def late_tap_answer(row: store.MatchRow, key: str, seconds: float):
    """409 with the scoreboard as it is: a tap that reached the scorekeeper (or its database)
    ``seconds`` after it was made, when its page may already have said "not recorded"."""
    message = gettext("That tap reached the scorekeeper %(seconds)d seconds after it was made, so it was not recorded. Check the score and tap again if it still holds.", seconds=round(seconds))
    return render_board(row, key=key, message=message, status=409)


@bp.get("/m/<match_id>/<key>/undo")
def confirm_undo(match_id: str, key: str):
    """The Undo confirmation page (for phones without JavaScript)."""
    row = get_match_or_404(match_id)
    check_key(row, key)
    return undo_page(row, key, row.version)


def undo_page(row: store.MatchRow, key: str, version: int):
    """The Undo confirmation page, naming the action it would drop; once the Revanche has
    started, or a tournament has taken the result, the scoreboard (422) saying why this
    match can no longer be undone."""
    try:
        service().check_undo(get_db(), row)
    except RuleError as e:
        return render_board(row, key=key, message=e.render(translate, row.names), status=422)
    undo_what = board_context(row, key=key)["undo_what"]
    return render_template("matches/undo.html", row=row, key=key, version=version, undo_what=undo_what)


@bp.post("/m/<match_id>/<key>/revanche")
def revanche(match_id: str, key: str):
    """Start the Revanche (same settings, series kept) once, and go to it; once the
    series is decided, the Revanche starts a new series of the same length.

    :raise 404: unknown match. :raise 403: wrong edit key. :raise 409: the game is not
    over (maybe another phone has just undone its last action): the scoreboard, saying so.
    """
    row = get_match_or_404(match_id)
    check_key(row, key)
    try:
        new_row = service().rematch(get_db(), row)
    except RuleError as e:
        row = service().get(get_db(), row.id)
        return render_board(row, key=key, message=e.render(translate, row.names), status=409)
    if not key_fits(new_row, key):  # a Revanche made before keys were hashed: its own key
        return redirect(url_for("matches.watch", match_id=new_row.id), 303)
    response = redirect(url_for("matches.scoreboard", match_id=new_row.id, key=key), 303)
    cookies.remember(response, None, new_row, key)
    return response


@bp.get("/m/<match_id>/<key>/share")
def share(match_id: str, key: str):
    """The share page: the edit link as a QR code, and the watch-only link."""
    row = get_match_or_404(match_id)
    check_key(row, key)
    base, why = share_base()
    edit_url = base + url_for("matches.scoreboard", match_id=row.id, key=key)
    watch_url = base + url_for("matches.watch", match_id=row.id)
    return render_template(
        "matches/share.html",
        row=row,
        key=key,
        edit_url=edit_url,
        watch_url=watch_url,
        base=base,
        why=why,
        edit_qr=qr.svg(edit_url, gettext("QR code of the link to join and score")),
        watch_qr=qr.svg(watch_url, gettext("QR code of the watch-only link")),
    )


@bp.get("/w/<match_id>")
def watch(match_id: str):
    """The watch-only scoreboard (spectators, a TV): no controls.

    :raise 404: unknown match.
    """
    return render_board(get_match_or_404(match_id), key=None, message=revanche_notice())


@bp.get("/w/<match_id>/board")
def watch_poll(match_id: str):
    """Live update of the watch page: 204 when unchanged, else the fragment."""
    row = get_match_or_404(match_id)
    if forms.unchanged(row, board_tag(row)):
        return "", 204
    return follow_revanche(row, render_board(row, key=None), None)


@bp.app_context_processor
def inject_defaults() -> dict[str, Any]:
    """Template globals: the default side names in the user's language."""
    return {"default_names": default_names}
