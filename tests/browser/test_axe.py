"""axe-core on every page, in light and dark, in Portuguese, Spanish and English: no
serious or critical violation (WCAG A/AA rules and axe's best practices, contrast included)."""

from __future__ import annotations

import json

import pytest
from conftest import Server, api_act, axe_violations, create_match, new_context

SIX = {
    "variant": "argentino-30", "table_size": "6",
    "player0_0": "Ana", "player0_1": "Bia", "player0_2": "Cris",
    "player1_0": "Davi", "player1_1": "Eva", "player1_2": "Fábio",
}


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    """One server for the six runs (the pages only read)."""
    server = Server(tmp_path_factory.mktemp("axe") / "serve.sqlite3", threads=4)
    yield server
    server.stop()


@pytest.fixture(scope="module")
def pages(live):
    """Paths of every kind of page, with matches set up through HTTP."""
    # A 6-player argentino match in the buenas, a Truco pending, seats and a pica-pica hand.
    path6, id6, key6 = create_match(live, best_of="3", **SIX)
    v = 0
    for action in ({"type": "adjust", "side": 0, "delta": 16}, {"type": "hand_winner", "side": 1},
                   {"type": "call", "side": 1, "call": "truco"}):
        api_act(live, id6, key6, action, v)
        v += 1
    # A finished Paulista game in a best-of-3 series.
    path_done, id_done, key_done = create_match(live, best_of="3")
    api_act(live, id_done, key_done, {"type": "adjust", "side": 1, "delta": 12}, 0)
    return {
        "new": "/",
        "scoreboard": path6,
        "finished": path_done,
        "watch": f"/w/{id6}",
        "share": path6 + "/share",
        "undo": path6 + "/undo",
        "envido": "/envido?cards=7o+6o+1e",
        "manilha": "/manilha?vira=4c",
        "error": "/w/no-such-match",
    }


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("lang", ["pt_BR", "es", "en", "ca"])
def test_every_page_passes_axe(chromium, live, pages, lang, scheme):
    ctx = new_context(chromium, lang=lang, scheme=scheme)
    page = ctx.new_page()
    found = {}
    for name, path in (*pages.items(), ("offline", f"/offline/{lang}")):
        page.goto(live.url + path)
        assert page.evaluate("document.documentElement.lang") == lang.replace("_", "-")
        if name == "new":
            page.click("details.players summary")  # the optional players' fields too
        violations = axe_violations(page)
        if violations:
            found[name] = violations
    ctx.close()
    assert not found, json.dumps(found, indent=1, ensure_ascii=False)
