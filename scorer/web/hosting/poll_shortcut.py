"""An unchanged scoreboard poll answered before Flask (on with ``truco serve --server gunicorn``).

Nine requests in ten of a table are a phone asking whether its board changed (``GET
/m/<id>/<key>/board?version=V&rematch=R&seen=T``) and being told 204, no. Through Flask
that answer costs about 0.36 ms of CPU on gunicorn, of which the server is 0.10 ms (issue 23,
docs/hosting.md "Phones and tables per core"): the rest is Flask's request and app contexts, its
hooks and the response object. :class:`UnchangedPolls` answers exactly those polls itself:
one primary-key read of the columns it compares (:func:`scorer.app.store.poll_stamp`),
the key's hash compared in constant time, the
version, Revanche and names tag compared as :func:`scorer.web.forms.unchanged` does, then
the same 204 with the same headers Flask sent for the first such poll of this process.
Every other request, and every poll it is not sure of (a wrong key, an unknown match, a
changed board, a ``Host`` that is not the public one, a database error, a proxy's
forwarded host), goes to the app unchanged, which answers it as before.

What it skips for the polls it answers: everything the app does per request. Nothing there
refuses an unchanged poll (no rate limit applies to it, no cookie is set); the app's
metrics count it here as the app would (``truco_requests_total`` and
``truco_request_seconds`` for the poll's route), and a finished tournament game's poll
compares the tournament's version too, as the view does
(:func:`scorer.app.tournament_context.board_stamp`), and every poll the match's ``dropped``
mark (its tournament took it out of its slot: issue 32), read in the same primary-key read. A guard or counter added to polls
later must be added here too, or this turned off. ``truco serve --server gunicorn`` (the
hosted recipe) has it on unless ``--no-poll-shortcut``; waitress (the laptop) has it off
unless ``--poll-shortcut``.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable
from urllib.parse import parse_qs

from flask import Flask

from scorer.app import store, tournament_context
from scorer.web.common import key_fits
from scorer.web.forms import shown_tag

POLL_PATH = re.compile(r"^/m/([^/\x00]+)/([^/\x00]+)/board$")  # a NUL: the app's 404
#: The poll's URL rule, as the app's metrics name it.
POLL_ROUTE = "/m/<match_id>/<key>/board"
#: Headers the server adds itself, never copied from the app's answer.
SERVER_HEADERS = frozenset({"date", "server", "connection", "content-length", "transfer-encoding"})


class UnchangedPolls:
    """WSGI middleware for ``app``: unchanged polls of an edit scoreboard get 204 here, the
    rest goes to ``wsgi_app`` (the app's own, with whatever wraps it)."""

    def __init__(self, app: Flask, wsgi_app: Callable) -> None:
        self.wsgi_app = wsgi_app
        self.database = app.config["DATABASE_URL"]
        hosts = app.config.get("TRUSTED_HOSTS")
        self.hosts = {h.lower() for h in hosts} if hosts else None
        self.headers: list[tuple[str, str]] | None = None  # the app's 204, once seen
        self.metrics = app.extensions.get("truco_metrics")

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        started = time.perf_counter()
        if environ.get("REQUEST_METHOD") == "GET" and self.answers(environ):
            self.count(started)
            start_response("204 NO CONTENT", list(self.headers or ()))  # answers() only once they are known
            return []
        if self.headers is None and environ.get("REQUEST_METHOD") == "GET" and POLL_PATH.match(environ.get("PATH_INFO", "")):
            return self.wsgi_app(environ, self.learn(start_response))
        return self.wsgi_app(environ, start_response)

    def learn(self, start_response: Callable) -> Callable:
        """``start_response`` that keeps the headers of the app's first 204 to a poll (if it
        sets no cookie), the ones this middleware then sends."""

        def keep(status: str, headers: list[tuple[str, str]], *args):
            if status.startswith("204") and not any(k.lower() == "set-cookie" for k, _ in headers):
                self.headers = [(k, v) for k, v in headers if k.lower() not in SERVER_HEADERS]
            return start_response(status, headers, *args)

        return keep

    def answers(self, environ: dict) -> bool:
        """Whether this request is a poll whose board is unchanged (see the module docstring)."""
        found = POLL_PATH.match(environ.get("PATH_INFO", ""))
        if found is None or self.headers is None or "HTTP_X_FORWARDED_HOST" in environ:
            return False
        if self.hosts is not None:
            host = environ.get("HTTP_HOST", "").rsplit(":", 1)[0].strip("[]").lower()
            if host not in self.hosts:
                return False
        query = parse_qs(environ.get("QUERY_STRING", ""), keep_blank_values=True)
        if set(query) - {"version", "rematch", "seen"} or any(len(v) > 1 for v in query.values()):
            return False
        args = {k: v[0] for k, v in query.items()}
        match_id, key = found.groups()
        try:
            db = store.connect(self.database)
            try:
                row = store.poll_stamp(db, match_id)  # only what is compared, no whole MatchRow
                if (row is None or not key_fits(row, key) or args.get("version", "") != str(row.version)
                        or args.get("rematch", "0") != ("1" if row.rematch else "0")):
                    return False
                # As the view's tag: a finished game's also holds its tournament's version.
                return "seen" not in args or args["seen"] == shown_tag(row, tournament_context.board_stamp(db, row))
            finally:
                db.close()
        except Exception:  # noqa: BLE001 (the app answers it, with its 503 if the database is away)
            return False

    def count(self, started: float) -> None:
        """Count the answered poll in the app's metrics, as the app counts its own."""
        metrics = self.metrics
        if metrics is not None:
            metrics.requests.labels(POLL_ROUTE, "GET", "204").inc()
            metrics.latency.labels(POLL_ROUTE).observe(time.perf_counter() - started)
