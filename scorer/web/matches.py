"""Pages of a match: new match, scoreboard, actions, share, watch, live polling, and the
match's export its own phones keep (keyed by the edit key).

Every control is a real form that posts and redirects; htmx makes the same forms
swap the ``#scoreboard`` fragment in place. Views read the request, call the engine
(through :mod:`scorer.app.match_service`) and the store, and render.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, abort, current_app, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext

from scorer.app import store
from scorer.core.errors import RuleError
from scorer.web import board, cookies, forms, qr, taps
from scorer.web.hosting import board_cache
from scorer.web.board import render_board
from scorer.web.common import (
    is_htmx, keyed_match_view, key_fits, match_view, service, share_base, shortened_note,
)
from scorer.app.match_service import APPLIED, DUPLICATE, REPEATED, STALE
from scorer.web.db import get_db
from scorer.web.i18n import default_names, translate

bp = Blueprint("matches", __name__)

#: A keyed export's ``since``: ASCII digits only (``str.isdigit`` would take "²").
SINCE = re.compile(r"[0-9]+", re.ASCII)


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
@keyed_match_view
def scoreboard(row: store.MatchRow, key: str):
    """The scoreboard page of a match, with its controls.

    :raise 404: unknown match. :raise 403: wrong edit key.
    """
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
@keyed_match_view
def poll(row: store.MatchRow, key: str):
    """Live update: 204 when the shown ``version`` is current, else the fragment."""
    if forms.unchanged(row, board.board_tag(row)):
        return "", 204
    return follow_revanche(row, board_cache.poll_board(row, key, render_board), key)


def follow_revanche(row: store.MatchRow, response, key: str | None):
    """A poll from a phone (or TV) that did not yet know the Revanche of this finished
    match: ``response`` (the board, with its link to the Revanche) also tells htmx to go
    there (``HX-Redirect``), where the page says so (``?revanche=1``)."""
    target = board.rematch_url(row, key) if row.rematch and request.args.get("rematch", "0") == "0" else None
    if target and is_htmx():
        response.headers["HX-Redirect"] = target + "?revanche=1"
    return response


@bp.post("/m/<match_id>/<key>/actions")
@keyed_match_view
def act(row: store.MatchRow, key: str):
    """Record one action made on the version the phone showed, then answer it
    (:func:`answer_tap`).

    A tap with its own key (``tap_key`` or the ``Idempotency-Key`` header, issue 24) is
    recorded once: sent again (its answer was lost), it answers as the first time, with the
    scoreboard as it is now, and records nothing more. A tap right after the board changed
    (a double tap's ghost) is not recorded (:func:`screen_tap`). Undo without ``confirmed``
    shows a confirmation page first.

    :raise 404: unknown match. :raise 403: wrong edit key. :raise 422: bad form or tap key.
    """
    action, version = forms.action_from_form(request.form)
    tap_key = taps.tap_key(request.form.get("tap_key"))
    screened = screen_tap(row)
    if screened is None and action.get("type") == "undo" and not request.form.get("confirmed"):
        return undo_page(row, key, version)
    return answer_tap(screened or record_tap(row, action, version, tap_key), key)


@dataclass(frozen=True)
class Tap:
    """What a tap came to: the match as it is now (``row``) and, for a tap not recorded, the
    short ``message`` saying why and its HTTP ``status`` (409 or 422)."""

    row: store.MatchRow
    message: str | None = None
    status: int = 200


def screen_tap(row: store.MatchRow) -> Tap | None:
    """A tap refused before it is tried (409): a ghost (:func:`forms.ghost_tap`); None for a
    tap to record."""
    if forms.ghost_tap(request.form, time.time(), current_app.config["GHOST_TAP_SECONDS"]):
        return Tap(row, gettext("That tap came right after the scoreboard changed, so it was not recorded. Tap again if you meant it."), 409)
    return None


def record_tap(row: store.MatchRow, action: dict[str, Any], version: int, tap_key: str | None) -> Tap:
    """Record ``action`` made on ``version`` (:meth:`MatchService.act
    <scorer.app.match_service.MatchService.act>`), once per ``tap_key``: a stale version is 409,
    an illegal action 422; a repeat of the same tap (its key, or a double tap) counts once."""
    try:
        # The view renders the board itself (once, log cut to LOG_LIMIT): no state here.
        result = service().act(get_db(), row, action, version, with_state=False, tap_key=tap_key)
    except RuleError as e:
        now = service().get(get_db(), row.id) or row  # as it is now (a Revanche may have just started)
        return Tap(now, e.render(translate, now.names), 422)
    if result.outcome == STALE:
        message = gettext("Another phone recorded something first. This is the scoreboard now: check and tap again.")
        return Tap(result.row, message, 409)
    assert result.outcome in (APPLIED, DUPLICATE, REPEATED)
    return Tap(result.row)


def answer_tap(tap: Tap, key: str):
    """The answer to a tap: the scoreboard with its message for one not recorded; else the new
    scoreboard (htmx) or a redirect to it."""
    if tap.message is not None:
        return render_board(tap.row, key=key, message=tap.message, status=tap.status)
    if is_htmx():  # the table's other phones poll for this same board next: kept for them
        return board_cache.keep_tap_board(tap.row, key, render_board(tap.row, key=key))
    return redirect(url_for("matches.scoreboard", match_id=tap.row.id, key=key), 303)


@bp.post("/m/<match_id>/<key>/taps")
@keyed_match_view
def upload_taps(row: store.MatchRow, key: str):
    """Record the taps a phone kept while the scorekeeper did not answer, in order, each once
    (JSON body and answers: :func:`scorer.web.taps.upload_answer`; 409 when another phone
    acted meanwhile: nothing recorded).

    :raise 404: unknown match. :raise 403: wrong edit key. :raise 422: bad body. (As JSON.)
    """
    return taps.upload_answer(row)


@bp.get("/m/<match_id>/<key>/export.json")
@keyed_match_view
def keyed_export(row: store.MatchRow, key: str):
    """The match's export for its own phones (issue 30), which keep it to play on offline: the
    object of ``GET /api/matches/<id>/export`` plus ``since`` and ``version``; with
    ``?since=N`` (the actions the phone holds) only the actions from index ``N`` on
    (:meth:`MatchService.export_since <scorer.app.match_service.MatchService.export_since>`:
    all of them, and ``since`` 0, when ``N`` is past the match's version). Never cached. Its
    rate limit is the key's own (``match_copy``), not the one the public export's readers share.

    :raise 404: unknown match. :raise 403: wrong edit key. :raise 422: ``since`` is not a
        whole number from 0. (As JSON.)
    """
    response = jsonify(service().export_since(get_db(), row, since_arg(request.args.get("since"))))
    response.headers["Cache-Control"] = "no-store"
    return response


def since_arg(raw: str | None) -> int:
    """The ``since`` of a keyed export's query: 0 when absent; a number of more than 12 digits
    is past any match (its whole export).

    :raise 422: not a whole number from 0 written in ASCII digits.
    """
    if raw is None:
        return 0
    if not SINCE.fullmatch(raw):
        abort(422, gettext("since must be a whole number from 0: how many of the match's actions this phone has."))
    return int(raw) if len(raw) <= 12 else -1


@bp.get("/m/<match_id>/<key>/undo")
@keyed_match_view
def confirm_undo(row: store.MatchRow, key: str):
    """The Undo confirmation page (for phones without JavaScript)."""
    return undo_page(row, key, row.version)


def undo_page(row: store.MatchRow, key: str, version: int):
    """The Undo confirmation page, naming the action it would drop; once the Revanche has
    started, or a tournament has taken the result, the scoreboard (422) saying why this
    match can no longer be undone."""
    try:
        service().check_undo(get_db(), row)
    except RuleError as e:
        return render_board(row, key=key, message=e.render(translate, row.names), status=422)
    undo_what = board.board_page(row, key=key).board.undo_what
    return render_template("matches/undo.html", row=row, key=key, version=version, undo_what=undo_what)


@bp.post("/m/<match_id>/<key>/revanche")
@keyed_match_view
def revanche(row: store.MatchRow, key: str):
    """Start the Revanche (same settings, series kept) once, and go to it; once the
    series is decided, the Revanche starts a new series of the same length.

    :raise 404: unknown match. :raise 403: wrong edit key. :raise 409: the game is not
    over (maybe another phone has just undone its last action): the scoreboard, saying so.
    """
    try:
        new_row = service().rematch(get_db(), row)
    except RuleError as e:
        now = service().get(get_db(), row.id) or row  # as it is now
        return render_board(now, key=key, message=e.render(translate, now.names), status=409)
    if not key_fits(new_row, key):  # a Revanche made before keys were hashed: its own key
        return redirect(url_for("matches.watch", match_id=new_row.id), 303)
    response = redirect(url_for("matches.scoreboard", match_id=new_row.id, key=key), 303)
    cookies.remember(response, None, new_row, key)
    return response


@bp.get("/m/<match_id>/<key>/share")
@keyed_match_view
def share(row: store.MatchRow, key: str):
    """The share page: the edit link as a QR code, and the watch-only link."""
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
@match_view
def watch(row: store.MatchRow):
    """The watch-only scoreboard (spectators, a TV): no controls.

    :raise 404: unknown match.
    """
    return render_board(row, key=None, message=revanche_notice())


@bp.get("/w/<match_id>/board")
@match_view
def watch_poll(row: store.MatchRow):
    """Live update of the watch page: 204 when unchanged, else the fragment."""
    if forms.unchanged(row, board.board_tag(row)):
        return "", 204
    return follow_revanche(row, render_board(row, key=None), None)


@bp.app_context_processor
def inject_defaults() -> dict[str, Callable[[], tuple[str, str]]]:
    """Template globals: the default side names in the user's language."""
    return {"default_names": default_names}
