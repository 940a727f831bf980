"""Shared pieces of the browser tests: Debian's Chromium through Playwright, a real
``truco serve`` per worker (tests/live_server.py), axe-core injected into every page, and
small HTTP helpers that set a match up without tapping through it.

axe-core is vendored under tests/browser/vendor/ (version and sha256 in axe.txt); it is
added to pages by the test (an init script, which the page's CSP does not govern), never
served to phones.
"""

from __future__ import annotations

import http.client
import json
import re
import sys
import time
import urllib.parse
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # tests/live_server.py

from live_server import Server  # noqa: E402

playwright_sync = pytest.importorskip("playwright.sync_api")

#: How long an ``expect`` waits for the page to reach the state it names (Playwright's default
#: is 5 s): a bound for a page that never gets there, never a rhythm; a machine busy with other
#: work (parallel test workers, a build) must not turn a slow page into a failure.
playwright_sync.expect.set_options(timeout=20_000)

CHROMIUM = "/usr/bin/chromium"
#: A LAN-like name for 127.0.0.1: http://truco.lan is not a secure context (no wake lock,
#: no service worker), as a phone opening http://192.168.x.y would see it.
LAN_HOST = "truco.lan"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    f"--host-resolver-rules=MAP {LAN_HOST} 127.0.0.1",
]
PHONE = {"width": 360, "height": 640}
AXE = HERE / "vendor" / "axe-4.14.1.min.js"
#: Browser locale for each of the app's languages.
LOCALES = {"pt_BR": "pt-BR", "es": "es-AR", "en": "en-US", "ca": "ca-ES"}

#: Records what the page asked of speech synthesis and vibration, so tests can check it.
RECORDER = """
window.__spoken = []; window.__vibrations = [];
if (window.speechSynthesis) {
  window.speechSynthesis.speak = function (u) { window.__spoken.push({text: u.text, lang: u.lang}); };
}
navigator.vibrate = function (p) { window.__vibrations.push(p); return true; };
"""


def pytest_collection_modifyitems(items):
    if not Path(CHROMIUM).exists():
        skip = pytest.mark.skip(reason="Debian's chromium is not installed (.ci/run installs it)")
        for item in items:
            if HERE in Path(str(item.fspath)).parents:
                item.add_marker(skip)


@pytest.fixture(scope="session")
def chromium():
    """One Chromium for the whole session (each test makes its own contexts)."""
    with playwright_sync.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def servers(tmp_path_factory):
    """``servers(ghost_tap_ms)``: this worker's ``truco serve`` on 127.0.0.1 with that
    double-tap guard, on a temporary database, shared by the tests that ask for it (each sets
    up matches of its own; a server per test was a hundred starts, each about a second). One
    that a test stopped or killed is replaced by a new one for the next test; all are stopped
    at the end."""
    running: dict[int, Server] = {}

    def server(ghost_tap_ms: int) -> Server:
        found = running.get(ghost_tap_ms)
        if found is None or found.proc.poll() is not None:
            folder = tmp_path_factory.mktemp(f"serve-{ghost_tap_ms}ms")
            found = running[ghost_tap_ms] = Server(folder / "serve.sqlite3", threads=4, ghost_tap_ms=ghost_tap_ms)
        return found

    yield server
    for found in running.values():
        if found.proc.poll() is None:
            found.stop()


@pytest.fixture(scope="module")
def shipped(tmp_path_factory):
    """``truco serve`` as README starts it (8 threads, the offline engine on, the double-tap
    guard on), one per test file: the tap tests of issue 30 run on the product as shipped."""
    server = Server(tmp_path_factory.mktemp("shipped") / "truco.sqlite3", threads=8, offline_engine=True)
    yield server
    server.stop()


@pytest.fixture
def live(servers):
    """``truco serve`` on 127.0.0.1 (see :func:`servers`).

    The double-tap guard is off: tests tap the moment a board arrives, which a finger cannot
    (tests/browser/test_double_tap.py checks the guard with it on)."""
    return servers(0)


def new_context(browser, *, lang="pt_BR", scheme="light", **kw):
    """A phone-sized context in ``lang`` and colour ``scheme`` with the recorder and axe."""
    ctx = browser.new_context(viewport=PHONE, locale=LOCALES[lang], color_scheme=scheme, has_touch=True, **kw)
    ctx.add_init_script(RECORDER)
    ctx.add_init_script(path=str(AXE))
    return ctx


def shown_long_ago(page, seconds: float = 10.0) -> None:
    """Tell the server's double-tap guard that the board on ``page`` was shown ``seconds``
    before it was: every button's ``shown`` is set back from the board's ``data-now``. A test
    that taps a board it has just opened, on a server with the guard on, then taps it as a
    player who read it first, however soon after the page arrived its tap goes out (the guard's
    window runs on the server's clock, which no page clock moves)."""
    shown = float(page.locator("#scoreboard").get_attribute("data-now")) - seconds
    page.eval_on_selector_all("input[name=shown]", "(inputs, t) => inputs.forEach(i => i.value = t)", f"{shown:.3f}")


def pump(page, until, limit_seconds: float = 30.0) -> None:
    """Talk to the page (a round trip each turn, which lets Playwright run the route and
    request handlers waiting for it) until ``until()`` is true, or give up after
    ``limit_seconds`` of real time (the caller's assertion then fails). Unlike a wait on a timer
    it works with the page's clock paused (``page.clock.pause_at``); unlike a count of turns it
    waits for the state however busy the machine is (250 turns once ran out on a loaded
    machine before the browser had sent a tap it had already made)."""
    deadline = time.monotonic() + limit_seconds
    while not until() and time.monotonic() < deadline:
        page.evaluate("() => null")


def tap_answered_on_paused_clock(page, tap, settle_ms: int = 50) -> None:
    """``tap()`` (a touch or a click) on a page whose clock is paused (``page.clock.pause_at``),
    then what the page's time needs for it to be recorded and shown: once the page has taken the
    tap (``html[data-tap]`` in flight: its events handled, waited for in real time), the frame and
    the two turns before it is sent (100 ms of the page's clock); once its answer is in (real time
    again), ``settle_ms`` more for the answer's swap. Page time: 100 + ``settle_ms`` ms. On a quiet
    machine the events and the answer came within the tap's own 100 ms; on a loaded one they came
    after them, and waited for a clock that no longer moved (the board stayed a version behind)."""
    with page.expect_response(lambda r: r.request.method == "POST" and "/actions" in r.url, timeout=60_000):
        tap()
        playwright_sync.expect(page.locator("html")).to_have_attribute("data-tap", re.compile("in-flight|queued"))
        page.clock.run_for(100)
    page.clock.run_for(settle_ms)


def watch_errors(page, errors: list[str]) -> None:
    page.on("pageerror", lambda e: errors.append(str(e)))


def request(server: Server, method: str, path: str, *, form=None, body=None, headers=None):
    """One request to the server: ``(status, headers, text)``; redirects are not followed."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    headers = dict(headers or {})
    data = None
    if form is not None:
        data = urllib.parse.urlencode(form)
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    elif body is not None:
        data = json.dumps(body)
        headers["Content-Type"] = "application/json"
    try:
        conn.request(method, path, body=data, headers=headers)
        r = conn.getresponse()
        return r.status, dict(r.getheaders()), r.read().decode()
    finally:
        conn.close()


def create_match(server: Server, **fields) -> tuple[str, str, str]:
    """Create a match through the new-match form; ``(scoreboard path, id, key)``."""
    form = {"variant": "paulista", "name0": "Nós", "name1": "Eles", "mano": "0", **fields}
    status, headers, text = request(server, "POST", "/matches", form=form)
    assert status == 303, text
    path = headers["Location"]
    _, _, match_id, key = path.split("/")
    return path, match_id, key


def api_act(server: Server, match_id: str, key: str, action: dict, version: int) -> dict:
    """Record ``action`` through the JSON API; the new state."""
    status, _h, text = request(server, "POST", f"/api/matches/{match_id}/actions",
                            body={"action": action, "version": version}, headers={"X-Edit-Key": key})
    assert status == 200, text
    return json.loads(text)


def stored(server: Server, match_id: str) -> dict:
    """The match as the server has it now (the JSON API's state)."""
    status, _h, text = request(server, "GET", f"/api/matches/{match_id}")
    assert status == 200
    return json.loads(text)


def action_button(page, action: dict):
    code = json.dumps(action, separators=(",", ":"), sort_keys=True)
    return page.locator(f"button[data-action='{code}']")


def axe_violations(page) -> list[dict]:
    """axe-core's serious and critical violations on the page as it is now (animations
    finished first, so colours are measured at rest)."""
    page.wait_for_function("() => document.getAnimations().every(a => a.playState === 'finished')")
    result = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    return [
        {"id": v["id"], "impact": v["impact"], "nodes": [n["target"] for n in v["nodes"]][:5],
         "summary": v["nodes"][0].get("failureSummary", "")[:300]}
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]
