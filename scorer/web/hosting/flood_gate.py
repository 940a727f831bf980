"""A refused flood answered before Flask (issue 23, item 2).

A request over a rate limit gets 429 (:mod:`scorer.web.hosting.security`), but through Flask that
refusal costs a whole request (contexts, routing, the session, Babel, the limiter's own
check, an error page): 0.5-1 ms of CPU, so a stranger refused a few thousand times a
second keeps a worker's core busy and every other table waits. :class:`FloodGate` sits
in front of the Flask app (inside the trusted proxy's fix, so it sees the address the
limits count): once the limiter has refused a client (an address, or a match or
tournament for the per-match kinds, an address on one match or tournament for the wrong keys),
the gate keeps that refusal until the limiter's
window ends, and answers that client's next requests on the same kind's endpoints itself,
without touching the app: the same 429, ``Retry-After`` and message (the limit's own
words, in the user's language: the ``lang`` cookie, else ``Accept-Language``, as the app
chooses), as JSON on ``/api/`` paths and the pages' JSON endpoints, and as text elsewhere. It decides only what the
limiter already decided: the limits count in fixed windows (Flask-Limiter's default), so a
budget used up stays used up until its window ends, and every request the gate refuses
would have been refused by the app. Anything else (another address, another match, another
kind's endpoint, the window over) goes to the app as before, at the cost of one dictionary
lookup, plus the URL's routing while some match or address is refused.
"""

from __future__ import annotations

import json
import math
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from babel.support import NullTranslations, Translations
from flask import Flask
from werkzeug.datastructures import LanguageAccept
from werkzeug.exceptions import HTTPException
from werkzeug.http import parse_accept_header, parse_cookie
from werkzeug.routing import RequestRedirect
from werkzeug.wsgi import get_path_info

#: Refusals kept at most (the oldest half is dropped past it): a flood from many addresses
#: cannot grow the gate without bound.
MAX_REFUSALS = 10_000
#: Language choices remembered (by the ``Cookie`` and ``Accept-Language`` headers).
MAX_LANGUAGE_CHOICES = 256
#: How a limit kind counts its clients: by address, by the match or tournament its path names,
#: or by both (an address on one match: a bar's guest with wrong keys holds up no other table).
BY_ADDRESS, BY_MATCH, BY_ADDRESS_AND_MATCH = "address", "match", "address and match"


def counted_as(by: str, address: str, args: Mapping[str, Any]) -> str:
    """Who a request is for a limit counted ``by`` (:data:`BY_ADDRESS`, :data:`BY_MATCH` or
    :data:`BY_ADDRESS_AND_MATCH`): ``address``, the match or tournament id in the path's
    ``args`` (a club's id too; ``"none"`` without one), or ``"<address>/<id>"``. The limiter's key functions
    (:mod:`scorer.web.hosting.security`) and the gate both call it, so they name a client alike."""
    if by == BY_ADDRESS:
        return address
    match = str(args.get("match_id") or args.get("tid") or args.get("cid") or "none")
    return match if by == BY_MATCH else f"{address}/{match}"


class FloodGate:
    """WSGI middleware for ``app``: a client the rate limiter refused is refused here until
    the limit's window ends (see the module docstring); the rest goes to ``wsgi_app``.

    ``kinds``: endpoint -> the limit kinds on it; ``counting``: kind -> how it counts
    (:data:`BY_MATCH`, :data:`BY_ADDRESS_AND_MATCH`; a kind not named counts by address);
    ``messages``: the 429's message for a kind counted by address and for one counted by match (msgids with
    ``{seconds}``); ``headers``: what every answer of the app carries (its security headers);
    ``json_endpoints``: endpoints outside ``/api/`` that answer JSON (their 429 is JSON too)."""

    def __init__(self, app: Flask, wsgi_app: Callable, kinds: dict[str, tuple[str, ...]],
                 counting: dict[str, str], messages: tuple[str, str], headers: list[tuple[str, str]],
                 json_endpoints: Iterable[str] = ()) -> None:
        self.wsgi_app = wsgi_app
        self.json_endpoints = frozenset(json_endpoints)
        self.app = app
        self.kinds = kinds
        self.counting = dict(counting)
        self.messages = messages
        self.headers = list(headers)
        # (kind, who) -> (window's end, seconds, the address refused or None for a match)
        self.refused: dict[tuple[str, str], tuple[float, int, str | None]] = {}
        self.addresses: dict[str, int] = {}  # refused addresses (alone or on one match) -> refusals held
        self.matches = 0  # refusals held by match, whoever asks
        self.next_end = math.inf  # the soonest window's end: the refusals are swept then
        self.lock = threading.Lock()
        self.languages: dict[tuple[str, str], str] = {}
        self.catalogs: dict[str, NullTranslations] = {}

    # ------------------------------------------------------------------ recording

    def refuse(self, kind: str, who: str, until: float, seconds: int, address: str | None = None) -> None:
        """Keep the limiter's refusal of ``who`` (:func:`counted_as`: an address, a match or
        tournament id, or an address on one) on ``kind`` until ``until`` (epoch seconds, the
        window's end). ``address``: the client refused, for the kinds that count by address
        (``who`` itself when None)."""
        with self.lock:
            if len(self.refused) >= MAX_REFUSALS:
                self._sweep(time.time(), keep=MAX_REFUSALS // 2)
            by = self.counting.get(kind, BY_ADDRESS)
            held_by = None if by == BY_MATCH else (address or who)
            if (kind, who) not in self.refused:
                self._hold(held_by)
            self.refused[(kind, who)] = (until, seconds, held_by)
            self.next_end = min(self.next_end, until)

    def _hold(self, address: str | None) -> None:
        if address is None:
            self.matches += 1
        else:
            self.addresses[address] = self.addresses.get(address, 0) + 1

    def _sweep(self, now: float, keep: int | None = None) -> None:
        """Drop the refusals whose window is over (and the oldest ones past ``keep``)."""
        items = sorted(self.refused.items(), key=lambda kv: kv[1][0], reverse=True)
        kept = [(k, v) for k, v in items if v[0] > now][:keep]
        self.refused = dict(kept)
        self.next_end = min((v[0] for _k, v in kept), default=math.inf)
        self.addresses, self.matches = {}, 0
        for _key, (_until, _seconds, address) in kept:
            self._hold(address)

    # ------------------------------------------------------------------ answering

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        if self.refused and time.time() >= self.next_end:
            with self.lock:
                self._sweep(time.time())
        if self.refused:
            address = environ.get("REMOTE_ADDR") or "unknown"
            if self.matches or address in self.addresses:
                held = self.holding(environ, address)
                if held is not None:
                    return self.answer(environ, start_response, *held)
        return self.wsgi_app(environ, start_response)

    def holding(self, environ: dict, address: str) -> tuple[str, int, bool, float, bool] | None:
        """``(route, the limit's seconds, per match, the window's end, answered as JSON)`` of a
        refusal that still holds for this request, or None (the app answers it)."""
        hosts = self.app.config.get("TRUSTED_HOSTS")
        if hosts:
            host = environ.get("HTTP_HOST", "").rsplit(":", 1)[0].strip("[]").lower()
            if host not in {h.lower() for h in hosts}:
                return None
        try:
            adapter = self.app.url_map.bind("localhost", script_name=environ.get("SCRIPT_NAME") or "/")
            rule, args = adapter.match(get_path_info(environ), method=environ.get("REQUEST_METHOD", "GET"),
                                       return_rule=True)
        except (HTTPException, RequestRedirect):
            return None
        now = time.time()
        for kind in self.kinds.get(rule.endpoint, ()):
            by = self.counting.get(kind, BY_ADDRESS)
            here = by == BY_MATCH
            until, seconds, _address = self.refused.get((kind, counted_as(by, address, args)), (0.0, 0, None))
            if until > now:
                return rule.rule, seconds, here, until, rule.endpoint in self.json_endpoints
        return None

    def answer(self, environ: dict, start_response: Callable, route: str, seconds: int,
               here: bool, until: float, as_json: bool = False) -> list[bytes]:
        """The app's 429 for this refusal: its message in the user's language, JSON on
        ``/api/`` paths (and with ``as_json``), text elsewhere, with the app's security headers."""
        message = self.catalog(self.language(environ)).ugettext(self.messages[1 if here else 0]).format(
            seconds=seconds)
        if as_json or get_path_info(environ).startswith("/api/"):
            body = json.dumps({"error": {"code": "too_many_requests", "message": message, "allowed": []}},
                              ensure_ascii=False).encode()
            kind = "application/json"
        else:
            body, kind = message.encode(), "text/plain; charset=utf-8"
        headers = [("Content-Type", kind), ("Content-Length", str(len(body))),
                   ("Retry-After", str(max(1, min(seconds, math.ceil(until - time.time()))))),
                   ("Vary", "Cookie, Accept-Language"), *self.headers]
        self.count(route, environ.get("REQUEST_METHOD", "GET"))
        start_response("429 TOO MANY REQUESTS", headers)
        return [body]

    def count(self, route: str, method: str) -> None:
        """Count the refusal in the app's metrics, as the app counts its own 429s."""
        metrics = self.app.extensions.get("truco_metrics")
        if metrics is not None:
            metrics.requests.labels(route, method, "429").inc()
            metrics.limited.labels(route).inc()

    def language(self, environ: dict) -> str:
        """The locale the app would choose: the ``lang`` cookie, else ``Accept-Language``,
        else the default (:func:`scorer.web.i18n.select_locale`)."""
        cookie, accept = environ.get("HTTP_COOKIE", ""), environ.get("HTTP_ACCEPT_LANGUAGE", "")
        chosen = self.languages.get((cookie, accept))
        if chosen is None:
            from scorer.web.i18n import COOKIE

            languages = self.app.config["LANGUAGES"]
            picked = parse_cookie(cookie).get(COOKIE) if cookie else None
            if picked is None or picked not in languages:
                picked = parse_accept_header(accept, LanguageAccept).best_match(languages) or languages[0]
            if len(self.languages) >= MAX_LANGUAGE_CHOICES:
                self.languages.clear()
            self.languages[(cookie, accept)] = chosen = picked
        return chosen

    def catalog(self, locale: str) -> NullTranslations:
        """The app's message catalogue for ``locale`` (loaded once; a catalogue that translates
        nothing where there is none)."""
        found = self.catalogs.get(locale)
        if found is None:
            folder = str(self.app.config["BABEL_TRANSLATION_DIRECTORIES"]).split(";")[0]
            found = Translations.load(folder, [locale], domain="messages")
            self.catalogs[locale] = found
        return found


def record_refusal(app: Flask, error: Any) -> None:
    """Tell the app's :class:`FloodGate` (if any) about the limiter's refusal being answered
    (``error``: Flask-Limiter's ``RateLimitExceeded``): the refused kind, who was counted
    and when the window ends. Called from the app's 429 handler, in the request."""
    gate: FloodGate | None = app.extensions.get("truco_flood_gate")
    limiter = app.extensions.get("truco_limiter")
    if gate is None or limiter is None or error.limit is None:
        return
    current = limiter.current_limit
    if current is None or not current.breached or len(current.request_args) < 2:
        return
    who = current.request_args[-2]  # [prefix...] limit key, scope
    try:
        until = float(current.window[0])
    except Exception:  # noqa: BLE001 (a shared store that does not answer: the app's 429 stands alone)
        return
    seconds = max(1, int(error.limit.limit.get_expiry()))
    if until > time.time():
        from flask import request

        gate.refuse(error.limit.scope, str(who), until, seconds, request.remote_addr or "unknown")
