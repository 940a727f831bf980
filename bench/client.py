"""Small HTTP helpers over one keep-alive connection: the JSON API and the htmx form posts.

The bench creates and drives matches with the JSON API (``POST /api/matches``,
``POST /api/matches/<id>/actions`` with ``X-Edit-Key``) and times the request a phone
makes when a button is tapped: the htmx form post to ``/m/<id>/<key>/actions`` that
answers the scoreboard fragment.
"""

from __future__ import annotations

import http.client
import json
import re
import time
import urllib.parse
from dataclasses import dataclass
from typing import Any

from bench.states import LONG_MATCH, first_call

VERSION_ATTR = re.compile(rb'data-version="(\d+)"')


class HttpError(RuntimeError):
    """An answer the bench did not expect (status, body excerpt)."""


@dataclass
class MatchRef:
    """A match the bench created: id, edit key, current version."""

    id: str
    key: str
    version: int = 0

    def poll_path(self, version: int | None = None) -> str:
        v = self.version if version is None else version
        return f"/m/{self.id}/{self.key}/board?version={v}&rematch=0"

    def page_path(self) -> str:
        return f"/m/{self.id}/{self.key}"

    def action_path(self) -> str:
        return f"/m/{self.id}/{self.key}/actions"


class Client:
    """One keep-alive HTTP/1.1 connection to the server (reconnects when closed)."""

    def __init__(self, base: str, timeout: float = 10.0, source: str | None = None) -> None:
        u = urllib.parse.urlsplit(base)
        self.host, self.port, self.timeout = u.hostname, u.port, timeout
        self.source = (source, 0) if source else None  # a loopback address to send from (127.0.0.2)
        self.conn = self.connect()

    def connect(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection(self.host, self.port, timeout=self.timeout, source_address=self.source)

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict[str, str] | None = None) -> tuple[int, bytes, float]:
        """``(status, body, seconds)``; the time covers sending to the last body byte."""
        for attempt in (0, 1):
            t0 = time.perf_counter()
            try:
                self.conn.request(method, path, body=body, headers=headers or {})
                resp = self.conn.getresponse()
                data = resp.read()
                return resp.status, data, time.perf_counter() - t0
            except (http.client.HTTPException, ConnectionError):
                self.conn.close()
                self.conn = self.connect()
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        self.conn.close()

    # ----------------------------------------------------------------- JSON API

    def create_match(self, variant: str = LONG_MATCH, mano: int = 0) -> MatchRef:
        """``POST /api/matches``: a new match (201)."""
        body = json.dumps({"variant": variant, "options": {}, "names": ["Nós", "Eles"], "mano": mano}).encode()
        status, data, _ = self.request("POST", "/api/matches", body, {"Content-Type": "application/json"})
        if status != 201:
            raise HttpError(f"POST /api/matches answered {status}: {data[:300]!r}")
        d = json.loads(data)
        return MatchRef(d["id"], d["edit_key"], d["state"]["version"])

    def api_act(self, m: MatchRef, action: dict[str, Any]) -> dict[str, Any]:
        """``POST /api/matches/<id>/actions`` on the current version; returns the new state."""
        body = json.dumps({"action": action, "version": m.version}).encode()
        status, data, _ = self.request(
            "POST", f"/api/matches/{m.id}/actions", body,
            {"Content-Type": "application/json", "X-Edit-Key": m.key},
        )
        if status != 200:
            raise HttpError(f"API action {action} at v{m.version} answered {status}: {data[:300]!r}")
        state = json.loads(data)
        m.version = state["version"]
        return state

    # ----------------------------------------------------------------- htmx

    def form_undo(self, m: MatchRef) -> None:
        """Undo the last action with the confirmed Undo form, without JavaScript (303, no
        state built): the bench's untimed reset, cheap at any length of the match."""
        form = urllib.parse.urlencode({"version": str(m.version), "action": json.dumps({"type": "undo"}),
                                       "confirmed": "1"}).encode()
        status, data, _ = self.request("POST", m.action_path(), form,
                                       {"Content-Type": "application/x-www-form-urlencoded"})
        if status != 303:
            raise HttpError(f"undo at v{m.version} answered {status}: {data[:300]!r}")
        m.version += 1

    def htmx_act(self, m: MatchRef, action: dict[str, Any]) -> tuple[float, int]:
        """Tap a button: the htmx form post that answers the scoreboard fragment.

        Returns ``(seconds, fragment bytes)``.
        """
        form = urllib.parse.urlencode({"version": str(m.version), "action": json.dumps(action)}).encode()
        status, data, secs = self.request(
            "POST", m.action_path(), form,
            {"Content-Type": "application/x-www-form-urlencoded", "HX-Request": "true",
             "HX-Target": "scoreboard", "HX-Current-URL": "http://127.0.0.1" + m.page_path()},
        )
        if status != 200:
            raise HttpError(f"htmx action {action} at v{m.version} answered {status}: {data[:300]!r}")
        found = VERSION_ATTR.search(data)
        if found:
            m.version = int(found.group(1))
        else:
            m.version += 1
        return secs, len(data)


# Actions used to build long matches whose score never reaches the target: a Truco
# refused (1 tento to the caller), then a correction of that tento. Each action adds a
# real log entry, so the match's history (and its log) grows with the version.
def long_match_cycle(hand: int) -> list[dict[str, Any]]:
    """Three actions that leave the score unchanged and start the next hand."""
    side = hand % 2
    return [
        {"type": "call", "side": side, "call": first_call(LONG_MATCH)},
        {"type": "no_quiero", "side": 1 - side},
        {"type": "adjust", "side": side, "delta": -1},
    ]


def drive_to(client: Client, m: MatchRef, version: int) -> None:
    """Apply long-match cycles through the JSON API until ``m`` is at ``version``."""
    hand = 0
    while m.version < version:
        for action in long_match_cycle(hand):
            if m.version >= version:
                break
            client.api_act(m, action)
        hand += 1
