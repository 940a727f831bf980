"""A scorekeeper that stalls (found by trying to break the app: ``kill -STOP`` for ten
seconds, or its database held by another writer): the page stops waiting for the tap after
its wait (8 s) and keeps it as pending (issue 24). When the scorekeeper wakes up it may take
the original tap late and then the page's repeat: the tap's own key makes it count once.

These tests asserted the old rule ("a tap the page gave up on is never recorded later": the
late tap refused, the score left without it); issue 24 replaced that rule, and they now
assert the new one: recorded exactly once, never silently lost, never twice."""

from __future__ import annotations

import os
import re
import signal
import sqlite3
from contextlib import contextmanager
from urllib.parse import parse_qs

from conftest import action_button, api_act, create_match, new_context, stored
from live_server import Server
from playwright.sync_api import expect

from scorer.web.forms import TAP_TIMEOUT_SECONDS

WON0 = {"side": 0, "type": "hand_winner"}
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")


def test_every_tap_carries_a_key_of_its_own(chromium, live):
    path, match_id, _key = create_match(live, variant="paulista")
    ctx = new_context(chromium)
    page = ctx.new_page()
    page.goto(live.url + path)
    keys = []
    for version, side in ((1, 0), (2, 1)):  # two places: not a finger's bounce
        with page.expect_request(lambda r: r.method == "POST" and "/actions" in r.url) as posted:
            action_button(page, {"side": side, "type": "hand_winner"}).click()
        keys.append(parse_qs(posted.value.post_data)["tap_key"][0])
        expect(page.locator("#scoreboard")).to_have_attribute("data-version", str(version))
    assert all(UUID.fullmatch(k) for k in keys) and keys[0] != keys[1]  # made on an http (not https) page too
    ctx.close()


def tap_until_the_page_gives_up(chromium, server, stall) -> None:
    """On a new match, tap "won the hand" while ``stall`` (a context manager) holds the
    scorekeeper up, until the page keeps the tap as pending (the score not counting it); once
    the scorekeeper answers again, the tap is recorded exactly once and the page shows it."""
    path, match_id, _key = create_match(server, variant="paulista")
    ctx = new_context(chromium)
    page = ctx.new_page()
    page.goto(server.url + path)
    expect(page.locator("#scoreboard")).to_have_attribute("data-version", "0")
    with stall:
        action_button(page, WON0).click()
        expect(page.locator("#pending")).to_be_visible(timeout=(TAP_TIMEOUT_SECONDS + 7) * 1000)
        expect(page.locator("#score0")).to_have_text("0")
    expect(page.locator("#pending")).to_be_hidden(timeout=40_000)
    expect(page.locator("#score0")).to_have_text("1")
    assert stored(server, match_id)["version"] == 1
    assert stored(server, match_id)["score"] == [1, 0]  # once, not twice
    ctx.close()


@contextmanager
def frozen(server: Server):
    """The scorekeeper's process stopped (``kill -STOP``) for the block."""
    os.kill(server.proc.pid, signal.SIGSTOP)
    try:
        yield
    finally:
        os.kill(server.proc.pid, signal.SIGCONT)


@contextmanager
def database_held(db):
    """Another writer holds the SQLite file (``BEGIN IMMEDIATE``) for the block."""
    other = sqlite3.connect(db, isolation_level=None, timeout=10)
    other.execute("BEGIN IMMEDIATE")
    try:
        yield
    finally:
        other.execute("ROLLBACK")
        other.close()


def test_a_tap_a_stalled_scorekeeper_reads_after_the_page_gave_up_is_recorded_once(chromium, live):
    tap_until_the_page_gives_up(chromium, live, frozen(live))


def test_a_tap_whose_write_waited_past_the_pages_wait_is_recorded_once(chromium, tmp_path):
    """The tap reached the scorekeeper in time, but its write waited on a busy database (another
    writer held the SQLite file) past the page's wait: the late write and the page's repeat
    count once."""
    db = tmp_path / "busy.sqlite3"
    server = Server(db, threads=4, ghost_tap_ms=0)
    try:
        tap_until_the_page_gives_up(chromium, server, database_held(db))
    finally:
        server.stop()


def test_an_undo_after_its_confirmation_carries_a_key_and_is_recorded_once(chromium, live):
    path, match_id, key = create_match(live, variant="paulista")
    api_act(live, match_id, key, WON0, 0)
    ctx = new_context(chromium)
    page = ctx.new_page()
    page.goto(live.url + path)
    expect(page.locator("#scoreboard")).to_have_attribute("data-version", "1")
    page.on("dialog", lambda dialog: dialog.accept())
    with page.expect_request(lambda r: r.method == "POST" and "/actions" in r.url) as posted:
        page.click("#undo")
    assert UUID.fullmatch(parse_qs(posted.value.post_data)["tap_key"][0])
    expect(page.locator("#scoreboard")).to_have_attribute("data-version", "2")
    assert stored(live, match_id)["version"] == 2
    ctx.close()


def test_a_phone_that_hears_nothing_for_three_seconds_says_so_and_keeps_asking(chromium, live):
    """Issue 30: polls held by a stalled line (answered by nobody) leave the board as it was; after
    3 s without an answer the phone says so under the board, while it keeps asking, and the note
    goes once an answer comes. The page's clock is Playwright's, paused: it moves as the test runs it."""
    path, _match_id, _key = create_match(live, variant="paulista")
    ctx = new_context(chromium)
    page = ctx.new_page()
    page.clock.install()
    page.goto(live.url + path)
    expect(page.locator("#scoreboard")).to_have_attribute("data-version", "0")
    page.clock.pause_at(page.evaluate("Date.now()") + 500)
    held = []
    page.route("**/board?*", lambda route: held.append(route))  # the line stalls: no poll is answered
    expect(page.locator("#unheard")).to_be_hidden()  # the last poll was answered under 2 s ago (page time)
    page.clock.run_for(4000)
    expect(page.locator("#unheard")).to_be_visible()
    expect(page.locator("#unheard")).to_contain_text("Sem notícias do marcador")
    assert held  # it kept asking
    page.unroute("**/board?*")  # the line is back (Playwright lets the held polls go on)
    page.clock.run_for(1500)  # the next polls are answered
    expect(page.locator("#unheard")).to_be_hidden()
    ctx.close()
