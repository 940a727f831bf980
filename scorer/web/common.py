"""What every view shares: the application service, loading a match and checking its edit key
(the route decorators :func:`match_view` and :func:`keyed_match_view`), the public address,
reading a JSON body and answering JSON errors, the CSV formula guard.
What both tournament views (pages and API) share is in :mod:`scorer.web.tournament_view`.

Views import this module (and :mod:`scorer.web.forms`), never each other.
"""

from __future__ import annotations

import csv
import functools
import hmac
import io
import ipaddress
import json
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import urlsplit

from flask import Response, abort, current_app, jsonify, make_response, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext

from scorer.app import addresses, store
from scorer.app.match_service import MatchService
from scorer.core.errors import TrucoError
from scorer.core.schema import State
from scorer.present.log_words import SaidState, say_state
from scorer.web.db import get_db
from scorer.web.player_names import NAME_MAX
from scorer.web.i18n import translate, translator


#: Characters that make a spreadsheet read a cell as a formula (CSV injection): a cell
#: starting with one is written with a leading ``'``.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def service() -> MatchService:
    """The app's application service for matches (with its cache of replayed matches)."""
    return current_app.extensions["truco_matches"]


def match_state(row: store.MatchRow, log_limit: int | None = None) -> SaidState:
    """The service's state of ``row`` in its JSON form, the log said in the request's
    language (``log_limit``: only the newest entries)."""
    return said(service().state(get_db(), row, log_limit=log_limit))


def said(state: State) -> SaidState:
    """A state from the service with its log said in the request's language (its JSON form:
    :func:`scorer.present.log_words.say_state`)."""
    return say_state(state, translator())


def get_match_or_404(match_id: str) -> store.MatchRow:
    """The stored match ``match_id`` (the request's one read of it).

    :raise 404: no match has that id.
    """
    row = service().get(get_db(), match_id)
    if row is None:
        abort(404, gettext("There is no match with this address."))
    return row


def match_view(view: Callable[..., ResponseReturnValue]) -> Callable[..., ResponseReturnValue]:
    """Route decorator: the view gets the stored match (``row``) instead of the URL's
    ``match_id``, as :func:`get_match_or_404` reads it (other URL values pass through).

    :raise 404: no match has that id.
    """
    @functools.wraps(view)
    def load(match_id: str, **values: Any) -> ResponseReturnValue:
        return view(get_match_or_404(match_id), **values)

    return load


def keyed_match_view(view: Callable[..., ResponseReturnValue]) -> Callable[..., ResponseReturnValue]:
    """Route decorator for "this match, with its edit key" (as flaskr's ``login_required``):
    the view gets the stored match (``row``) and the key that opened it (``key``: the URL's
    ``<key>``, else the ``X-Edit-Key`` header of the JSON API) instead of ``match_id``.

    :raise 404: no match has that id. :raise 403: the key is missing or wrong (:func:`check_key`).
    """
    @functools.wraps(view)
    def load(match_id: str, key: str | None = None, **values: Any) -> ResponseReturnValue:
        row = get_match_or_404(match_id)
        key = request.headers.get("X-Edit-Key") if key is None else key
        check_key(row, key)
        return view(row, key, **values)

    return load


def key_fits(row: store.MatchRow | store.PollStamp, key: str | None) -> bool:
    """Whether ``key`` is the match's edit key: its hash compared with the stored hash
    in constant time."""
    return key is not None and key != "" and hmac.compare_digest(store.hash_key(key).encode(), row.key_hash.encode())


def check_key(row: store.MatchRow, key: str | None) -> None:
    """Compare ``key`` with the match's edit key (:func:`key_fits`).

    :raise 403: the key is missing or wrong.
    """
    if not key_fits(row, key):
        abort(403, gettext("This link cannot change the match: the edit key is missing or wrong."))


def is_htmx() -> bool:
    """Whether htmx made this request (it then wants a fragment, not a page)."""
    return request.headers.get("HX-Request") == "true"


#: Host names that mean "this machine" to the browser that used them, and to no other.
LOOPBACK_NAMES = ("localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback")


def is_loopback(hostname: str) -> bool:
    """Whether ``hostname`` (no port) names this machine only: ``localhost``,
    ``*.localhost``, 127.0.0.0/8 or ``::1``."""
    name = hostname.strip("[]").lower().rstrip(".")
    if name in LOOPBACK_NAMES or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def share_base() -> tuple[str, str]:
    """The base URL for links other phones open, and why it was chosen.

    ``("https://truco.example", "public")`` with ``PUBLIC_URL`` (``--public-url``); else,
    when this request came through a loopback name or address (``localhost``,
    ``127.0.0.1``: no other phone can reach it), the machine's first LAN address with the
    request's port (``"lan"``, as ``truco serve`` prints it), if the server listens there
    (``SHARE_LAN``); else the request's own base (``"request"``, also when the machine has
    no other address).
    """
    public = current_app.config.get("PUBLIC_URL")
    if public:
        return public.rstrip("/"), "public"
    here = urlsplit(request.host_url)
    try:
        hostname, port = here.hostname or "", here.port
    except ValueError:  # a malformed port in the Host header: keep the request's base
        hostname, port = "", None
    if is_loopback(hostname) and current_app.config.get("SHARE_LAN", True):
        lan = addresses.lan_addresses()
        if lan:
            return f"{here.scheme}://{lan[0]}{f':{port}' if port else ''}", "lan"
    return request.host_url.rstrip("/"), "request"


def public_base() -> str:
    """The base URL for links other phones open (see :func:`share_base`)."""
    return share_base()[0]


def error_json(e: TrucoError, status: int = 422, names: Any = None):
    """``{"error": {"code", "message", "allowed"}}`` with ``status`` (``names``: the sides' names)."""
    return jsonify(error=e.to_json(translate, names)), status


def json_body() -> dict[str, Any]:
    """The request's JSON object.

    :raise 422: the body is not a JSON object, or a text in it is not text: JSON's
        ``\\ud800`` escape names half of a UTF-16 pair, which no UTF-8 text (nor a page,
        nor the database) can hold, so it is refused here for every field of every body.
    """
    try:
        data = request.get_json(silent=True)
    except RecursionError:  # nested too deep for the parser: not a JSON object we can read
        data = None
    if not isinstance(data, dict):
        abort(422, gettext("The body must be a JSON object."))
    try:
        json.dumps(data, ensure_ascii=False).encode()
    except UnicodeEncodeError:
        abort(422, gettext("The body holds a character that is not text (a lone surrogate such as \\ud800): "
                           "send every text as UTF-8."))
    return data


def created_json(row: store.MatchRow, *, shortened: bool = False):
    """201 ``{"id", "edit_key", "edit_url", "watch_url", "state", "best_of", "players",
    "notes"}`` for a match just stored; ``notes`` says when a name was shortened."""
    base = public_base()
    return jsonify(
        id=row.id,
        edit_key=row.edit_key,
        edit_url=base + url_for("matches.scoreboard", match_id=row.id, key=row.edit_key),
        watch_url=base + url_for("matches.watch", match_id=row.id),
        state=match_state(row),
        best_of=row.best_of,
        players=[list(p) for p in row.players] if row.players else None,
        notes=[shortened_note()] if shortened else [],
    ), 201


def shortened_note() -> str:
    """The notice that a name was cut to ``NAME_MAX`` characters, in the user's language."""
    return gettext("A name was shortened to %(count)s characters.", count=NAME_MAX)


def csv_download(rows: Iterable[Iterable[Any]], filename: str) -> Response:
    """``rows`` as a CSV download named ``filename``: None is written empty, and a text that a
    spreadsheet would run as a formula (it starts with one of :data:`FORMULA_START`) gets a
    leading ``'``; numbers are written as they are."""
    out = io.StringIO()
    writer = csv.writer(out)
    for row in rows:
        writer.writerow(["" if v is None else ("'" + v if isinstance(v, str) and v.startswith(FORMULA_START) else v)
                         for v in row])
    response = make_response(out.getvalue())
    response.headers["Content-Type"] = "text/csv; charset=utf-8"
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
