"""A tournament match's board knows it is one (issue 19, items 2 and 7): the header line
(tournament · round · table) in the three languages, what comes next once the tournament
took the result, no Revanche on a decided match (a link back to the tournament, Undo shown
unavailable) while a best-of series keeps its Revanche, and the organizer page's notice
that something changed (Flask test client)."""

from __future__ import annotations

import html
import re
from urllib.parse import urlsplit

import pytest

from scorer.web import create_app
from web_client import EN, ES, HX, PT

TEAMS = ["Os Gaúchos", "Os Zap", "Trio Parada Dura", "Os Bagual"]


@pytest.fixture
def client(migrated_db_url):
    """The app on each backend (SQLite file, PostgreSQL)."""
    return create_app({"TESTING": True, "DATABASE": migrated_db_url}).test_client()


def create(client, **changes):
    body = {"name": "Copa do Boteco", "variant": "truco-15", "teams": TEAMS, "format": "knockout", **changes}
    r = client.post("/api/tournaments", json=body)
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def matches(client, t):
    """Every match of the tournament by slot id (the organizer's API view: with edit links)."""
    s = client.get(f"/api/tournaments/{t['id']}", headers={"X-Organizer-Key": t["organizer_key"]}).get_json()
    return {m["slot"]: m for stage in [{"rounds": s["rounds"]}] + s["stages"]
            for rnd in stage["rounds"] for m in rnd["matches"]}


def edit_path(m) -> str:
    return urlsplit(m["edit_url"]).path


def finish(client, m, side):
    """The table ends its game: +15 for ``side`` (truco-15), through the match API."""
    match_id, key = edit_path(m).split("/")[2:4]
    version = client.get(f"/api/matches/{match_id}").get_json()["version"]
    r = client.post(f"/api/matches/{match_id}/actions", headers={"X-Edit-Key": key},
                    json={"action": {"type": "adjust", "side": side, "delta": 15}, "version": version})
    assert r.status_code == 200, r.get_json()


def page(client, path, headers=EN) -> str:
    r = client.get(path, headers=headers)
    assert r.status_code == 200
    return html.unescape(r.get_data(as_text=True))


def line(text: str, element_id: str) -> str:
    """The text of the element ``element_id`` (tags dropped, spaces collapsed)."""
    found = re.search(rf'id="{element_id}"[^>]*>(.*?)</(p|ul)>', text, re.S)
    assert found, f"no #{element_id}"
    return " ".join(re.sub(r"<[^>]+>", " ", found.group(1)).split())


@pytest.mark.parametrize(("headers", "expected"), [
    (PT, "Copa do Boteco · Semifinal · Mesa 1"),
    (ES, "Copa do Boteco · Semifinal · Mesa 1"),
    (EN, "Copa do Boteco · Semifinal · Table 1"),
])
def test_the_board_says_which_tournament_round_and_table(client, headers, expected):
    t = create(client)
    m = matches(client, t)["main:1:1"]
    assert line(page(client, edit_path(m), headers), "tournament-line") == expected
    assert line(page(client, urlsplit(m["watch_url"]).path, headers), "tournament-line") == expected


@pytest.mark.parametrize(("changes", "slot", "expected"), [
    ({"format": "round_robin", "teams": TEAMS[:3]}, "league:1:1", "Round 1 · Table 1"),
    ({"teams": TEAMS + ["Os Pampas", "Trio Sol", "Chimarrão", "Os Mate"]}, "main:1:1", "Quarterfinal · Table 1"),
    ({"teams": TEAMS[:2]}, "main:1:1", "Final · Table 1"),
    ({"teams": TEAMS + ["Os Pampas", "Trio Sol", "Chimarrão", "Os Mate", "Os Tauras"]}, "main:1:1",
     "Round 1 · Table 1"),  # 9 teams: a 16-place bracket, round 1 is named by its number
    ({"format": "groups", "groups": 2, "advance": 1}, "group2:1:1", "Group 2 · Round 1 · Table 2"),
])
def test_the_round_is_named_as_the_tournament_pages_name_it(client, changes, slot, expected):
    t = create(client, **changes)
    m = matches(client, t)[slot]
    assert line(page(client, edit_path(m)), "tournament-line") == f"Copa do Boteco · {expected}"


def test_an_ordinary_match_has_no_tournament_line(client):
    path = client.post("/matches", data={"variant": "paulista"}).headers["Location"]
    assert 'id="tournament-line"' not in page(client, path)


def test_a_semifinal_says_what_comes_next_before_and_after_the_other_one(client):
    t = create(client)
    semi = matches(client, t)["main:1:1"]  # Os Gaúchos v Os Bagual
    finish(client, semi, 0)
    board = page(client, edit_path(semi))
    assert line(board, "next") == ("Os Gaúchos: Final, waiting for the other semifinal (Os Zap × Trio Parada Dura) "
                                   "Os Bagual is out of the tournament")
    finish(client, matches(client, t)["main:1:2"], 1)  # Trio Parada Dura goes through
    assert line(page(client, edit_path(semi)), "next") == (
        "Os Gaúchos: Final against Trio Parada Dura, Table 1 Os Bagual is out of the tournament")
    pt = page(client, edit_path(semi), PT)
    assert "Os Gaúchos: Final contra Trio Parada Dura, Mesa 1" in line(pt, "next")
    finish(client, matches(client, t)["main:2:1"], 1)
    assert line(page(client, edit_path(semi)), "next") == "Champion: Trio Parada Dura"


def test_the_answer_to_the_winning_tap_says_what_comes_next(client):
    """The htmx answer to the last point (a fragment, not the page) already has it."""
    t = create(client)
    semi = matches(client, t)["main:1:2"]
    match_id = edit_path(semi).split("/")[2]
    r = client.post(edit_path(semi) + "/actions", headers={**HX, **EN}, data={
        "action": '{"type": "adjust", "side": 0, "delta": 15}', "version": "0"})
    assert r.status_code == 200 and match_id
    text = html.unescape(r.get_data(as_text=True))
    assert "Os Zap: Final, waiting for the other semifinal (Os Gaúchos × Os Bagual)" in line(text, "next")
    assert 'id="revanche"' not in text and 'id="to-tournament"' in text


def test_a_league_match_says_each_teams_next_round(client):
    t = create(client, format="round_robin")
    ms = matches(client, t)
    first = ms["league:1:1"]
    finish(client, first, 0)
    winner, loser = first["teams"]
    expected = []
    for team in (winner, loser):
        nxt = next(m for m in ms.values() if m["slot"].startswith("league:2:") and team in m["teams"])
        other = TEAMS[nxt["teams"][1 - nxt["teams"].index(team)]]
        expected.append(f"{TEAMS[team]}: Round 2 against {other}, Table {nxt['table']}")
    assert line(page(client, edit_path(first)), "next") == " ".join(expected)


def test_a_decided_tournament_match_offers_no_revanche_but_the_way_back(client):
    t = create(client, format="round_robin")
    m = matches(client, t)["league:1:1"]
    finish(client, m, 0)
    board = page(client, edit_path(m))
    assert 'id="revanche"' not in board and "/revanche" not in board
    assert f'id="to-tournament" href="/tv/{t["id"]}"' in board
    assert re.search(r'<button type="button" class="undo" id="undo" disabled', board)
    assert line(board, "undo-why") == "Result taken by the tournament: the organizer can reopen it."
    assert 'name="confirmed"' not in board and "hx-confirm" not in board  # no Undo form to tap
    watch = page(client, urlsplit(m["watch_url"]).path)
    assert f'id="to-tournament" href="/tv/{t["id"]}"' in watch
    assert line(page(client, edit_path(m), ES), "undo-why") == (
        "Resultado registrado por el torneo: el organizador puede reabrirlo.")


def test_a_best_of_three_slot_keeps_its_revanche_until_the_series_is_decided(client):
    t = create(client, teams=TEAMS[:2], best_of=3)
    m = matches(client, t)["main:1:1"]
    finish(client, m, 0)
    board = page(client, edit_path(m))
    assert 'id="revanche"' in board and 'id="to-tournament"' not in board and 'id="next"' not in board
    assert 'id="undo-why"' not in board and 'class="undo" id="undo">' in board  # Undo as ever
    r = client.post(edit_path(m) + "/revanche")
    assert r.status_code == 303
    second = matches(client, t)["main:1:1"]
    finish(client, second, 0)
    board = page(client, edit_path(second))
    assert 'id="revanche"' not in board and 'id="to-tournament"' in board
    assert line(board, "next") == "Champion: Os Gaúchos"


def test_the_organizer_page_says_at_once_that_something_changed(client):
    t = create(client)
    base = f"/t/{t['id']}/{t['organizer_key']}"
    organizer = page(client, base)
    poll = re.search(r'id="changed" hx-get="([^"]+)"', organizer).group(1)
    assert poll.startswith(base + "/changed?stamp=")
    assert client.get(poll, headers=HX).status_code == 204
    finish(client, matches(client, t)["main:1:1"], 0)  # a table ends its game
    r = client.get(poll, headers={**HX, **PT})
    text = html.unescape(r.get_data(as_text=True))
    assert r.status_code == 200 and f'href="{base}"' in text and "Algo mudou: recarregue a página" in text
    assert "hx-get" not in text  # the notice stays: polling stops until the page is reloaded
    fresh = re.search(r'id="changed" hx-get="([^"]+)"', page(client, base)).group(1)
    assert client.get(fresh, headers=HX).status_code == 204
    assert client.get(f"/t/{t['id']}/wrong/changed?stamp=x", headers=EN).status_code == 403
    assert client.get(f"/t/nope/{t['organizer_key']}/changed?stamp=x", headers=EN).status_code == 404


def board_poll(text: str) -> str:
    """The scoreboard's own poll (its ``hx-get``), as the page's phone sends it."""
    return re.search(r'hx-get="([^"]+/board\?[^"]+)"', text).group(1)


def test_a_finished_boards_poll_brings_the_tournaments_news(client):
    """A phone left on a finished semifinal learns, within one poll, that the other
    semifinal ended (its next line names the opponent) and that the organizer reopened
    its result (Undo available again), without a reload (try-19 found it stale)."""
    t = create(client)
    semi = matches(client, t)["main:1:1"]
    finish(client, semi, 0)
    poll = board_poll(page(client, edit_path(semi)))
    assert client.get(poll, headers=HX).status_code == 204  # nothing new yet
    finish(client, matches(client, t)["main:1:2"], 1)
    r = client.get(poll, headers={**HX, **EN})
    assert r.status_code == 200
    assert "Os Gaúchos: Final against Trio Parada Dura, Table 1" in line(html.unescape(r.get_data(as_text=True)), "next")
    poll = board_poll(html.unescape(r.get_data(as_text=True)))
    assert client.get(poll, headers=HX).status_code == 204
    base = f"/t/{t['id']}/{t['organizer_key']}"
    r = client.post(base + "/corrections", headers=EN, data={"kind": "reopen", "slot": "main:1:1", "confirmed": "1"})
    assert r.status_code == 303 and "msg=" not in r.headers["Location"]
    assert matches(client, t)["main:1:1"]["locked"] is False
    r = client.get(poll, headers={**HX, **EN})
    assert r.status_code == 200 and 'id="undo-why"' not in r.get_data(as_text=True)


def test_a_board_mid_game_says_a_walkover_took_its_result(client):
    """W.O. recorded by the organizer while the table plays: the board (page, and the
    answer to the refused tap) says the tournament took the result and offers no button
    that would be refused (try-19: it showed a live pad, and only a tap said why)."""
    t = create(client)
    semi = matches(client, t)["main:1:2"]
    match_id, key = edit_path(semi).split("/")[2:4]
    r = client.post(f"/api/matches/{match_id}/actions", headers={"X-Edit-Key": key},
                    json={"action": {"type": "adjust", "side": 0, "delta": 3}, "version": 0})
    assert r.status_code == 200
    r = client.post(f"/t/{t['id']}/{t['organizer_key']}/corrections", headers=EN,
                    data={"kind": "walkover", "slot": "main:1:2", "absent": "1"})
    assert r.status_code == 303 and "msg=" not in r.headers["Location"]
    taken = "The tournament has already taken this result; only the organizer can change it (Correct → Reopen)."
    board = page(client, edit_path(semi))
    assert line(board, "taken") == taken
    assert 'id="pad"' not in board and 'id="adjust"' not in board
    assert re.search(r'<button type="button" class="undo" id="undo" disabled', board)
    assert f'id="to-tournament" href="/tv/{t["id"]}"' in board
    assert "Os Zap: Final" in line(board, "next")
    r = client.post(edit_path(semi) + "/actions", headers={**HX, **PT},
                    data={"action": '{"type": "adjust", "side": 1, "delta": 1}', "version": "1"})
    text = html.unescape(r.get_data(as_text=True))
    assert r.status_code == 422 and 'id="pad"' not in text
    assert line(text, "taken") == "O torneio já registrou este resultado; só o organizador pode mudá-lo (Corrigir → Reabrir)."


def test_a_reopened_ended_board_offers_undo_not_a_revanche_that_would_be_refused(client):
    """Reopened by the organizer, a decided match's ended board lets the table Undo and
    play on; its Revanche would be refused (it would not count), so it is not offered:
    the way back to the tournament is (try-19: a big Revanche, refused when tapped)."""
    t = create(client)
    semi = matches(client, t)["main:1:1"]
    finish(client, semi, 0)
    r = client.post(f"/t/{t['id']}/{t['organizer_key']}/corrections", headers=EN,
                    data={"kind": "reopen", "slot": "main:1:1", "confirmed": "1"})
    assert r.status_code == 303 and "msg=" not in r.headers["Location"]
    board = page(client, edit_path(semi))
    assert 'id="revanche"' not in board and f'id="to-tournament" href="/tv/{t["id"]}"' in board
    assert 'class="undo" id="undo">' in board and 'id="undo-why"' not in board
    assert client.post(edit_path(semi) + "/revanche", headers=EN).status_code == 409  # as before


def test_the_poll_shortcut_answers_a_finished_board_and_lets_the_tournaments_news_through(migrated_db_url):
    """``truco serve --server gunicorn``'s poll shortcut compares a finished game's tag with
    its tournament's version, as the view does: an unchanged finished board is answered
    before Flask, and the other semifinal's end still reaches it in the next poll."""
    app = create_app({"TESTING": True, "DATABASE": migrated_db_url, "POLL_SHORTCUT": True})
    calls: list[int] = []
    app.before_request(lambda: calls.append(1))
    client = app.test_client()
    t = create(client)
    semi = matches(client, t)["main:1:1"]
    finish(client, semi, 0)
    poll = board_poll(page(client, edit_path(semi)))
    assert client.get(poll, headers=HX).status_code == 204  # the first 204 goes through Flask
    before = len(calls)
    assert client.get(poll, headers=HX).status_code == 204 and len(calls) == before  # answered before Flask
    finish(client, matches(client, t)["main:1:2"], 1)
    r = client.get(poll, headers={**HX, **EN})
    assert r.status_code == 200 and "Final against Trio Parada Dura" in html.unescape(r.get_data(as_text=True))
