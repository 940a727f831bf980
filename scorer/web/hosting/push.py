"""Changes pushed to the phones (issue 34; docs/hosting.md, "Push"): where the host runs nginx's
push module (Debian's ``libnginx-mod-nchan``), a board's phones each hold one server-sent-events
stream that nginx keeps open, and ``truco serve`` tells nginx when a match changed. The phone
then asks for its board at once, the same request as its poll (so exactly-once and the taps'
machine are unchanged); while the stream is alive it polls only every ten minutes.

The app's part is small: :class:`Publisher` posts ``changed`` to nginx's publisher address for
the channel of every match (``m-<id>``) and tournament (``t-<id>``: its TV and organizer pages;
a tournament match's write publishes its tournament too) that a successful write touched, from one background
thread per process (a tap's answer never waits on it; a publish that fails is dropped, and the
phones' own polls cover it); the templates get :func:`push_url` for the stream's address.
Several app processes or machines publish to the same nginx, which holds every phone's stream:
no connection is held by ``truco serve``. Without ``--push-publish`` (the laptop's waitress) no
stream is opened and the phones poll every second, as before.

Settings (:func:`scorer.web.create_app`): ``PUSH_PUBLISH_URL`` (nginx's publisher, e.g.
``http://127.0.0.1:8001/pub/``; None: push off), ``PUSH_PATH`` (where the phones open their
stream, ``/push/``), ``PUSH_PING_SECONDS`` (nginx's ``nchan_eventsource_ping_interval``: the
phone trusts the stream while it hears something at least every 2.5 pings).
"""

from __future__ import annotations

import http.client
import logging
import os
import threading
from collections import OrderedDict
from urllib.parse import urlsplit

from flask import Flask, Response, current_app, request

from scorer.app import store
from scorer.app.store import tournaments as tstore
from scorer.web.db import get_db

log = logging.getLogger(__name__)

#: Requests that change what a board shows (a successful one publishes its match's channel).
WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
#: Seconds a publish may take before it is dropped (nginx is on the same machine or network).
PUBLISH_TIMEOUT = 2.0
#: Matches whose tournament (or none) each process remembers: a match never changes tournament.
KNOWN_MATCHES = 4096


class Publisher:
    """Posts ``changed`` to ``url + channel`` for each channel given to :meth:`publish`, in a
    daemon thread of this process (started at the first publish, so a forked worker starts its
    own). Channels published again before the thread takes them are sent once."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        if parts.scheme != "http" or not parts.hostname:
            raise ValueError(f"the push publisher must be an http:// address, not {url!r}")
        self.host, self.port = parts.hostname, parts.port or 80
        self.path = parts.path if parts.path.endswith("/") else parts.path + "/"
        self.pending: set[str] = set()
        self.ready = threading.Condition()
        self.pid: int | None = None
        self.sent = self.failed = 0

    def publish(self, channel: str) -> None:
        """Queue ``channel`` (``m-<match id>``); returns at once."""
        with self.ready:
            if self.pid != os.getpid():  # first publish in this process (a fork has no thread)
                self.pid = os.getpid()
                threading.Thread(target=self._run, name="truco-push", daemon=True).start()
            self.pending.add(channel)
            self.ready.notify()

    def _run(self) -> None:
        conn: http.client.HTTPConnection | None = None
        while True:
            with self.ready:
                while not self.pending:
                    self.ready.wait()
                channels, self.pending = self.pending, set()
            for channel in sorted(channels):
                conn = self._send(conn, channel)

    def _send(self, conn: http.client.HTTPConnection | None, channel: str) -> http.client.HTTPConnection | None:
        """One publish on the kept connection (a new one after an error); returns the
        connection to keep, or None."""
        last: Exception | None = None
        for _attempt in range(2):  # nginx closed the kept connection: once more on a new one
            try:
                if conn is None:
                    conn = http.client.HTTPConnection(self.host, self.port, timeout=PUBLISH_TIMEOUT)
                conn.request("POST", self.path + channel, body=b"changed",
                             headers={"X-EventSource-Event": "changed", "Content-Type": "text/plain"})
                answer = conn.getresponse()
                answer.read()
                if answer.status < 300:
                    self.sent += 1
                    return conn
                raise OSError(f"nginx answered {answer.status}")
            except (OSError, http.client.HTTPException) as error:
                if conn is not None:
                    conn.close()
                conn = None
                last = error
        self.failed += 1
        log.warning("push to %s failed: %s (the phones' polls cover it)", channel, last)
        return None


def push_url(kind: str, ident: str) -> str | None:
    """Where a page opens its stream: ``PUSH_PATH`` + ``m/<match id>`` (a board, a watch page)
    or ``t/<tournament id>`` (the TV, the organizer page); None when push is off. For the
    templates."""
    if not current_app.config.get("PUSH_PUBLISH_URL"):
        return None
    return f"{current_app.config.get('PUSH_PATH', '/push/')}{kind}/{ident}"


class TournamentOf:
    """The tournament a match plays in (its Revanche series' slot), or None: read once per
    match and process, the newest :data:`KNOWN_MATCHES` kept."""

    def __init__(self) -> None:
        self.known: OrderedDict[str, str | None] = OrderedDict()
        self.lock = threading.Lock()

    def __call__(self, match_id: str) -> str | None:
        with self.lock:
            if match_id in self.known:
                self.known.move_to_end(match_id)
                return self.known[match_id]
        db = get_db()
        row = store.get_match(db, match_id)
        found = tstore.slot_of_series(db, row.series) if row is not None else None
        tid = found[0] if found else None
        with self.lock:
            self.known[match_id] = tid
            while len(self.known) > KNOWN_MATCHES:
                self.known.popitem(last=False)
        return tid


def init_app(app: Flask) -> None:
    """With ``PUSH_PUBLISH_URL``: publish every successful write to its match's channel (and
    its tournament's) or its tournament's, and give the templates :func:`push_url`. Without it:
    :func:`push_url` is None, nothing else.

    :raise ValueError: ``PUSH_PUBLISH_URL`` is not an ``http://`` address.
    """
    app.jinja_env.globals.update(push_url=push_url, PUSH_PING_SECONDS=app.config.get("PUSH_PING_SECONDS", 20))
    url = app.config.get("PUSH_PUBLISH_URL")
    if not url:
        return
    publisher = Publisher(url)
    app.extensions["truco_push"] = publisher
    tournament_of = TournamentOf()

    @app.after_request
    def publish_change(response: Response) -> Response:
        if request.method not in WRITES or not 200 <= response.status_code < 400:
            return response
        args = request.view_args or {}
        tid = args.get("tid")
        if args.get("match_id"):
            publisher.publish(f"m-{args['match_id']}")
            try:
                tid = tid or tournament_of(args["match_id"])
            except store.DBAPIError:
                log.warning("the tournament of match %s could not be read: its TV polls", args["match_id"])
        if tid:
            publisher.publish(f"t-{tid}")
        return response
