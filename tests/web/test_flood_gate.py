"""scorer/web/hosting/flood_gate.py: once the limiter refused a client, its next requests of that
kind get the same 429 before Flask (issue 23, item 2: a refused flood costs the app almost
nothing), and nobody else's do. ``calls`` counts the requests that reached Flask."""

from __future__ import annotations

import pytest

from scorer.web import create_app
from scorer.web.hosting import flood_gate
from scorer.web.hosting.ops import registry

PUBLIC = "https://truco.example"
TAP = {"type": "adjust", "side": 0, "delta": 1}


@pytest.fixture
def gated(tmp_path):
    """``gated(**limits)``: ``(client, calls)`` of a public instance with ``limits``."""

    def make(**limits):
        app = create_app({"TESTING": True, "DATABASE": tmp_path / "g.sqlite3", "PUBLIC_URL": PUBLIC,
                          "RATE_LIMITS": limits})
        calls: list[str] = []
        app.before_request(lambda: calls.append("flask"))
        return app, app.test_client(), calls

    return make


def at(address: str, **headers) -> dict:
    return {"environ_base": {"REMOTE_ADDR": address}, "base_url": PUBLIC, "headers": headers}


def new_match(client) -> dict:
    r = client.post("/api/matches", json={"variant": "paulista"}, **at("192.0.2.1"))
    assert r.status_code == 201
    return r.get_json()


def tap(client, match, version, address, key=None, **headers):
    return client.post(f"/api/matches/{match['id']}/actions", json={"action": TAP, "version": version},
                       **at(address, **{"X-Edit-Key": key or match["edit_key"], **headers}))


@pytest.mark.parametrize(("language", "words"), [("en", "Too many requests from this device"),
                                                 ("es", "Demasiadas solicitudes desde este dispositivo")])
def test_a_refused_address_gets_the_apps_429_again_without_flask(gated, language, words):
    app, client, calls = gated(wrong_key="3/minute")
    match = new_match(client)
    assert [tap(client, match, 0, "203.0.113.7", "guess").status_code for _ in range(3)] == [403] * 3
    first = tap(client, match, 0, "203.0.113.7", "guess", **{"Accept-Language": language})
    assert first.status_code == 429  # the limiter's refusal, through Flask
    before = len(calls)
    again = [tap(client, match, 0, "203.0.113.7", "guess", **{"Accept-Language": language}) for _ in range(20)]
    assert len(calls) == before  # none of them reached Flask
    for r in again:
        assert r.status_code == 429 and r.get_json() == first.get_json() and words in r.get_json()["error"]["message"]
        assert 1 <= int(r.headers["Retry-After"]) <= 60
        assert r.headers["Strict-Transport-Security"] and r.headers["Cache-Control"] == "no-store"
    # Every keyed request of that address on that match waits (the app's own rule), a page too: as text.
    client.set_cookie("lang", "en", domain="truco.example")
    page = client.get(f"/m/{match['id']}/{match['edit_key']}", **at("203.0.113.7"))
    assert page.status_code == 429 and page.mimetype == "text/plain" and len(calls) == before
    assert page.get_data(as_text=True).startswith("Too many requests from this device")
    text = registry(app).get_sample_value("truco_rate_limited_total", {"route": "/api/matches/<match_id>/actions"})
    assert text == 21  # the gate's refusals are counted as the app's are


def test_other_addresses_and_unlimited_requests_still_reach_the_app(gated):
    _app, client, calls = gated(wrong_key="2/minute")
    match = new_match(client)
    for _ in range(4):
        tap(client, match, 0, "203.0.113.8", "guess")
    assert tap(client, match, 0, "203.0.113.8", "guess").status_code == 429
    before = len(calls)
    assert tap(client, match, 0, "198.51.100.1").status_code == 200  # the table, elsewhere
    assert client.get("/", **at("203.0.113.8")).status_code == 200  # the stranger's unkeyed page
    assert len(calls) == before + 2


def test_wrong_keys_hold_their_address_on_that_match_alone(gated):
    """Issue 31, item 2: the gate holds a wrong-key refusal for that address on that match:
    the same address's other matches (a bar's other tables) and the other addresses on that
    match reach the app and are answered as usual."""
    app, client, calls = gated(wrong_key="2/minute")
    match, other = new_match(client), new_match(client)
    for _ in range(2):
        assert tap(client, match, 0, "203.0.113.20", "guess").status_code == 403
    assert tap(client, match, 0, "203.0.113.20", "guess").status_code == 429
    before = len(calls)
    assert tap(client, match, 0, "203.0.113.20").status_code == 429 and len(calls) == before  # held before Flask
    assert tap(client, other, 0, "203.0.113.20").status_code == 200
    assert client.get(f"/m/{other['id']}/{other['edit_key']}", **at("203.0.113.20")).status_code == 200
    assert tap(client, match, 0, "198.51.100.20").status_code == 200
    assert len(calls) == before + 3
    gate = app.extensions["truco_flood_gate"]
    assert gate.addresses == {"203.0.113.20": 1} and gate.matches == 0


def test_a_refused_match_is_held_alone_whoever_taps_it(gated):
    _app, client, calls = gated(match_action="2/minute")
    match, other = new_match(client), new_match(client)
    assert [tap(client, match, v, "198.51.100.2").status_code for v in range(2)] == [200, 200]
    assert tap(client, match, 2, "198.51.100.2").status_code == 429
    before = len(calls)
    r = tap(client, match, 2, "198.51.100.3", **{"Accept-Language": "en"})  # another phone of that table
    assert r.status_code == 429 and "for this match" in r.get_json()["error"]["message"] and len(calls) == before
    assert tap(client, other, 0, "198.51.100.2").status_code == 200 and len(calls) == before + 1


def test_the_refusal_ends_with_the_limiters_window(gated, monkeypatch):
    import time

    _app, client, calls = gated(wrong_key="1/minute")
    match = new_match(client)
    tap(client, match, 0, "203.0.113.9", "guess")
    assert tap(client, match, 0, "203.0.113.9", "guess").status_code == 429
    before = len(calls)
    assert tap(client, match, 0, "203.0.113.9", "guess").status_code == 429 and len(calls) == before
    later = time.time() + 61
    monkeypatch.setattr(flood_gate.time, "time", lambda: later)
    tap(client, match, 0, "203.0.113.9", "guess")
    assert len(calls) == before + 1  # the window is over for the gate: the app decides again


def test_an_ended_refusal_is_forgotten(gated, monkeypatch):
    """Once every window is over the gate holds nothing, so requests skip it at once."""
    import time

    app, client, _calls = gated(wrong_key="1/minute")
    match = new_match(client)
    tap(client, match, 0, "203.0.113.10", "guess")
    assert tap(client, match, 0, "203.0.113.10", "guess").status_code == 429
    gate = app.extensions["truco_flood_gate"]
    assert gate.refused and gate.addresses
    later = time.time() + 61
    monkeypatch.setattr(flood_gate.time, "time", lambda: later)
    assert client.get("/", **at("198.51.100.4")).status_code == 200
    assert not gate.refused and not gate.addresses and gate.matches == 0
