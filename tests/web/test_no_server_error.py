"""No 500 on any input (issue 23 item 4): every field of every JSON body and form, in turn,
given a wrong type, a null, a lone surrogate, a NUL or a number out of range, gets an answer
below 500; a refusal says in words what was wrong, in the user's language, and changes
nothing. On SQLite and on PostgreSQL (which refuses a NUL in a text).
"""

from __future__ import annotations

import json
import re

import pytest

from scorer.web import create_app

#: What a JSON field is replaced with, one at a time.
HOSTILE_JSON = [None, True, 0, -1, 2**70, 1.5, "", "x", "\ud800", "a\x00b", [], [None], {}, {"a": None}]
#: What a form field is replaced with, one at a time ("<missing>": the field left out).
HOSTILE_FORM = ["<missing>", "", "x", "\x00", "a\x00b", "-1", "99999999999999999999", "1.5", "nan", "inf", "\ufffd",
                '{"type": "call", "side": 0, "call": "\\ud800"}', "[]"]


@pytest.fixture
def app(migrated_db_url):
    return create_app({"TESTING": True, "DATABASE": migrated_db_url})


@pytest.fixture
def client(app):
    return app.test_client()


def new_match(client, variant="paulista"):
    r = client.post("/api/matches", json={"variant": variant})
    assert r.status_code == 201
    return r.get_json()


def new_tournament(client):
    r = client.post("/api/tournaments", json={"variant": "truco-15", "teams": ["A", "B", "C", "D"]})
    assert r.status_code == 201
    return r.get_json()


def paths(body, prefix=()):
    """Every field of a JSON body, nested ones and list items included, as key paths."""
    if isinstance(body, dict):
        items = body.items()
    elif isinstance(body, list):
        items = enumerate(body)
    else:
        return
    for key, value in items:
        yield prefix + (key,)
        yield from paths(value, prefix + (key,))


def replaced(body, path, value):
    out = json.loads(json.dumps(body))
    target = out
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return out


def snapshot(client, match, tournament):
    """What a refusal must leave as it was: the match's and the tournament's versions and names."""
    m = client.get(f"/api/matches/{match['id']}").get_json()
    t = client.get(f"/api/tournaments/{tournament['id']}").get_json()
    return m["version"], m["names"], t["version"], t["teams"], t["name"]


def check_refusal(response):
    """Below 500; a 4xx says in words what was wrong (JSON or a page)."""
    assert response.status_code < 500, response.get_data(as_text=True)[:300]
    if 400 <= response.status_code < 500 and response.is_json:
        message = response.get_json()["error"]["message"]
        assert len(message) > 10 and "Traceback" not in message


def json_cases(client, match, tournament):
    """``(path, valid body, headers)`` of every JSON operation that takes a body."""
    edit = {"X-Edit-Key": match["edit_key"]}
    organizer = {"X-Organizer-Key": tournament["organizer_key"]}
    export = client.get(f"/api/matches/{match['id']}/export").get_json()
    tid = tournament["id"]
    corrections = f"/api/tournaments/{tid}/corrections"
    return [
        ("/api/matches", {"variant": "paulista", "options": {}, "names": ["A", "B"], "mano": 0, "best_of": 3,
                          "players": [["a", "b"], ["c", "d"]]}, {}),
        ("/api/matches/import", export, {}),
        (f"/api/matches/{match['id']}/actions",
         {"action": {"type": "call", "side": 0, "call": "truco"}, "version": 0}, edit),
        (f"/api/matches/{match['id']}/actions",
         {"action": {"type": "adjust", "side": 0, "delta": 1}, "version": 0}, edit),
        (f"/api/matches/{match['id']}/names", {"names": ["A", "B"]}, edit),
        ("/api/tournaments", {"name": "Copa", "variant": "truco-15", "options": {},
                              "teams": [{"name": "A", "players": ["a", "b"]}, {"name": "B"}, {"name": "C"}, {"name": "D"}],
                              "format": "knockout", "best_of": 1, "final_best_of": 3, "legs": 1,
                              "repescagem": None, "confirm": False, "draw": False, "points": {"win": 3},
                              "tiebreaks": ["points", "wins"]}, {}),
        ("/api/tournaments", {"variant": "truco-15", "teams": ["A", "B", "C", "D", "E", "F", "G", "H"],
                              "format": "groups", "groups": 2, "advance": 1, "best_extra": 1}, {}),
        (corrections, {"kind": "rename", "team": 0, "name": "Ases"}, organizer),
        (corrections, {"kind": "walkover", "slot": "main:1:1", "absent": 0}, organizer),
        (corrections, {"kind": "abandonment", "slot": "main:1:2", "abandoned": 1}, organizer),
        (corrections, {"kind": "reopen", "slot": "main:1:1", "confirmed": True}, organizer),
        (corrections, {"kind": "confirm", "slot": "main:1:1", "side": 2}, organizer),
    ]


def test_every_json_field_given_any_bad_value_gets_a_4xx_or_is_done(client):
    match, tournament = new_match(client), new_tournament(client)
    tried = 0
    for url, body, headers in json_cases(client, match, tournament):
        for path in paths(body):
            for value in HOSTILE_JSON:
                before = snapshot(client, match, tournament)
                response = client.post(url, json=replaced(body, path, value), headers=headers)
                check_refusal(response)
                if response.status_code >= 400:
                    assert snapshot(client, match, tournament) == before, (url, path, value)
                tried += 1
    assert tried > 1000


@pytest.mark.parametrize(("url", "body", "code"), [
    ("/api/matches", {"variant": "paulista", "names": ["\ud800", "B"]}, "unprocessable"),
    ("/api/matches", {"variant": "paulista", "players": [["\ud800", "b"], ["c", "d"]]}, "unprocessable"),
    ("/api/tournaments", {"variant": "truco-15", "teams": ["A", "B"], "name": "\ud800"}, "unprocessable"),
    ("/api/tournaments", {"variant": "truco-15", "teams": ["A\ud800", "B"]}, "unprocessable"),
    ("/api/tournaments", {"variant": "truco-15", "teams": ["A", "B"], "name": "Copa\x00"}, "bad_text"),
    ("/api/tournaments", {"variant": "truco-15", "teams": ["A\x00", "B"]}, "bad_text"),
    ("/api/tournaments", {"variant": "truco-15", "teams": [{"name": "A", "players": ["a\x00"]}, {"name": "B"}]}, "bad_text"),
    ("/api/tournaments", {"variant": "truco-15", "teams": ["A", "B"], "best_of": None}, "bad_best_of"),
    ("/api/tournaments", {"variant": "truco-15", "teams": ["A", "B"], "best_of": "3"}, "bad_best_of"),
])
@pytest.mark.parametrize("lang", ["pt-BR", "es", "en"])
def test_each_reported_bad_input_is_refused_in_the_users_language(client, url, body, code, lang):
    r = client.post(url, json=body, headers={"Accept-Language": lang})
    assert r.status_code == 422 and r.get_json()["error"]["code"] == code
    message = r.get_json()["error"]["message"]
    english = client.post(url, json=body, headers={"Accept-Language": "en"}).get_json()["error"]["message"]
    assert (message == english) == (lang == "en")  # translated
    assert client.get("/api/tournaments/x").status_code == 404


@pytest.mark.parametrize(("body", "code"), [
    ({"kind": "rename", "team": 0, "name": "\ud800"}, "unprocessable"),
    ({"kind": "rename", "team": 0, "name": "Ases\x00"}, "bad_text"),
    ({"kind": "rename", "team": None, "name": "Ases"}, "bad_correction"),
    ({"kind": None}, "bad_correction"),
])
def test_a_bad_rename_is_refused_and_changes_nothing(client, body, code):
    tournament = new_tournament(client)
    url = f"/api/tournaments/{tournament['id']}/corrections"
    before = client.get(f"/api/tournaments/{tournament['id']}").get_json()
    r = client.post(url, json=body, headers={"X-Organizer-Key": tournament["organizer_key"]})
    assert r.status_code == 422 and r.get_json()["error"]["code"] == code
    assert client.get(f"/api/tournaments/{tournament['id']}").get_json() == before


def form_cases(client, match, tournament):
    """``(path, valid form)`` of every form the pages post."""
    m, t = match, tournament
    team_key = client.get(f"/t/{t['id']}/{t['organizer_key']}")  # the organizer page lists the team links
    assert team_key.status_code == 200
    return [
        ("/matches", {"variant": "paulista", "name0": "A", "name1": "B", "mano": "0", "best_of": "3",
                      "table_size": "4", "player0_0": "a", "player0_1": "b", "player1_0": "c", "player1_1": "d"}),
        (f"/m/{m['id']}/{m['edit_key']}/actions",
         {"action": '{"type": "call", "side": 0, "call": "truco"}', "version": "0", "shown": "1", "sent": "1",
          "tap_key": "form-case-tap-1"}),
        (f"/m/{m['id']}/{m['edit_key']}/actions", {"kind": "envido_points", "points0": "20", "points1": "7",
                                                   "version": "0"}),
        (f"/m/{m['id']}/{m['edit_key']}/revanche", {"best_of": "3"}),
        ("/tournaments", {"name": "Copa", "variant": "truco-15", "teams": "A: a, b\nB\nC\nD", "format": "knockout",
                          "best_of": "1", "final_best_of": "3", "legs": "1", "repescagem": "", "confirm": "on",
                          "points_win": "3", "tiebreaks": "points wins"}),
        (f"/t/{t['id']}/{t['organizer_key']}/corrections", {"kind": "rename", "team": "0", "name": "Ases"}),
        (f"/t/{t['id']}/{t['organizer_key']}/corrections", {"kind": "walkover", "slot": "main:1:1", "absent": "0"}),
        (f"/t/{t['id']}/{t['organizer_key']}/corrections", {"kind": "reopen", "slot": "main:1:1", "confirmed": "1"}),
    ]


def test_every_form_field_given_any_bad_value_gets_an_answer_below_500(client):
    match, tournament = new_match(client), new_tournament(client)
    tried = 0
    for url, form in form_cases(client, match, tournament):
        for field in form:
            for value in HOSTILE_FORM:
                data = {k: v for k, v in form.items() if k != field or value != "<missing>"}
                if value != "<missing>":
                    data[field] = value
                check_refusal(client.post(url, data=data))
                tried += 1
    assert tried > 300


def test_a_nul_in_a_tournament_form_is_refused_with_the_form_again(client):
    r = client.post("/tournaments", data={"name": "Copa\x00", "variant": "truco-15", "teams": "A\nB"},
                    headers={"Accept-Language": "es"})
    assert r.status_code == 422 and "NUL" in r.get_data(as_text=True)


def real_path_values(client, match, tournament) -> dict[str, str]:
    """A real value for each ``<name>`` a route takes, so a NUL put in one of them is the only
    thing wrong with the path."""
    return {"match_id": match["id"], "key": match["edit_key"], "tid": tournament["id"], "slot": "main:1:1",
            "code": "en", "digest": "0" * 16, "filename": "js/table.js", "cid": "club0"}


def test_a_nul_in_any_path_part_is_a_404_before_any_query(client, app):
    """Issue 31, item 4: a NUL (``%00``) in any part of any route's path, at its end or
    alone, answers 404 on SQLite and PostgreSQL (which refuses a NUL in a text: it answered
    500 on 34 routes), for every method the route takes, and changes nothing. The routes are
    read from the app's URL map, so a new route is covered the day it is added."""
    from urllib.parse import quote

    match, tournament = new_match(client), new_tournament(client)
    values = real_path_values(client, match, tournament)
    before = snapshot(client, match, tournament)
    tried = 0
    for rule in app.url_map.iter_rules():
        names = [n for n in rule.arguments if type(rule._converters[n]).__name__ != "IntegerConverter"]
        for name in names:
            for bad in (values[name] + "\x00", "\x00"):
                path = re.sub(r"<(?:[a-z]+:)?(\w+)>",
                              lambda m: quote(bad if m[1] == name else values.get(m[1], "0"), safe="/:"), rule.rule)
                for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
                    r = client.open(path, method=method, json={} if method == "POST" else None)
                    assert r.status_code == 404, (rule.rule, name, method, r.status_code)
                    tried += 1
    assert tried >= 80
    assert snapshot(client, match, tournament) == before
