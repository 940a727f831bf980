"""At the table, with the Flask test client: manifest, service worker, offline page,
live-region text, series and seats on the board, and their form errors."""

from __future__ import annotations

import json
import re

import pytest

from tests.web_client import HX, PT, act, new_match

def status_of(client, url: str) -> int:
    """GET ``url`` and close the response (static files are streamed from open files)."""
    r = client.get(url)
    r.close()
    return r.status_code


# -- installable ---------------------------------------------------------------------


@pytest.mark.parametrize(("accept", "name", "lang"), [("pt-BR", "Marcador de Truco", "pt-BR"),
                                                      ("es-AR", "Anotador de Truco", "es"),
                                                      ("en-US", "Truco scorekeeper", "en")])
def test_manifest_in_the_users_language(client, accept, name, lang):
    r = client.get("/manifest.webmanifest", headers={"Accept-Language": accept})
    assert r.status_code == 200 and r.mimetype == "application/manifest+json"
    m = json.loads(r.get_data(as_text=True))
    assert (m["name"], m["lang"], m["display"], m["start_url"]) == (name, lang, "fullscreen", "/")
    for icon in m["icons"]:
        assert status_of(client, icon["src"]) == 200


def test_every_page_links_the_manifest_and_the_script(client):
    html = client.get("/").get_data(as_text=True)
    assert 'rel="manifest" href="/manifest.webmanifest"' in html
    # Static URLs carry a hash of the file (?v=...), cached for a year (tests/system/test_performance.py).
    # data-offline and data-engine: the offline engine's script and what starts it (issue 24), loaded
    # by table.js later, never on the first open.
    assert re.search(r'<script src="/static/js/table.js\?v=[0-9a-f]{12}" defer\s+data-sw="/sw.js" data-lang="pt_BR"\s+'
                     r'data-offline="/static/js/offline.js\?v=[0-9a-f]{12}" data-engine="/engine.json">', html)
    assert "<script>" not in html  # nothing inline (CSP default-src 'self')


def test_service_worker_caches_the_shell_and_the_offline_pages_only(client):
    r = client.get("/sw.js")
    assert r.status_code == 200 and r.mimetype == "text/javascript"
    assert r.headers["Cache-Control"] == "no-cache"
    body = r.get_data(as_text=True)
    shell = json.loads(re.search(r"const SHELL\s*=\s*(\[.*?\]);", body).group(1))
    offline = json.loads(re.search(r"const OFFLINE\s*=\s*(\{.*?\});", body).group(1))
    paths = [u.split("?v=")[0] for u in shell]  # versioned URLs (tests/system/test_performance.py)
    assert "/static/css/app.css" in paths and "/static/js/table.js" in paths
    assert not any(u.startswith(("/m/", "/w/", "/api/")) for u in shell)
    assert offline == {"pt_BR": "/offline/pt_BR", "es": "/offline/es", "en": "/offline/en", "ca": "/offline/ca"}
    for url in shell + list(offline.values()):
        assert status_of(client, url) == 200, url
    assert client.get("/sw.js").get_data(as_text=True) == body  # one version per app


@pytest.mark.parametrize("path", ["/sw.js", "/offline/pt_BR", "/offline/en"])
def test_an_unchanged_service_worker_or_offline_page_is_a_304(client, path):
    """The browser checks the service worker (and the worker its offline pages) on every
    navigation: unchanged, the answer carries no body (a second open once went past 4 KB
    with the worker's 1.4 KB sent again in full)."""
    first = client.get(path, headers={"Accept-Encoding": "br"})
    assert first.status_code == 200 and first.headers["Cache-Control"] == "no-cache" and first.headers["ETag"]
    again = client.get(path, headers={"Accept-Encoding": "br", "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.get_data() == b""


@pytest.mark.parametrize(("code", "text"), [("pt_BR", "Sem conexão com o marcador"),
                                            ("es", "Sin conexión con el anotador"),
                                            ("en", "No connection to the scorekeeper")])
def test_offline_page_in_each_language_shows_no_score(client, code, text):
    html = client.get(f"/offline/{code}").get_data(as_text=True)
    assert f"<h1>{text}</h1>" in html
    assert 'id="score0"' not in html and "<script" not in html


def test_offline_page_of_an_unknown_language_is_404(client):
    assert client.get("/offline/fr").status_code == 404


# -- live region, highlight, read aloud ------------------------------------------------


def test_the_htmx_answer_updates_the_live_region_out_of_band(client):
    path, _id, _key = new_match(client)
    r = act(client, path, {"type": "hand_winner", "side": 1}, 0, headers={**HX, **PT})
    html = r.get_data(as_text=True)
    assert '<div id="announce" hx-swap-oob="innerHTML">Nós 0, Eles 1. Mão 1: +1 Eles.</div>' in html
    assert re.search(r'class="side side1[^"]* changed"', html) and 'class="delta" aria-hidden="true">+1<' in html
    assert 'data-say="Nós 0, Eles 1. Mão 2, vale 1."' in html
    # The full page has the live region once, outside the swapped fragment.
    page = client.get(path, headers=PT).get_data(as_text=True)
    assert page.count('id="announce"') == 1
    assert page.index('id="announce"') < page.index('id="scoreboard"')
    assert 'role="status" aria-live="polite"' in page


def test_buenas_are_said_in_the_announcement(client):
    path, _id, _key = new_match(client, variant="argentino-30")
    r = act(client, path, {"type": "adjust", "side": 0, "delta": 16}, 0, headers={**HX, "Accept-Language": "es"})
    assert ">Nós 16, en buenas, Eles 0. Corrección: +16 Nós.<" in r.get_data(as_text=True)


# -- series ----------------------------------------------------------------------------


def finish(client, path, side, version=0):
    assert act(client, path, {"type": "adjust", "side": side, "delta": 12}, version).status_code == 303


def test_a_best_of_three_series_is_kept_by_revanche_and_decided(client):
    path, match_id, _key = new_match(client, best_of="3")
    html = client.get(path, headers=PT).get_data(as_text=True)
    assert "Melhor de 3, partida 1" in html and 'id="series0">0<' in html
    finish(client, path, 0)
    path = client.post(path + "/revanche").headers["Location"]
    finish(client, path, 0)
    html = client.get(path, headers=PT).get_data(as_text=True)
    assert 'id="series0">2<' in html and 'id="series1">0<' in html
    assert "Série para Nós!" in html and "Revanche: nova série, melhor de 3" in html
    assert "Série para Nós!" in client.get(f"/w/{path.split('/')[2]}", headers=PT).get_data(as_text=True)
    fresh = client.post(path + "/revanche").headers["Location"]
    html = client.get(fresh, headers=PT).get_data(as_text=True)
    assert "Melhor de 3, partida 1" in html and 'id="series0">0<' in html


def test_a_single_game_shows_no_series_until_a_revanche(client):
    path, _id, _key = new_match(client)
    assert 'id="series"' not in client.get(path).get_data(as_text=True)
    finish(client, path, 1)
    again = client.post(path + "/revanche").headers["Location"]
    html = client.get(again, headers=PT).get_data(as_text=True)
    assert 'id="series"' in html and 'id="series1">1<' in html


@pytest.mark.parametrize("fields", [{"best_of": "4"}, {"table_size": "5"}])
def test_bad_series_or_table_size_is_422(client, fields):
    r = client.post("/matches", data={"variant": "paulista", **fields}, headers=PT)
    assert r.status_code == 422


# -- seats -----------------------------------------------------------------------------

SIX = {"variant": "argentino-30", "table_size": "6", "player0_0": "Ana", "player0_1": "Bia",
       "player0_2": "Cris", "player1_0": "Davi", "player1_1": "Eva", "player1_2": ""}


def seats_text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", re.search(r'<p class="seats".*?</p>', html, re.S).group(0)))


def test_four_players_mano_and_dealer_move_each_hand(client):
    path, _id, _key = new_match(client, table_size="4", player0_0="Ana", player0_1="Bia",
                                player1_0="Caio", player1_1="Duda", mano="1")
    html = client.get(path, headers=PT).get_data(as_text=True)
    assert seats_text(html).split() == ["Mão:", "Caio", "Dá", "as", "cartas:", "Bia"]
    act(client, path, {"type": "hand_winner", "side": 0}, 0)
    html = client.get(path, headers=PT).get_data(as_text=True)
    assert seats_text(html).split() == ["Mão:", "Ana", "Dá", "as", "cartas:", "Caio"]
    assert 'id="round"' not in html  # only argentino at 6 has redonda / pica-pica
    assert "Caio é mão, Bia dá as cartas." not in html and "Ana é mão, Caio dá as cartas." in html  # read aloud


def test_six_player_argentino_alternates_redonda_and_pica_pica(client):
    path, _id, _key = new_match(client, **SIX)
    html = client.get(path, headers=PT).get_data(as_text=True)
    assert "redonda (em times)" in html and "Dá as cartas: <b class=\"who side1\">Eles 3</b>" in html
    act(client, path, {"type": "hand_winner", "side": 0}, 0)
    html = client.get(path, headers=PT).get_data(as_text=True)
    assert "pica-pica (um contra um)" in html and 'class="duels"' in html
    assert "Esta mão se joga pica-pica (um contra um)." in html
    # In the last 5 points only redonda is played.
    act(client, path, {"type": "adjust", "side": 1, "delta": 25}, 1)
    html = client.get(path, headers=PT).get_data(as_text=True)
    assert "redonda (em times)" in html and 'class="duels"' not in html


def test_the_new_match_form_remembers_series_and_players(client):
    new_match(client, best_of="5", **SIX)
    html = client.get("/").get_data(as_text=True)
    assert '<option value="5" selected>' in html
    assert 'name="player0_1" value="Bia"' in html and 'name="player1_2" value="Eles 3"' in html
    assert re.search(r'name="table_size" value="6" checked', html)
    assert "<details class=\"players\" open>" in html


def test_undo_confirmation_names_the_action_and_a_correction_keeps_its_panel_open(client):
    """Issue #14: "Desfazer «...»?" names what Undo drops (with htmx's confirm and on the
    page without JavaScript); after a correction the page comes back with it open."""
    path, _id, _key = new_match(client)
    act(client, path, {"type": "call", "side": 0, "call": "truco"}, 0)
    html = client.get(path, headers=PT).get_data(as_text=True)
    assert 'hx-confirm="Desfazer «Nós: Truco!»?"' in html
    assert "Desfazer «Nós: Truco!»?" in client.get(path + "/undo", headers=PT).get_data(as_text=True)
    assert '<details class="adjust" id="adjust">' in html
    act(client, path, {"type": "adjust", "side": 0, "delta": 1}, 1)
    html = client.get(path, headers=PT).get_data(as_text=True)
    assert '<details class="adjust" id="adjust" open>' in html
