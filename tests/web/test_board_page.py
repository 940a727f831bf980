"""scorer/web/board.py: the scoreboard fragment's one input is its BoardPage (issue 21). The
partial renders the same with plain Jinja and the standard library's gettext as with Flask, so
a page without the server can render it; it calls no ``url_for`` and reads no request."""

from __future__ import annotations

import gettext
import json
import re
from html import unescape
from pathlib import Path

import jinja2
import pytest
from flask import render_template
from markupsafe import escape

import scorer
from scorer.web import board
from scorer.web.common import service
from scorer.web.db import get_db
from web_client import HX, act, new_match, version_of

ROOT = Path(scorer.__file__).resolve().parent.parent
LANGS = {"pt_BR": "pt-BR", "es": "es-AR", "en": "en-US", "ca": "ca-ES"}


def plain_jinja(lang: str) -> jinja2.Environment:
    """The templates as a page without Flask loads them: no ``url_for``, no request."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(ROOT / "templates"), extensions=["jinja2.ext.i18n"],
                             autoescape=jinja2.select_autoescape(["html"]), undefined=jinja2.StrictUndefined)
    catalog = gettext.translation("messages", localedir=ROOT / "scorer" / "translations", languages=[lang])
    env.install_gettext_translations(catalog, newstyle=True)
    return env


PLAYS = {
    "paulista-truco": ("paulista", {}, [{"type": "call", "side": 0, "call": "truco"}]),
    "argentino-envido-flor": ("argentino-30", {"flor": "True", "best_of": "3"},
                              [{"type": "call", "side": 0, "call": "envido"}, {"type": "quiero", "side": 1}]),
    "truco-15-over": ("truco-15", {"table_size": "6"}, [{"type": "adjust", "side": 1, "delta": 15}]),
    "venezolano-envido-raise": ("venezolano", {}, [{"type": "call", "side": 0, "call": "envido"}]),
}


@pytest.mark.parametrize("lang", sorted(LANGS))
@pytest.mark.parametrize("play", sorted(PLAYS))
@pytest.mark.parametrize("edit", [True, False], ids=["edit", "watch"])
def test_the_partial_renders_the_same_without_flask(app, client, play, lang, edit):
    variant, fields, actions = PLAYS[play]
    path, match_id, key = new_match(client, variant, **fields)
    for action in actions:
        act(client, path, action, version_of(client.get(path).get_data(as_text=True)))
    with app.test_request_context(headers={**HX, "Accept-Language": LANGS[lang]}):
        row = service().get(get_db(), match_id)
        page = board.board_page(row, key=key if edit else None)
        served = render_template("partials/_scoreboard.html", page=page)
    plain = plain_jinja(lang).get_template("partials/_scoreboard.html").render(page=page)
    assert plain == served
    assert 'id="score0"' in plain and 'id="score1"' in plain


def test_every_action_button_carries_its_action(app, client):
    path, match_id, key = new_match(client, "argentino-30", flor="True")
    html = client.get(path, headers=HX).get_data(as_text=True)
    with app.test_request_context(headers=HX):
        page = board.board_page(service().get(get_db(), match_id), key=key)
    buttons = [c.button for row in page.board.buttons.rows for c in row.cells if c.button]
    assert buttons and all(f'data-action="{escape(b.json)}"' in html for b in buttons)
    controls = page.board.buttons
    assert html.count("data-action=") == len(buttons) + len(controls.extra) + len(controls.adjust[0]) + len(controls.adjust[1])
    assert {json.loads(b.json)["type"] for b in buttons} >= {"hand_winner", "trick", "call", "mazo"}


def test_the_pad_offers_the_open_raise_with_every_amount(client):
    """After an Envido in venezolano, side 1's Real Envido place (venezolano has none) holds "¡Tres más!"
    (worth 2 + 3) with a list of every amount the engine allows, 1 to 22 at 0-0
    (docs/rules.md §Open Envido raises); the list is the form's action, and posting another
    amount records that one."""
    path, _id, _key = new_match(client, "venezolano")
    act(client, path, {"type": "call", "side": 0, "call": "envido"}, 0)
    html = client.get(path, headers={**HX, "Accept-Language": "es"}).get_data(as_text=True)
    cell = re.search(r'id="slot-1-real".*?</form>', html, re.S).group(0)
    three = escape(json.dumps({"amount": 3, "call": "envido_mas", "side": 1, "type": "call"}, separators=(",", ":")))
    assert f'data-action="{three}"' in cell and "¡Tres más!" in cell and "vale 5" in cell
    options = re.findall(r'<option value="([^"]+)"', cell)
    assert [json.loads(unescape(o))["amount"] for o in options] == list(range(1, 23))
    assert '<select name="action"' in cell and 'name="action" value=' not in cell  # the list is the action
    five = {"type": "call", "side": 1, "call": "envido_mas", "amount": 5}
    assert act(client, path, five, 1).status_code in (200, 303)
    act(client, path, {"type": "quiero", "side": 0}, 2)
    act(client, path, {"type": "envido_winner", "side": 1}, 3)
    assert re.search(r'id="score1">7<', client.get(path).get_data(as_text=True))  # 2 + 5
