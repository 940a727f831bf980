"""An unchanged scoreboard poll answered before Flask (``truco serve --server gunicorn --poll-shortcut``).

Nine requests in ten of a table are a phone asking whether its board changed (``GET
/m/<id>/<key>/board?version=V&rematch=R&seen=T``) and being told 204, no. Through Flask
that answer costs about 0.36 ms of CPU on gunicorn, of which the server is 0.10 ms (issue 23,
docs/hosting.md "Phones and tables per core"): the rest is Flask's request and app contexts, its
hooks and the response object. :class:`UnchangedPolls` answers exactly those polls itself:
one primary-key read of the match row, the key's hash compared in constant time, the
version, Revanche and names tag compared as :func:`scorer.web.forms.unchanged` does, then
the same 204 with the same headers Flask sent for the first such poll of this process.
Every other request, and every poll it is not sure of (a wrong key, an unknown match, a
changed board, a ``Host`` that is not the public one, a database error, a proxy's
forwarded host), goes to the app unchanged, which answers it as before.

What it skips for the polls it answers: everything the app does per request. Nothing there
refuses or counts an unchanged poll today (no rate limit applies to it, no cookie is set);
a guard or counter added to polls later must be added here too, or this turned off.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from urllib.parse import parse_qs

from flask import Flask

from scorer.app import store
from scorer.web.common import key_fits
from scorer.web.forms import shown_tag

POLL_PATH = re.compile(r"^/m/([^/]+)/([^/]+)/board$")
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

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") == "GET" and self.answers(environ):
            start_response("204 NO CONTENT", list(self.headers))
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
                row = store.get_match(db, match_id)
            finally:
                db.close()
        except Exception:  # noqa: BLE001 (the app answers it, with its 503 if the database is away)
            return False
        return (
            row is not None
            and key_fits(row, key)
            and args.get("version", "") == str(row.version)
            and args.get("rematch", "0") == ("1" if row.rematch else "0")
            and ("seen" not in args or args["seen"] == shown_tag(row))
        )
