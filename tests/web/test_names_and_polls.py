"""Issue 13 items 8, 9 and the API part of item 10: names cut by what a reader sees, a rename
reaching the other phones within one poll, and the API creating what the form creates."""

import re
from urllib.parse import urlsplit

import pytest

from scorer.web import player_names
from tests.web_client import EN, HX, new_match

FLAG = "\U0001F1E7\U0001F1F7"  # 🇧🇷: two regional indicators, one character to a reader


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("a" * 23 + FLAG, "a" * 23 + FLAG),  # the issue's example: 24 characters, kept whole
        ("a" * 24 + FLAG, "a" * 24),  # one too many: the flag goes whole, never half
        ("a" * 23 + FLAG + FLAG, "a" * 23 + FLAG),
        ("\x00Nós\x00", "Nós"),  # NULs removed
        ("\u200bNós\ufeff", "Nós"),  # invisible characters trimmed
        ("Nó\x07s", "Nós"),  # control characters removed
        ("  Eles\t", "Eles"),
    ],
)
def test_cut_name_by_grapheme_clusters(typed, stored):
    assert player_names.cut_name(typed) == stored


def test_a_flag_is_never_cut_in_half():
    for prefix in range(20, 30):
        name = player_names.cut_name("a" * prefix + FLAG)
        assert name.count("\U0001F1E7") == name.count("\U0001F1F7")
        assert player_names.name_length(name) <= player_names.NAME_MAX


def test_the_api_says_when_a_name_was_shortened(client):
    m = client.post("/api/matches", json={"variant": "paulista", "names": ["a" * 30, "B"]}, headers=EN).get_json()
    assert m["state"]["names"][0] == "a" * 24
    assert m["notes"] == ["A name was shortened to 24 characters."]
    fine = client.post("/api/matches", json={"variant": "paulista", "names": ["a" * 23 + FLAG, "B"]}).get_json()
    assert fine["notes"] == [] and fine["state"]["names"][0] == "a" * 23 + FLAG
    r = client.post(f"/api/matches/{m['id']}/names", json={"names": ["x" * 40, "B"]},
                    headers={"X-Edit-Key": m["edit_key"], **EN})
    assert r.get_json()["notes"] == ["A name was shortened to 24 characters."]


def test_the_form_says_when_a_name_was_shortened(client):
    r = client.post("/matches", data={"variant": "paulista", "name0": "b" * 40, "name1": "Eles", "mano": "0"}, headers=EN)
    assert r.status_code == 303 and "note=shortened" in r.headers["Location"]
    html = client.get(r.headers["Location"], headers=EN).get_data(as_text=True)
    assert "A name was shortened to 24 characters." in html
    assert "b" * 24 in html and "b" * 25 not in html


def poll_url(html):
    return re.search(r'hx-get="([^"]+/board[^"]*)"', html).group(1).replace("&amp;", "&")


@pytest.mark.parametrize("watch", [False, True])
def test_a_rename_reaches_the_other_phones_within_one_poll(client, watch):
    path, match_id, key = new_match(client, "paulista")
    page = client.get(f"/w/{match_id}" if watch else path).get_data(as_text=True)
    url = poll_url(page)
    assert client.get(url, headers=HX).status_code == 204  # nothing changed yet
    r = client.post(f"/api/matches/{match_id}/names", json={"names": ["Os de cá", "Os de lá"]},
                    headers={"X-Edit-Key": key})
    assert r.status_code == 200
    answer = client.get(url, headers=HX)  # same version: only the names changed
    assert answer.status_code == 200
    assert "Os de cá" in answer.get_data(as_text=True)
    assert client.get(poll_url(answer.get_data(as_text=True)), headers=HX).status_code == 204


def test_the_api_sets_the_series_length_and_the_players(client):
    body = {"variant": "argentino-30", "names": ["Nós", "Eles"], "best_of": 3,
            "players": [["Ana", "Bia", "Caio"], ["Duda", "Edu", "Fê"]]}
    m = client.post("/api/matches", json=body).get_json()
    assert m["best_of"] == 3 and m["players"] == body["players"]
    export = client.get(f"/api/matches/{m['id']}/export").get_json()
    assert export["best_of"] == 3 and export["players"] == body["players"]
    html = client.get(urlsplit(m["edit_url"]).path, headers=EN).get_data(as_text=True)
    assert "Ana" in html


@pytest.mark.parametrize(
    "body",
    [{"variant": "paulista", "best_of": 2}, {"variant": "paulista", "best_of": "3"},
     {"variant": "paulista", "players": [["A"], ["B"]]}, {"variant": "paulista", "players": "A,B"}],
)
def test_the_api_refuses_a_bad_series_or_players(client, body):
    r = client.post("/api/matches", json=body)
    assert r.status_code == 422
