"""The findings of issue 32's club night, each with the test that would have caught it (the
dropped board and the unchanged winner: test_tournament_dropped.py; the screens at 1366 px:
tests/browser/test_bracket_last_mile_screens.py). Expected values from docs/tournaments.md."""

from __future__ import annotations

import re

import pytest

from scorer.web import create_app
from web_client import EN

LANGS = {"en": EN, "pt_BR": {"Accept-Language": "pt-BR"}, "es": {"Accept-Language": "es"}}


@pytest.fixture
def client(migrated_db_url):
    return create_app({"TESTING": True, "DATABASE": migrated_db_url}).test_client()


def create(client, **changes):
    body = {"name": "Copa", "variant": "truco-15", "teams": ["A", "B", "C", "D"], **changes}
    r = client.post("/api/tournaments", json=body)
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def state(client, t):
    return client.get(f"/api/tournaments/{t['id']}", headers={"X-Organizer-Key": t["organizer_key"]}).get_json()


def matches(s):
    return {m["slot"]: m for r in s["rounds"] for m in r["matches"]}


def table(m):
    _, _, match_id, key = m["edit_url"].split("/")[-4:]
    return match_id, key


def post(client, match_id, key, action):
    version = client.get(f"/api/matches/{match_id}").get_json()["version"]
    return client.post(f"/api/matches/{match_id}/actions", headers={"X-Edit-Key": key, **EN},
                       json={"action": action, "version": version})


def play(client, m, *points):
    match_id, key = table(m)
    for side, delta in points:
        r = post(client, match_id, key, {"type": "adjust", "side": side, "delta": delta})
        assert r.status_code == 200, r.get_json()
    return match_id, key


#: Actions a phone left on a finished board may still send: each the engine alone would refuse
#: with ``game_over``; the tournament has taken the result, so its code is the one answered.
LATE_ACTIONS = [
    {"type": "adjust", "side": 1, "delta": 3},
    {"type": "call", "side": 0, "call": "truco"},
    {"type": "trick", "winner": 1},
    {"type": "mazo", "side": 0},
]


@pytest.mark.parametrize("action", LATE_ACTIONS, ids=lambda a: a["type"])
def test_a_new_action_on_a_taken_ended_board_answers_result_taken(client, action):
    """docs/tournaments.md step 5: "An Undo, any other action on any game of the match ... the JSON API
    answers 422 `tournament_result_taken`" (it answered 422 `game_over`, "only undo is possible")."""
    t = create(client)
    match_id, key = play(client, matches(state(client, t))["main:1:1"], (1, 12), (0, 15))
    r = post(client, match_id, key, action)
    assert r.status_code == 422 and r.get_json()["error"]["code"] == "tournament_result_taken"


#: docs/tournaments.md "Standings and tiebreaks" by hand (tests/core/test_tournament.py SEPARATIONS,
#: "alfa-h2h-gama-beta-diff"): Alfa, Beta, Gama level on 7 points; the head-to-head's points are level
#: too (4 each) and its tento difference (Alfa +4) decides; overall tento difference puts Gama above Beta.
LEAGUE = [("Alfa", "Beta", 15, 9), ("Beta", "Gama", 15, 11), ("Gama", "Alfa", 15, 13),
          ("Alfa", "Delta", 15, 14), ("Beta", "Delta", 15, 10), ("Gama", "Delta", 15, 0)]
NOTES = {
    "en": "Level on points: Alfa–Gama: head-to-head tento difference; Gama–Beta: tento difference",
    "pt_BR": "Empate em pontos: Alfa–Gama: saldo de tentos no confronto direto; Gama–Beta: saldo de tentos",
    "es": "Empate en puntos: Alfa–Gama: diferencia de tantos en el enfrentamiento directo; Gama–Beta: diferencia de tantos",
}


def play_league(client):
    teams = ["Alfa", "Beta", "Gama", "Delta"]
    t = create(client, teams=teams, format="round_robin")
    for m in matches(state(client, t)).values():
        a, b = (teams[i] for i in m["teams"])
        winner, _loser, _won, lost = next(g for g in LEAGUE if {g[0], g[1]} == {a, b})
        loser_side = 1 if winner == a else 0
        play(client, m, *([(loser_side, lost)] if lost else []), (1 - loser_side, 15))
    return t


@pytest.mark.parametrize("lang", LANGS)
def test_the_tie_notes_name_the_part_of_the_head_to_head_that_decided(client, lang):
    t = play_league(client)
    page = client.get(f"/t/{t['id']}/{t['organizer_key']}", headers=LANGS[lang]).get_data(as_text=True)
    assert NOTES[lang] in page
    rows = state(client, t)["standings"]
    assert [(r["team"], r["separated_by"]) for r in rows] == [
        (0, "head_to_head_tento_difference"), (2, "tento_difference"), (1, "points"), (3, None)]


@pytest.mark.parametrize("fmt, listed", [("knockout", False), ("round_robin", True)])
def test_only_pages_with_standings_list_the_tiebreaks(client, fmt, listed):
    t = create(client, format=fmt)
    for path in (f"/t/{t['id']}/{t['organizer_key']}", f"/tv/{t['id']}"):
        assert ("Tiebreaks:" in client.get(path, headers=EN).get_data(as_text=True)) is listed, path


def test_a_finished_match_keeps_its_table(client):
    t = create(client)
    semi = matches(state(client, t))["main:1:1"]
    assert semi["table"] == 1
    play(client, semi, (0, 15))
    done = matches(state(client, t))["main:1:1"]
    assert done["result"] is not None and done["table"] == 1
    page = client.get(f"/t/{t['id']}/{t['organizer_key']}", headers=EN).get_data(as_text=True)
    card = page.split('id="slot-main-1-1"')[1].split("</article>")[0]
    assert "Table 1" in card
    cards = client.get(f"/t/{t['id']}/{t['organizer_key']}/cards", headers=EN).get_data(as_text=True)
    assert cards.count('class="card"') == 1  # the cards are still only the tables now playing


def team_links(client, t):
    page = client.get(f"/t/{t['id']}/{t['organizer_key']}", headers=EN).get_data(as_text=True)
    return ["/t/" + link.split("/t/", 1)[1] for link in re.findall(r'href="([^"]*/team/[^"]*)"', page)]


def poll_of(page):
    return re.search(r'hx-get="([^"]*/matches\?stamp=[^"]*)"', page).group(1).replace("&amp;", "&")


def test_a_team_page_shows_the_score_to_confirm_and_the_other_teams_confirmation(client):
    """Both teams confirm at once: the first one's page says "waiting", and its next poll shows the
    result confirmed, without a reload (it said "waiting for the other team" until reloaded)."""
    t = create(client, teams=["A", "B"], confirm=True)
    play(client, matches(state(client, t))["main:1:1"], (1, 12), (0, 15))
    first, second = team_links(client, t)
    page = client.get(first, headers=EN).get_data(as_text=True)
    assert "15–12" in page and "won by A?" in page and "Confirm this result" in page
    r = client.post(first + "/confirm", data={"slot": "main:1:1"}, headers=EN, follow_redirects=True)
    page = r.get_data(as_text=True)
    assert "(you confirmed; waiting for the other team)" in page
    poll = poll_of(page)
    assert client.get(poll, headers={"HX-Request": "true", **EN}).status_code == 204
    assert client.post(second + "/confirm", data={"slot": "main:1:1"}).status_code == 303
    r = client.get(poll, headers={"HX-Request": "true", **EN})
    fragment = r.get_data(as_text=True)
    assert r.status_code == 200 and "won by A" in fragment and "15–12" in fragment
    assert "waiting for the other team" not in fragment and "Confirm this result" not in fragment
    assert client.get(poll.replace("/matches", "x/matches")).status_code in (403, 404)
