"""One truth between a tournament and its tables' scoreboards (issue 19), on SQLite and
PostgreSQL: once the tournament has taken a match's result, its table's Undo (and any
action) and Revanche are refused, saying who can change it; the organizer's reopening
unlocks the board, and an end already on it is taken at once (``take``) or the table
plays on and its next end counts."""

from __future__ import annotations

import pytest

from scorer.web import create_app
from web_client import EN

PT = {"Accept-Language": "pt-BR"}
TAKEN_PT = "O torneio já registrou este resultado; só o organizador pode mudá-lo (Corrigir → Reabrir)."
TAKEN_EN = "The tournament has already taken this result; only the organizer can change it (Correct → Reopen)."


@pytest.fixture
def client(migrated_db_url):
    return create_app({"TESTING": True, "DATABASE": migrated_db_url}).test_client()


def create(client, **changes):
    body = {"name": "Copa", "variant": "truco-15", "teams": ["Os Gaúchos", "Os Zap", "C", "D"], **changes}
    r = client.post("/api/tournaments", json=body)
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def state(client, t):
    return client.get(f"/api/tournaments/{t['id']}", headers={"X-Organizer-Key": t["organizer_key"]}).get_json()


def matches(s):
    return {m["slot"]: m for stage in [{"rounds": s["rounds"]}] + s["stages"] for r in stage["rounds"]
            for m in r["matches"]}


def table(m):
    """``(match id, edit key)`` of a match's live game, from the organizer's link."""
    _, _, match_id, key = m["edit_url"].split("/")[-4:]
    return match_id, key


def post(client, match_id, key, action):
    version = client.get(f"/api/matches/{match_id}").get_json()["version"]
    return client.post(f"/api/matches/{match_id}/actions", headers={"X-Edit-Key": key, **EN},
                       json={"action": action, "version": version})


def play(client, m, *points):
    """The table scores ``(side, tentos)`` corrections, one after another."""
    match_id, key = table(m)
    for side, delta in points:
        r = post(client, match_id, key, {"type": "adjust", "side": side, "delta": delta})
        assert r.status_code == 200, r.get_json()
    return match_id, key


def correct(client, t, **data):
    return client.post(f"/api/tournaments/{t['id']}/corrections", json=data,
                       headers={"X-Organizer-Key": t["organizer_key"], **EN})


def semi_final_won_15_12(client):
    """The issue's knockout: the first semi-final ends 15-12 for Os Gaúchos (14, then 1)."""
    t = create(client)
    semi = matches(state(client, t))["main:1:1"]
    assert semi["teams"] == [0, 3]
    match_id, key = play(client, semi, (1, 12), (0, 14), (0, 1))
    after = matches(state(client, t))
    assert after["main:1:1"]["result"]["tentos"] == [15, 12] and after["main:2:1"]["teams"] == [0, None]
    return t, match_id, key


def test_undo_after_the_result_is_taken_is_refused_on_the_api_and_the_board(client):
    t, match_id, key = semi_final_won_15_12(client)
    before_state = state(client, t)
    before_match = client.get(f"/api/matches/{match_id}").get_json()
    assert matches(before_state)["main:1:1"]["locked"] is True
    r = post(client, match_id, key, {"type": "undo"})  # the JSON API
    assert r.status_code == 422
    assert r.get_json()["error"]["code"] == "tournament_result_taken"
    assert r.get_json()["error"]["message"] == TAKEN_EN
    board = f"/m/{match_id}/{key}"
    page = client.get(board + "/undo", headers=PT)  # the board's Undo, before its confirmation
    assert page.status_code == 422 and TAKEN_PT in page.get_data(as_text=True)
    assert 'id="score0"' in page.get_data(as_text=True)  # answered with the board, as other refusals
    r = client.post(board + "/actions", headers=PT, data={
        "action": '{"type": "undo"}', "version": str(before_match["version"]), "confirmed": "1"})
    assert r.status_code == 422 and TAKEN_PT in r.get_data(as_text=True)
    assert post(client, match_id, key, {"type": "adjust", "side": 1, "delta": 3}).status_code == 422
    assert client.get(f"/api/matches/{match_id}").get_json() == before_match  # nothing changed
    after = state(client, t)
    assert after["version"] == before_state["version"] and matches(after) == matches(before_state)


def test_a_walkover_locks_a_board_still_in_play(client):
    """The organizer's walkover is the result taken: the table's next tap is refused."""
    t = create(client)
    semi = matches(state(client, t))["main:1:1"]
    match_id, key = play(client, semi, (0, 7))
    assert correct(client, t, kind="walkover", slot="main:1:1", absent=1).status_code == 200
    r = post(client, match_id, key, {"type": "adjust", "side": 1, "delta": 3})
    assert r.status_code == 422 and r.get_json()["error"]["code"] == "tournament_result_taken"
    assert client.get(f"/api/matches/{match_id}").get_json()["score"] == [7, 0]
    assert matches(state(client, t))["main:1:1"]["result"]["kind"] == "walkover"


def test_revanche_on_a_finished_round_robin_match_is_refused(client):
    t = create(client, teams=["A", "B", "C"], format="round_robin")
    for m in matches(state(client, t)).values():
        play(client, m, (1, 10), (0, 15))
    before = state(client, t)
    csv_before = client.get(f"/api/tournaments/{t['id']}/results.csv").get_data()
    assert before["finished"]
    m = matches(before)["league:1:1"]
    match_id, key = table(m)
    r = client.post(f"/m/{match_id}/{key}/revanche", headers=EN)
    assert r.status_code == 409 and TAKEN_EN in r.get_data(as_text=True)
    assert client.get(f"/api/matches/{match_id}").get_json()["version"] == 2
    after = state(client, t)
    assert matches(after) == matches(before) and after["standings"] == before["standings"]
    assert matches(after)["league:1:1"]["score"] == [15, 10]
    assert client.get(f"/api/tournaments/{t['id']}/results.csv").get_data() == csv_before


def test_a_best_of_three_plays_its_revanches_until_the_series_is_decided(client):
    t = create(client, teams=["A", "B"], best_of=3)
    m = matches(state(client, t))["main:1:1"]
    match_id, key = play(client, m, (0, 15))
    r = client.post(f"/m/{match_id}/{key}/revanche")
    assert r.status_code == 303  # the series goes on, as before
    second = matches(state(client, t))["main:1:1"]
    second_id, key = play(client, second, (0, 15))
    assert matches(state(client, t))["main:1:1"]["locked"] is True
    r = client.post(f"/m/{second_id}/{key}/revanche", headers=EN)
    assert r.status_code == 409 and TAKEN_EN in r.get_data(as_text=True)
    assert state(client, t)["champion"] == 0 and matches(state(client, t))["main:1:1"]["series"] == [2, 0]


def test_reopen_of_an_ended_board_then_take_counts_at_once(client):
    t, match_id, key = semi_final_won_15_12(client)
    r = correct(client, t, kind="reopen", slot="main:1:1")
    assert r.status_code == 200, r.get_json()
    semi = matches(r.get_json()["state"])["main:1:1"]
    assert semi["status"] == "ready" and semi["locked"] is False
    assert semi["board_result"]["winner"] == 0 and semi["board_result"]["tentos"] == [15, 12]
    base = f"/t/{t['id']}/{t['organizer_key']}"
    page = client.get(base, headers=EN).get_data(as_text=True)
    assert "This scoreboard already ended 15–12: take it" in page and 'data-action="take"' in page
    r = client.post(base + "/corrections", data={"kind": "take", "slot": "main:1:1"})
    assert r.status_code == 303 and r.headers["Location"].endswith(base)
    after = matches(state(client, t))
    assert after["main:1:1"]["result"]["tentos"] == [15, 12] and after["main:1:1"]["winner"] == 0
    assert after["main:1:1"]["locked"] is True and after["main:1:1"]["board_result"] is None
    assert after["main:2:1"]["teams"] == [0, None]
    audit = client.get(f"/api/tournaments/{t['id']}/export").get_json()["audit"]
    assert [(a["who"], a["kind"]) for a in audit][-2:] == [("organizer", "reopen"), ("organizer", "take")]
    assert post(client, match_id, key, {"type": "undo"}).status_code == 422  # locked again


def test_take_needs_an_ended_board_without_a_result(client):
    t, match_id, key = semi_final_won_15_12(client)
    r = correct(client, t, kind="take", slot="main:1:1")
    assert r.status_code == 422 and r.get_json()["error"]["code"] == "nothing_to_take"
    r = correct(client, t, kind="take", slot="main:1:2")  # not played yet
    assert r.status_code == 422 and r.get_json()["error"]["code"] == "nothing_to_take"
    assert correct(client, t, kind="reopen", slot="main:1:1").status_code == 200
    assert post(client, match_id, key, {"type": "undo"}).status_code == 200  # 14-12: the game goes on
    r = correct(client, t, kind="take", slot="main:1:1")
    assert r.status_code == 422 and r.get_json()["error"]["code"] == "nothing_to_take"
    assert matches(state(client, t))["main:1:1"]["board_result"] is None


def test_reopen_then_the_tables_undo_and_play_on_count_the_new_end(client):
    """The issue's sequence: 15-12 taken, Undo refused; the organizer reopens; the table's
    Undo (14-12) and Os Zap's 3 tentos (14-15) make the new result, and the final changes."""
    t, match_id, key = semi_final_won_15_12(client)
    assert post(client, match_id, key, {"type": "undo"}).status_code == 422
    play(client, matches(state(client, t))["main:1:2"], (0, 15))  # the other semi-final: C
    assert matches(state(client, t))["main:2:1"]["teams"] == [0, 1]
    r = correct(client, t, kind="reopen", slot="main:1:1", confirmed=True)
    assert r.status_code == 200 and r.get_json()["undone"] == ["main:2:1"]
    r = post(client, match_id, key, {"type": "undo"})
    assert r.status_code == 200 and r.get_json()["score"] == [14, 12]
    assert matches(state(client, t))["main:1:1"]["result"] is None  # open while the table plays
    r = post(client, match_id, key, {"type": "adjust", "side": 1, "delta": 3})
    assert r.status_code == 200 and r.get_json()["score"] == [14, 15]
    after = matches(state(client, t))
    assert after["main:1:1"]["result"]["tentos"] == [14, 15] and after["main:1:1"]["winner"] == 3
    assert after["main:1:1"]["score"] == [14, 15] and after["main:1:1"]["locked"] is True
    assert after["main:2:1"]["teams"] == [3, 1]
    assert post(client, match_id, key, {"type": "undo"}).status_code == 422


def test_a_reopened_ended_best_of_one_board_has_no_revanche(client):
    """Held after a reopening, the board still cannot start a game that would not count."""
    t, match_id, key = semi_final_won_15_12(client)
    assert correct(client, t, kind="reopen", slot="main:1:1").status_code == 200
    r = client.post(f"/m/{match_id}/{key}/revanche", headers=EN)
    assert r.status_code == 409 and "it has no Revanche" in r.get_data(as_text=True)
    assert client.get(f"/api/matches/{match_id}").get_json()["version"] == 3
    assert matches(state(client, t))["main:1:1"]["board_result"]["tentos"] == [15, 12]
