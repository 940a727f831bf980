"""The open Envido raise on a phone (docs/rules.md §Open Envido raises): at a Venezuelan table, after
an Envido, side 1's place holds "¡Tres más!" and the list of every amount beside it, on the first
screen of a 360x640 phone; choosing five gives the button its words, worth and action, and the tap
records "cinco más"."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import PHONE, action_button, axe_violations, create_match, api_act, new_context, stored, watch_errors
from playwright.sync_api import expect

SHOTS = Path("/tmp/envido-shots")


def test_choosing_an_amount_then_tapping_records_it(chromium, live):
    path, match_id, key = create_match(live, variant="venezolano", falta_envido="True")
    api_act(live, match_id, key, {"type": "call", "side": 0, "call": "envido"}, 0)
    ctx = new_context(chromium, lang="es")
    page = ctx.new_page()
    errors: list[str] = []
    watch_errors(page, errors)
    page.goto(live.url + path)
    three = action_button(page, {"amount": 3, "call": "envido_mas", "side": 1, "type": "call"})
    expect(three).to_contain_text("¡Tres más!")
    expect(three).to_contain_text("vale 5")                           # 2 + 3
    amounts = page.locator("#slot-1-real select.amounts")
    for box in (three.bounding_box(), amounts.bounding_box()):
        # On the first screen, the place's whole height, at least WCAG 2.2's 24 px target wide.
        assert box["y"] + box["height"] <= PHONE["height"] and box["width"] >= 24 and box["height"] >= 44
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "venezolano-raise-offered.png"))
    assert not axe_violations(page)
    amounts.select_option(label="5")
    five = {"amount": 5, "call": "envido_mas", "side": 1, "type": "call"}
    button = page.locator("#slot-1-real button.act")
    assert json.loads(button.get_attribute("data-action")) == five
    expect(button).to_contain_text("¡Cinco más!")
    expect(button).to_contain_text("vale 7")                          # 2 + 5
    button.click()
    expect(page.locator("#scoreboard")).to_have_attribute("data-version", "2")
    expect(page.locator(".hand-info .pending")).to_contain_text("Cinco más")
    page.screenshot(path=str(SHOTS / "venezolano-raise-answered.png"))
    assert stored(live, match_id)["log"][-1]["action"] == five
    assert not errors, errors
    ctx.close()
