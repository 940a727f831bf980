"""A scorekeeper that stalls (found by trying to break the app: ``kill -STOP`` for ten
seconds): the page gives up on the tap after its wait and says "not recorded"; when the
scorekeeper wakes up and reads that tap, it must refuse it, not count it behind the
table's back. The tap carries ``sent``, the server's clock when it left as the page
reckons it (the board's ``data-now`` plus the time since the board arrived)."""

from __future__ import annotations

import json
import os
import signal
import time
from urllib.parse import parse_qs

from conftest import action_button, create_match, new_context, request
from playwright.sync_api import expect

from scorer.web.forms import TAP_TIMEOUT_SECONDS


def stored_version(server, match_id: str) -> int:
    status, _h, text = request(server, "GET", f"/api/matches/{match_id}")
    assert status == 200
    return json.loads(text)["version"]


def test_a_tap_says_when_it_left_by_the_servers_clock(chromium, live):
    path, match_id, _key = create_match(live, variant="paulista")
    ctx = new_context(chromium)
    page = ctx.new_page()
    page.goto(live.url + path)
    with page.expect_request(lambda r: r.method == "POST" and "/actions" in r.url) as posted:
        action_button(page, {"side": 0, "type": "hand_winner"}).click()
    sent = float(parse_qs(posted.value.post_data)["sent"][0])
    assert abs(sent - time.time()) < 2
    expect(page.locator("#scoreboard")).to_have_attribute("data-version", "1")
    ctx.close()


def test_a_tap_a_stalled_scorekeeper_reads_after_the_page_gave_up_is_not_recorded(chromium, live):
    path, match_id, _key = create_match(live, variant="paulista")
    ctx = new_context(chromium)
    page = ctx.new_page()
    page.goto(live.url + path)
    expect(page.locator("#scoreboard")).to_have_attribute("data-version", "0")
    os.kill(live.proc.pid, signal.SIGSTOP)
    try:
        action_button(page, {"side": 0, "type": "hand_winner"}).click()
        expect(page.locator("#not-recorded")).to_be_visible(timeout=(TAP_TIMEOUT_SECONDS + 7) * 1000)
        expect(page.locator("#score0")).to_have_text("0")
    finally:
        os.kill(live.proc.pid, signal.SIGCONT)
    # The page polls on; its next answered poll comes after the scorekeeper read the late tap.
    with page.expect_response(lambda r: "/board?" in r.url and r.status in (200, 204), timeout=15_000):
        pass
    assert stored_version(live, match_id) == 0
    expect(page.locator("#score0")).to_have_text("0")
    ctx.close()
