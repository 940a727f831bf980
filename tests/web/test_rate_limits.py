"""Limits that fit a bar and stop a stranger (issue 23, item 2): many phones share one
public address, so an address may tap a lot; a stranger is slowed alone, by address
(creations, wrong keys, heavy reads) or by match and tournament (taps beyond a table's,
exports). Flask's test client with ``REMOTE_ADDR`` for the client address; the same
limits through a real nginx are in ``tests/system/test_nginx_proxy.py``."""

from __future__ import annotations

import pytest
from limits import parse_many

from scorer.web import create_app
from scorer.web.hosting.security import LIMITED, RATE_LIMITS

PUBLIC = "https://truco.example"
TAP = {"type": "adjust", "side": 0, "delta": 1}
TEAMS = {"variant": "paulista", "teams": ["A", "B", "C", "D"], "confirm": True}


def make(tmp_path, **limits):
    """A public instance (loopback is not exempt with a public URL) with ``limits`` changed."""
    return create_app({"TESTING": True, "DATABASE": tmp_path / "l.sqlite3", "PUBLIC_URL": PUBLIC,
                       "RATE_LIMITS": limits})


def at(address: str) -> dict:
    return {"environ_base": {"REMOTE_ADDR": address}, "base_url": PUBLIC}


def new_match(client, address="192.0.2.1") -> dict:
    r = client.post("/api/matches", json={"variant": "paulista"}, **at(address))
    assert r.status_code == 201
    return r.get_json()


def tap(client, match, version, address, key=None) -> int:
    return client.post(f"/api/matches/{match['id']}/actions", json={"action": TAP, "version": version},
                       headers={"X-Edit-Key": key or match["edit_key"]}, **at(address)).status_code


def new_tournament(client, address="192.0.2.1") -> dict:
    r = client.post("/api/tournaments", json=TEAMS, **at(address))
    assert r.status_code == 201
    return r.get_json()


def per_minute(kind: str) -> int:
    return next(lim.amount for lim in parse_many(RATE_LIMITS[kind]) if lim.get_expiry() == 60)


def test_every_limited_endpoint_exists_and_every_write_is_limited(tmp_path):
    app = make(tmp_path)
    endpoints = set(app.view_functions)
    assert {e for names in LIMITED.values() for e in names} <= endpoints
    limited = {e for names in LIMITED.values() for e in names}
    writes = {rule.endpoint for rule in app.url_map.iter_rules() if "POST" in rule.methods}
    assert writes <= limited
    assert set(RATE_LIMITS) == set(LIMITED)


def test_one_address_tapping_7200_times_a_minute_gets_no_429(tmp_path):
    """A bar: 600 tables behind one address, each tapping every 5 s, are 7,200 taps a
    minute (120 a second). Here 120 tables tap 60 times each (a table's most,
    :data:`RATE_LIMITS` ``match_action``) from one address: after each table's first tap the
    others are a phone's stale taps (409), counted like any tap and cheaper to answer."""
    assert per_minute("action") >= 7200 and per_minute("match_action") >= 60
    client = make(tmp_path).test_client()
    matches = [new_match(client, f"10.0.{n // 100}.{n % 100}") for n in range(120)]  # created over the evening
    statuses = [tap(client, m, 0, "203.0.113.50") for _ in range(60) for m in matches]
    assert len(statuses) == 7200 and statuses.count(200) == 120 and set(statuses) == {200, 409}


def test_a_bar_opens_sixty_tables_in_a_minute_from_one_address(tmp_path):
    """Opening a bar's tables: 60 in a minute from one address, by the page and the API
    (one budget), all made."""
    client = make(tmp_path).test_client()
    made = [client.post("/matches", data={"variant": "paulista"}, **at("203.0.113.51")).status_code
            if n % 2 else client.post("/api/matches", json={"variant": "paulista"}, **at("203.0.113.51")).status_code
            for n in range(60)]
    assert made == [201, 303] * 30


def test_a_guests_wrong_keys_hold_up_no_other_table_of_the_bar(tmp_path):
    """Issue 31, item 2: one guest behind a bar's address posts 100 wrong keys on one match;
    the bar's 9 other tables, from the same address, tap and open their boards with 0
    refusals. The guest's own match stays refused from that address (and its wrong keys
    never touch the match's budget: another address taps it)."""
    bar = "203.0.113.52"
    client = make(tmp_path).test_client()
    target, *tables = [new_match(client, bar) for _ in range(10)]
    flood = [tap(client, target, 0, bar, key="guess") for _ in range(100)]
    assert flood[:60] == [403] * 60 and set(flood[60:]) == {429}
    answers = []
    for version in range(3):
        for m in tables:
            answers.append(tap(client, m, version, bar))
            answers.append(client.get(f"/m/{m['id']}/{m['edit_key']}", **at(bar)).status_code)
            answers.append(client.get(f"/m/{m['id']}/{m['edit_key']}/board?version={version}&rematch=0",
                                      **at(bar)).status_code)
    assert answers.count(429) == 0 and set(answers) <= {200, 204}
    assert client.get(f"/m/{target['id']}/{target['edit_key']}", **at(bar)).status_code == 429
    assert tap(client, target, 0, "198.51.100.60") == 200


def test_taps_on_one_match_beyond_a_tables_are_slowed_there_alone(tmp_path):
    client = make(tmp_path, match_action="5/minute").test_client()
    match, other = new_match(client), new_match(client)
    assert [tap(client, match, v, f"198.51.100.{v}") for v in range(5)] == [200] * 5  # any phone of the table
    r = client.post(f"/api/matches/{match['id']}/actions", json={"action": TAP, "version": 5},
                    headers={"X-Edit-Key": match["edit_key"], "Accept-Language": "en"}, **at("198.51.100.9"))
    assert r.status_code == 429 and r.headers["Retry-After"]
    assert "Too many requests for this match" in r.get_json()["error"]["message"]
    assert tap(client, other, 0, "198.51.100.1") == 200  # the same phones on another match


def test_wrong_keys_slow_their_address_alone_and_never_use_up_a_match(tmp_path):
    client = make(tmp_path, wrong_key="3/minute", match_action="5/minute").test_client()
    match = new_match(client)
    flood = [tap(client, match, 0, "203.0.113.66", key="guess") for _ in range(30)]
    assert flood[:3] == [403] * 3 and set(flood[3:]) == {429}
    # The table, from other addresses, taps its whole budget: the flood counted for neither.
    assert [tap(client, match, v, f"198.51.100.{v}") for v in range(5)] == [200] * 5
    # The stranger's other keyed requests on that match wait too (its address has used up its
    # wrong keys there).
    assert client.get(f"/m/{match['id']}/{match['edit_key']}", **at("203.0.113.66")).status_code == 429
    assert client.get(f"/m/{match['id']}/{match['edit_key']}", **at("198.51.100.1")).status_code == 200


@pytest.mark.parametrize("path", ["/api/tournaments", "/tournaments"])
def test_creating_tournaments_has_its_own_budget_per_address(tmp_path, path):
    client = make(tmp_path, tournament="2/minute").test_client()

    def create(address):
        if path == "/tournaments":
            return client.post(path, data={"variant": "paulista", "teams": "A\nB\nC\nD"}, **at(address)).status_code
        return client.post(path, json=TEAMS, **at(address)).status_code

    assert [create("203.0.113.7") for _ in range(3)] == [201 if path.startswith("/api") else 303] * 2 + [429]
    assert create("198.51.100.7") in (201, 303)
    assert new_match(client, "203.0.113.7")["id"]  # matches keep their own budget


@pytest.mark.parametrize("path", ["/export", "/results.csv"])
def test_a_tournaments_exports_are_counted_per_tournament_and_per_address(tmp_path, path):
    client = make(tmp_path, match_read="3/minute", read="5/minute").test_client()
    t, other = new_tournament(client), new_tournament(client, "192.0.2.2")
    url = f"/api/tournaments/{t['id']}{path}"
    assert [client.get(url, **at(f"198.51.100.{n}")).status_code for n in range(4)] == [200] * 3 + [429]
    assert client.get(f"/api/tournaments/{other['id']}{path}", **at("198.51.100.1")).status_code == 200
    # One address reading many tournaments and matches: its own heavy-read budget.
    reads = [client.get(f"/api/tournaments/{other['id']}", **at("203.0.113.8")).status_code for _ in range(6)]
    assert reads == [200] * 5 + [429]


def test_a_matchs_exports_are_counted_per_match(tmp_path):
    client = make(tmp_path, match_read="2/minute").test_client()
    match, other = new_match(client), new_match(client)
    for path in ("export", "log.csv"):
        assert client.get(f"/api/matches/{match['id']}/{path}", **at("198.51.100.1")).status_code == 200
    assert client.get(f"/api/matches/{match['id']}/export", **at("198.51.100.2")).status_code == 429
    assert client.get(f"/api/matches/{other['id']}/export", **at("198.51.100.2")).status_code == 200


@pytest.mark.parametrize("page", ["", "/cards"])
def test_the_organizers_pages_and_the_tv_are_heavy_reads(tmp_path, page):
    client = make(tmp_path, read="2/minute").test_client()
    t = new_tournament(client)
    organizer = f"/t/{t['id']}/{t['organizer_key']}{page}"
    assert [client.get(organizer, **at("203.0.113.9")).status_code for _ in range(3)] == [200, 200, 429]
    assert client.get(f"/tv/{t['id']}", **at("203.0.113.9")).status_code == 429
    assert client.get(f"/tv/{t['id']}", **at("198.51.100.9")).status_code == 200


def test_corrections_and_confirmations_are_counted_per_tournament(tmp_path):
    client = make(tmp_path, match_action="2/minute").test_client()
    t = new_tournament(client)
    org = {"X-Organizer-Key": t["organizer_key"]}
    rename = {"kind": "rename", "team": 0, "name": "Ases"}
    statuses = [client.post(f"/api/tournaments/{t['id']}/corrections", json=rename, headers=org,
                            **at(f"198.51.100.{n}")).status_code for n in range(3)]
    assert statuses == [200, 200, 429]
    page = client.post(f"/t/{t['id']}/{t['organizer_key']}/corrections", data={"kind": "rename", "team": "1",
                       "name": "Reis"}, **at("198.51.100.5"))
    assert page.status_code == 429
    # A wrong organizer key uses up nothing of the tournament's budget.
    other = new_tournament(client)
    for _ in range(3):
        assert client.post(f"/api/tournaments/{other['id']}/corrections", json=rename,
                           headers={"X-Organizer-Key": "guess"}, **at("203.0.113.10")).status_code == 403
    assert client.post(f"/api/tournaments/{other['id']}/corrections", json=rename,
                       headers={"X-Organizer-Key": other["organizer_key"]}, **at("198.51.100.6")).status_code == 200

