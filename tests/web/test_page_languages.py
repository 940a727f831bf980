"""Issue 33 item 6: every page read in each language (pt-BR, es, en, ca) holds no word of another language.

Each page a player or an organizer opens (new match, tools, board, share, undo, watch, the
match in numbers, new tournament, organizer, TV) is read in pt-BR, es and en, its text taken
out of the markup, and searched for a short glossary of the other languages' own words
(docs/rules.md §Table words: the structural words of a page). The table's words are not in
the glossaries: a Rioplatense table says "¡Truco!" and "Quiero" on every page (docs/rules.md
§Table words), so the boards read here are of truco-15, whose table words are Spanish, and
the Portuguese and English pages are searched for Spanish page words only ("Deshacer",
"Nosotros"), never for its table words. The language switch names every language in its own
and is left out.
"""

from __future__ import annotations

import re
from html import unescape

import pytest

#: Words only a page of that language says (its structural words and default side names),
#: whole words, case as written.
OWN_WORDS = {
    "pt_BR": ["Nós", "Eles", "Placar", "rodada", "Rodada", "Desfazer", "Compartilhar", "jogador", "Jogador",
              "Manilhas", "mão", "Mão", "não", "Não", "você"],
    "es": ["Nosotros", "Ellos", "Deshacer", "Compartir", "baza", "Baza", "partido", "Partido", "Tanteador"],
    "en": ["Undo", "Share", "Them", "Scoreboard", "Watch", "Players", "the", "The", "tournament", "Tournament"],
    "ca": ["Desfés", "Comparteix", "Nosaltres", "Ells", "Jugadors", "jugadors", "taula"],
}
#: Words an English or Catalan page borrows: their rule texts (pagat) call the Brazilian trumps
#: "manilhas", and the Paulista table's "Mão de ferro" names its statistic.
BORROWED = {"en": {"Manilhas", "Mão"}, "ca": {"Manilhas", "Mão"}}
HEADER = {"pt_BR": "pt-BR", "es": "es", "en": "en", "ca": "ca"}
HAND = [
    {"type": "call", "side": 0, "call": "envido"},
    {"type": "quiero", "side": 1},
    {"type": "envido_winner", "side": 1},
    {"type": "call", "side": 0, "call": "truco"},
    {"type": "no_quiero", "side": 1},
]


def text_of(html: str) -> str:
    """What a reader sees: no scripts, styles, language switch, tags or attributes."""
    html = re.sub(r"<(script|style|svg)\b.*?</\1>", " ", html, flags=re.S)
    html = re.sub(r'<nav class="langs".*?</nav>', " ", html, flags=re.S)
    html = re.sub(r"<[^>]+>", " ", html)
    return re.sub(r"\s+", " ", unescape(html))


def foreign_words(text: str, lang: str) -> list[str]:
    """The words of the other languages' glossaries found in ``text``."""
    return sorted({word for other, words in OWN_WORDS.items() if other != lang for word in words
                   if word not in BORROWED.get(lang, ()) and re.search(rf"(?<![\wÀ-ÿ]){re.escape(word)}(?![\wÀ-ÿ])", text)})


def pages_of(client, lang: str) -> dict[str, str]:
    """The pages a table and an organizer open, created and read in ``lang``."""
    headers = {"Accept-Language": HEADER[lang]}
    r = client.post("/matches", data={"variant": "truco-15", "name0": "", "name1": "", "mano": "0"}, headers=headers)
    assert r.status_code in (302, 303), r.get_data(as_text=True)[:300]
    path = r.headers["Location"]
    match_id, key = path.split("/")[2:4]
    for version, action in enumerate(HAND):
        r = client.post(f"/api/matches/{match_id}/actions", json={"action": action, "version": version},
                        headers={"X-Edit-Key": key})
        assert r.status_code == 200, r.get_json()
    t = client.post("/api/tournaments", json={"name": "Peña", "variant": "truco-15", "teams": ["A", "B", "C", "D"]},
                    headers=headers).get_json()
    urls = {
        "new match": "/", "envido": "/envido", "manilha": "/manilha", "board": path, "share": f"{path}/share",
        "undo": f"{path}/undo", "watch": f"/w/{match_id}", "numbers": f"/matches/{match_id}/stats",
        "new tournament": "/tournaments/new", "organizer": t["organizer_url"], "tv": f"/tv/{t['id']}",
        "summary": f"/tournaments/{t['id']}/summary",
    }
    out = {}
    for name, url in urls.items():
        r = client.get(url, headers=headers)
        assert r.status_code == 200, (name, url, r.status_code)
        out[name] = r.get_data(as_text=True)
    return out


@pytest.mark.parametrize("lang", sorted(OWN_WORDS))
def test_no_page_holds_a_word_of_another_language(client, lang):
    found = {name: foreign_words(text_of(html), lang) for name, html in pages_of(client, lang).items()}
    assert {name: words for name, words in found.items() if words} == {}


@pytest.mark.parametrize(("text", "lang", "expected"), [
    ("Deshacer el último toque", "pt_BR", ["Deshacer"]),
    ("Desfazer", "es", ["Desfazer"]),
    ("Nosotros 3, Ellos 2", "en", ["Ellos", "Nosotros"]),
    ("Undo the last tap", "es", ["Undo", "the"]),
    ("Desfazer", "pt_BR", []),  # a page's own words are fine
    ("Mãos", "es", []),  # whole words only
])
def test_the_glossary_search_finds_whole_foreign_words(text, lang, expected):
    assert foreign_words(text, lang) == expected
