"""Issue 19, item 6 over HTTP: tiebreaks chosen in order from translated selects (JavaScript
off: plain form posts), the audit in the page's language, no draw of lots before the stage
is over, the standings' separated_by in the API, and the manilhas page comparing Uruguayan
cards with a muestra."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest

from web_client import EN, ES, PT

LANGS = {"pt": PT, "es": ES, "en": EN}
FORM = {"name": "Copa", "variant": "truco-15", "teams": "Alfa\nBeta\nGama\nDelta", "format": "round_robin",
        "best_of": "1"}


def selected(html: str, position: int) -> str:
    """The value selected in the create form's select ``tiebreak<position>``."""
    select = re.search(rf'<select name="tiebreak{position}">(.*?)</select>', html, re.S).group(1)
    found = re.search(r'<option value="([^"]*)" selected>', select)
    return found.group(1) if found else ""


@pytest.mark.parametrize("lang, names", [
    ("pt", ["pontos", "vitórias", "confronto direto", "saldo de tentos", "tentos a favor"]),
    ("es", ["puntos", "victorias", "enfrentamiento directo", "diferencia de tantos", "tantos a favor"]),
    ("en", ["points", "wins", "head-to-head", "tento difference", "tentos for"]),
])
def test_tiebreaks_are_chosen_from_translated_names_one_select_per_place(client, lang, names):
    html = client.get("/tournaments/new", headers=LANGS[lang]).get_data(as_text=True)
    assert 'name="tiebreaks"' not in html  # no box of internal ids
    assert [selected(html, i) for i in range(1, 6)] == ["points", "wins", "head_to_head", "tento_difference",
                                                       "tentos_for"]
    select = re.search(r'<select name="tiebreak1">(.*?)</select>', html, re.S).group(1)
    assert re.findall(r'<option value="[a-z_]+"[^>]*>([^<]+)</option>', select) == names
    assert 'name="tiebreak6"' not in html  # the draw of lots always comes last, not chosen


def organizer_path(response) -> str:
    assert response.status_code == 303, response.get_data(as_text=True)
    return urlsplit(response.headers["Location"]).path


def test_the_order_chosen_is_kept(client):
    """A plain form post (no JavaScript): the chosen order, empty places dropped, lots last."""
    form = {**FORM, "tiebreak1": "tento_difference", "tiebreak2": "points", "tiebreak3": "",
            "tiebreak4": "head_to_head", "tiebreak5": ""}
    path = organizer_path(client.post("/tournaments", data=form, headers=EN))
    tid = path.split("/")[2]
    s = client.get(f"/api/tournaments/{tid}").get_json()
    assert s["tiebreaks"] == ["tento_difference", "points", "head_to_head", "lots"]
    page = client.get(path, headers=EN).get_data(as_text=True)
    assert "Tiebreaks: tento difference → points → head-to-head among the tied teams" in page


@pytest.mark.parametrize("lang, message", [
    ("pt", "Cada critério de desempate só pode ser escolhido uma vez: saldo de tentos foi escolhido duas vezes."),
    ("es", "Cada criterio de desempate se elige una sola vez: diferencia de tantos está elegido dos veces."),
    ("en", "Each tiebreak can be chosen once: tento difference is chosen twice."),
])
def test_a_repeated_tiebreak_is_refused_in_the_users_language(client, lang, message):
    form = {**FORM, "tiebreak1": "tento_difference", "tiebreak2": "wins", "tiebreak3": "tento_difference",
            "tiebreak4": "", "tiebreak5": ""}
    r = client.post("/tournaments", data=form, headers=LANGS[lang])
    html = r.get_data(as_text=True)
    assert r.status_code == 422 and message in html
    assert [selected(html, i) for i in range(1, 6)] == ["tento_difference", "wins", "tento_difference", "", ""]
    assert "<details open>" in html  # the selects are shown again, as chosen


def test_the_json_api_keeps_taking_the_ids(client):
    r = client.post("/api/tournaments", json={"variant": "truco-15", "teams": ["A", "B", "C"], "format": "round_robin",
                                              "tiebreaks": ["head_to_head", "points"]})
    assert r.status_code == 201 and r.get_json()["state"]["tiebreaks"] == ["head_to_head", "points", "lots"]
    r = client.post("/api/tournaments", json={"variant": "truco-15", "teams": ["A", "B"],
                                              "tiebreaks": ["points", "points"]})
    assert r.status_code == 422


def audit_of(html: str) -> str:
    return html.split('id="audit-title"', 1)[1]


@pytest.mark.parametrize("lang, words", [
    ("pt", ["Organizador", "criado", "Torneio: 4 duplas, pontos corridos", "ordem dos cabeças de chave sorteada"]),
    ("es", ["Organizador", "creado", "Torneo: 4 parejas, liga (todos contra todos)",
            "orden de los cabezas de serie sorteado"]),
    ("en", ["Organizer", "created", "Tournament: 4 teams, league", "seeding drawn at random"]),
])
def test_the_audit_speaks_the_pages_language(client, lang, words):
    path = organizer_path(client.post("/tournaments", data={**FORM, "draw": "on"}, headers=LANGS[lang]))
    audit = audit_of(client.get(path, headers=LANGS[lang]).get_data(as_text=True))
    for word in words:
        assert word in audit
    for internal in ("round_robin", "knockout", "organizer", "draw<", "lots", "table "):
        assert internal not in audit


@pytest.mark.parametrize("fmt, teams", [("round_robin", 4), ("round_robin", 3), ("groups", 8), ("knockout", 5)])
def test_no_draw_of_lots_at_creation(client, fmt, teams):
    """docs/tournaments.md: lots are drawn once the stage is over. A new league has every team level on
    0 after every criterion: that is not yet a tie to draw. (Today: a lots row at creation.)"""
    r = client.post("/api/tournaments", json={"variant": "truco-15", "teams": [f"T{i}" for i in range(teams)],
                                              "format": fmt, "draw": True})
    t = r.get_json()
    audit = client.get(f"/api/tournaments/{t['id']}/export").get_json()["audit"]
    assert [(a["who"], a["kind"]) for a in audit] == [("organizer", "create"), ("organizer", "draw")]
    page = client.get(urlsplit(t["organizer_url"]).path, headers=PT).get_data(as_text=True)
    assert "sorteio" not in audit_of(page)  # the seeding draw has its own words
    assert client.get(f"/api/tournaments/{t['id']}").get_json()["standings"][0]["separated_by"] is None


@pytest.mark.parametrize("query, answer", [
    # Uruguayo: with the muestra 5 of swords, the 4 of swords is a pieza and beats the ace of swords.
    ("vira=7&variant=paulista&first=4e&second=1e&cvariant=uruguaio&muestra=5e", "4 de espadas ganha."),
    # Mineiro's manilhas are fixed: the page's vira is left aside; the espadilha beats the 4 of swords.
    ("vira=7&variant=paulista&first=4e&second=1e&cvariant=mineiro", "Ás de espadas ganha."),
    # Paulista keeps using the page's vira: 7 turned, the Q of clubs is the zap.
    ("vira=7&variant=paulista&first=Qp&second=3e&cvariant=paulista", "Q de paus ganha."),
])
def test_manilhas_page_compares_every_variant(client, query, answer):
    r = client.get("/manilha?" + query, headers=PT)
    html = r.get_data(as_text=True)
    assert r.status_code == 200 and answer in html
    compare = html.split('id="compare"', 1)[1]
    assert re.search(r'<input name="muestra"[^>]*>', compare)  # its own muestra field


def test_manilhas_page_asks_for_the_muestra_in_its_language(client):
    """Uruguayo without a muestra: the page asks for it (today it refused the page's vira)."""
    r = client.get("/manilha?vira=7&variant=paulista&first=4e&second=1e&cvariant=uruguaio", headers=EN)
    assert r.status_code == 422 and "Truco uruguayo needs the muestra card." in r.get_data(as_text=True)
