"""What a public instance needs against strangers: rate limits, trusted proxies,
https-only cookies and HSTS, Host checking and refusing cross-site posts.

- **Rate limits** (Flask-Limiter, :data:`RATE_LIMITS` on the endpoints of :data:`LIMITED`):
  per client address on creating matches (page form and API share one budget), creating
  tournaments, importing, recording (actions, renames, Revanche, tournament corrections and
  confirmations) and the heavy reads (state JSON, exports, CSV, the organizer's and teams'
  pages, cards, TV); per match or tournament on the heavy reads that computed their answer
  (``heavy_read``: a kept one, :mod:`scorer.web.hosting.read_cache`, costs nothing); per address on one match or tournament on wrong keys (403s: a guest
  behind a bar's address holds up no other table of the bar); per match or tournament on recording and on
  exports, CSV and cards; per match, counting only the right key, on the keyed export the
  match's own phones read after every change (``match_copy``: never the public export's budget,
  which strangers who know the watch link share). A client over a limit gets 429 with
  ``Retry-After`` and a message in its language. Counters live in this process (``memory://``) unless
  ``RATELIMIT_STORAGE_URI`` names a shared store (Flask-Limiter's ``redis://`` or
  ``memcached://``), which several app servers need for one budget. Once the limiter has
  refused a client, :class:`scorer.web.hosting.flood_gate.FloodGate` refuses that client's next
  requests of the same kind before Flask, until the window ends. The machine itself
  (loopback) is exempt while no ``PUBLIC_URL`` is set: the laptop at the table, its tests
  and its bench. Scoreboard polls are not counted (they are the cheapest request).
- **Proxies**: ``X-Forwarded-For``/``-Proto``/``-Host`` are believed (Werkzeug's
  ``ProxyFix``) only on requests that come from an address in ``PROXY_ADDRESSES``.
- **https**: with an ``https://`` ``PUBLIC_URL`` every cookie is ``Secure`` and every
  response carries ``Strict-Transport-Security``; ``truco serve`` then also sets
  ``TRUSTED_HOSTS`` to the public URL's host (Flask answers 400 to any other ``Host``).
- **Headers** (:func:`init_security_headers`): the CSP, ``nosniff``, ``Referrer-Policy:
  no-referrer`` on every response, ``Cache-Control: no-store`` on all but static files.
- **Cross-site posts**: a POST that a browser marks as coming from another site
  (``Sec-Fetch-Site: cross-site``/``same-site``, or an ``Origin`` that is not this
  site's) is refused with 403 before it changes anything.
"""

from __future__ import annotations

import ipaddress
import math
import time
from urllib.parse import urlsplit

from flask import Flask, abort, current_app, jsonify, render_template, request
from flask_babel import gettext
from werkzeug.exceptions import SecurityError
from werkzeug.middleware.proxy_fix import ProxyFix

from scorer.core.errors import N_
from scorer.web.hosting import read_cache
from scorer.web.errors import JSON_ENDPOINTS
from scorer.web.hosting.flood_gate import BY_ADDRESS_AND_MATCH, BY_MATCH, FloodGate, counted_as, record_refusal

#: Content-Security-Policy of every response: nothing inline, nothing from elsewhere.
CSP = "default-src 'self'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"

#: Default limits (Flask-Limiter's notation; ``;`` separates several). Most count per client
#: address (:func:`client_address`): many phones share one public address (a bar's Wi-Fi), so
#: an address may tap a lot (600 tables each tapping every 5 s are 7,200 taps a minute, 120 a
#: second: ``action`` allows twice that) and open a bar's tables (60 in a minute, 600 in an
#: evening); ``match_action`` and ``match_read`` count per match or tournament (what one table or one
#: organizer can do), so a stranger flooding one match is slowed alone; ``wrong_key`` counts
#: per address on one match (:func:`address_on_match`).
RATE_LIMITS = {
    "create": "120/minute;1200/hour",
    "tournament": "5/minute;30/hour",
    "import": "10/minute;100/hour",
    "action": "14400/minute",
    "match_action": "60/minute",
    "wrong_key": "60/minute",
    "read": "600/minute",
    "match_read": "30/minute",
    "match_copy": "600/minute",
    "heavy_read": "120/minute",
}
#: The endpoints that record something on a match or a tournament with its key.
WRITES = ("matches.act", "matches.upload_taps", "api.post_action", "api.upload_taps", "records.rename", "matches.revanche", "tournaments.correct",
          "tournament_api.correct", "tournaments.team_confirm")
#: The pages opened with a key in their path (the scoreboard's poll is not one: it is the cheapest
#: request); a tournament's are heavy reads too.
MATCH_PAGES = ("matches.scoreboard", "matches.confirm_undo", "matches.share")
TOURNAMENT_PAGES = ("tournaments.organizer", "tournaments.cards", "tournaments.confirm_reopen", "tournaments.team_page")
#: A whole match or tournament written out.
#: The statistics and their pictures (issue 22): heavy reads, one budget with the exports'.
STATS = ("stats.match_stats", "stats.series_stats", "stats.tournament_stats", "stats.stats_csv", "stats.tournament_stats_csv", "stats.stats_page",
         "stats.story_chart", "stats.series_picture", "stats.tournament_picture", "stats.tournament_summary")
EXPORTS = ("records.export", "records.log_csv", "tournament_api.export", "tournament_api.results_csv", "tournaments.cards")
#: The reads kept per version of what they show (:mod:`scorer.web.hosting.read_cache`): ``heavy_read``
#: counts, per match or tournament, only the requests that computed one (a new version, language
#: or host), so however many read a tournament, its pages cost a bounded amount a minute.
HEAVY = STATS + ("records.export", "records.log_csv", "tournament_api.export", "tournament_api.results_csv",
                 "tournament_api.state", "tournaments.organizer", "tournaments.cards", "tournaments.tv",
                 "tournaments.team_page")
#: The match's export its own phones read with the edit key (8 phones after every change fit in 600 a minute).
MATCH_COPY = ("matches.keyed_export",)
#: A club's pages and records (issue 32): the organizer's pages are opened with a key in their path;
#: the season table, a player's page, the chart, the exports and the CSV are heavy reads.
CLUB_PAGES = ("clubs.organizer", "clubs.checkin", "clubs.draw", "clubs.start_night", "clubs.add_players",
              "clubs.add_season", "clubs.start_match")
CLUB_READS = ("clubs.season", "clubs.player", "clubs.rating_chart", "club_api.export", "club_api.season_json",
              "club_api.season_csv")
#: Which endpoints each limit covers (one budget shared by the endpoints of a kind).
LIMITED = {
    "create": ("matches.create", "api.create_match"),
    "tournament": ("tournaments.create", "tournament_api.create", "clubs.create"),
    "import": ("records.restore", "offline.upload_match", "club_api.import_club"),
    "action": WRITES,
    "match_action": WRITES,
    "wrong_key": WRITES + MATCH_PAGES + MATCH_COPY + TOURNAMENT_PAGES + CLUB_PAGES,
    "read": ("api.get_match", "tournament_api.state", "tournaments.tv", "tournaments.tv_live")
    + tuple(dict.fromkeys(EXPORTS + TOURNAMENT_PAGES + STATS + CLUB_READS)),
    "match_read": EXPORTS,
    "match_copy": MATCH_COPY,
    "heavy_read": HEAVY,
}
#: ``Strict-Transport-Security`` sent with an https public URL (a year).
HSTS = "max-age=31536000"
CROSS_SITE = N_("This request came from another site, so it was refused. Open the scorekeeper's own page and try there.")
WRONG_HOST = N_("This server answers only at its public address.")
TOO_MANY = N_("Too many requests from this device. Wait a moment (about {seconds} s) and try again.")
TOO_MANY_HERE = N_("Too many requests for this match. Wait a moment (about {seconds} s) and try again.")


class TrustedProxyFix:
    """Werkzeug's :class:`ProxyFix` applied only to requests whose peer address is one of
    ``proxies`` (addresses or networks, e.g. ``127.0.0.1`` or ``10.0.0.0/8``); anyone
    else's ``X-Forwarded-*`` headers are ignored. ``hops``: proxies in front, each adding
    one value to the headers."""

    def __init__(self, wsgi_app, proxies: list[str], hops: int = 1) -> None:
        self.app = wsgi_app
        self.proxies = [ipaddress.ip_network(p, strict=False) for p in proxies]
        self.fixed = ProxyFix(wsgi_app, x_for=hops, x_proto=hops, x_host=hops, x_port=hops)

    def __call__(self, environ, start_response):
        try:
            peer = ipaddress.ip_address(environ.get("REMOTE_ADDR", ""))
        except ValueError:
            peer = None
        if peer is not None and any(peer in net for net in self.proxies):
            return self.fixed(environ, start_response)
        return self.app(environ, start_response)


def client_address() -> str:
    """The client's address as the limits count it (after a trusted proxy's ``ProxyFix``)."""
    return request.remote_addr or "unknown"


def match_in_path() -> str:
    """The match or tournament a request names in its path (what ``match_action`` and
    ``match_read`` count by)."""
    return counted_as(BY_MATCH, client_address(), request.view_args or {})


def address_on_match() -> str:
    """``"<address>/<match or tournament id>"``: what ``wrong_key`` counts by, so one guest's
    wrong keys behind a bar's shared address hold up that guest on that match alone, never
    the bar's other tables."""
    return counted_as(BY_ADDRESS_AND_MATCH, client_address(), request.view_args or {})


def _a_stored_change(response) -> bool:
    """Whether a request on a match counts against the match's own budget: its key was
    right (not 403), the match exists (not 404), and it was not refused by a limit (429)
    nor by the database's absence (5xx). A stranger's wrong-key posts never use up a
    table's taps."""
    return response.status_code < 500 and response.status_code not in (403, 404, 429)


def _computed(_response) -> bool:
    """Whether a heavy read counts against its match's or tournament's budget: it computed
    its answer (:func:`scorer.web.hosting.read_cache.computed`), rather than reading a kept one."""
    return read_cache.computed()


def _a_wrong_key(response) -> bool:
    """Whether a request counts as a wrong-key attempt (every 403 of a view is one)."""
    return response.status_code == 403


#: How each kind counts: ``(key function, deduct_when)``; a kind not named counts every
#: request by its client address.
COUNTING = {
    "match_action": (match_in_path, _a_stored_change),
    "match_read": (match_in_path, None),
    "match_copy": (match_in_path, _a_stored_change),
    "wrong_key": (address_on_match, _a_wrong_key),
    "heavy_read": (match_in_path, _computed),
}
#: The same, as the flood gate reads it: kind -> :data:`BY_MATCH` or :data:`BY_ADDRESS_AND_MATCH`.
COUNTED_BY = {kind: BY_MATCH if key_func is match_in_path else BY_ADDRESS_AND_MATCH
              for kind, (key_func, _) in COUNTING.items()}
#: The kinds counted per match or tournament (their 429 says "this match").
PER_MATCH = tuple(kind for kind, by in COUNTED_BY.items() if by == BY_MATCH)


def _exempt() -> bool:
    if current_app.config.get("PUBLIC_URL"):
        return False
    try:
        return ipaddress.ip_address(request.remote_addr or "").is_loopback
    except ValueError:
        return False


def init_rate_limits(app: Flask) -> None:
    """Put the ``RATE_LIMITS`` (merged over :data:`RATE_LIMITS`) on their endpoints;
    ``RATELIMIT_ENABLED`` False turns them off (Flask-Limiter's own setting).

    A kind with a ``deduct_when`` (:data:`COUNTING`) is checked before the view and
    counted after it, only when the answer says so: ``wrong_key`` counts 403s per address
    on one match or tournament, and once an address has used it up there, every keyed
    request from that address on that match gets 429 (its other matches, and the
    other addresses on that match, go on); ``match_action`` counts the requests that carried
    the right key.
    """
    from flask_limiter import Limiter
    from flask_limiter.errors import RateLimitExceeded

    app.config.setdefault("RATELIMIT_STORAGE_URI", "memory://")
    # A shared store (redis://...) that stops answering: each process counts alone meanwhile
    # (Flask-Limiter's in-memory fallback) and goes back to the store when it answers again;
    # the taps go on.
    app.config.setdefault("RATELIMIT_IN_MEMORY_FALLBACK_ENABLED", True)
    # Flask-Limiter's headers would put its window's end in ``Retry-After`` on every answer of a
    # limited endpoint, a 503 (the database away: 2 s, scorer.web.db) too: the 429 below says it itself.
    app.config.setdefault("RATELIMIT_HEADERS_ENABLED", False)
    limits = {**RATE_LIMITS, **(app.config.get("RATE_LIMITS") or {})}
    limiter = Limiter(client_address, app=app)
    limiter.request_filter(_exempt)
    # Every limit here sits on its endpoints (the decorators below check them), and there
    # are no default or application-wide limits: the extension's check before every
    # request (every poll and static file too) would find nothing to do, at a cost
    # comparable to a poll's database read. Take it off that path.
    if limiter._check_request_limit in app.before_request_funcs.get(None, []):
        app.before_request_funcs[None].remove(limiter._check_request_limit)
    for kind, endpoints in LIMITED.items():
        if not limits.get(kind):
            continue
        key_func, deduct_when = COUNTING.get(kind, (client_address, None))
        rule = limiter.shared_limit(limits[kind], scope=kind, key_func=key_func, deduct_when=deduct_when)
        for endpoint in endpoints:
            if endpoint in app.view_functions:
                app.view_functions[endpoint] = rule(app.view_functions[endpoint])  # type: ignore[assignment]  # flask-limiter types its wrapper as sync or async; a sync view stays sync
    app.extensions["truco_limiter"] = limiter
    _install_flood_gate(app, limits)

    @app.errorhandler(RateLimitExceeded)
    def too_many(e):
        record_refusal(app, e)  # the client's next requests on this kind are refused before Flask
        seconds = max(1, int(e.limit.limit.get_expiry() if e.limit else 60))
        here = e.limit is not None and e.limit.scope in PER_MATCH
        message = gettext(TOO_MANY_HERE if here else TOO_MANY).format(seconds=seconds)
        if request.path.startswith("/api/") or request.endpoint in JSON_ENDPOINTS:
            response = jsonify(error={"code": "too_many_requests", "message": message, "allowed": []})
        else:
            response = app.make_response(render_template("errors/error.html", code=429, message=message))
        response.status_code = 429
        response.headers["Retry-After"] = str(_retry_after(limiter, seconds))
        return response


def _install_flood_gate(app: Flask, limits: dict[str, str]) -> None:
    """Put :class:`FloodGate` in front of the app, for the kinds of ``limits`` that are on."""
    kinds: dict[str, tuple[str, ...]] = {}
    for kind, endpoints in LIMITED.items():
        for endpoint in endpoints if limits.get(kind) else ():
            kinds[endpoint] = (*kinds.get(endpoint, ()), kind)
    headers = [("Content-Security-Policy", CSP), ("X-Content-Type-Options", "nosniff"),
               ("Referrer-Policy", "no-referrer"), ("Cache-Control", "no-store")]  # as init_security_headers
    if app.config.get("HSTS"):
        headers.append(("Strict-Transport-Security", HSTS))
    gate = FloodGate(app, app.wsgi_app, kinds, COUNTED_BY, (TOO_MANY, TOO_MANY_HERE), headers, JSON_ENDPOINTS)
    app.wsgi_app = app.extensions["truco_flood_gate"] = gate  # type: ignore[method-assign]  # middleware goes around wsgi_app, as Flask's documentation does it


def _retry_after(limiter, seconds: int) -> int:
    """Whole seconds until the refused limit's window ends (1 to ``seconds``, the window's length)."""
    try:
        reset_at = limiter.current_limit.reset_at
    except Exception:  # noqa: BLE001 (no current limit, or a shared store that does not answer)
        return seconds
    return max(1, min(seconds, math.ceil(reset_at - time.time())))


def https_public_url(app: Flask) -> bool:
    return urlsplit(app.config.get("PUBLIC_URL") or "").scheme == "https"


def _same_site_origin(origin: str) -> bool:
    """Whether an ``Origin`` header names this site (the Host asked for, or the public URL).
    A site served over https (the request's scheme, after a trusted proxy's ``ProxyFix``, or
    an https public URL) is never its own plain-http page: ``http://<its host>`` is another
    origin (a page an attacker on the network can write), refused as cross-site."""
    parts = urlsplit(origin)
    if not parts.netloc:
        return False
    if parts.scheme != "https" and (request.scheme == "https" or https_public_url(current_app)):
        return False
    if parts.netloc == request.host:
        return True
    public = urlsplit(current_app.config.get("PUBLIC_URL") or "")
    return bool(public.netloc) and (parts.scheme, parts.netloc) == (public.scheme, public.netloc)


def refuse_cross_site() -> None:
    """``before_request``: 403 for a state-changing request another site's page made.

    Browsers say where a request comes from in ``Sec-Fetch-Site`` (``same-origin`` and
    ``none``, typed or bookmarked, pass); older ones only in ``Origin``. Clients that send
    neither (curl, the JSON API's scripts) are not browsers and pass: they carry the
    edit key themselves.
    """
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return
    site = request.headers.get("Sec-Fetch-Site")
    origin = request.headers.get("Origin")
    if site is not None:
        refused = site not in ("same-origin", "none")
    else:
        refused = origin is not None and not _same_site_origin(origin)
    if refused:
        abort(403, gettext(CROSS_SITE))


def init_app(app: Flask) -> None:
    """Wire in the proxy fix, the cross-site check, https's cookie and HSTS rules and the
    rate limits (see the module's docstring for the settings)."""
    secure = https_public_url(app)
    app.config.setdefault("COOKIE_SECURE", secure)
    app.config.setdefault("HSTS", secure)
    app.before_request(refuse_cross_site)

    @app.after_request
    def https_only(response):
        if app.config["HSTS"]:
            response.headers.setdefault("Strict-Transport-Security", HSTS)
        if app.config["COOKIE_SECURE"]:
            cookies = response.headers.getlist("Set-Cookie")
            if cookies:
                response.headers.remove("Set-Cookie")
                for cookie in cookies:
                    response.headers.add("Set-Cookie", cookie if "; Secure" in cookie else cookie + "; Secure")
        return response

    init_rate_limits(app)
    if app.config.get("PROXY_ADDRESSES"):  # outside the flood gate: it counts the address the proxy reports
        app.wsgi_app = TrustedProxyFix(app.wsgi_app, list(app.config["PROXY_ADDRESSES"]),  # type: ignore[method-assign]  # middleware goes around wsgi_app, as Flask's documentation does it
                                       int(app.config.get("PROXY_HOPS", 1)))

    @app.errorhandler(SecurityError)
    def untrusted_host(_e):
        # No URL can be built for a Host that is not trusted, so not the error page: text.
        return gettext(WRONG_HOST), 400, {"Content-Type": "text/plain; charset=utf-8"}


def init_security_headers(app: Flask) -> None:
    """Every response gets the CSP, ``nosniff`` and ``Referrer-Policy: no-referrer``; every
    response but a static file ``Cache-Control: no-store``."""

    @app.after_request
    def security_headers(response):
        response.headers.setdefault("Content-Security-Policy", CSP)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        if request.endpoint != "static":
            response.headers.setdefault("Cache-Control", "no-store")
        return response
