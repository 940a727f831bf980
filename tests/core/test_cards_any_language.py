"""Issue 13 item 6: cards read in any language where unambiguous.

Suit letters (issue 3 / docs/rules.md §Cards): e espadas, b bastos/paus, p paus, c copas,
o oros/ouros in pt and es; s spades, c clubs, h hearts, d diamonds in en (clubs = paus,
hearts = copas, diamonds = ouros). Only "c" means two suits; there the page's language decides.
"""

import re

import pytest

from scorer.core.cards import Card, ambiguous_letters, parse_cards
from tests.web_client import EN, ES, PT


@pytest.mark.parametrize("lang", ["pt", "es", "en"])
@pytest.mark.parametrize(
    ("text", "codes"),
    [
        ("4b 5b 6o", ["4b", "5b", "6o"]),  # the example, on every page
        ("7p 1e 3o", ["7b", "1e", "3o"]),
        ("7s 6h 5d", ["7e", "6c", "5o"]),
        ("seven of clubs, 6 de copas, 5 de ouros", ["7b", "6c", "5o"]),
        ("ancho de espadas, Ás de paus, ace of hearts", ["1e", "1b", "1c"]),
    ],
)
def test_unambiguous_forms_read_the_same_on_every_page(lang, text, codes):
    assert [c.code for c in parse_cards(text, lang)] == codes


@pytest.mark.parametrize("lang", ["pt", "es", "en"])
@pytest.mark.parametrize("name", ["7 de espada", "seven of swords", "7 de espadas", "siete de espada"])
def test_full_names_read_on_every_page(lang, name):
    assert parse_cards(name, lang) == (Card(7, "e"),)


@pytest.mark.parametrize(("lang", "code"), [("pt", "4c"), ("es", "4c"), ("en", "4b")])
def test_c_follows_the_page_language(lang, code):
    assert parse_cards("4c", lang)[0].code == code
    assert ambiguous_letters("4c 5o") == ["4c"]


@pytest.mark.parametrize(
    ("headers", "read"),
    [(EN, "4 of clubs, 5 of clubs, 6 of diamonds"),
     (ES, "4 de basto, 5 de basto, 6 de oro"),
     (PT, "4 de paus, 5 de paus, 6 de ouros")],
)
def test_the_envido_page_reads_any_language_and_says_how(client, headers, read):
    r = client.get("/envido", query_string={"cards": "4b 5b 6o"}, headers=headers)
    assert r.status_code == 200
    html = r.get_data(as_text=True)
    assert read in html
    assert '<p class="big-number">29</p>' in html  # 5 + 4 de bastos + 20 (docs/rules.md §Envido count)


def test_ambiguous_c_on_an_english_page_is_clubs_and_the_page_says_so(client):
    html = client.get("/envido", query_string={"cards": "4c 5c 6o"}, headers=EN).get_data(as_text=True)
    assert "4 of clubs, 5 of clubs" in html


def test_a_long_unreadable_token_is_cut_in_the_message(client):
    junk = "x" * 400
    r = client.get("/envido", query_string={"cards": junk}, headers=EN)
    assert r.status_code == 422
    message = re.search(r'<p class="msg" role="alert">(.*?)</p>', r.get_data(as_text=True), re.S).group(1)
    assert "x" * 20 not in message and "x" * 19 + "…" in message


def test_the_api_reads_any_language(client):
    data = client.get("/api/envido", query_string={"cards": "4b 5b 6o"}, headers=EN).get_json()
    assert data["points"] == 29 and data["hand"] == ["4b", "5b", "6o"]
    assert data["names"]["4b"] == "4 of clubs"
