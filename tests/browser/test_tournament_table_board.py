"""A tournament match's board in Chromium (issue 19, items 2 and 7): a phone plays a
semi-final to the end from its table's link; the board says which tournament, round and
table it is without pushing the pad off the first screen, then what comes next, with no
Revanche and the way back to the tournament; the organizer page, open meanwhile, says
that something changed. Synchronisation by Playwright's waits, never sleeps.

Screenshots (test-results/): the board mid-game and finished at 360x640, 640x360 and
1920x1080, the organizer page's notice at 360x640.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from conftest import action_button, api_act, axe_violations, create_match, new_context, request, watch_errors
from playwright.sync_api import expect
from test_steady_board import PLACES
from test_tournament_knockout import TO_TWELVE

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # bench/ (the states)
from bench.states import states  # noqa: E402

RESULTS = Path(__file__).resolve().parents[2] / "test-results"
SIZES = ((360, 640), (640, 360), (1920, 1080))


def organizer_state(live, t) -> dict:
    status, _h, text = request(live, "GET", f"/api/tournaments/{t['id']}",
                               headers={"X-Organizer-Key": t["organizer_key"]})
    assert status == 200, text
    return {m["slot"]: m for rnd in json.loads(text)["rounds"] for m in rnd["matches"]}


def tap(page, version: int, action: dict) -> None:
    expect(page.locator("#scoreboard")).to_have_attribute("data-version", str(version), timeout=10_000)
    action_button(page, action).click()


def fits(page, width: int, height: int, name: str) -> None:
    """Every live button of the pad, both scores and Undo on the first screen; no sideways scroll."""
    seen = page.evaluate(PLACES)
    assert seen["scrollWidth"] <= width, name
    assert max(seen["scores"]) <= height, name
    late = [b for b in seen["live"] if b["bottom"] > height]
    assert not late, (name, late)
    assert seen["undo"] is None or seen["undo"] <= height, name


def shots(page, name: str, check=None) -> None:
    RESULTS.mkdir(exist_ok=True)
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=str(RESULTS / f"tournament-board-{name}-{width}x{height}.png"))
        if check:
            check(page, width, height, f"{name} {width}x{height}")
    page.set_viewport_size({"width": 360, "height": 640})


def test_a_semifinal_played_to_the_end_says_what_comes_next(chromium, live):
    status, _h, text = request(live, "POST", "/api/tournaments", body={
        "name": "Copa do Boteco", "variant": "paulista", "teams": ["Alfa", "Beta", "Gama", "Delta"]})
    assert status == 201, text
    t = json.loads(text)
    slots = organizer_state(live, t)
    first = slots["main:1:1"]  # Alfa v Delta, table 1: Alfa wins it at once
    api_act(live, first["id"], first["edit_url"].rsplit("/", 1)[1], {"type": "adjust", "side": 0, "delta": 12}, 0)

    errors: list[str] = []
    org_ctx = new_context(chromium, lang="en")
    org = org_ctx.new_page()
    watch_errors(org, errors)
    org.goto(live.url + f"/t/{t['id']}/{t['organizer_key']}")
    expect(org.locator("#changed")).to_be_attached()
    ctx = new_context(chromium, lang="pt_BR")
    phone = ctx.new_page()
    watch_errors(phone, errors)
    phone.goto(live.url + "/" + slots["main:1:2"]["edit_url"].split("/", 3)[3])  # Beta v Gama
    expect(phone.locator("#tournament-line")).to_have_text("Copa do Boteco · Semifinal · Mesa 2")
    for version, action in enumerate(TO_TWELVE[:2]):  # Truco, accepted: mid-game
        tap(phone, version, action)
    expect(phone.locator("#scoreboard")).to_have_attribute("data-version", "2", timeout=10_000)
    shots(phone, "mid-game", fits)
    assert not axe_violations(phone)
    for version, action in enumerate(TO_TWELVE[2:], start=2):
        tap(phone, version, action)
    expect(phone.locator("#scoreboard")).to_have_attribute("data-version", str(len(TO_TWELVE)), timeout=10_000)

    # The game is over and the tournament took it: what comes next, no Revanche, the way back.
    expect(phone.locator("#next")).to_contain_text("Beta: Final contra Alfa, Mesa 1")
    expect(phone.locator("#next")).to_contain_text("Gama está fora do torneio")
    expect(phone.locator("#revanche")).to_have_count(0)
    expect(phone.locator("#to-tournament")).to_have_attribute("href", f"/tv/{t['id']}")
    expect(phone.locator("#undo")).to_be_disabled()
    expect(phone.locator("#undo-why")).to_be_visible()
    box = phone.locator("#to-tournament").bounding_box()
    assert box["y"] + box["height"] <= 640  # on the first screen of a phone
    shots(phone, "finished")
    assert not axe_violations(phone)
    phone.reload()  # a whole page (as a phone without JavaScript gets it) says the same
    expect(phone.locator("#next")).to_contain_text("Beta: Final contra Alfa, Mesa 1")
    expect(phone.locator("#tournament-line")).to_have_text("Copa do Boteco · Semifinal · Mesa 2")

    # The organizer page, open all along, says that something changed; its link reloads it.
    expect(org.locator("#changed a")).to_be_visible(timeout=10_000)
    assert not axe_violations(org)
    org.screenshot(path=str(RESULTS / "tournament-organizer-changed-360x640.png"))
    org.locator("#changed a").click()
    expect(org.locator(".tmatch", has=org.locator(".tname", has_text="Beta")).filter(
        has=org.locator(".tname", has_text="Alfa"))).to_have_count(1)
    assert not errors, errors
    ctx.close()
    org_ctx.close()


@pytest.mark.parametrize(("width", "height"), [(360, 640), (320, 568), (640, 360)])
def test_the_tournament_line_never_pushes_the_pad_off_the_first_screen(chromium, live, width, height):
    """Argentine Truco with Flor (the most rows of buttons), every board state of the steady
    board's check (bench/states.py), a long tournament name: each league match's board has
    its pad, scores and Undo exactly where an ordinary match's board has them (the line takes
    no height), and at 360x640 and 640x360 all of them on the first screen (at 320x568 an
    ordinary board does not hold them all either)."""
    teams = ["Os Gaúchos", "Trio Parada Dura", "Os Bagual", "Os Zap", "Chimarrão", "Os Pampas", "Trio Sol", "Os Mate"]
    status, _h, text = request(live, "POST", "/api/tournaments", body={
        "name": "Copa do Boteco da Vila Madalena", "variant": "argentino-30", "options": {"flor": True},
        "teams": teams, "format": "round_robin"})
    assert status == 201, text
    t = json.loads(text)
    slots = list(organizer_state(live, t).values())
    ctx = chromium.new_context(viewport={"width": width, "height": height}, locale="pt-BR", has_touch=True)
    page = ctx.new_page()
    for m, (name, actions) in zip(slots, states("argentino-30").items()):
        key = m["edit_url"].rsplit("/", 1)[1]
        ordinary, match_id, ordinary_key = create_match(live, variant="argentino-30", flor="True",
                                                        name0=teams[m["teams"][0]], name1=teams[m["teams"][1]])
        for version, action in enumerate(actions):
            api_act(live, m["id"], key, action, version)
            api_act(live, match_id, ordinary_key, action, version)
        page.goto(live.url + ordinary)
        expected = page.evaluate(PLACES)
        page.goto(live.url + "/" + m["edit_url"].split("/", 3)[3])
        expect(page.locator("#tournament-line")).to_contain_text("Copa do Boteco da Vila Madalena")
        expect(page.locator("#tournament-line")).to_be_visible()
        seen = page.evaluate(PLACES)
        assert (seen["slots"], seen["scores"], seen["undo"]) == (
            expected["slots"], expected["scores"], expected["undo"]), name
        if (width, height) != (320, 568):
            fits(page, width, height, name)
        if width > height:  # landscape: the scores beside the buttons
            scores, pad = page.locator(".scores").bounding_box(), page.locator("#pad").bounding_box()
            assert scores["x"] + scores["width"] <= pad["x"], name
        line = page.locator("#tournament-line").bounding_box()
        assert line["x"] >= 0 and line["x"] + line["width"] <= width and line["y"] + line["height"] <= 50, name
    page.screenshot(path=str(RESULTS / f"tournament-board-flor-{width}x{height}.png"))
    ctx.close()
