"""A club's pages and records through Flask (scorer.web.clubs, scorer.web.club_api; docs/club.md):
create, players, a club match played to its end, the season table and a player's page in the
three languages, the check-in's draw, the swap and the night's tournament in one step, export,
import and CSV; bad input answers a clear message (422, 403, 404), never a 500."""

from __future__ import annotations

import json

import pytest

from tests.web_client import EN, ES, PT

PLAYERS = "Ana Souza: Aninha\nBeto Lima\nCaio\nDuda\nEva\nFabi"


def new_club(client, name="Peña do Zé", players=PLAYERS):
    r = client.post("/clubs", data={"name": name, "players": players})
    assert r.status_code == 303, r.get_data(as_text=True)
    _, _, cid, key = r.headers["Location"].split("/")
    return cid, key


def play_match(client, cid, key, side0, side1, winner=0):
    data = {"variant": "truco-15", "best_of": "1"}
    data |= {f"side0_{i}": str(p) for i, p in enumerate(side0, start=1)}
    data |= {f"side1_{i}": str(p) for i, p in enumerate(side1, start=1)}
    r = client.post(f"/k/{cid}/{key}/matches", data=data)
    assert r.status_code == 303, r.get_data(as_text=True)
    _, _, mid, mkey = r.headers["Location"].split("/")
    version = 0

    def act(action):
        nonlocal version
        r = client.post(f"/api/matches/{mid}/actions", json={"action": action, "version": version},
                        headers={"X-Edit-Key": mkey})
        assert r.status_code == 200, r.get_data(as_text=True)
        version += 1
        return r.get_json()

    act({"type": "call", "side": winner, "call": "truco"})
    state = act({"type": "no_quiero", "side": 1 - winner})
    while state["winner"] is None:
        state = act({"type": "adjust", "side": winner, "delta": 1})
    return mid


def test_a_club_from_the_start_page_to_the_season_table(client):
    assert 'href="/clubs/new"' in client.get("/", headers=EN).get_data(as_text=True)
    cid, key = new_club(client)
    page = client.get(f"/k/{cid}/{key}", headers=EN).get_data(as_text=True)
    assert "Aninha" in page and "Beto Lima" in page and "check-in" in page
    play_match(client, cid, key, [1, 2], [3, 4])
    play_match(client, cid, key, [1, 3], [5, 6], winner=1)
    table = client.get(f"/club/{cid}", headers=EN)
    assert table.status_code == 200
    html = table.get_data(as_text=True)
    assert "2 games" in html and "provisional: few games" in html and "Envidos won" in html
    assert html.index("Aninha") < html.index("Duda")  # 1 win, 1 loss above 0 wins
    data = client.get(f"/api/clubs/{cid}/season").get_json()
    rows = {r["player"]: r for r in data["rows"]}
    assert (rows[1]["matches"], rows[1]["wins"], rows[1]["truco_called"]) == (2, 1, 1)
    assert (rows[5]["matches"], rows[5]["wins"], rows[5]["truco_called"]) == (1, 1, 1)
    assert rows[3]["truco_refused"] == 2  # refused with Duda, and with Ana against Eva and Fabi


@pytest.mark.parametrize(("lang", "words"), [(PT, "Classificação da temporada"), (ES, "Tabla de la temporada"),
                                             (EN, "Season table")])
def test_pages_in_three_languages(client, lang, words):
    cid, key = new_club(client)
    play_match(client, cid, key, [1, 2], [3, 4])
    assert words in client.get(f"/k/{cid}/{key}", headers=lang).get_data(as_text=True)
    for path in (f"/club/{cid}", f"/club/{cid}/player/1", f"/k/{cid}/{key}/checkin", "/clubs/new"):
        r = client.get(path, headers=lang)
        assert r.status_code == 200, path
    svg = client.get(f"/club/{cid}/player/1/rating.svg", headers=lang)
    assert svg.status_code == 200 and svg.headers["Content-Type"].startswith("image/svg+xml")


def test_draw_swap_and_the_nights_tournament_in_one_step(client):
    cid, key = new_club(client)
    play_match(client, cid, key, [1, 2], [3, 4])
    form = {"player": ["1", "2", "3", "4", "5", "6"], "size": "2", "seed": "42"}
    first = client.post(f"/k/{cid}/{key}/draw", data=form, headers=EN)
    assert first.status_code == 200
    again = client.post(f"/k/{cid}/{key}/draw", data=form, headers=EN)
    assert first.get_data() == again.get_data()  # the same seed, the same teams
    html = first.get_data(as_text=True)
    assert html.count('name="team') == 6
    # a swap that puts one player in two teams is refused and said
    bad = {"team1_1": "1", "team1_2": "2", "team2_1": "2", "team2_2": "4", "team3_1": "5", "team3_2": "6",
           "variant": "truco-15", "format": "round_robin", "best_of": "1", "seed": "42"}
    r = client.post(f"/k/{cid}/{key}/night", data=bad, headers=EN)
    assert r.status_code == 422 and "one team only" in r.get_data(as_text=True)
    good = dict(bad, team2_1="3")
    r = client.post(f"/k/{cid}/{key}/night", data=good, headers=EN)
    assert r.status_code == 303 and r.headers["Location"].startswith("/t/")
    tid = r.headers["Location"].split("/")[2]
    state = client.get(f"/api/tournaments/{tid}").get_json()
    assert state["teams"] == ["Aninha & Beto", "Caio & Duda", "Eva & Fabi"]
    assert tid in client.get(f"/k/{cid}/{key}", headers=EN).get_data(as_text=True)


@pytest.mark.parametrize(("form", "words"), [
    ({"player": ["1", "2", "3", "4", "5"], "size": "2", "seed": "1"}, "cannot be split into teams of 2"),
    ({"player": ["1"], "size": "2", "seed": "1"}, "Tick at least 4 players"),
    ({"player": ["1", "2", "3", "4"], "size": "5", "seed": "1"}, "Teams are of 2 or 3 players"),
    ({"player": ["1", "2", "3", "99"], "size": "2", "seed": "1"}, "not in this club"),
])
def test_a_bad_checkin_is_said(client, form, words):
    cid, key = new_club(client)
    r = client.post(f"/k/{cid}/{key}/draw", data=form, headers=EN)
    assert r.status_code == 422 and words in r.get_data(as_text=True)


@pytest.mark.parametrize(("path", "data", "status"), [
    ("/clubs", {"name": ""}, 422),
    ("/clubs", {"name": "\x00"}, 422),
    ("{org}/players", {"players": ":nick only"}, 422),
    ("{org}/seasons", {"first_night": "2026-12-01", "last_night": "2026-11-01"}, 422),
    ("{org}/seasons", {"first_night": "yesterday", "last_night": "2026-11-01"}, 422),
    ("{org}/matches", {"variant": "truco-15", "side0_1": "1", "side1_1": "1"}, 422),
    ("{org}/matches", {"variant": "nope", "side0_1": "1", "side1_1": "2"}, 422),
    ("{org}/matches", {"variant": "truco-15", "side0_1": "²", "side1_1": "1"}, 422),
    ("{org}/draw", {"player": ["²", "1", "2", "3"], "size": "²", "seed": "²"}, 422),
    ("{org}/night", {"team1_1": "²", "team2_1": "1", "variant": "truco-15"}, 422),
    ("{wrong}/players", {"players": "Zé"}, 403),
    ("/k/nope/nope/players", {"players": "Zé"}, 404),
])
def test_bad_input_is_refused_with_words_never_a_500(client, path, data, status):
    cid, key = new_club(client)
    r = client.post(path.format(org=f"/k/{cid}/{key}", wrong=f"/k/{cid}/wrong"), data=data, headers=EN)
    assert r.status_code == status, r.get_data(as_text=True)[:300]


def test_export_import_and_csv(client):
    cid, key = new_club(client)
    play_match(client, cid, key, [1, 2], [3, 4])
    exported = client.get(f"/api/clubs/{cid}/export")
    assert exported.status_code == 200 and "attachment" in exported.headers["Content-Disposition"]
    data = exported.get_json()
    assert key not in exported.get_data(as_text=True)
    r = client.post("/api/clubs/import", json=data)
    assert r.status_code == 201, r.get_data(as_text=True)
    body = r.get_json()
    assert body["organizer_key"] and body["id"] != cid
    a = client.get(f"/club/{cid}/season.csv").get_data(as_text=True).splitlines()
    b = client.get(f"/club/{body['id']}/season.csv").get_data(as_text=True).splitlines()
    assert a == b and a[0].startswith("rank,player,name,nickname,rating")
    assert client.get(body["organizer_url"].split("localhost", 1)[-1]).status_code in (200, 404)


@pytest.mark.parametrize(("body", "code"), [
    ({"format": "truco-scorer-tournament/1"}, "bad_export"),
    ({"format": "truco-scorer-club/1", "name": "x", "players": "no", "games": []}, "bad_export"),
    ({"format": "truco-scorer-club/1", "name": "x", "players": [], "games": [{"sides": 1}]}, "bad_export"),
    ({"format": "truco-scorer-club/1", "name": "", "players": [], "games": []}, "bad_name"),
])
def test_a_bad_import_is_a_clear_422(client, body, code):
    r = client.post("/api/clubs/import", json=body, headers=ES)
    assert r.status_code == 422
    assert r.get_json()["error"]["code"] == code and r.get_json()["error"]["message"]


def test_a_body_that_is_not_json_or_too_large(client):
    assert client.post("/api/clubs/import", data="[]", content_type="application/json").status_code == 422
    big = json.dumps({"format": "truco-scorer-club/1", "pad": "x" * (9 * 1024 * 1024)})
    assert client.post("/api/clubs/import", data=big, content_type="application/json").status_code == 413


def test_unknown_club_and_player_are_404(client):
    cid, _key = new_club(client)
    for path in ("/club/nope", f"/club/{cid}/player/99", f"/club/{cid}/player/99/rating.svg",
                 "/api/clubs/nope/export", "/club/nope/season.csv", "/api/clubs/nope/season"):
        assert client.get(path).status_code == 404, path


def test_an_import_larger_than_an_ordinary_body_is_taken(client):
    """A club's history is larger than the 64 KB an ordinary body may have (MAX_CONTENT_LENGTH):
    the import takes up to CLUB_IMPORT_MAX_BYTES (docs/club.md)."""
    actions = [{"type": "call", "side": 0, "call": "truco"}, {"type": "no_quiero", "side": 1},
               *[{"type": "adjust", "side": 0, "delta": 1}] * 14]
    body = {"format": "truco-scorer-club/1", "name": "Grande",
            "players": [{"player": p, "name": f"Jogador número {p:03d}", "nickname": f"J{p}"} for p in range(1, 41)],
            "games": [{"sides": [[1 + i % 40, 1 + (i + 1) % 40], [1 + (i + 2) % 40, 1 + (i + 3) % 40]], "winner": 0,
                       "ended": 1.8e9 + i * 600, "variant": "truco-15", "options": {}, "mano": 0, "actions": actions}
                      for i in range(150)]}
    size = len(json.dumps(body))
    assert size > client.application.config["MAX_CONTENT_LENGTH"]
    r = client.post("/api/clubs/import", json=body)
    assert r.status_code == 201, r.get_data(as_text=True)[:300]
    assert client.get(f"/api/clubs/{r.get_json()['id']}/season").get_json()["games"] == 150


def test_a_clubs_limits_are_the_tournaments(tmp_path):
    """docs/security.md: creating a club shares the tournaments' budget, importing one the imports',
    and wrong organizer keys on one club slow that address on that club alone."""
    from scorer.web import create_app

    public = "https://truco.example"
    app = create_app({"TESTING": True, "DATABASE": tmp_path / "l.sqlite3", "PUBLIC_URL": public,
                      "RATE_LIMITS": {"tournament": "2/minute", "wrong_key": "3/minute", "import": "1/minute"}})
    client = app.test_client()

    def at(address):
        return {"environ_base": {"REMOTE_ADDR": address}, "base_url": public}

    made = [client.post("/clubs", data={"name": f"C{i}", "players": "A\nB"}, **at("203.0.113.7")) for i in range(3)]
    assert [r.status_code for r in made] == [303, 303, 429]
    assert client.post("/api/tournaments", json={"variant": "truco-15", "teams": ["A", "B"]},
                       **at("203.0.113.7")).status_code == 429  # one budget with the tournaments
    cid, key = made[0].headers["Location"].split("/")[-2:]
    wrong = [client.get(f"/k/{cid}/guess", **at("198.51.100.9")).status_code for _ in range(5)]
    assert wrong[:3] == [403] * 3 and set(wrong[3:]) == {429}
    assert client.get(f"/k/{cid}/{key}", **at("198.51.100.10")).status_code == 200  # another address
    body = client.get(f"/api/clubs/{cid}/export", **at("198.51.100.11")).get_json()
    assert client.post("/api/clubs/import", json=body, **at("198.51.100.11")).status_code == 201
    assert client.post("/api/clubs/import", json=body, **at("198.51.100.11")).status_code == 429
