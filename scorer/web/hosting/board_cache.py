"""Rendered scoreboard fragments kept for the other phones of a table (issue 23, item 6).

After a tap, every other phone of the table polls and gets the new board: the same
fragment, rendered once per phone (about 2 ms of CPU each: the log in words, the buttons,
the template), in the same second. :func:`poll_board` keeps the fragment one phone's
poll rendered (or the tap's own answer, the same board: :func:`keep_tap_board`) and gives
it to the next phones that poll the same board, in the same
language, with the one thing in it that belongs to the answer itself replaced: the time
it was shown (``data-now`` and each button's ``shown``, what the double-tap guard reads).

What a fragment shows depends only on what the key holds: the match, its version (every
action, undo and change of the score moves it), its Revanche link, the tag of its names,
players and series (:func:`scorer.web.forms.shown_tag`), the edit key in its URLs, the
language and the host. Polls that miss at once (the pushed phones of a table ask together,
issue 34) render it once: the first renders, the others of the process wait for it
(:meth:`BoardCache.rendering`, at most :data:`WAIT_SECONDS`) and get it kept. Only an htmx poll's board of a game going on is kept: a finished
game's board and a tournament game whose result was taken also show the tournament's
state, which changes without the match's version; those are rendered every time, as
before. Each process keeps its own :data:`SIZE` fragments (the newest).
"""

from __future__ import annotations

import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable

from flask import Response, current_app, make_response, request

from scorer.app import store, tournament_context
from scorer.web import forms
from scorer.web.common import is_htmx
from scorer.web.db import get_db
from scorer.web.i18n import locale_code

#: Fragments kept per process: a few seconds of a thousand tables' taps.
SIZE = 512
#: Seconds a poll waits for another thread's rendering of the same board before rendering it itself.
WAIT_SECONDS = 2.0
SHOWN = re.compile(r'data-now="([0-9.]+)"')


class BoardCache:
    """The newest :data:`SIZE` fragments, by :func:`cache_key`; safe across threads."""

    def __init__(self, size: int = SIZE) -> None:
        self.size = size
        self.items: OrderedDict[tuple, tuple[str, str, dict[str, str]]] = OrderedDict()
        self.lock = threading.Lock()
        self.hits = self.misses = 0
        self.underway: dict[tuple, threading.Event] = {}  # key -> set when its rendering ends

    def get(self, key: tuple) -> tuple[str, str, dict[str, str]] | None:
        with self.lock:
            found = self.items.get(key)
            if found is None:
                self.misses += 1
            else:
                self.hits += 1
                self.items.move_to_end(key)
            return found

    def rendering(self, key: tuple) -> threading.Event | None:
        """Claim the rendering of ``key``: None if this thread is to render it (then call
        :meth:`rendered`), else the event another thread sets when its rendering ends."""
        with self.lock:
            underway = self.underway.get(key)
            if underway is None:
                self.underway[key] = threading.Event()
            return underway

    def rendered(self, key: tuple) -> None:
        """End this thread's claim on ``key`` (kept or not): the waiters look again."""
        with self.lock:
            underway = self.underway.pop(key, None)
        if underway is not None:
            underway.set()

    def put(self, key: tuple, value: tuple[str, str, dict[str, str]]) -> None:
        with self.lock:
            self.items[key] = value
            self.items.move_to_end(key)
            while len(self.items) > self.size:
                self.items.popitem(last=False)


def cache_key(row: store.MatchRow, key: str) -> tuple:
    """What a kept fragment must match: match, version, Revanche, names tag, edit key,
    language and host."""
    return (row.id, row.version, row.rematch, forms.shown_tag(row), key, locale_code(), request.host)


def kept_cache(row: store.MatchRow) -> BoardCache | None:
    """The app's cache if ``row``'s htmx board may be kept (a game going on, not a
    tournament game whose result was taken or that its tournament dropped), else None."""
    cache: BoardCache | None = current_app.extensions.get("truco_board_cache")
    if (cache is None or not is_htmx() or row.winner is not None or row.dropped
            or tournament_context.result_taken(get_db(), row)):
        return None
    return cache


def poll_board(row: store.MatchRow, key: str, render: Callable[..., Response]) -> Response:
    """The board a poll answers (``render(row, key=key)``: the view's own rendering), from
    the cache when another phone's poll or the tap itself rendered it (see the module docstring)."""
    cache = kept_cache(row)
    if cache is None:
        return render(row, key=key)
    wanted = cache_key(row, key)
    kept = cache.get(wanted)
    if kept is None:
        underway = cache.rendering(wanted)
        if underway is None:  # this thread renders it
            try:
                return keep(cache, row, key, render(row, key=key))
            finally:
                cache.rendered(wanted)
        underway.wait(WAIT_SECONDS)
        kept = cache.get(wanted)
        if kept is None:  # the other rendering failed, was not kept, or is slow: as without a cache
            return render(row, key=key)
    text, shown, headers = kept
    response = make_response(text.replace(f'"{shown}"', f'"{time.time():.3f}"'), 200)
    response.headers.update(headers)
    return response


def keep_tap_board(row: store.MatchRow, key: str, response: Response) -> Response:
    """``response`` (the htmx board of ``row`` that a recorded tap answers with, rendered by
    the view as a poll's) kept for the table's other phones, whose polls then find it
    instead of rendering it once more; returned as is."""
    cache = kept_cache(row)
    return response if cache is None else keep(cache, row, key, response)


def keep(cache: BoardCache, row: store.MatchRow, key: str, response: Response) -> Response:
    """Put ``response`` (a 200 board of ``row``, with its ``data-now``) in ``cache``; return it."""
    if response.status_code == 200 and not response.direct_passthrough:
        text = response.get_data(as_text=True)
        found = SHOWN.search(text)
        if found is not None:
            cache.put(cache_key(row, key), (text, found.group(1), {"Vary": response.headers.get("Vary", "")}))
    return response


def init_app(app) -> None:
    """Give ``app`` its fragment cache (``BOARD_CACHE_SIZE``, default :data:`SIZE`; 0: none)."""
    size = int(app.config.get("BOARD_CACHE_SIZE", SIZE))
    if size > 0:
        app.extensions["truco_board_cache"] = BoardCache(size)
