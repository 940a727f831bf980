"""A tap's ``Idempotency-Key`` header that is not ASCII, through real servers (issue 30, item 5).

An HTTP header's bytes reach the app as the server decodes them: waitress hands over Latin-1
text (``\\xa0`` and ``\\x85`` are spaces to ``str.strip``), granian an empty value for anything
not ASCII. Either way the tap was once recorded as a tap without a key, so its repeat was
recorded again. Now such a header is a 422 that says what was wrong and records nothing. Sent
as raw bytes with ``http.client`` to ``truco serve`` on each server; the same headers through
Flask's test client are in ``tests/web/test_exactly_once_taps.py``.
"""

from __future__ import annotations

import http.client
import json

import pytest

from live_server import Client, Server, stored

WON0 = {"type": "hand_winner", "side": 0}
BAD = [b"", b"   ", "çãoçãoçãoção".encode(), "çãoçãoçãoção".encode("latin-1"), b"\xa0\xa0\xa0", b"\x85",
       "tap-\u00e9-key-0001".encode()]


@pytest.fixture(scope="module", params=["waitress", "granian"])
def server(request, tmp_path_factory):
    db = tmp_path_factory.mktemp("tap-key-header") / "header.sqlite3"
    s = Server(db, args=["--server", request.param])
    s.db = db
    yield s
    s.stop()


def post(port: int, path: str, body: bytes, content_type: str, headers: dict[str, bytes | str]):
    """``(status, body text)`` of a POST whose headers go as the bytes given."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.putrequest("POST", path)
        for name, value in {"Content-Type": content_type, "Content-Length": str(len(body)), **headers}.items():
            conn.putheader(name, value)
        conn.endheaders(body)
        r = conn.getresponse()
        return r.status, r.read().decode("utf-8", "replace")
    finally:
        conn.close()


def new_match(port: int) -> dict:
    c = Client(port)
    try:
        status, match, _ = c.request("POST", "/api/matches", {"variant": "paulista"})
    finally:
        c.close()
    assert status == 201
    return match


@pytest.mark.parametrize("header", BAD, ids=repr)
def test_a_key_header_that_is_blank_or_not_ascii_is_a_422_and_records_nothing(server, header):
    match = new_match(server.port)
    api = post(server.port, f"/api/matches/{match['id']}/actions",
               json.dumps({"action": WON0, "version": 0}).encode(), "application/json",
               {"X-Edit-Key": match["edit_key"], "Idempotency-Key": header, "Accept-Language": "en"})
    form = post(server.port, f"/m/{match['id']}/{match['edit_key']}/actions",
                f"action={json.dumps(WON0)}&version=0".encode(), "application/x-www-form-urlencoded",
                {"HX-Request": "true", "Idempotency-Key": header})
    assert (api[0], form[0]) == (422, 422), (api, form)
    assert "Idempotency-Key" in json.loads(api[1])["error"]["message"]
    assert stored(server.db, match["id"]) == {}


def test_an_ascii_key_header_records_its_tap_once(server):
    match = new_match(server.port)
    answers = [post(server.port, f"/api/matches/{match['id']}/actions",
                    json.dumps({"action": WON0, "version": 0}).encode(), "application/json",
                    {"X-Edit-Key": match["edit_key"], "Idempotency-Key": b'"tap-header-key-0001"'})[0]
               for _ in range(2)]
    assert answers == [200, 200]  # the second is the repeat of the first: nothing more recorded
    assert stored(server.db, match["id"]) == {0: WON0}
