"""Push on real phones (issue 34; docs/hosting.md, "Push"): two Chromium phones on the hosted
recipe (the shipped nginx with its push module, ``truco serve --server granian
--push-publish``), pings every 2 s. A tap on one phone shows on the other with no poll in
between (the other phone asks for its board once, when told), also with the phones' CPU
throttled 4x; a stream that never says anything (a proxy that buffers it) leaves the phone
polling every second; a phone whose line dropped reconnects and catches up."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

import nginx_proxy
from conftest import CHROMIUM, CHROMIUM_ARGS, action_button, new_context, shown_long_ago
from nginx_proxy import HOST, Phone

PING_SECONDS = 2
TAP = {"type": "hand_winner", "side": 0}


@pytest.fixture(scope="module")
def hosted(tmp_path_factory):
    """nginx with push in front of truco serve: ``(proxy, base_url)``."""
    nginx_proxy.require()
    started: list = []
    _servers, proxy = nginx_proxy.pushed_servers(tmp_path_factory.mktemp("push") / "push.sqlite3", 1, PING_SECONDS,
                                                 started)
    yield proxy, f"https://{HOST}:{proxy.https_port}"
    nginx_proxy.stop_all(started)


@pytest.fixture(scope="module")
def browser(chromium):
    """A Chromium that finds the public host name on this machine (launched by the session's
    Playwright: one Playwright per process)."""
    browser = chromium.browser_type.launch(executable_path=CHROMIUM,
                                           args=[*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {HOST} 127.0.0.1"])
    yield browser
    browser.close()


def new_match(proxy) -> dict:
    status, made, _ = Phone(proxy, "127.0.0.2").request("POST", "/api/matches", {"variant": "paulista"})
    assert status == 201, made
    return made


def phone(browser, url: str, throttle: int = 1):
    """A phone on ``url`` whose push stream is trusted (``html[data-push=live]``); its board
    requests are counted in ``page.board_asks``."""
    ctx = new_context(browser, ignore_https_errors=True)
    page = ctx.new_page()
    page.board_asks = []
    page.on("request", lambda r: page.board_asks.append(r.url) if "/board?" in r.url else None)
    page.goto(url)
    if throttle > 1:
        ctx.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    page.wait_for_function("() => document.documentElement.dataset.push === 'live'", timeout=30_000)
    return ctx, page


@pytest.mark.parametrize("throttle", [1, 4])
def test_a_tap_shows_on_the_other_phone_with_no_poll(hosted, browser, throttle):
    proxy, base = hosted
    made = new_match(proxy)
    board = f"{base}/m/{made['id']}/{made['edit_key']}"
    ctx_a, a = phone(browser, board, throttle)
    ctx_b, b = phone(browser, board, throttle)
    try:
        asked_before = len(b.board_asks)
        shown_long_ago(a)
        action_button(a, TAP).first.click()
        expect(b.locator("#score0")).to_have_text("1", timeout=15_000)
        # One request for the board, the one "changed" asked for (the every-second poll is set aside).
        assert len(b.board_asks) - asked_before == 1, b.board_asks[asked_before:]
        assert b.evaluate("() => document.documentElement.dataset.push") == "live"
    finally:
        ctx_a.close()
        ctx_b.close()


def test_a_stream_that_says_nothing_leaves_the_phone_polling(hosted, browser):
    """A proxy that buffers the stream: the phone never hears a ping, never trusts it, and its
    board follows the other phone's tap by its every-second poll."""
    proxy, base = hosted
    made = new_match(proxy)
    ctx = new_context(browser, ignore_https_errors=True)
    ctx.route("**/push/m/**", lambda route: route.fulfill(status=200, content_type="text/event-stream", body=": held\n\n"))
    page = ctx.new_page()
    try:
        page.goto(f"{base}/w/{made['id']}")
        page.wait_for_function("() => document.documentElement.dataset.push === 'off'")
        with page.expect_request(lambda r: "/board?" in r.url):
            pass  # it polls
        status, _body, _ = Phone(proxy, "127.0.0.3").request(
            "POST", f"/api/matches/{made['id']}/actions", {"action": TAP, "version": 0}, {"X-Edit-Key": made["edit_key"]})
        assert status == 200
        expect(page.locator("#score0")).to_have_text("1", timeout=15_000)
        assert page.evaluate("() => document.documentElement.dataset.push") == "off"
    finally:
        ctx.close()


def test_a_phone_whose_stream_dropped_reconnects_and_catches_up(hosted, browser):
    """nginx drops the match's streams (its publisher deletes the channel); the phone's next
    stream is held back meanwhile, so it polls and catches up with a tap made then; once its
    stream is back it is trusted again and the next tap comes by push."""
    import http.client

    proxy, base = hosted
    made = new_match(proxy)
    ctx, page = phone(browser, f"{base}/w/{made['id']}")
    other = Phone(proxy, "127.0.0.3")
    held = []
    try:
        ctx.route("**/push/m/**", lambda route: held.append(route))
        conn = http.client.HTTPConnection("127.0.0.1", proxy.push_port, timeout=10)
        conn.request("DELETE", f"/pub/m-{made['id']}")  # every stream of the match is closed
        assert conn.getresponse().status < 300
        conn.close()
        page.wait_for_function("() => document.documentElement.dataset.push === 'off'", timeout=30_000)
        status, _body, _ = other.request("POST", f"/api/matches/{made['id']}/actions", {"action": TAP, "version": 0},
                                         {"X-Edit-Key": made["edit_key"]})
        assert status == 200
        expect(page.locator("#score0")).to_have_text("1", timeout=15_000)  # by its poll
        ctx.unroute("**/push/m/**")  # the held reconnection goes on (Playwright continues it)
        page.wait_for_function("() => document.documentElement.dataset.push === 'live'", timeout=60_000)
        asked = len(page.board_asks)
        status, _body, _ = other.request("POST", f"/api/matches/{made['id']}/actions", {"action": TAP, "version": 1},
                                         {"X-Edit-Key": made["edit_key"]})
        assert status == 200
        expect(page.locator("#score0")).to_have_text("2", timeout=15_000)
        assert len(page.board_asks) - asked == 1, page.board_asks[asked:]
    finally:
        ctx.close()


def test_an_idle_board_with_push_asks_for_nothing(hosted, browser):
    """Issue 34 item 4: while nothing changes, a board whose stream is alive sends no request
    (one every ten minutes at most): three pings heard, no board asked for meanwhile."""
    proxy, base = hosted
    made = new_match(proxy)
    ctx, page = phone(browser, f"{base}/m/{made['id']}/{made['edit_key']}")
    try:
        page.evaluate("() => { window.pings = 0;"
                      " document.getElementById('push').addEventListener('ping', () => { window.pings += 1; }); }")
        asked = len(page.board_asks)
        page.wait_for_function("() => window.pings >= 3", timeout=60_000)
        assert page.board_asks[asked:] == []
        assert page.evaluate("() => document.getElementById('unheard').hidden")  # and says nothing is wrong
    finally:
        ctx.close()
