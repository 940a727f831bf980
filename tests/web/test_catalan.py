"""Catalan pages (issue 33 item 1): chosen from the browser's language and the switch, the board
with the Catalan and Valencian tables' own words, errors and the calculators in Catalan. The table
words and where each comes from: docs/rules.md §Catalan words."""

from __future__ import annotations

import html as markup
import re

import pytest

from tests.web_client import CA, HX, act, new_match, version_of


def text(html: str) -> str:
    return markup.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


def test_the_browsers_catalan_chooses_catalan(client):
    html = client.get("/", headers=CA).get_data(as_text=True)
    assert 'lang="ca"' in html and "Partida nova" in html and "Comença la partida" in html
    assert "Truc valencià" in html and "Truc català" in html


def test_the_switch_chooses_catalan(client):
    r = client.get("/lang/ca?next=/envido")
    assert r.status_code == 303 and r.headers["Location"] == "/envido"
    html = client.get("/", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "Partida nova" in html and 'hreflang="ca"' in html and "Català" in html


@pytest.mark.parametrize(
    ("variant", "words"),
    [
        # Catalan Truc, "Como Jogar": truc, retruc; the answers vull / no vull (docs/rules.md §Catalan words).
        ("truc", ["Truc!"]),
        # MURAL-UV: truc, envit ("Envide!"), the falta.
        ("truc-valencia", ["Truc!", "Envide!", "La falta!"]),
    ],
)
def test_a_catalan_board_says_the_tables_words(client, variant, words):
    path, _id, _key = new_match(client, variant)
    html = client.get(path, headers=CA).get_data(as_text=True)
    shown = text(html)
    for word in words:
        assert word in shown, word
    assert "Mà 1" in shown and "Marcador" in shown


def test_a_valencian_answer_and_its_log_in_catalan(client):
    path, _id, _key = new_match(client, "truc-valencia")
    board = client.get(path, headers=CA).get_data(as_text=True)
    r = act(client, path, {"type": "call", "side": 0, "call": "truc"}, version_of(board), headers={**CA, **HX})
    shown = text(r.get_data(as_text=True))
    assert "Vull" in shown and "No vull" in shown and "Retruc!" in shown
    r = act(client, path, {"type": "no_quiero", "side": 1}, version_of(r.get_data(as_text=True)), headers={**CA, **HX})
    shown = text(r.get_data(as_text=True))
    assert "rebutjat" in shown and "Mà 1: +1 Nós." in shown  # truc refused pays 1 (MURAL-UV)


def test_a_refused_action_is_a_catalan_message_not_a_500(client):
    path, _id, _key = new_match(client, "truc-valencia")
    board = client.get(path, headers=CA).get_data(as_text=True)
    r = act(client, path, {"type": "call", "side": 0, "call": "flor"}, version_of(board), headers={**CA, **HX})
    assert r.status_code == 422
    assert "no existeix en aquesta variant" in r.get_data(as_text=True)


def test_errors_and_calculators_in_catalan(client):
    r = client.get("/nowhere", headers=CA)
    assert r.status_code == 404 and "Aquí no hi ha res" in r.get_data(as_text=True)
    html = client.get("/envido?cards=7o+6o+5c", headers=CA).get_data(as_text=True)
    assert "7 + 6 d'oros + 20 = 33" in text(html)
    html = client.get("/envido?cards=as+d%27espases+7+d%27oros+3+de+copes", headers=CA).get_data(as_text=True)
    assert "val la més alta" in text(html)
