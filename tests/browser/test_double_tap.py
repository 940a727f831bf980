"""In Chromium on `truco serve` with the double-tap guard on: the second tap of a double tap,
landing on the board the first tap brought, records nothing and says so (with and without
JavaScript); a scorekeeper that no longer knows the match greys the score and says so.
Found by trying to break the app."""

from __future__ import annotations

import json
import re

import pytest
from conftest import action_button, create_match, new_context, request
from live_server import Server
from playwright.sync_api import expect

WON = {"side": 0, "type": "hand_winner"}


@pytest.fixture
def guarded(tmp_path):
    # A wide window, so "at once" stays inside it however loaded the machine is.
    server = Server(tmp_path / "guarded.sqlite3", threads=4, ghost_tap_ms=3000)
    yield server
    if server.proc.poll() is None:
        server.stop()


def stored_version(server: Server, match_id: str) -> int:
    status, _h, text = request(server, "GET", f"/api/matches/{match_id}")
    assert status == 200
    return json.loads(text)["version"]


def test_second_tap_on_the_new_board_is_not_recorded(chromium, guarded):
    path, match_id, _key = create_match(guarded)
    ctx = new_context(chromium)
    page = ctx.new_page()
    try:
        page.goto(f"http://127.0.0.1:{guarded.port}{path}")
        # The first tap is on a board shown long enough ago: the server is told so.
        page.eval_on_selector_all("input[name=shown]", "els => els.forEach(e => e.value = String(Date.now() / 1000 - 10))")
        action_button(page, WON).click()
        expect(page.locator("#scoreboard")).to_have_attribute("data-version", "1")
        where = action_button(page, WON).bounding_box()
        action_button(page, WON).click()  # the same finger, on the board that just arrived
        expect(page.locator("#scoreboard .msg")).to_be_visible()
        assert stored_version(guarded, match_id) == 1
        # The message floats: the button is still under the finger, and a tap reaches it.
        assert action_button(page, WON).bounding_box() == where
        assert page.evaluate(
            "([x, y]) => document.elementFromPoint(x, y).closest('button')?.dataset.action",
            [where["x"] + where["width"] / 2, where["y"] + where["height"] / 2],
        ) == action_button(page, WON).get_attribute("data-action")
    finally:
        ctx.close()


def test_second_tap_without_javascript_is_not_recorded(chromium, guarded):
    path, match_id, _key = create_match(guarded)
    ctx = new_context(chromium, java_script_enabled=False)
    page = ctx.new_page()
    try:
        page.goto(f"http://127.0.0.1:{guarded.port}{path}")
        page.eval_on_selector_all("input[name=shown]", "els => els.forEach(e => e.value = '1')")
        action_button(page, WON).click()
        page.wait_for_url(f"**{path}")
        expect(action_button(page, WON)).to_be_visible()
        with page.expect_response(lambda r: r.request.method == "POST") as answer:
            action_button(page, WON).click()
        assert answer.value.status == 409
        assert stored_version(guarded, match_id) == 1
    finally:
        ctx.close()


def test_a_scorekeeper_that_lost_the_match_greys_the_score_and_says_so(chromium, guarded):
    path, _id, _key = create_match(guarded)
    ctx = new_context(chromium)
    page = ctx.new_page()
    try:
        page.goto(f"http://127.0.0.1:{guarded.port}{path}")
        # As if it were restarted on another database: every poll now answers 404.
        page.route("**/board?*", lambda route: route.fulfill(status=404, body="Not Found"))
        expect(page.locator("#gone")).to_be_visible()
        expect(page.locator("html")).to_have_class(re.compile(r"\bstale\b"))
        expect(page.locator("#offline")).to_be_hidden()
    finally:
        ctx.close()
