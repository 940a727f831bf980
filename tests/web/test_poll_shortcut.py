"""scorer/web/hosting/poll_shortcut.py: an unchanged poll answered before Flask, the same answer as Flask's."""

from __future__ import annotations

import json
import re

import pytest

from scorer.web import create_app
from scorer.web.forms import shown_tag

HX = {"HX-Request": "true"}


def pair(tmp_path, **config):
    """The same database served with and without the shortcut: ``(plain, shortcut, flask_calls)``;
    ``flask_calls`` counts the requests that reached the shortcut app's Flask."""
    base = {"TESTING": True, "DATABASE": tmp_path / "s.sqlite3", "GHOST_TAP_SECONDS": 0, **config}
    plain, short = create_app(base), create_app({**base, "POLL_SHORTCUT": True})
    calls = []
    short.before_request(lambda: calls.append(1))
    return plain.test_client(), short.test_client(), calls


def new_match(client, host: str = "localhost"):
    """A match with one action: ``(board path, row)``."""
    r = client.post("/api/matches", json={"variant": "paulista"}, headers={"Host": host})
    made = r.get_json()
    path = f"/m/{made['id']}/{made['edit_key']}"
    client.post(path + "/actions", data={"action": json.dumps({"type": "hand_winner", "side": 0}), "version": "0"},
                headers={**HX, "Host": host})
    from scorer.app import store

    db = store.connect(client.application.config["DATABASE_URL"])
    try:
        return path, store.get_match(db, made["id"])
    finally:
        db.close()


def answer(response):
    """What a phone sees: status, the headers the app sets, and the body (of a board, the
    version it shows: its render time and change marks differ from one answer to the next)."""
    found = re.search(rb'data-version="(\d+)"', response.data)
    body = found.group(1) if found else response.data
    return response.status_code, body, sorted((k, v) for k, v in response.headers.items() if k != "Content-Length")


@pytest.mark.parametrize(
    ("query", "shortcut_answers"),
    [
        ("version=1&rematch=0", True),  # unchanged
        ("version=1&rematch=0&seen={seen}", True),  # unchanged, with the board's names tag
        ("version=0&rematch=0", False),  # changed: the new board
        ("version=1&rematch=1", False),  # the phone shows a Revanche this match does not have
        ("version=1&rematch=0&seen=000000000000", False),  # renamed since
        ("version=1", True),  # rematch defaults to 0, as in the view
        ("version=1&version=0&rematch=0", False),  # repeated: left to the app
        ("version=1&rematch=0&other=1", False),  # anything else: left to the app
        ("version=01&rematch=0", False),
        ("", False),
    ],
)
def test_the_shortcut_answers_exactly_what_flask_answers(tmp_path, query, shortcut_answers):
    plain, short, calls = pair(tmp_path)
    path, row = new_match(plain)
    query = query.format(seen=shown_tag(row))
    short.get(path + "/board?version=1&rematch=0", headers=HX)  # the first 204 goes through Flask
    before = len(calls)
    got = short.get(f"{path}/board?{query}", headers=HX)
    assert answer(got) == answer(plain.get(f"{path}/board?{query}", headers=HX))
    assert (len(calls) == before) == shortcut_answers  # answered without Flask, or by it


@pytest.mark.parametrize("mangle", [
    lambda p: p[:-3] + "xyz",  # a wrong key: 403
    lambda p: "/m/nosuchmatch/" + p.rsplit("/", 1)[1],  # no such match: 404
])
def test_wrong_keys_and_unknown_matches_get_the_apps_answer(tmp_path, mangle):
    plain, short, calls = pair(tmp_path)
    path, _ = new_match(plain)
    short.get(path + "/board?version=1&rematch=0", headers=HX)
    before = len(calls)
    bad = mangle(path) + "/board?version=1&rematch=0"
    got = short.get(bad, headers=HX)
    assert got.status_code in (403, 404) and answer(got) == answer(plain.get(bad, headers=HX))
    assert len(calls) == before + 1


def test_only_the_public_host_is_answered(tmp_path):
    plain, short, calls = pair(tmp_path, TRUSTED_HOSTS=["truco.example"], PUBLIC_URL="https://truco.example")
    path, _ = new_match(plain, "truco.example")
    host = {**HX, "Host": "truco.example"}
    assert short.get(path + "/board?version=1&rematch=0", headers=host).status_code == 204  # learnt
    before = len(calls)
    got = short.get(path + "/board?version=1&rematch=0", headers=host)
    assert answer(got) == answer(plain.get(path + "/board?version=1&rematch=0", headers=host))
    assert got.headers["Strict-Transport-Security"] and len(calls) == before
    other = {**HX, "Host": "elsewhere.example"}
    got = short.get(path + "/board?version=1&rematch=0", headers=other)
    assert got.status_code == 400  # from the app: no board for another host
    assert answer(got) == answer(plain.get(path + "/board?version=1&rematch=0", headers=other))


def test_a_new_action_is_seen_on_the_very_next_poll(tmp_path):
    plain, short, _calls = pair(tmp_path)
    path, _ = new_match(plain)
    assert short.get(path + "/board?version=1&rematch=0", headers=HX).status_code == 204
    assert short.get(path + "/board?version=1&rematch=0", headers=HX).status_code == 204
    plain.post(path + "/actions", data={"action": json.dumps({"type": "hand_winner", "side": 1}), "version": "1"},
               headers=HX)
    got = short.get(path + "/board?version=1&rematch=0", headers=HX)
    assert got.status_code == 200 and b'data-version="2"' in got.data


def test_the_polls_it_answers_are_counted_in_the_apps_metrics(tmp_path):
    from scorer.web.hosting.ops import registry

    plain, short, calls = pair(tmp_path)
    path, _ = new_match(plain)
    for _ in range(4):
        assert short.get(path + "/board?version=1&rematch=0", headers=HX).status_code == 204
    labels = {"route": "/m/<match_id>/<key>/board", "method": "GET", "status": "204"}
    metrics = registry(short.application)
    assert metrics.get_sample_value("truco_requests_total", labels) == 4  # 1 by Flask, 3 before it
    assert metrics.get_sample_value("truco_request_seconds_count", {"route": labels["route"]}) == 4


def test_a_board_its_tournament_dropped_is_seen_on_the_very_next_poll(tmp_path):
    """Issue 32: a reopening drops a final in play (its version unchanged); the shortcut answers
    its next poll with the board that says so, not 204 (the tag holds the match's dropped mark)."""
    plain, short, _calls = pair(tmp_path)
    t = plain.post("/api/tournaments", json={"variant": "truco-15", "teams": ["A", "B", "C", "D"]}).get_json()
    organizer = {"X-Organizer-Key": t["organizer_key"]}

    def matches():
        s = plain.get(f"/api/tournaments/{t['id']}", headers=organizer).get_json()
        return {m["slot"]: m for r in s["rounds"] for m in r["matches"]}

    for slot in ("main:1:1", "main:1:2"):
        m = matches()[slot]
        plain.post(f"/api/matches/{m['id']}/actions", headers={"X-Edit-Key": m["edit_url"].rsplit("/", 1)[1]},
                   json={"action": {"type": "adjust", "side": 0, "delta": 15}, "version": 0})
    final = matches()["main:2:1"]
    path = "/m/" + final["edit_url"].split("/m/", 1)[1]
    page = plain.get(path, headers={"Accept-Language": "en"}).get_data(as_text=True)
    poll = re.search(r'hx-get="([^"]*/board\?[^"]*)"', page).group(1).replace("&amp;", "&")
    assert short.get(poll, headers=HX).status_code == 204
    plain.post(f"/api/tournaments/{t['id']}/corrections", headers=organizer,
               json={"kind": "reopen", "slot": "main:1:1", "confirmed": True})
    got = short.get(poll, headers={**HX, "Accept-Language": "en"})
    assert got.status_code == 200 and b'id="dropped"' in got.data
