"""What a tester broke in the web app, each pinned down (Flask test client): the Revanche
of an unfinished game, an Undo after the Revanche started, the language switch's
``next``, a malformed settings cookie, the CSV's action column, the series length and
players lost by export/import, a calculator's yes/no parameter, and names cut inside an
emoji sequence."""

from __future__ import annotations

import re
import base64
import csv
import io
import json
import unicodedata
from urllib.parse import urlsplit

import pytest

from scorer.app import store
from scorer.app.match_service import MatchService
from scorer.core.errors import RuleError
from scorer.web import player_names
from tests.web_client import EN, HX, PT, new_match

UNDO = {"type": "undo"}


def act(client, path, action, version, **extra):
    return client.post(path + "/actions", data={"action": json.dumps(action), "version": str(version), **extra},
                       headers=EN)


def finish(client, path, version=0):
    assert act(client, path, {"type": "adjust", "side": 0, "delta": 12}, version).status_code == 303


def match_count(app) -> int:
    with app.app_context():
        from scorer.web.db import get_db

        return get_db().execute("SELECT COUNT(*) FROM match").fetchone()[0]


# -- 1. the Revanche needs a finished game ------------------------------------------------


def test_revanche_of_an_unfinished_game_is_refused_and_creates_nothing(app, client):
    path, match_id, _key = new_match(client)
    r = client.post(path + "/revanche", headers=EN)
    assert r.status_code == 409
    html = r.get_data(as_text=True)
    assert 'id="scoreboard"' in html and "The game is not over" in html
    assert match_count(app) == 1
    assert client.get(f"/api/matches/{match_id}").get_json()["winner"] is None


def test_revanche_after_another_phone_undid_the_winning_action_is_refused(app, client):
    path, _id, _key = new_match(client)
    finish(client, path)
    assert 'id="revanche"' in client.get(path).get_data(as_text=True)  # phone A shows the game over
    assert act(client, path, UNDO, 1, confirmed="1").status_code == 303  # phone B undoes
    r = client.post(path + "/revanche", headers={**HX, **EN})  # phone A taps Revanche
    assert r.status_code == 409 and "The game is not over" in r.get_data(as_text=True)
    assert match_count(app) == 1


def test_store_refuses_the_revanche_of_a_match_without_a_winner(tmp_path):
    db = store.connect(tmp_path / "s.sqlite3")
    store.init_db(db)
    row = store.create_match(db, variant="paulista", options={}, names=("A", "B"), mano=0)
    with pytest.raises(RuleError) as e:
        store.create_rematch(db, row.id)
    assert e.value.code == "game_not_over"
    assert store.get_match(db, row.id).rematch is None and not db.in_transaction


# -- 2. no Undo once the Revanche has started -----------------------------------------------


def test_undo_after_the_revanche_started_is_refused_on_the_pages(client):
    path, _id, _key = new_match(client)
    finish(client, path)
    client.post(path + "/revanche")
    for r in (act(client, path, UNDO, 1, confirmed="1"), act(client, path, UNDO, 1), client.get(path + "/undo",
                                                                                                 headers=EN)):
        assert r.status_code == 422
        html = r.get_data(as_text=True)
        assert "The Revanche has already started" in html and 'id="go-rematch"' in html
    state = client.get(path.replace("/m/", "/api/matches/").rsplit("/", 1)[0]).get_json()
    assert state["winner"] == 0 and state["version"] == 1


def test_undo_after_the_revanche_started_is_refused_by_the_api(client):
    m = client.post("/api/matches", json={"variant": "paulista"}).get_json()
    url, key = f"/api/matches/{m['id']}/actions", {"X-Edit-Key": m["edit_key"]}
    body = {"action": {"type": "adjust", "side": 1, "delta": 12}, "version": 0}
    assert client.post(url, json=body, headers=key).status_code == 200
    client.post(f"/m/{m['id']}/{m['edit_key']}/revanche")
    r = client.post(url, json={"action": UNDO, "version": 1}, headers={**key, **EN})
    assert r.status_code == 422 and r.get_json()["error"]["code"] == "rematch_started"
    assert "continue there" in r.get_json()["error"]["message"]
    assert client.get(f"/api/matches/{m['id']}").get_json()["winner"] == 1


def test_undo_racing_the_revanche_is_refused_in_the_write(tmp_path, monkeypatch):
    """The Revanche starts between the Undo's read of the match and its write."""
    db = store.connect(tmp_path / "race.sqlite3")
    store.init_db(db)
    service = MatchService()
    row = store.create_match(db, variant="paulista", options={}, names=("A", "B"), mano=0)
    service.act(db, row.id, {"type": "adjust", "side": 0, "delta": 12}, 0)
    append = store.append_action

    def revanche_first(*args, **kwargs):
        store.create_rematch(db, row.id)  # phone A, just before phone B's Undo is written
        return append(*args, **kwargs)

    monkeypatch.setattr(store, "append_action", revanche_first)
    with pytest.raises(RuleError) as e:
        service.act(db, row.id, UNDO, 1)
    assert e.value.code == "rematch_started"
    after = store.get_match(db, row.id)
    assert (after.version, after.winner) == (1, 0) and after.rematch
    assert service.state(db, after)["winner"] == 0


# -- 3. the language switch goes back only to a path on this site ---------------------------


@pytest.mark.parametrize(
    "next_",
    ["/%0d%0aX:1", "/%0aSet-Cookie:%20a=b", "/%09/evil.com", "/%0a/evil.com", "/%0d/evil.com", "%09//evil.com",
     "/\\evil.com", "//evil.com", "https://evil.com", "javascript:alert(1)", "/%00", "/%E2%80%8B/evil.com",
     "evil.com", ""],
)
def test_language_switch_never_leaves_the_site_nor_fails(client, next_):
    r = client.get(f"/lang/en?next={next_}")
    assert r.status_code == 303 and r.headers["Location"] == "/"


@pytest.mark.parametrize("next_", ["/", "/envido?cards=7o%206o", "/m/abc/def", "/w/abc"])
def test_language_switch_goes_back_to_a_path_here(client, next_):
    r = client.get("/lang/en", query_string={"next": next_})
    location = r.headers["Location"]
    assert r.status_code == 303 and location == next_
    browser = "".join(c for c in location if c not in "\t\n\r")  # what a browser would read
    assert not urlsplit(browser).netloc and not any(unicodedata.category(c).startswith("C") for c in location)


# -- 4. a settings cookie of an unexpected shape is ignored ----------------------------------


@pytest.mark.parametrize(
    "last",
    [
        {"variant": "argentino-30", "options": [1]},
        {"variant": "argentino-30", "options": "x"},
        {"variant": ["paulista"]},
        {"variant": {"a": 1}, "names": "AB", "mano": [0], "best_of": {"3": 1}},
        {"variant": "paulista", "names": [1, 2], "players": [[1, 2], ["a"]]},
        {"variant": "argentino-30", "options": {"flor": [True]}, "players": "xx"},
        {"variant": "argentino-30", "players": [["a", "b", "c", "d"], ["e", "f", "g", "h"]]},
        [1, 2],
        "text",
    ],
)
def test_a_malformed_last_settings_cookie_is_ignored(client, last):
    value = base64.urlsafe_b64encode(json.dumps(last).encode()).decode().rstrip("=")
    client.set_cookie("last", value)
    for url in ("/", "/options?variant=argentino-30", "/options"):
        r = client.get(url)
        assert r.status_code == 200, url


def test_a_well_formed_last_settings_cookie_is_still_used(client):
    new_match(client, "argentino-30", name0="Ana", best_of="3", flor="True")
    html = client.get("/").get_data(as_text=True)
    assert 'value="Ana"' in html and 'value="argentino-30" selected' in html


# -- 5. the CSV's action column is compact JSON ----------------------------------------------


def test_log_csv_action_column_is_compact_json(client):
    m = client.post("/api/matches", json={"variant": "paulista"}).get_json()
    action = {"type": "call", "side": 0, "call": "truco"}
    client.post(f"/api/matches/{m['id']}/actions", json={"action": action, "version": 0},
                headers={"X-Edit-Key": m["edit_key"]})
    rows = list(csv.reader(io.StringIO(client.get(f"/api/matches/{m['id']}/log.csv").get_data(as_text=True))))
    cell = rows[1][-1]
    assert json.loads(cell) == action
    assert cell == json.dumps(action, separators=(",", ":"), sort_keys=True)


# -- 6. export and import keep the series length and the players -----------------------------


def test_export_and_import_keep_series_length_and_players(client):
    path, match_id, _key = new_match(client, "argentino-30", best_of="3", table_size="4", player0_0="Ana",
                                     player0_1="Bia", player1_0="Caio", player1_1="")
    data = client.get(f"/api/matches/{match_id}/export").get_json()
    assert data["best_of"] == 3 and data["players"] == [["Ana", "Bia"], ["Caio", "Eles 2"]]
    new = client.post("/api/matches/import", json=data).get_json()
    again = client.get(f"/api/matches/{new['id']}/export").get_json()
    assert again["best_of"] == 3 and again["players"] == data["players"]
    html = client.get(f"/m/{new['id']}/{new['edit_key']}", headers=PT).get_data(as_text=True)
    assert "Melhor de 3" in html and "Ana" in html


def test_an_old_export_without_series_or_players_still_imports(client):
    m = client.post("/api/matches", json={"variant": "paulista"}).get_json()
    data = client.get(f"/api/matches/{m['id']}/export").get_json()
    del data["best_of"], data["players"]
    new = client.post("/api/matches/import", json=data)
    assert new.status_code == 201
    again = client.get(f"/api/matches/{new.get_json()['id']}/export").get_json()
    assert again["best_of"] == 1 and again["players"] is None


@pytest.mark.parametrize(
    "change",
    [{"best_of": 4}, {"best_of": "3"}, {"best_of": True}, {"players": [["A", "B"]]}, {"players": [["A", "B"], ["C"]]},
     {"players": [["A"], ["B"]]}, {"players": [["A", 1], ["B", "C"]]}, {"players": "ABCD"},
     {"players": [["A", "B", "C", "D"], ["E", "F", "G", "H"]]}],
)
def test_import_checks_series_length_and_players_and_stores_nothing(app, client, change):
    m = client.post("/api/matches", json={"variant": "paulista"}).get_json()
    data = client.get(f"/api/matches/{m['id']}/export").get_json() | change
    before = match_count(app)
    r = client.post("/api/matches/import", json=data)
    assert r.status_code == 422 and r.get_json()["error"]["message"]
    assert match_count(app) == before


# -- 7. a yes/no parameter of the calculators is yes or no -----------------------------------


@pytest.mark.parametrize("value", ["maybe", "2", "sí", "truee"])
def test_envido_api_refuses_a_flor_that_is_neither_yes_nor_no(client, value):
    r = client.get("/api/envido", query_string={"cards": "7o 6o 5o", "flor": value}, headers=EN)
    assert r.status_code == 422
    error = r.get_json()["error"]
    assert error["code"] == "bad_flag" and "flor" in error["message"] and "true" in error["message"]
    assert "true" in error["allowed"]


@pytest.mark.parametrize(("value", "flor"), [("1", True), ("TRUE", True), ("on", True), ("yes", True), ("", False),
                                             ("0", False), ("false", False), ("off", False), ("no", False)])
def test_envido_api_reads_the_accepted_yes_and_no(client, value, flor):
    r = client.get("/api/envido", query_string={"cards": "7o 6o 5o", "flor": value})
    assert r.status_code == 200 and bool(r.get_json()["flor"]) is flor


@pytest.mark.parametrize("query", [{"flor": "maybe"}, {"flor": "maybe", "cards": "7o 6o 5o"}])
def test_envido_page_shows_the_bad_flor(client, query):
    r = client.get("/envido", query_string=query, headers=EN)
    assert r.status_code == 422
    assert "flor must be yes or no" in r.get_data(as_text=True)


def test_a_bad_flor_is_translated(client):
    r = client.get("/api/envido", query_string={"cards": "7o 6o 5o", "flor": "talvez"}, headers=PT)
    assert r.status_code == 422 and "flor must be" not in r.get_json()["error"]["message"]


# -- 8. names are never cut inside an emoji sequence -----------------------------------------

FAMILY = "\U0001F468\u200d\U0001F469\u200d\U0001F467\u200d\U0001F466"
DANGLING = {"\u200d", "\ufe0f", "\U0001F3FB", "\U0001F3FC", "\U0001F3FD", "\U0001F3FE", "\U0001F3FF"}


@pytest.mark.parametrize("prefix", range(16, 25))
def test_a_cut_name_keeps_an_emoji_sequence_whole_or_drops_it(prefix):
    name = player_names.cut_name("a" * prefix + FAMILY + "b")
    # Issue 13 item 8: NAME_MAX counts what a reader sees (grapheme clusters), not code points.
    assert player_names.name_length(name) <= player_names.NAME_MAX and name[-1] not in DANGLING
    assert name in ("a" * prefix, "a" * prefix + FAMILY, "a" * prefix + FAMILY + "b")


@pytest.mark.parametrize(
    ("text", "cut"),
    [("a" * 22 + "\u2764\ufe0f", "a" * 22 + "\u2764\ufe0f"),  # fits: the variation selector stays
     # Issue 13 item 8: 24 characters a reader sees fit, whatever their code points.
     ("a" * 23 + "\u2764\ufe0f", "a" * 23 + "\u2764\ufe0f"),
     ("a" * 24 + "\u2764\ufe0f", "a" * 24),
     ("a" * 24 + "\U0001F44D\U0001F3FD", "a" * 24),
     ("a" * 24 + "e\u0301", "a" * 24),
     ("  Nós  ", "Nós")],
)
def test_cut_name_examples(text, cut):
    assert player_names.cut_name(text) == cut


def test_names_and_players_from_the_form_and_the_api_are_cut_cleanly(client):
    long = "a" * 24 + FAMILY  # issue 13 item 8: 24 visible characters, then the family
    m = client.post("/api/matches", json={"variant": "paulista", "names": [long, "B"]}).get_json()
    assert m["state"]["names"][0] == "a" * 24
    _path, match_id, _key = new_match(client, "paulista", name0=long, table_size="4", player0_0=long)
    data = client.get(f"/api/matches/{match_id}/export").get_json()
    assert data["names"][0] == "a" * 24 and data["players"][0][0] == "a" * 24


@pytest.mark.parametrize(("flor", "ticked"), [("0", False), ("no", False), ("", False), ("1", True), ("on", True)])
def test_envido_page_ticks_flor_only_for_a_yes(client, flor, ticked):
    """The Flor box showed ticked for any non-empty value, flor=0 included."""
    html = client.get("/envido", query_string={"cards": "7o 6o 5o", "flor": flor}, headers=EN).get_data(as_text=True)
    box = re.search(r'<input type="checkbox" name="flor"[^>]*>', html).group(0)
    assert ("checked" in box) is ticked
