"""The match's export its own phones keep, read with the edit key (issue 30, item 4;
``GET /m/<id>/<key>/export.json?since=N``, endpoint ``matches.keyed_export``).

Each phone keeps the match's export to play on offline, and reads it again after every change.
The public export (``/api/matches/<id>/export``) allows 30 a minute per match, shared by every
phone and every stranger who knows the watch link: a table of four phones tapping every 5 s got
14 of 44 refused. The keyed read has a budget of its own per match (counting only the right
key), sends only the actions the phone lacks, and is never cached."""

from __future__ import annotations

import pytest
from limits import parse_many

from scorer.web import create_app
from scorer.web.hosting.security import RATE_LIMITS
from tests.web_client import EN, ES, PT

PUBLIC = "https://truco.example"
TRUCO0 = {"type": "call", "side": 0, "call": "truco"}
PLAYED = [TRUCO0, {"type": "quiero", "side": 1}, {"type": "hand_winner", "side": 0},
          {"type": "hand_winner", "side": 1}]


@pytest.fixture
def app(migrated_db_url):
    return create_app({"TESTING": True, "DATABASE": migrated_db_url})


@pytest.fixture
def client(app):
    return app.test_client()


def played(client, actions=PLAYED, **kw) -> dict:
    """A new paulista match with ``actions`` recorded (``kw``: the test client's request options)."""
    m = client.post("/api/matches", json={"variant": "paulista", "names": ["Nós", "Eles"]}, **kw).get_json()
    for version, action in enumerate(actions):
        r = client.post(f"/api/matches/{m['id']}/actions", json={"action": action, "version": version},
                        headers={"X-Edit-Key": m["edit_key"]}, **kw)
        assert r.status_code == 200
    return m


def copy_url(m: dict, since=None) -> str:
    return f"/m/{m['id']}/{m['edit_key']}/export.json" + ("" if since is None else f"?since={since}")


@pytest.mark.parametrize("since, expected_since, tail", [
    (None, 0, PLAYED), (0, 0, PLAYED), (1, 1, PLAYED[1:]), (3, 3, PLAYED[3:]), (4, 4, []),
    (5, 0, PLAYED), (10**40, 0, PLAYED),  # past the match: the whole export
])
def test_it_is_the_export_with_the_actions_from_since_on(client, since, expected_since, tail):
    m = played(client)
    public = client.get(f"/api/matches/{m['id']}/export").get_json()
    r = client.get(copy_url(m, since))
    assert r.status_code == 200 and r.headers["Cache-Control"] == "no-store"
    got = r.get_json()
    assert got == {**public, "actions": tail, "since": expected_since, "version": 4}
    assert got["since"] + len(got["actions"]) == got["version"]


def test_an_undo_is_an_action_added_so_since_stays_right(client):
    """The action list only grows: an Undo is one more action, the ones before stay as they were."""
    m = played(client)
    before = client.get(copy_url(m)).get_json()["actions"]
    assert client.post(f"/api/matches/{m['id']}/actions", json={"action": {"type": "undo"}, "version": 4},
                       headers={"X-Edit-Key": m["edit_key"]}).status_code == 200
    after = client.get(copy_url(m, 4)).get_json()
    assert after["actions"] == [{"type": "undo"}] and after["version"] == 5
    assert client.get(copy_url(m)).get_json()["actions"] == before + [{"type": "undo"}]


@pytest.mark.parametrize("since", ["-1", "x", "1.5", "", "+1", "1e3", "²", "0x1", " 1"])
@pytest.mark.parametrize("headers, words", [(PT, "número inteiro"), (ES, "número entero"), (EN, "whole number")])
def test_a_bad_since_is_a_translated_422(client, since, headers, words):
    m = played(client)
    r = client.get(f"/m/{m['id']}/{m['edit_key']}/export.json", query_string={"since": since}, headers=headers)
    assert r.status_code == 422
    error = r.get_json()["error"]
    assert "since" in error["message"] and words in error["message"]


def test_a_wrong_key_is_403_and_an_unknown_match_404_as_json(client):
    m = played(client, [])
    wrong = client.get(f"/m/{m['id']}/not-the-key/export.json")
    assert wrong.status_code == 403 and len(wrong.get_json()["error"]["message"]) > 10
    assert "actions" not in wrong.get_json()
    assert client.get(f"/m/nope/{m['edit_key']}/export.json").status_code == 404


def test_the_phones_engine_config_lists_its_url_rule(client):
    routes = client.get("/engine.json").get_json()["routes"]
    assert routes["matches.keyed_export"] == "/m/<match_id>/<key>/export.json"


# ------------------------------------------------------------------ its own budget


def public_app(tmp_path, **limits):
    """A public instance (loopback is not exempt with a public URL) with ``limits`` changed."""
    return create_app({"TESTING": True, "DATABASE": tmp_path / "l.sqlite3", "PUBLIC_URL": PUBLIC,
                       "RATE_LIMITS": limits})


def at(address: str) -> dict:
    return {"environ_base": {"REMOTE_ADDR": address}, "base_url": PUBLIC}


def test_eight_phones_reading_after_every_change_for_a_minute_are_never_refused(tmp_path):
    """The default limits: a change every second for a minute, read by 8 phones each (480
    reads), while strangers use up the public export's budget of the same match."""
    assert next(lim.amount for lim in parse_many(RATE_LIMITS["match_copy"]) if lim.get_expiry() == 60) >= 480
    client = public_app(tmp_path).test_client()
    m = played(client, [], **at("192.0.2.1"))
    stranger = [client.get(f"/api/matches/{m['id']}/export", **at(f"203.0.113.{n}")).status_code for n in range(40)]
    assert stranger.count(429) == 10  # 30 a minute per match
    statuses = []
    for change in range(60):
        r = client.post(f"/api/matches/{m['id']}/actions", json={"action": {"type": "adjust", "side": change % 2,
                                                                           "delta": 1} if change % 3 else
                                                                 {"type": "undo"} if change else TRUCO0,
                                                                 "version": change},
                        headers={"X-Edit-Key": m["edit_key"]}, **at("198.51.100.1"))
        assert r.status_code == 200, r.get_json()
        statuses += [client.get(copy_url(m, change), **at("198.51.100.1")).status_code for _phone in range(8)]
    assert statuses == [200] * 480


def test_its_budget_is_the_matchs_own_and_counts_only_the_right_key(tmp_path):
    client = public_app(tmp_path, match_copy="3/minute", wrong_key="2/minute").test_client()
    m, other = played(client, [], **at("192.0.2.1")), played(client, [], **at("192.0.2.2"))
    # A stranger guessing keys: 403, then 429 for its address; the table's budget is untouched.
    guesses = [client.get(f"/m/{m['id']}/guess-{n}/export.json", **at("203.0.113.9")).status_code for n in range(4)]
    assert guesses == [403, 403, 429, 429]
    reads = [client.get(copy_url(m), headers=EN, **at(f"198.51.100.{n}")) for n in range(4)]
    assert [r.status_code for r in reads] == [200, 200, 200, 429]
    refused = reads[-1]
    assert refused.headers["Retry-After"] and "Too many requests for this match" in refused.get_json()["error"]["message"]
    # The refusal goes on before Flask (the flood gate), as JSON too.
    again = client.get(copy_url(m, 0), headers=EN, **at("198.51.100.9"))
    assert again.status_code == 429 and again.get_json()["error"]["code"] == "too_many_requests"
    assert client.get(copy_url(other), **at("198.51.100.1")).status_code == 200  # another match: its own budget
    # The keyed reads never counted in the public export's budget.
    assert client.get(f"/api/matches/{m['id']}/export", **at("198.51.100.1")).status_code == 200
