"""The phone pages with the Flask test client, on a real SQLite file in tmp_path."""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
from pathlib import Path

import pytest

from scorer.core.variants import VARIANTS
from scorer.web import HTMX_FILE, asset_dir, create_app
from tests.web_client import HX, PT, act, new_match, version_of


# -- new match -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("accept", "names", "title"),
    [
        ("pt-BR,pt;q=0.9", ("Nós", "Eles"), "Nova partida"),
        ("es-AR,es;q=0.9", ("Nosotros", "Ellos"), "Nueva partida"),
        ("en-US,en;q=0.9", ("Us", "Them"), "New match"),
        ("ca-ES,ca;q=0.9", ("Nosaltres", "Ells"), "Partida nova"),  # issue 33
        ("", ("Nós", "Eles"), "Nova partida"),  # pt_BR is the default
    ],
)
def test_new_match_page_in_the_browsers_language(client, accept, names, title):
    r = client.get("/", headers={"Accept-Language": accept} if accept else {})
    html = r.get_data(as_text=True)
    assert r.status_code == 200
    assert title in html
    assert f'value="{names[0]}"' in html and f'value="{names[1]}"' in html
    for variant in VARIANTS:
        assert f'value="{variant}"' in html


@pytest.mark.parametrize(
    ("variant", "present", "absent"),
    [
        ("paulista", ["all_pardas"], ["flor", "falta", "target"]),
        ("argentino-30", ["target", "flor", "falta", "mazo_primera"], ["all_pardas"]),
        ("gauderio", ["target"], ["flor", "all_pardas"]),
        ("truc", [], ["target", "flor", "all_pardas"]),
    ],
)
def test_options_fragment_has_only_the_variants_options(client, variant, present, absent):
    r = client.get(f"/options?variant={variant}", headers=HX)
    html = r.get_data(as_text=True)
    assert r.status_code == 200 and html.lstrip().startswith('<div id="options"')
    for key in present:
        assert f'name="{key}"' in html
    for key in absent:
        assert f'name="{key}"' not in html


def test_variant_chosen_without_javascript(client):
    html = client.get("/?variant=argentino-30", headers=PT).get_data(as_text=True)
    assert 'name="falta"' in html and 'value="argentino-30" selected' in html


def test_last_settings_and_recent_matches_are_remembered(client):
    path, match_id, _key = new_match(client, "argentino-30", flor="True", name0="Ana", name1="Beto", mano="1")
    html = client.get("/", headers=PT).get_data(as_text=True)
    assert 'value="argentino-30" selected' in html
    assert 'value="Ana"' in html and 'value="Beto"' in html
    assert 'value="True" selected' in html  # flor
    assert re.search(r'name="mano" value="1"\s+checked', html)
    assert path in html  # recent matches on this phone


def test_blank_names_get_the_defaults(client):
    path, _id, _key = new_match(client, name0="  ", name1="")
    html = client.get(path, headers=PT).get_data(as_text=True)
    assert "Nós" in html and "Eles" in html


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"variant": "poker"}, "poker"),
        ({"variant": "paulista", "all_pardas": "everybody"}, "everybody"),
        ({"variant": "paulista", "mano": "7"}, ""),
    ],
)
def test_bad_new_match_is_422_with_a_message(client, fields, message):
    r = client.post("/matches", data={"name0": "a", "name1": "b", **fields}, headers=PT)
    assert r.status_code == 422
    html = r.get_data(as_text=True)
    assert 'class="msg"' in html and message in html


# -- scoreboard ------------------------------------------------------------------


def test_scoreboard_shows_the_match_and_the_engines_buttons(client):
    path, _id, _key = new_match(client)
    r = client.get(path, headers=PT)
    html = r.get_data(as_text=True)
    assert r.status_code == 200
    assert 'id="scoreboard"' in html and 'data-version="0"' in html
    assert 'id="score0"' in html and "Nós" in html and "Eles" in html
    assert "Truco!" in html and "Corremos da mão" in html
    assert "vale 3" in html  # the stake from the engine's legal_actions
    assert 'class="badge">mão' in html  # Nós are mano
    assert "hx-trigger=\"every 1s, truco-pushed\"" in html  # every second, or when push says (scorer/web/hosting/push.py)
    assert "Hand 1" not in html and "Mão 1" in html


def test_unknown_match_is_404_and_wrong_key_is_403(client):
    path, match_id, key = new_match(client)
    assert client.get(f"/m/nope/{key}").status_code == 404
    r = client.get(f"/m/{match_id}/{'x' * len(key)}", headers=PT)
    assert r.status_code == 403 and "chave" in r.get_data(as_text=True)
    assert act(client, f"/m/{match_id}/wrong", {"type": "trick", "winner": 0}, 0).status_code == 403
    assert client.get(f"/m/{match_id}/wrong/share").status_code == 403
    assert client.get(f"/m/{match_id}/wrong/board?version=0").status_code == 403
    assert client.post(f"/m/{match_id}/wrong/revanche").status_code == 403
    assert client.get("/w/nope").status_code == 404


def test_action_without_javascript_posts_and_redirects(client):
    path, _id, _key = new_match(client)
    r = act(client, path, {"type": "call", "side": 0, "call": "truco"}, 0)
    assert r.status_code == 303 and r.headers["Location"] == path
    r = act(client, path, {"type": "no_quiero", "side": 1}, 1)
    html = client.get(path).get_data(as_text=True)
    assert version_of(html) == 2
    assert re.search(r'id="score0"[^>]*>1<', html)


def test_action_with_htmx_answers_the_fragment(client):
    path, _id, _key = new_match(client)
    r = act(client, path, {"type": "hand_winner", "side": 1}, 0, headers=HX)
    html = r.get_data(as_text=True)
    assert r.status_code == 200
    assert html.lstrip().startswith('<section id="scoreboard"')
    assert "<html" not in html
    assert re.search(r'id="score1"[^>]*>1<', html) and version_of(html) == 1


def test_stale_version_is_409_with_the_current_scoreboard(client):
    path, _id, _key = new_match(client)
    act(client, path, {"type": "hand_winner", "side": 0}, 0)
    r = act(client, path, {"type": "hand_winner", "side": 1}, 0, headers={**HX, **PT})
    html = r.get_data(as_text=True)
    assert r.status_code == 409
    assert 'class="msg"' in html and version_of(html) == 1
    assert re.search(r'id="score0"[^>]*>1<', html) and re.search(r'id="score1"[^>]*>0<', html)
    # Without JavaScript: the whole page, same status.
    r = act(client, path, {"type": "hand_winner", "side": 1}, 0)
    assert r.status_code == 409 and "<html" in r.get_data(as_text=True)


def test_double_tap_records_once(client):
    path, match_id, _key = new_match(client)
    tap = {"type": "call", "side": 0, "call": "truco"}
    first = act(client, path, tap, 0, headers=HX)
    second = act(client, path, tap, 0, headers=HX)
    assert first.status_code == 200 and second.status_code == 200
    assert version_of(second.get_data(as_text=True)) == 1
    state = client.get(f"/api/matches/{match_id}").get_json()
    assert state["version"] == 1 and len(state["log"]) == 1


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ({"action": json.dumps({"type": "quiero", "side": 1}), "version": "0"}, 422),  # nothing to accept
        ({"action": json.dumps({"type": "fold"}), "version": "0"}, 422),  # unknown type
        ({"action": "{not json", "version": "0"}, 422),
        ({"action": "[1, 2]", "version": "0"}, 422),
        ({"action": json.dumps({"type": "undo"}), "version": "zero"}, 422),
        ({"kind": "envido_points", "points0": "x", "points1": "3", "version": "0"}, 422),
    ],
)
def test_bad_or_illegal_action_is_422_with_a_message(client, data, code):
    path, _id, _key = new_match(client)
    r = client.post(path + "/actions", data=data, headers={**HX, **PT})
    assert r.status_code == code
    assert 'class="msg"' in r.get_data(as_text=True)


def test_illegal_action_message_is_the_engines_translated(client):
    path, _id, _key = new_match(client)
    r = act(client, path, {"type": "undo"}, 0, headers={**HX, "Accept-Language": "en"}, confirmed="1")
    assert r.status_code == 422 and "There is nothing to undo." in r.get_data(as_text=True)


def test_envido_points_form(client):
    path, _id, _key = new_match(client, "truco-15")
    act(client, path, {"type": "call", "side": 0, "call": "envido"}, 0)
    act(client, path, {"type": "quiero", "side": 1}, 1)
    html = client.get(path).get_data(as_text=True)
    assert 'name="points0"' in html
    r = client.post(path + "/actions", data={"kind": "envido_points", "points0": "27", "points1": "30", "version": "2"})
    assert r.status_code == 303
    html = client.get(path).get_data(as_text=True)
    assert re.search(r'id="score1"[^>]*>2<', html)


def test_undo_asks_first_without_javascript(client):
    path, _id, _key = new_match(client)
    act(client, path, {"type": "hand_winner", "side": 0}, 0)
    r = act(client, path, {"type": "undo"}, 1, headers=PT)
    html = r.get_data(as_text=True)
    assert r.status_code == 200 and 'name="confirmed"' in html
    assert client.get(path + "/undo").status_code == 200
    r = act(client, path, {"type": "undo"}, 1, confirmed="1")
    assert r.status_code == 303
    html = client.get(path).get_data(as_text=True)
    assert version_of(html) == 2 and re.search(r'id="score0"[^>]*>0<', html)


def test_undo_button_confirms_with_htmx(client):
    path, _id, _key = new_match(client)
    act(client, path, {"type": "hand_winner", "side": 0}, 0)
    html = client.get(path).get_data(as_text=True)
    assert "hx-confirm=" in html and "hx-vals='{\"confirmed\": \"1\"}'" in html


def test_poll_answers_204_until_something_changes(client):
    path, match_id, _key = new_match(client)
    r = client.get(path + "/board?version=0&rematch=0", headers=HX)
    assert r.status_code == 204
    act(client, path, {"type": "hand_winner", "side": 0}, 0)
    r = client.get(path + "/board?version=0&rematch=0", headers=HX)
    assert r.status_code == 200 and version_of(r.get_data(as_text=True)) == 1
    assert "HX-Request" in r.headers["Vary"]
    assert client.get(f"/w/{match_id}/board?version=1&rematch=0", headers=HX).status_code == 204
    r = client.get(f"/w/{match_id}/board?version=0&rematch=0", headers=HX)
    assert r.status_code == 200 and "data-action" not in r.get_data(as_text=True)


def test_watch_page_has_no_controls(client):
    path, match_id, _key = new_match(client)
    r = client.get(f"/w/{match_id}", headers=PT)
    html = r.get_data(as_text=True)
    assert r.status_code == 200 and 'id="scoreboard"' in html
    assert "data-action" not in html and "/actions" not in html and _key not in html


def test_share_page_has_qr_codes_and_both_links(client, monkeypatch):
    # A machine with no other address than loopback: the request's own name stays (issue #14).
    monkeypatch.setattr("scorer.app.addresses.lan_addresses", lambda: [])
    path, match_id, key = new_match(client)
    html = client.get(path + "/share", headers=PT).get_data(as_text=True)
    assert html.count('<svg class="qr"') == 2
    assert f'href="http://localhost{path}"' in html
    assert f'href="http://localhost/w/{match_id}"' in html


def test_share_from_a_loopback_host_names_the_lan_address(client, monkeypatch):
    """Issue #14: opened as localhost or 127.0.0.1 on the laptop that runs it, the share page
    gives the other phones the machine's LAN address (same port), and says which it chose."""
    monkeypatch.setattr("scorer.app.addresses.lan_addresses", lambda: ["192.168.1.23"])
    path, match_id, _key = new_match(client)
    for host in ("localhost:8000", "127.0.0.1:8000", "[::1]:8000"):
        html = client.get(path + "/share", headers={**PT, "Host": host}).get_data(as_text=True)
        assert f'href="http://192.168.1.23:8000{path}"' in html, host
        assert f'href="http://192.168.1.23:8000/w/{match_id}"' in html, host
        assert 'id="address-choice"' in html and "http://192.168.1.23:8000" in html
    # Opened through the LAN address already: kept.
    html = client.get(path + "/share", headers={**PT, "Host": "10.0.0.7:8000"}).get_data(as_text=True)
    assert f'href="http://10.0.0.7:8000{path}"' in html


def test_share_uses_public_url(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": tmp_path / "p.sqlite3", "PUBLIC_URL": "https://truco.example/"})
    client = app.test_client()
    path, _id, _key = new_match(client)
    assert f'href="https://truco.example{path}"' in client.get(path + "/share").get_data(as_text=True)


def finish(client, path, side=0, version=0):
    act(client, path, {"type": "adjust", "side": side, "delta": 12}, version)


def test_game_end_shows_winner_and_revanche_keeps_the_series(client):
    path, match_id, _key = new_match(client)
    finish(client, path)
    html = client.get(path, headers=PT).get_data(as_text=True)
    assert 'id="game-over"' in html and "Nós" in html and "Revanche" in html
    r = client.post(path + "/revanche")
    assert r.status_code == 303
    new_path = r.headers["Location"]
    assert new_path != path
    assert client.post(path + "/revanche").headers["Location"] == new_path  # once
    finish(client, new_path, side=1)
    html = client.get(new_path, headers=PT).get_data(as_text=True)
    assert 'id="series0">1<' in html and 'id="series1">1<' in html
    # The old scoreboard's poll notices the Revanche.
    assert client.get(path + "/board?version=1&rematch=0").status_code == 200
    watch = client.get(f"/w/{match_id}").get_data(as_text=True)
    assert f"/w/{new_path.split('/')[2]}" in watch


# -- calculators -----------------------------------------------------------------


def test_envido_calculator(client):
    html = client.get("/envido", headers=PT).get_data(as_text=True)
    assert html.count('type="checkbox" name="card"') == 40
    r = client.get("/envido?cards=7o+6o+5c", headers=PT)
    assert r.status_code == 200 and ">33<" in r.get_data(as_text=True)
    r = client.get("/envido?card=7♦&card=6♦&card=5♦&flor=1", headers=PT)
    assert "38" in r.get_data(as_text=True)
    r = client.get("/envido?cards=8o+1e+2e", headers=PT)
    assert r.status_code == 422 and 'class="msg"' in r.get_data(as_text=True)


def test_manilha_calculator_and_which_card_wins(client):
    r = client.get("/manilha?vira=7&deck=sujo&variant=paulista", headers=PT)
    html = r.get_data(as_text=True)
    assert r.status_code == 200 and "zap" in html and "Q de paus" in html
    assert client.get("/manilha?variant=mineiro").status_code == 200
    r = client.get("/manilha?vira=9", headers=PT)
    assert r.status_code == 422
    r = client.get("/envido?first=1e&second=7o&cvariant=truco-15", headers=PT)
    assert "Ás de espadas" in r.get_data(as_text=True)
    assert client.get("/envido?first=zz&second=7o").status_code == 422


# -- languages, errors, headers, assets ------------------------------------------


def test_language_switch_sets_a_cookie_and_goes_back(client):
    r = client.get("/lang/es?next=/envido")
    assert r.status_code == 303 and r.headers["Location"] == "/envido"
    assert "Nueva partida" in client.get("/", headers=PT).get_data(as_text=True)
    assert client.get("/lang/es?next=//evil.example").headers["Location"] == "/"
    assert client.get("/lang/xx").status_code == 404


def test_errors_are_pages_in_the_users_language(client):
    r = client.get("/nowhere", headers=PT)
    assert r.status_code == 404 and "Nada aqui" in r.get_data(as_text=True)
    assert client.get("/matches").status_code == 405


def test_every_response_has_the_csp_and_no_inline_code(client):
    path, match_id, _key = new_match(client)
    for url in ["/", path, path + "/share", f"/w/{match_id}", "/envido", "/manilha?vira=7"]:
        r = client.get(url)
        assert r.headers["Content-Security-Policy"].startswith("default-src 'self'")
        html = r.get_data(as_text=True)
        assert not re.search(r"<script(?![^>]*\bsrc=)", html), url
        assert " style=" not in html and "<style" not in html and " onclick" not in html, url
        assert f"/static/{HTMX_FILE}" in html
        assert '<meta name="htmx-config"' in html


def test_vendored_htmx_matches_its_recorded_sha256(client):
    static = asset_dir("static")
    record = (static / "vendor" / "htmx.txt").read_text()
    digest = hashlib.sha256((static / HTMX_FILE).read_bytes()).hexdigest()
    assert digest in record and "4.0.1" in record and HTMX_FILE.endswith("htmx-4.0.1.min.js")
    with client.get(f"/static/{HTMX_FILE}") as r:
        assert r.status_code == 200


def test_the_board_is_morphed_by_htmx_itself_with_no_second_script(client):
    """htmx 4 morphs (outerMorph): no extension script is loaded; the board's forms inherit
    its target and swap, and a stale (409) or illegal (422) tap brings the server's board."""
    html = client.get(new_match(client)[0]).get_data(as_text=True)
    assert re.findall(r'<script src="/static/vendor/([^"?]+)', html) == ["htmx-4.0.1.min.js"]
    assert 'hx-target:inherited="this" hx-swap:inherited="outerMorph"' in html
    assert 'hx-status:409:inherited="swap:outerMorph"' in html and 'hx-status:422:inherited="swap:outerMorph"' in html
    assert "idiomorph" not in html and "hx-ext" not in html


def test_assets_are_found():
    assert (asset_dir("templates") / "base.html").is_file()
    assert (asset_dir("static") / "css" / "app.css").is_file()
    assert Path(asset_dir("templates")).name == "templates"


def test_building_the_app_creates_the_tables(tmp_path):
    """No ``flask init-db`` (issue 10: it was redundant): building the app creates them."""
    path = tmp_path / "fresh.sqlite3"
    create_app({"TESTING": True, "DATABASE": path})
    conn = sqlite3.connect(path)
    try:
        tables = {name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    finally:
        conn.close()
    assert {"match", "action"} <= tables
