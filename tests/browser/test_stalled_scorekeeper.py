"""A scorekeeper that stalls (found by trying to break the app: ``kill -STOP`` for ten
seconds): the page gives up on the tap after its wait and says "not recorded"; when the
scorekeeper wakes up and reads that tap, it must refuse it, not count it behind the
table's back. The tap carries ``sent``, the server's clock when it left as the page
reckons it (the board's ``data-now`` plus the time since the board arrived)."""

from __future__ import annotations

import os
import signal
import sqlite3
import time
from contextlib import contextmanager
from urllib.parse import parse_qs

from conftest import action_button, api_act, create_match, new_context, stored
from live_server import Server
from playwright.sync_api import expect

from scorer.web.forms import TAP_TIMEOUT_SECONDS



#: Slack for comparing the page's reckoning with the test's clock: rounding to the millisecond,
#: and the browser's clocks against Python's (the same machine clock, read through different calls).
SLACK = 0.05


def test_a_tap_says_when_it_left_by_the_servers_clock(chromium, live):
    """``sent`` is the board's ``data-now`` plus the time the page counted since the board
    arrived: no earlier than that plus the time between the page's arrival and the tap, and no
    later than the moment the test saw it leave."""
    path, match_id, _key = create_match(live, variant="paulista")
    ctx = new_context(chromium)
    page = ctx.new_page()
    page.goto(live.url + path)
    arrived = time.time()  # the board arrived before goto returned
    rendered = float(page.locator("#scoreboard").get_attribute("data-now"))
    tapped = time.time()
    with page.expect_request(lambda r: r.method == "POST" and "/actions" in r.url) as posted:
        action_button(page, {"side": 0, "type": "hand_winner"}).click()
    seen = time.time()
    sent = float(parse_qs(posted.value.post_data)["sent"][0])
    assert rendered + (tapped - arrived) - SLACK <= sent <= seen + SLACK, (rendered, arrived, tapped, sent, seen)
    expect(page.locator("#scoreboard")).to_have_attribute("data-version", "1")
    ctx.close()


def tap_until_the_page_gives_up(chromium, server, stall) -> None:
    """On a new match, tap "won the hand" while ``stall`` (a context manager) holds the
    scorekeeper up, until the page says "not recorded" and shows the last score again; once
    the scorekeeper answers a poll again, the tap must be recorded nowhere."""
    path, match_id, _key = create_match(server, variant="paulista")
    ctx = new_context(chromium)
    page = ctx.new_page()
    page.goto(server.url + path)
    expect(page.locator("#scoreboard")).to_have_attribute("data-version", "0")
    with stall:
        action_button(page, {"side": 0, "type": "hand_winner"}).click()
        expect(page.locator("#not-recorded")).to_be_visible(timeout=(TAP_TIMEOUT_SECONDS + 7) * 1000)
        expect(page.locator("#score0")).to_have_text("0")
    # The page polls on; its next answered poll comes after the scorekeeper took the late tap.
    with page.expect_response(lambda r: "/board?" in r.url and r.status in (200, 204), timeout=15_000):
        pass
    assert stored(server, match_id)["version"] == 0
    expect(page.locator("#score0")).to_have_text("0")
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


def test_a_tap_a_stalled_scorekeeper_reads_after_the_page_gave_up_is_not_recorded(chromium, live):
    tap_until_the_page_gives_up(chromium, live, frozen(live))


def test_a_tap_whose_write_waited_past_the_pages_wait_is_not_recorded(chromium, tmp_path):
    """Found by trying to break it: the tap reached the scorekeeper in time, but its write
    waited on a busy database (another writer held the SQLite file) past the page's wait.
    The age is checked again once the write holds the lock, just before it commits."""
    db = tmp_path / "busy.sqlite3"
    server = Server(db, threads=4, ghost_tap_ms=0)
    try:
        tap_until_the_page_gives_up(chromium, server, database_held(db))
    finally:
        server.stop()


def test_an_undo_says_when_it_left_after_its_confirmation_not_when_it_was_tapped(chromium, live):
    """Found by trying to break it: an Undo whose confirmation stayed open more than 7 s was
    refused as late; ``sent`` was stamped before the dialog. It is stamped as the request
    leaves, after the dialog."""
    path, match_id, key = create_match(live, variant="paulista")
    api_act(live, match_id, key, {"type": "hand_winner", "side": 0}, 0)
    ctx = new_context(chromium)
    page = ctx.new_page()
    page.goto(live.url + path)
    arrived = time.time()  # the board arrived before goto returned
    expect(page.locator("#scoreboard")).to_have_attribute("data-version", "1")
    rendered = float(page.locator("#scoreboard").get_attribute("data-now"))
    accepted = []

    def read_then_accept(dialog):
        time.sleep(1.5)  # the player reads the question
        accepted.append(time.time())
        dialog.accept()

    page.on("dialog", read_then_accept)
    with page.expect_request(lambda r: r.method == "POST" and "/actions" in r.url) as posted:
        page.click("#undo")
    sent = float(parse_qs(posted.value.post_data)["sent"][0])
    # Stamped as it left, after the dialog: at least the board's time plus the time from its
    # arrival to the dialog's answer (stamped at the tap, it would be 1.5 s less).
    assert sent >= rendered + (accepted[0] - arrived) - SLACK, (rendered, arrived, accepted, sent)
    expect(page.locator("#scoreboard")).to_have_attribute("data-version", "2")
    assert stored(live, match_id)["version"] == 2
    ctx.close()
