"""The bracket's last mile (issue 32, docs/tournaments.md step 5), on SQLite and PostgreSQL: a
board whose match a reopening dropped says so at once in the table's language, refuses every
action (422 ``tournament_match_dropped``, never a 500) and links to what plays its place now;
its watch page follows. A reopened match that ends with the same winner keeps every later
match, link, table and score; one that changes its winner replaces them."""

from __future__ import annotations

import pytest

from web_client import EN

from tests.web.test_bracket_last_mile import client, create, matches, state, table  # noqa: F401 - client: a fixture

#: The notices, as the catalogs say them (scorer/translations/*/messages.po).
FOR_NOW = {
    "en": "This match no longer counts for now: the organizer reopened an earlier result.",
    "pt-BR": "Esta partida não conta mais, por enquanto: o organizador reabriu um resultado anterior.",
    "es": "Este partido ya no cuenta, por ahora: el organizador reabrió un resultado anterior.",
}
REPLACED = {
    "en": "This match no longer counts: the organizer reopened an earlier result and this place is now played on a new scoreboard.",
    "pt-BR": "Esta partida não conta mais: o organizador reabriu um resultado anterior e este lugar agora se joga num novo placar.",
    "es": "Este partido ya no cuenta: el organizador reabrió un resultado anterior y este lugar ahora se juega en un nuevo marcador.",
}
REFUSED = {
    "en": "The tournament no longer counts this match: the organizer reopened an earlier result.",
    "pt-BR": "O torneio não conta mais esta partida: o organizador reabriu um resultado anterior.",
    "es": "El torneo ya no cuenta este partido: el organizador reabrió un resultado anterior.",
}


def post(client, match_id, key, action, headers=EN):
    version = client.get(f"/api/matches/{match_id}").get_json()["version"]
    return client.post(f"/api/matches/{match_id}/actions", headers={"X-Edit-Key": key, **headers},
                       json={"action": action, "version": version})


def play(client, match_id, key, *points):
    for side, delta in points:
        r = post(client, match_id, key, {"type": "adjust", "side": side, "delta": delta})
        assert r.status_code == 200, r.get_json()


def correct(client, t, **data):
    return client.post(f"/api/tournaments/{t['id']}/corrections", json=data,
                       headers={"X-Organizer-Key": t["organizer_key"], **EN})


def final_under_way(client):
    """Both semi-finals played (A beats D 15-12, B beats C 15-0), the final A v B at 5-3."""
    t = create(client)
    semis = matches(state(client, t))
    semi1 = table(semis["main:1:1"])
    play(client, *semi1, (1, 12), (0, 14), (0, 1))
    play(client, *table(semis["main:1:2"]), (0, 15))
    final = matches(state(client, t))["main:2:1"]
    assert final["teams"] == [0, 1]
    play(client, *table(final), (0, 5), (1, 3))
    return t, semi1, table(final)


def reopen_semi(client, t):
    r = correct(client, t, kind="reopen", slot="main:1:1", confirmed=True)
    assert r.status_code == 200 and r.get_json()["undone"] == ["main:2:1"], r.get_json()


@pytest.mark.parametrize("lang", ["en", "pt-BR", "es"])
def test_a_dropped_board_says_so_and_refuses_every_action(client, lang):
    t, _semi, (final_id, key) = final_under_way(client)
    reopen_semi(client, t)
    words = {"Accept-Language": lang}
    page = client.get(f"/m/{final_id}/{key}", headers=words).get_data(as_text=True)
    assert FOR_NOW[lang] in page and 'id="dropped"' in page
    assert 'data-action=' not in page and 'id="undo"' not in page  # no button it would refuse
    assert 'id="score0"' in page and 'id="score1"' in page
    watch = client.get(f"/w/{final_id}", headers=words).get_data(as_text=True)
    assert FOR_NOW[lang] in watch
    for action in ({"type": "adjust", "side": 1, "delta": 1}, {"type": "undo"}):
        r = post(client, final_id, key, action, headers=words)
        assert r.status_code == 422, r.get_data(as_text=True)
        assert r.get_json()["error"]["code"] == "tournament_match_dropped"
        assert r.get_json()["error"]["message"] == REFUSED[lang]
    board = client.post(f"/m/{final_id}/{key}/actions", headers=words, data={
        "action": '{"type": "adjust", "side": 1, "delta": 1}', "version": "2"})
    assert board.status_code == 422 and REFUSED[lang] in board.get_data(as_text=True)
    assert client.get(f"/api/matches/{final_id}").get_json()["score"] == [5, 3]


def test_a_dropped_board_changes_on_its_next_poll(client):
    """The board's poll (its version unchanged) brings the notice at once."""
    t, _semi, (final_id, key) = final_under_way(client)
    page = client.get(f"/m/{final_id}/{key}", headers=EN).get_data(as_text=True)
    poll = page.split('hx-get="')[1].split('"')[0].replace("&amp;", "&")
    assert client.get(poll, headers={"HX-Request": "true", **EN}).status_code == 204
    reopen_semi(client, t)
    r = client.get(poll, headers={"HX-Request": "true", **EN})
    assert r.status_code == 200 and FOR_NOW["en"] in r.get_data(as_text=True)


def test_a_reopened_match_that_keeps_its_winner_keeps_every_later_match(client):
    """The issue's finding: reopening and taking the board back unchanged replaced the next match."""
    t, _semi, (final_id, key) = final_under_way(client)
    before = matches(state(client, t))["main:2:1"]
    reopen_semi(client, t)
    assert correct(client, t, kind="take", slot="main:1:1").status_code == 200
    after = matches(state(client, t))["main:2:1"]
    assert table(after) == (final_id, key) and after["table"] == before["table"] and after["score"] == [5, 3]
    page = client.get(f"/m/{final_id}/{key}", headers=EN).get_data(as_text=True)
    assert 'id="dropped"' not in page and 'data-action=' in page
    play(client, final_id, key, (0, 10))  # the tap counts: the final ends, A champion
    s = state(client, t)
    assert s["champion"] == 0 and matches(s)["main:2:1"]["result"]["tentos"] == [15, 3]


def test_a_finished_later_match_comes_back_with_its_result(client):
    t, _semi, (final_id, key) = final_under_way(client)
    play(client, final_id, key, (0, 10))
    assert state(client, t)["champion"] == 0
    reopen_semi(client, t)
    assert state(client, t)["champion"] is None
    page = client.get(f"/m/{final_id}/{key}", headers=EN).get_data(as_text=True)
    assert 'id="dropped"' in page and 'id="revanche"' not in page and 'id="go-rematch"' not in page  # the finding
    assert "Winner: A!" in page and 'id="undo"' not in page
    assert correct(client, t, kind="take", slot="main:1:1").status_code == 200
    s = state(client, t)
    assert s["champion"] == 0 and table(matches(s)["main:2:1"]) == (final_id, key)
    assert matches(s)["main:2:1"]["result"]["tentos"] == [15, 3]


def test_a_new_winner_replaces_the_later_match_and_the_old_board_links_to_it(client):
    t, (semi_id, semi_key), (final_id, key) = final_under_way(client)
    reopen_semi(client, t)
    r = post(client, semi_id, semi_key, {"type": "undo"})  # 14-12, then D wins 14-15
    assert r.status_code == 200, r.get_json()
    play(client, semi_id, semi_key, (1, 3))
    new = matches(state(client, t))["main:2:1"]
    assert new["teams"] == [3, 1]
    new_id, new_key = table(new)
    assert new_id != final_id and new_key == key  # a table's key is its slot's
    page = client.get(f"/m/{final_id}/{key}", headers=EN).get_data(as_text=True)
    assert REPLACED["en"] in page and f'href="/m/{new_id}/{key}"' in page
    watch = client.get(f"/w/{final_id}", headers=EN).get_data(as_text=True)
    assert REPLACED["en"] in watch and f'href="/w/{new_id}"' in watch
    assert post(client, final_id, key, {"type": "adjust", "side": 0, "delta": 1}).status_code == 422
    assert client.get(f"/m/{new_id}/{key}", headers=EN).status_code == 200


#: Every way a phone changes a match, each refused on a dropped one with a 4xx (never a 500) and
#: nothing stored: ``(method, path under /m/<id>/<key>, form or JSON body)``; an upload of kept taps
#: answers as docs/api.md says, 200 listing each tap refused with its code.
WAYS = [
    ("GET", "/undo", None),
    ("POST", "/actions", {"action": '{"type": "undo"}', "version": "2", "confirmed": "1"}),
    ("POST", "/actions", {"action": '{"type": "call", "side": 0, "call": "truco"}', "version": "2"}),
    ("POST", "/taps", {"taps": [{"tap_key": "k" * 22, "version": 2, "action": {"type": "adjust", "side": 1, "delta": 1}}]}),
    ("POST", "/revanche", {}),
]


@pytest.mark.parametrize("method, path, body", WAYS, ids=["undo-page", "undo", "truco", "kept-taps", "revanche"])
def test_every_way_to_change_a_dropped_match_is_refused(client, method, path, body):
    t, _semi, (final_id, key) = final_under_way(client)
    if path == "/revanche":  # a Revanche needs an ended game: the final ends, then the semi-final is reopened
        play(client, final_id, key, (0, 10))
    reopen_semi(client, t)
    before = client.get(f"/api/matches/{final_id}").get_json()
    url = f"/m/{final_id}/{key}{path}"
    if method == "GET":
        r = client.get(url, headers=EN)
    elif path == "/taps":
        r = client.post(url, json=body, headers=EN)
    else:
        r = client.post(url, data=body, headers=EN)
    text = r.get_data(as_text=True)
    if path == "/taps":
        assert r.status_code == 200 and [x["code"] for x in r.get_json()["refused"]] == ["tournament_match_dropped"]
    else:
        assert 400 <= r.status_code < 500, text
    assert REFUSED["en"] in text or "tournament_match_dropped" in text, text[:500]
    assert client.get(f"/api/matches/{final_id}").get_json() == before


def test_the_reopen_page_says_what_becomes_of_the_later_matches(client):
    t, _semi, _final = final_under_way(client)
    page = client.get(f"/t/{t['id']}/{t['organizer_key']}/reopen/main:1:1", headers=EN).get_data(as_text=True)
    assert 'id="undone"' in page and "If this match ends with the same winner, they come back as they were" in page


def test_the_audit_says_the_tournament_kept_the_later_match(client):
    t, _semi, _final = final_under_way(client)
    reopen_semi(client, t)
    assert correct(client, t, kind="take", slot="main:1:1").status_code == 200
    page = client.get(f"/t/{t['id']}/{t['organizer_key']}", headers=EN).get_data(as_text=True)
    audit = page.split('id="audit-title"')[1]
    assert "<td>Tournament</td><td>kept as it was (the reopened match kept its winner)</td>" in audit
