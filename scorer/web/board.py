"""The scoreboard as the web serves it: a match's :class:`~scorer.present.board_view.BoardPage`
built with Flask's addresses and Flask-Babel's catalog, rendered as the whole page or as the
fragment htmx swaps in.

The board itself (buttons, their words, points and places, the tally, the sentences) is the
pure :func:`scorer.present.board_view.board_view`; this module adds what only the web knows:
the request's language, the links, the clock, the double-tap window, the tournament line.
"""

from __future__ import annotations

import time

from flask import current_app, make_response, render_template, url_for
from flask_babel import get_translations

from scorer.app import store, tournament_context
from scorer.present.board_view import BoardLinks, BoardPage, board_view
from scorer.web import forms, table_words
from scorer.web.common import is_htmx, key_fits, said, service
from scorer.web.db import get_db
from scorer.web.i18n import locale_code

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


def board_tag(row: store.MatchRow) -> str:
    """The board's ``seen`` tag (:func:`scorer.web.forms.shown_tag`), with its
    tournament's version once the game is over."""
    return forms.shown_tag(row, tournament_context.board_stamp(get_db(), row))


def board_links(row: store.MatchRow, key: str | None, version: int) -> BoardLinks:
    """The board's addresses (``key`` None: a watch-only board, no controls)."""
    rematch, seen, watch_only = 1 if row.rematch else 0, board_tag(row), key is None
    poll = (url_for("matches.watch_poll", match_id=row.id, version=version, rematch=rematch, seen=seen) if watch_only
            else url_for("matches.poll", match_id=row.id, key=key, version=version, rematch=rematch, seen=seen))
    return BoardLinks(
        poll=poll,
        act=None if watch_only else url_for("matches.act", match_id=row.id, key=key),
        revanche=None if watch_only else url_for("matches.revanche", match_id=row.id, key=key),
        rematch=rematch_url(row, key),
        share=None if watch_only else url_for("matches.share", match_id=row.id, key=key),
        story_chart=url_for("stats.story_chart", match_id=row.id, v=version),
        stats=url_for("stats.stats_page", match_id=row.id),
    )


def board_page(row: store.MatchRow, *, key: str | None, message: str | None = None) -> BoardPage:
    """Everything the scoreboard fragment shows (``key`` None = watch only), in the request's
    language. A tournament's match says which one it is (the page's header line) and, once over
    or taken (a walkover while the game went on), what comes next; that is read for a whole
    page, a finished game or a taken slot only (one short query), never on a poll's 204."""
    db = get_db()
    state = said(service().state(db, row, log_limit=LOG_LIMIT))
    board = board_view(state, get_translations(), gloss=locale_code() == "en", last_action=service().last_action(db, row),
                       series=service().series(db, row), players=row.players, first_mano=row.mano)
    full = board.winner is not None or not is_htmx() or row.dropped or tournament_context.result_taken(db, row)
    return BoardPage(
        board=board,
        links=board_links(row, key, board.version),
        can_edit=key is not None,
        message=message,
        tournament=table_words.board_tournament(row, key) if full else None,
        guard_ms=round(current_app.config["GHOST_TAP_SECONDS"] * 1000),  # as ``--ghost-tap-ms``; 0 = off
        shown=f"{time.time():.3f}",
        oob=is_htmx(),
    )


def render_board(row: store.MatchRow, *, key: str | None, message: str | None = None, status: int = 200):
    """The scoreboard fragment for htmx, or the whole page otherwise (the scoreboard with its
    controls, or the watch page for ``key`` None)."""
    page = board_page(row, key=key, message=message)
    template = "partials/_scoreboard.html" if is_htmx() else (
        "matches/scoreboard.html" if key else "matches/watch.html"
    )
    response = make_response(render_template(template, page=page, row=row, key=key), status)
    response.headers["Vary"] = "HX-Request, Cookie, Accept-Language"
    return response
