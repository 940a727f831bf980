"""Heavy public reads computed once per version of what they show (issue 31, item 1).

A tournament's statistics, summary, exports, organizer, TV and team pages, and a match's
statistics, chart and CSV files cost the server in proportion to the match or tournament
(a 64-team round robin has 2,016 games), so :func:`cached_read` keeps each answer by the
version of what it shows and gives it to every later request for that version:

- **The version** is read first, in one statement: a tournament's stamp
  (:func:`scorer.app.tournament_service.stamp`: its own version, and every game's), or a
  match's row (version, Revanche, names and series), plus its series' games for the pages that
  show the series. Any change moves it, so nothing stale is ever served; an unchanged version
  is answered from memory, with no other query.
- **The key** is the route, its path values, the version, the language, the host and scheme,
  htmx or not, and only what the view reads of the query or headers (``vary``): other query
  text, an ``utm`` or a random one, shares the one answer and costs nothing more.
- **Computed once**: concurrent requests for one key wait on the first one's computation
  instead of each computing (:class:`ReadCache`).
- **Never all threads**: at most ``HEAVY_READS`` requests of a process compute or wait at
  once (default: its threads but one, ``THREADS`` from ``truco serve --threads``), so a tap
  always finds a free thread; a heavy read beyond that is answered at once with 503 and
  ``Retry-After: 1`` (it is served from memory once computed).
- **ETag**: each kept answer has Werkzeug's ETag (``add_etag``, a hash of the body) and is
  conditional (``make_conditional``): a client that sends it back in ``If-None-Match`` gets
  304 and no body. Public reads say ``Cache-Control: no-cache`` (a browser keeps them and asks
  again with the ETag); keyed pages stay ``no-store``. Compressed bodies are kept beside them
  (:class:`scorer.web.assets.StaticCompressedCache`).

Only 200 answers are kept, at most ``READ_CACHE_BYTES`` bytes (default 64 MB) per process, the
least recently used out first. docs/hosting.md ("Heavy reads") says what a host gets.
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

from flask import Flask, Response, abort, current_app, g, make_response, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext

from scorer.app import store, tournament_service
from scorer.app.store import tournaments as tstore
from scorer.core.errors import N_
from scorer.web import forms
from scorer.web.common import is_htmx
from scorer.web.db import get_db
from scorer.web.i18n import locale_code

#: Bytes of answers (plain and compressed) each process keeps.
MAX_BYTES = 64 * 1024 * 1024
#: How long a request waits on another's computation of the same answer (seconds).
WAIT_SECONDS = 30.0
#: The headers of a view's answer that are kept with it (the rest is added per request).
KEPT_HEADERS = ("Content-Type", "Content-Disposition", "Content-Security-Policy", "Vary")
BUSY = N_("The scorekeeper is busy with another big page. Try again in a moment.")


@dataclass(frozen=True)
class Kept:
    """One kept answer: its body, headers (:data:`KEPT_HEADERS`) and ETag."""

    body: bytes
    headers: tuple[tuple[str, str], ...]
    etag: str

    def size(self) -> int:
        return len(self.body) + 200


class Busy(Exception):
    """Every heavy-read slot of this process is taken: answered 503 with Retry-After."""


class ReadCache:
    """Kept answers by key, the newest ``max_bytes`` of them; one computation per key at a
    time (the others wait on it, :data:`WAIT_SECONDS` at most); at most ``slots`` requests
    computing or waiting at once (:class:`Busy` beyond). ``computed`` counts the
    computations, ``hits`` the answers served from memory. Safe across threads."""

    def __init__(self, max_bytes: int = MAX_BYTES, slots: int = 1, wait_seconds: float = WAIT_SECONDS) -> None:
        self.max_bytes = max_bytes
        self.items: OrderedDict[Hashable, Kept] = OrderedDict()
        self.compressed: OrderedDict[str, bytes] = OrderedDict()
        self.bytes = 0
        self.lock = threading.Lock()
        self.pending: dict[Hashable, threading.Event] = {}
        self.slots = threading.BoundedSemaphore(max(1, slots))
        self.wait_seconds = wait_seconds
        self.computed = self.hits = self.busy = 0

    def get(self, key: Hashable) -> Kept | None:
        """The answer kept for ``key``, or None."""
        with self.lock:
            kept = self.items.get(key)
            if kept is not None:
                self.items.move_to_end(key)
                self.hits += 1
            return kept

    def compute(self, key: Hashable, make: Callable[[], tuple[Response, Kept | None]],
                still_current: Callable[[], bool]) -> tuple[Response | None, Kept | None]:
        """The answer for ``key``: another request's, if it computes it now (waited for), else
        ``make()``'s, ``(response, kept)`` (``kept`` None: not to be kept), kept only if
        ``still_current()`` says the version did not move meanwhile. Returns ``(response,
        None)`` when this request computed something not to keep, else ``(None, kept)``.

        :raise Busy: every slot is taken (nothing computed).
        """
        with self.lock:
            kept = self.items.get(key)
            if kept is not None:
                self.hits += 1
                return None, kept
            event = self.pending.get(key)
            mine = event is None
            if event is None:
                event = self.pending[key] = threading.Event()
        if not self.slots.acquire(blocking=False):
            if mine:
                self._done(key, event)
            with self.lock:
                self.busy += 1
            raise Busy()
        try:
            if not mine:
                event.wait(self.wait_seconds)
                kept = self.get(key)
                if kept is not None:
                    return None, kept
            response, kept = make()
            with self.lock:
                self.computed += 1
            if kept is not None and still_current():
                self.put(key, kept)
                return None, kept
            return response, None
        finally:
            self.slots.release()
            if mine:
                self._done(key, event)

    def _done(self, key: Hashable, event: threading.Event) -> None:
        with self.lock:
            self.pending.pop(key, None)
        event.set()

    def put(self, key: Hashable, kept: Kept) -> None:
        """Keep ``kept`` for ``key`` (the oldest out past ``max_bytes``)."""
        with self.lock:
            old = self.items.pop(key, None)
            self.bytes -= old.size() if old else 0
            self.items[key] = kept
            self.bytes += kept.size()
            self._trim()

    def compressed_get(self, key: str) -> bytes | None:
        """A kept answer's compressed body (``"<algorithm>;read:<etag>"``), or None."""
        with self.lock:
            return self.compressed.get(key)

    def compressed_put(self, key: str, data: bytes) -> None:
        """Keep a compressed body (within the same ``max_bytes``)."""
        with self.lock:
            if key not in self.compressed:
                self.compressed[key] = data
                self.bytes += len(data)
                self._trim()

    def _trim(self) -> None:
        while self.bytes > self.max_bytes and (self.items or self.compressed):
            if self.compressed and (not self.items or len(self.compressed) >= len(self.items)):
                self.bytes -= len(self.compressed.popitem(last=False)[1])
            else:
                self.bytes -= self.items.popitem(last=False)[1].size()


def read_cache() -> ReadCache:
    """The app's :class:`ReadCache`."""
    return current_app.extensions["truco_read_cache"]


# ---------------------------------------------------------------------------- versions


def tournament_version(tid: str, **_values: Any) -> str:
    """A tournament's version for its kept answers: its stamp (one statement).

    :raise 404: no tournament has that id.
    """
    now = tournament_service.stamp(get_db(), tid)
    if now is None:
        abort(404, gettext("There is no tournament with this address."))
    return now


def match_version(match_id: str, **_values: Any) -> tuple:
    """A match's version for its kept answers: version, Revanche, score, and the tag of its
    names, players and series (:func:`scorer.web.forms.shown_tag`); one primary-key read.

    :raise 404: no match has that id.
    """
    row = _match_or_404(match_id)
    return row.version, row.rematch, row.score, forms.shown_tag(row)


def series_version(match_id: str, **_values: Any) -> tuple:
    """:func:`match_version` plus every game of its Revanche series (their ids, versions and
    links: :func:`scorer.app.store.tournaments.read_series`), for the pages that show the series.

    :raise 404: no match has that id.
    """
    row = _match_or_404(match_id)
    return row.version, row.rematch, row.score, forms.shown_tag(row), tstore.read_series(get_db(), row.series)[1]


def _match_or_404(match_id: str) -> store.MatchRow:
    row = store.get_match(get_db(), match_id)
    if row is None:
        abort(404, gettext("There is no match with this address."))
    return row


# ---------------------------------------------------------------------------- the decorator


def cached_read(version: Callable[..., Hashable], *, vary: Callable[..., Hashable] | None = None,
                public: bool | Callable[..., bool] = True
                ) -> Callable[[Callable[..., ResponseReturnValue]], Callable[..., Response]]:
    """Route decorator: the view's 200 answer kept per ``version(**path values)`` (see the
    module docstring). ``vary(**path values)``: what else of the request the answer shows (a
    query value, whether a header's key fits); ``public`` (or ``public(**path values)``):
    ``Cache-Control: no-cache`` (else the default ``no-store``: an answer with a key in it).

    :raise 404: from ``version``, as the view would.
    """
    def decorate(view: Callable[..., ResponseReturnValue]) -> Callable[..., Response]:
        @functools.wraps(view)
        def read(**values: Any) -> Response:
            now = version(**values)
            key = (request.endpoint, tuple(sorted(values.items())), now, locale_code(), request.host,
                   request.scheme, is_htmx(), vary(**values) if vary else None)
            cache = read_cache()
            kept = cache.get(key)
            if kept is None:
                try:
                    response, kept = cache.compute(key, lambda: _make(view, values),
                                                   lambda: version(**values) == now)
                except Busy:
                    return _busy()
                if response is not None:
                    return response
                assert kept is not None  # compute() gives a response or a kept answer
            return _answer(kept, public(**values) if callable(public) else public)

        return read

    return decorate


def _make(view: Callable[..., ResponseReturnValue], values: dict[str, Any]) -> tuple[Response, Kept | None]:
    """Run the view: its response, and what to keep of it (None unless a 200 with a body)."""
    g.truco_computed = True  # counted by the heavy-read budget (scorer/web/hosting/security.py)
    g.truco_page_path = request.path  # the language links of a kept page (templates/base.html)
    response = make_response(view(**values))
    if response.status_code != 200 or response.direct_passthrough or response.is_streamed:
        return response, None
    response.add_etag()
    etag, _weak = response.get_etag()
    headers = tuple((name, response.headers[name]) for name in KEPT_HEADERS if name in response.headers)
    return response, Kept(response.get_data(), headers, etag or "")


def _answer(kept: Kept, public: bool) -> Response:
    """A kept answer as this request's response: conditional on its ETag (304 when the
    client's ``If-None-Match`` names it)."""
    response = Response(kept.body, 200, list(kept.headers))
    response.set_etag(kept.etag)
    if public:
        response.headers["Cache-Control"] = "no-cache"
    g.truco_read_etag = kept.etag  # the compressed body is kept under it (scorer/web/assets.py)
    response.make_conditional(request)  # in place (werkzeug returns the same response)
    return response


def _busy() -> Response:
    """503 with ``Retry-After: 1``: every heavy-read slot of this process is taken."""
    message = gettext(BUSY)
    if request.path.startswith("/api/"):
        response = make_response({"error": {"code": "busy", "message": message, "allowed": []}}, 503)
    else:
        response = make_response(message, 503)
        response.headers["Content-Type"] = "text/plain; charset=utf-8"
    response.headers["Retry-After"] = "1"
    return response


def computed() -> bool:
    """Whether this request computed a heavy read (rather than reading a kept one)."""
    return bool(g.get("truco_computed"))


def init_app(app: Flask) -> None:
    """Give ``app`` its :class:`ReadCache`: ``READ_CACHE_BYTES`` (default :data:`MAX_BYTES`),
    ``HEAVY_READS`` slots (default ``THREADS`` - 1, at least 1; ``THREADS`` 8 when not given)."""
    threads = int(app.config.get("THREADS") or 8)
    slots = int(app.config.get("HEAVY_READS") or max(1, threads - 1))
    app.extensions["truco_read_cache"] = ReadCache(int(app.config.get("READ_CACHE_BYTES", MAX_BYTES)), slots)
