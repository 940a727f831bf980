"""Two phones on one match: `truco serve` as a real process, Debian's Chromium via Playwright.

Plays a Paulista match to 12 from both pages (with a refused Seis and a mão de onze)
and checks both show 12 and the winner. Synchronisation is by Playwright's waits on
the version each scoreboard shows, never by sleeping.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import PHONE
from playwright.sync_api import expect

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def server(live):
    """`truco serve` on 127.0.0.1 (conftest.py's ``live``; it prints the address phones open)."""
    assert f"http://127.0.0.1:{live.port}/" in "".join(live.output)
    return live.url


@pytest.fixture
def browser(chromium):
    """The session's Chromium (conftest.py): one Playwright per process."""
    return chromium


def tap(page, version: int, action: dict) -> int:
    """Wait until ``page`` shows ``version``, tap the button for ``action``; return version + 1."""
    expect(page.locator("#scoreboard")).to_have_attribute("data-version", str(version), timeout=10_000)
    code = json.dumps(action, separators=(",", ":"), sort_keys=True)
    page.locator(f"button[data-action='{code}']").click()
    expect(page.locator("#scoreboard")).to_have_attribute("data-version", str(version + 1), timeout=10_000)
    return version + 1


def scores(page, a: int, b: int) -> None:
    expect(page.locator("#score0")).to_have_text(str(a), timeout=10_000)
    expect(page.locator("#score1")).to_have_text(str(b), timeout=10_000)


def test_paulista_to_12_on_two_phones(server, browser, tmp_path):
    ctx_a = browser.new_context(viewport=PHONE, locale="pt-BR", has_touch=True)
    ctx_b = browser.new_context(viewport=PHONE, locale="pt-BR", has_touch=True)
    a, b = ctx_a.new_page(), ctx_b.new_page()
    errors = []
    for page in (a, b):
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)

    # Phone A starts a Paulista match; the options swap in with htmx.
    a.goto(server + "/")
    a.select_option("#variant", "paulista")
    expect(a.locator("#options select[name=all_pardas]")).to_be_visible()
    a.fill("input[name=name0]", "Nós")
    a.fill("input[name=name1]", "Eles")
    a.click("#start")
    expect(a.locator("#scoreboard")).to_be_visible()

    # Phone B joins with the link the share page shows (as its QR code).
    a.click("#share-link")
    expect(a.locator("#edit-qr svg")).to_be_visible()
    edit_url = a.locator("#edit-url").get_attribute("href")
    b.goto(edit_url)
    a.go_back()

    v = 0
    # Hand 1: Truco accepted, Seis refused -> Eles +3.
    v = tap(a, v, {"type": "call", "side": 0, "call": "truco"})
    v = tap(b, v, {"type": "quiero", "side": 1})
    v = tap(b, v, {"type": "call", "side": 1, "call": "seis"})
    v = tap(a, v, {"type": "no_quiero", "side": 0})
    scores(a, 0, 3)
    scores(b, 0, 3)
    # Hand 2: Truco accepted, two tricks to Nós -> +3.
    v = tap(a, v, {"type": "call", "side": 0, "call": "truco"})
    v = tap(b, v, {"type": "quiero", "side": 1})
    v = tap(a, v, {"type": "trick", "winner": 0})
    v = tap(b, v, {"type": "trick", "winner": 0})
    scores(b, 3, 3)
    # Hand 3: Truco, Seis accepted, Nós win -> +6.
    v = tap(a, v, {"type": "call", "side": 0, "call": "truco"})
    v = tap(b, v, {"type": "quiero", "side": 1})
    v = tap(b, v, {"type": "call", "side": 1, "call": "seis"})
    v = tap(a, v, {"type": "quiero", "side": 0})
    v = tap(b, v, {"type": "hand_winner", "side": 0})
    scores(a, 9, 3)
    # Hands 4 and 5: one tento each.
    v = tap(a, v, {"type": "hand_winner", "side": 0})
    v = tap(b, v, {"type": "hand_winner", "side": 0})
    scores(a, 11, 3)
    # Mão de onze: Nós play it (worth 3) and win.
    expect(b.locator(".hand-info .special")).to_have_text("Mão de onze", timeout=10_000)
    v = tap(b, v, {"type": "special_hand", "side": 0, "decision": "play"})
    v = tap(a, v, {"type": "hand_winner", "side": 0})

    for page in (a, b):
        expect(page.locator("#scoreboard")).to_have_attribute("data-version", str(v), timeout=10_000)
        scores(page, 12, 3)
        expect(page.locator("#game-over .winner")).to_contain_text("Nós")
        # No horizontal scroll at 360 px.
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    out = tmp_path / "output"
    out.mkdir()
    a.screenshot(path=str(out / "paulista-final.png"), full_page=True)
    results = ROOT / "test-results"
    results.mkdir(exist_ok=True)
    shutil.copy(out / "paulista-final.png", results / "paulista-final.png")
    assert not errors, errors
    ctx_a.close()
    ctx_b.close()
