"""Issue 30 item 4 in Chromium: offline readiness that strangers cannot starve. A table of four
phones on ``truco serve`` as shipped (the offline engine on) taps every 5 s for a minute; each
phone keeps its copy of the match with the edit key's own read (never refused), and its board says
it is ready to play with no signal. Then one phone loses the Wi-Fi and taps: it plays on offline,
and its tap is recorded once when the Wi-Fi is back.

Synchronisation is on page states and on the server's version; the one wait on a clock is the
table's pace (a tap every 5 s), never a wait for a result.
"""

from __future__ import annotations

from conftest import action_button, create_match, new_context, stored
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect
from tap_trace import SAYING, TRACE, said, trace

PACE_MS = 5000
TAPS = 12  # a minute at the table's pace
#: A bound for a page that never gets there: four engines start at once on a busy machine.
ENGINE_MS = 240_000
#: A bound for a tap that is neither shown nor said (the failure; a loaded machine shows a tap
#: within seconds).
SILENT_MS = 60_000


def tap_until_shown(page, server, match_id: str, action: dict, version: int) -> None:
    """Tap ``action`` on a board showing ``version``: the board shows the next version, or the
    phone says why it did not take the tap (a note of :data:`tap_trace.SAYING`: a touch on a button
    that had just come under the finger, say) and the table taps again, at most three times. A
    tap neither shown nor said is the silent loss issue 30 forbids: the failure gives the trace."""
    for _ in range(3):
        if stored(server, match_id)["version"] > version:  # it said something, and went through
            expect(page.locator("#scoreboard")).to_have_attribute("data-version", str(version + 1))
            return
        action_button(page, action).tap()
        try:
            page.wait_for_function(
                """([v, ids]) => +document.getElementById('scoreboard').dataset.version > v ||
                                 ids.some(id => { const e = document.getElementById(id); return e && !e.hidden; })""",
                arg=[version, list(SAYING)], timeout=SILENT_MS)
        except PlaywrightTimeoutError:
            raise AssertionError(f"{action} neither shown nor said:\n{trace(page)}") from None
        if int(page.locator("#scoreboard").get_attribute("data-version")) > version:
            return
        notes = said(page)
        page.wait_for_function("ids => ids.every(id => { const e = document.getElementById(id); return !e || e.hidden; })",
                               arg=notes, timeout=SILENT_MS)  # the note has had its say: the finger tries again
    raise AssertionError(f"{action} not shown after three taps, each said:\n{trace(page)}")


def test_four_phones_keep_their_copies_and_one_plays_on_offline(chromium, shipped):
    path, match_id, _key = create_match(shipped)  # paulista
    phones, refused = [], []
    for _ in range(4):
        ctx = new_context(chromium)
        ctx.add_init_script(TRACE)
        page = ctx.new_page()
        page.on("response", lambda r: refused.append(r.url) if "export" in r.url and r.status != 200 else None)
        page.goto(shipped.url + path)
        phones.append((ctx, page))
    for n in range(TAPS):
        ctx, page = phones[n % 4]
        expect(page.locator("#scoreboard")).to_have_attribute("data-version", str(n))
        page.wait_for_timeout(PACE_MS)  # the table's pace (see the module's docstring)
        tap_until_shown(page, shipped, match_id, {"type": "hand_winner", "side": n % 2}, n)
    assert stored(shipped, match_id)["version"] == TAPS
    for ctx, page in phones:  # every phone's copy caught up: the board says so
        expect(page.locator("html")).to_have_attribute("data-offline-ready", "yes", timeout=ENGINE_MS)
        expect(page.locator("#offline-ready-yes")).to_be_visible()
        expect(page.locator("#offline-ready-no")).to_be_hidden()
    assert refused == [], refused

    ctx, page = phones[0]
    # The phone shows the last tap (another phone's) and its copy holds it: a tap played offline
    # on an older board would rightly meet the conflict prompt instead of being sent.
    expect(page.locator("#scoreboard")).to_have_attribute("data-version", str(TAPS))
    expect(page.locator("html")).to_have_attribute("data-offline-ready", "yes", timeout=ENGINE_MS)
    ctx.set_offline(True)  # the Wi-Fi drops
    action_button(page, {"type": "hand_winner", "side": 0}).tap()
    expect(page.locator("html")).to_have_attribute("data-offline", "playing")
    expect(page.locator("#offline-play")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("data-waiting", "1")
    assert stored(shipped, match_id)["version"] == TAPS
    ctx.set_offline(False)  # back: sent once
    expect(page.locator("html")).to_have_attribute("data-waiting", "0", timeout=60_000)
    for _ctx, other in phones:
        expect(other.locator("#scoreboard")).to_have_attribute("data-version", str(TAPS + 1))
    assert stored(shipped, match_id)["version"] == TAPS + 1, trace(page)
    for ctx, _page in phones:
        ctx.close()
