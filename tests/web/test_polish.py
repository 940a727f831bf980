"""What a first-time user tripped over: pages without JavaScript, words shown to people,
answers to a Flor, the Revanche seen from another phone, the Envido answer's place,
and the translation catalogs (Flask test client; the layout checks are in
tests/browser/test_polish_layout.py)."""

from __future__ import annotations

import json
import re

from pathlib import Path

import pytest
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po

from scorer.core.variants import VARIANTS
from scorer.web.i18n import LANGUAGES
from tests.web_client import EN, ES, HX, PT, new_match

def act(client, path, action, version):
    r = client.post(path + "/actions", data={"action": json.dumps(action), "version": str(version)})
    assert r.status_code in (200, 303), r.get_data(as_text=True)


def finish(client, path, side=0, version=0):
    act(client, path, {"type": "adjust", "side": side, "delta": 12}, version)


# -- 7. the Revanche seen from the other phone ---------------------------------------------


def test_the_finished_scoreboard_links_to_the_revanche_once_another_phone_started_it(client):
    path, match_id, _key = new_match(client)
    finish(client, path)
    before = client.get(path, headers=PT).get_data(as_text=True)
    assert 'id="revanche"' in before and 'id="go-rematch"' not in before
    new_path = client.post(path + "/revanche").headers["Location"]  # phone A
    # Phone B, still on the finished match: its poll brings the link, and so does a reload.
    fragment = client.get(path + "/board?version=1&rematch=0", headers={**HX, **PT}).get_data(as_text=True)
    page = client.get(path, headers=PT).get_data(as_text=True)
    for html in (fragment, page):
        assert f'id="go-rematch" href="{new_path}"' in html
        assert "Ir para a Revanche" in html
        assert 'id="revanche"' not in html
    # Phone B follows it and lands on the same Revanche, which it can record on.
    r = client.get(new_path, headers=PT)
    assert r.status_code == 200 and 'id="game-over"' not in r.get_data(as_text=True)


# -- 1. without JavaScript the scoreboard and the watch page reload themselves -------------

REFRESH = re.compile(r'<noscript><meta http-equiv="refresh" content="(\d+); url=([^"]+)"></noscript>')


def test_scoreboard_and_watch_page_reload_without_javascript_and_only_they_do(client):
    path, match_id, _key = new_match(client)
    for url, target in ((path, path), (f"/w/{match_id}", f"/w/{match_id}")):
        html = client.get(url).get_data(as_text=True)
        head = html.split("</head>")[0]
        found = REFRESH.search(head)
        assert found, url
        assert int(found.group(1)) <= 10 and found.group(2) == target
    for url in ("/", "/envido", "/manilha", path + "/share", path + "/undo"):
        assert 'http-equiv="refresh"' not in client.get(url).get_data(as_text=True), url
    # A refused action is shown at the POST address: the reload goes to the scoreboard, not there.
    r = client.post(path + "/actions", data={"action": json.dumps({"type": "call", "side": 0, "call": "nove"}),
                                               "version": "0"})
    assert r.status_code == 422
    assert REFRESH.search(r.get_data(as_text=True)).group(2) == path
    # A finished match keeps reloading until its Revanche exists, then there is nothing more to see.
    finish(client, path)
    assert REFRESH.search(client.get(path).get_data(as_text=True))
    client.post(path + "/revanche")
    assert 'http-equiv="refresh"' not in client.get(path).get_data(as_text=True)
    assert 'http-equiv="refresh"' not in client.get(f"/w/{match_id}").get_data(as_text=True)
    # The live fragment never carries it (htmx swaps it into a page that polls).
    assert 'http-equiv="refresh"' not in client.get(path + "/board?version=0&rematch=0", headers=HX).get_data(
        as_text=True)


# -- 4. variant titles, never ids ----------------------------------------------------------


def test_recent_matches_and_which_card_wins_show_variant_titles_not_ids(client, catalog):
    new_match(client, "argentino-30")
    html = client.get("/", headers=PT).get_data(as_text=True)
    recent = html.split('class="recent"')[1]
    assert "Truco argentino (30)" in recent and "argentino-30" not in re.sub(r'href="[^"]*"', "", recent)
    for url in ("/envido", "/manilha"):
        compare = client.get(url, headers=PT).get_data(as_text=True).split('id="compare"')[1]
        shown = re.findall(r"<option [^>]*>([^<]*)</option>", compare)
        # Issue 13 item 12: titles translated (WORDING-REVIEW section 1: "Truco uruguaio", "Truc catalão"),
        # every registered variant's, in the registry's order (issue 33: read, never written out).
        assert shown == [catalog("pt_BR").gettext(v.title) for v in VARIANTS.values()], url
        assert {"Truco uruguaio", "Truc catalão"} <= set(shown) and not set(VARIANTS) & set(shown), url


# -- 5. translations and the new-match form ------------------------------------------------


@pytest.mark.parametrize(("headers", "sujo", "limpo"), [
    (PT, "baralho sujo (40 cartas)", "baralho limpo (24 cartas)"),
    (ES, "mazo sucio (40 cartas)", "mazo limpio (24 cartas)"),
    (EN, "dirty deck (40 cards)", "clean deck (24 cards)"),
])
def test_manilhas_deck_names_are_in_the_pages_language(client, headers, sujo, limpo):
    html = client.get("/manilha", headers=headers).get_data(as_text=True)
    assert sujo in html and limpo in html
    if headers is not PT:
        assert "baralho" not in html


def test_spanish_shouts_open_with_an_inverted_exclamation_mark(client):
    path, match_id, key = new_match(client, "argentino-30", flor="True", name0="Nosotros", name1="Ellos")
    act(client, path, {"type": "call", "side": 0, "call": "flor"}, 0)
    html = client.get(path, headers=ES).get_data(as_text=True)
    # Issue 13 item 12 (X8): the pending line names the bare call, not the button's shout.
    assert "Flor de Nosotros" in html and "Flor! de Nosotros" not in html
    labels = re.findall(r'<span class="label">([^<]*)</span>', html)
    shouts = [t for t in labels if t.endswith("!")]
    assert shouts and all(t.startswith("¡") for t in shouts), labels
    assert "¡¡" not in html
    # Issue 13 item 12 (X5): the "¡" belongs to the Rioplatense word, so it stays on every page.
    pt = client.get(path, headers=PT).get_data(as_text=True)
    pt_shouts = [t for t in re.findall(r'<span class="label">([^<]*)</span>', pt) if t.endswith("!")]
    assert pt_shouts and all(t.startswith("¡") for t in pt_shouts) and "Flor de Nosotros" in pt


def test_new_match_form_names_the_sides_live_and_hides_the_no_js_button(client):
    html = client.get("/?variant=argentino-30", headers=PT).get_data(as_text=True)
    mano = html.split('class="mano"')[1].split("</fieldset>")[0]
    # table.js writes the typed names into these; the generic words stay without JavaScript.
    assert '<span data-name-of="name0">Lado 1</span>' in mano and '<span data-name-of="name1">Lado 2</span>' in mano
    # The button that reloads the form for another variant is only for pages without JavaScript.
    assert re.search(r"<noscript><button [^>]*>Mostrar as opções desta variante</button></noscript>", html)
    assert html.count("Mostrar as opções desta variante") == 1
    # The Falta choices are too long for a select at 360 px: radios, whose text wraps.
    assert 'type="radio" name="falta"' in html and '<select name="falta"' not in html
    assert '<select name="target"' in html  # short choices keep their select


# -- 6. answering a Flor -------------------------------------------------------------------


def flor_buttons(client, variant, headers=PT):
    path, _id, _key = new_match(client, variant, flor="True")
    act(client, path, {"type": "call", "side": 0, "call": "flor"}, 0)
    html = client.get(path, headers=headers).get_data(as_text=True)
    out = {}
    for action, label in re.findall(r'data-action="([^"]*)">\s*<span class="label">([^<]*)</span>', html):
        kind = json.loads(action.replace("&#34;", '"').replace("&quot;", '"'))["type"]
        out[kind] = label
    return out


@pytest.mark.parametrize(("variant", "expected"), [
    ("argentino-30", {"quiero": "Con flor quiero", "no_quiero": "Con flor me achico", "no_flor": "No tengo flor"}),
    ("uruguaio", {"quiero": "Con flor quiero", "no_quiero": "Con flor me achico", "no_flor": "No tengo flor"}),
    ("gauderio", {"no_quiero": "Fujo", "no_flor": "Não tenho flor"}),  # issue 13 item 12: a first-person answer
])
def test_answers_to_a_flor_say_what_they_mean(client, variant, expected):
    buttons = flor_buttons(client, variant)
    assert {k: buttons.get(k) for k in expected} == expected
    assert "Sin flor" not in buttons.values() and "No quiero" not in buttons.values()


def test_answers_to_the_truco_keep_their_plain_words(client):
    path, _id, _key = new_match(client, "argentino-30", flor="True")
    act(client, path, {"type": "call", "side": 0, "call": "truco"}, 0)
    html = client.get(path, headers=PT).get_data(as_text=True)
    assert ">Quiero<" in html and ">No quiero<" in html and "Con flor" not in html


# -- 8. the Envido answer where a phone shows it --------------------------------------------


def test_envido_result_comes_before_the_card_picker(client):
    html = client.get("/envido?card=7♦&card=6♦&card=5♠", headers=PT).get_data(as_text=True)
    assert html.index('id="envido-result"') < html.index('class="picker"')
    bad = client.get("/envido?cards=9o", headers=PT)
    html = bad.get_data(as_text=True)
    assert bad.status_code == 422 and html.index('role="alert"') < html.index('class="picker"')


# -- 9. the translation catalogs -----------------------------------------------------------

CATALOGS = Path(__file__).resolve().parents[2] / "scorer" / "translations"
#: English is the source language: its catalog may leave every message untranslated.
TRANSLATED = ("pt_BR", "es", "ca")


def read_catalog(locale):
    with open(CATALOGS / locale / "LC_MESSAGES" / "messages.po", "rb") as f:
        return read_po(f, locale=locale)


def messages(catalog):
    """``{(id, context): string}`` of the translated, non-fuzzy messages (what a .mo holds)."""
    return {(m.id if isinstance(m.id, str) else tuple(m.id), m.context): m.string if isinstance(m.string, str) else tuple(m.string)
            for m in catalog if m.id and m.string and not m.fuzzy}  # plural strings as tuples (ngettext, issue 13)


@pytest.mark.parametrize("locale", LANGUAGES)
def test_po_has_no_fuzzy_and_no_untranslated_entry(locale):
    catalog = read_catalog(locale)
    fuzzy = [m.id for m in catalog if m.id and m.fuzzy]
    assert not fuzzy, f"{locale}: fuzzy entries {fuzzy}"
    if locale in TRANSLATED:
        empty = [m.id for m in catalog if m.id and (not m.string or (isinstance(m.string, tuple) and not all(m.string)))]
        assert not empty, f"{locale}: untranslated entries {empty}"


@pytest.mark.parametrize("locale", LANGUAGES)
def test_po_covers_every_message_of_the_template(locale):
    with open(CATALOGS / "messages.pot", "rb") as f:
        template = read_po(f)
    ids = {m.id for m in read_catalog(locale) if m.id}
    missing = [m.id for m in template if m.id and m.id not in ids]
    assert not missing, f"{locale}: run truco i18n: {missing}"


@pytest.mark.parametrize("locale", LANGUAGES)
def test_compiled_mo_matches_its_po(locale, tmp_path):
    catalog = read_catalog(locale)
    fresh = tmp_path / "messages.mo"
    with open(fresh, "wb") as f:
        write_mo(f, catalog)
    with open(fresh, "rb") as f:
        compiled_now = messages(read_mo(f))
    with open(CATALOGS / locale / "LC_MESSAGES" / "messages.mo", "rb") as f:
        shipped = messages(read_mo(f))
    assert compiled_now == messages(catalog)
    assert shipped == compiled_now, f"{locale}: run truco i18n"
