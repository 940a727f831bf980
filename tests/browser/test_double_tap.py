"""In Chromium on `truco serve` with the double-tap guard on: the second tap of a double tap,
landing on the board the first tap brought, records nothing and says so (with and without
JavaScript); a scorekeeper that no longer knows the match greys the score and says so.
Found by trying to break the app."""

from __future__ import annotations

import re

import pytest
from conftest import action_button, create_match, new_context, shown_long_ago, stored, tap_answered_on_paused_clock
from playwright.sync_api import expect

WON = {"side": 0, "type": "hand_winner"}


@pytest.fixture
def guarded(servers):
    return servers(3000)


def test_a_button_that_stayed_counts_again_and_one_that_just_took_a_place_does_not(chromium, guarded):
    """Issue #14 changed this: the guard is about places. The same "won the hand" tapped again
    as soon as a finger can (0.3 s: less is a bounce, issue 19) counts (it stayed in its place:
    two hands in a row); a button that has just taken the place of another (here "Quero!",
    where nothing was) is inert, and looks it, for the guard's 3 s. The page's clock is
    Playwright's, paused: its time moves only as the test runs it."""
    path, match_id, _key = create_match(guarded)
    ctx = new_context(chromium)
    page = ctx.new_page()
    try:
        page.clock.install()
        page.goto(f"http://127.0.0.1:{guarded.port}{path}")
        shown_long_ago(page)  # the board was shown long enough ago: the server's guard is told so
        page.clock.pause_at(page.evaluate("Date.now()") + 1000)
        tap_answered_on_paused_clock(page, action_button(page, WON).click)
        expect(page.locator("#scoreboard")).to_have_attribute("data-version", "1")
        page.clock.run_for(150)  # the finger's rhythm: 0.3 s after the first tap
        tap_answered_on_paused_clock(page, action_button(page, WON).click)  # the same place, soon after: a second hand
        expect(page.locator("#scoreboard")).to_have_attribute("data-version", "2")
        assert stored(guarded, match_id)["version"] == 2
        tap_answered_on_paused_clock(page, action_button(page, {"call": "truco", "side": 0, "type": "call"}).click)
        expect(page.locator("#scoreboard")).to_have_attribute("data-version", "3")
        quero = action_button(page, {"side": 1, "type": "quiero"})
        expect(page.locator("#slot-1-yes")).to_have_class(re.compile(r"\bfresh\b"))
        page.clock.run_for(1000)  # 1 s after the board changed, well inside the guard's 3 s
        posts = []
        page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
        quero.click()  # lands on a place that just changed: nothing is sent
        page.clock.run_for(100)  # when a tap taken would have been sent
        expect(page.locator("#slot-1-yes")).to_have_class(re.compile(r"\bfresh\b"))
        page.clock.run_for(2000)  # the guard's 3 s are over
        expect(page.locator("#slot-1-yes")).not_to_have_class(re.compile(r"\bfresh\b"))
        assert posts == [] and stored(guarded, match_id)["version"] == 3
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
        assert stored(guarded, match_id)["version"] == 1
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


def touches_on_the_hand(chromium, server, gap: int):
    """Two touches on Nós's "won the hand", ``gap`` ms apart by the page's clock (Playwright's:
    the events' timeStamps are its too); the page's notice of a bounce, and the stored state
    once the page has sent what it took."""
    path, match_id, _key = create_match(server)
    ctx = new_context(chromium)
    page = ctx.new_page()
    page.clock.install()
    page.goto(server.url + path)
    box = action_button(page, WON).bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.clock.pause_at(page.evaluate("Date.now()") + 1000)  # the clock moves only as told
    page.touchscreen.tap(x, y)
    page.clock.run_for(gap)
    page.touchscreen.tap(x, y)
    bounced = page.locator("#bounced").is_visible()
    page.clock.resume()
    # A poll sent after both taps: the page sends none while a tap of its own waits or is on
    # its way, so by then every tap it took has been answered.
    expect(page.locator("#scoreboard")).to_have_attribute("data-version", re.compile(r"[1-9]"))
    with page.expect_request(lambda r: "/board?" in r.url, timeout=10_000):
        pass
    state = stored(server, match_id)
    ctx.close()
    return bounced, state


def test_a_finger_bounce_on_the_same_button_counts_one_hand(chromium, live):
    """Issue 19 item 8: two touches 60 ms apart on "Ganhou a mão" are one hand (the second is
    the finger bouncing), and the board says the second was ignored."""
    bounced, state = touches_on_the_hand(chromium, live, 60)
    assert state["version"] == 1 and state["score"] == [1, 0], state["log"]
    assert bounced


def test_two_deliberate_touches_400_ms_apart_count_two_hands(chromium, live):
    bounced, state = touches_on_the_hand(chromium, live, 400)
    assert state["version"] == 2 and state["score"] == [2, 0], state["log"]
    assert not bounced
