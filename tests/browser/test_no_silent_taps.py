"""Issue 30 in Chromium, on the product as shipped (``truco serve`` with the offline engine on
and its double-tap guard): two phones whose CPU is throttled (4x and 6x, as cheap phones are,
through the DevTools protocol) play ten hands of an ``argentino-30`` match as a table does,
each tapping its own side's button a player's second after it is live there. Every tap is
recorded, or the phone says why (a note of tests/browser/tap_trace.py's SAYING), and is then
tapped again; the other phone follows every change, and a phone that follows more than 3 s
late says so ("no news from the scorekeeper"). On a failure the phone's event trace is shown.

Synchronisation is on page states and on the server's version; the one wait on a clock is the
player's second before a tap (the pace at which the losses were seen), never a wait for a result.
"""

from __future__ import annotations

import json

from conftest import create_match, new_context, stored
from tap_trace import TRACE, said, trace, versions

#: One hand as the issue's measurement played it: Truco, Quiero, Retruco, Quiero, three tricks.
#: (side of the phone that taps, action)
HAND = [
    (0, {"type": "call", "side": 0, "call": "truco"}),
    (1, {"type": "quiero", "side": 1}),
    (1, {"type": "call", "side": 1, "call": "retruco"}),
    (0, {"type": "quiero", "side": 0}),
    (0, {"type": "trick", "winner": 0}),
    (1, {"type": "trick", "winner": 1}),
    (0, {"type": "trick", "winner": 0}),
]
HANDS = 10
#: The variant of the measurement (bench/taps.py plays the same).
VARIANT = "argentino-30"
#: A player's second between a button turning live and the finger on it.
THINK_MS = 1000
#: How long a phone may follow the scorekeeper without saying so (docs/table.md).
BEHIND_MS = 3000
#: A bound for a page that never gets there (a busy machine must not fail a slow page).
NEVER_MS = 30_000


def throttled_phone(chromium, url: str, rate: int):
    ctx = new_context(chromium, lang="es")
    ctx.add_init_script(TRACE)
    page = ctx.new_page()
    page.goto(url)
    ctx.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": rate})
    return ctx, page


def code_of(action: dict) -> str:
    return json.dumps(action, separators=(",", ":"), sort_keys=True)


def wait_live(page, action: dict) -> None:
    """Until the button for ``action`` is on the board and live (not in a place just changed)."""
    page.wait_for_function(
        """code => { const b = [...document.querySelectorAll('#scoreboard button.act')]
                       .find(b => b.dataset.action === code);
                     return !!b && !b.closest('.fresh'); }""", arg=code_of(action), timeout=NEVER_MS)


def tap_until_recorded(page, server, match_id: str, action: dict, notes: list) -> None:
    """Tap ``action``'s button; recorded, or said and tapped again (at most three times)."""
    for _ in range(3):
        wait_live(page, action)
        page.wait_for_timeout(THINK_MS)  # the player's second (see the module's docstring)
        before = stored(server, match_id)["version"]
        page.locator(f"#scoreboard button[data-action='{code_of(action)}']").tap()
        page.wait_for_function(
            """([v, ids]) => +document.getElementById('scoreboard').dataset.version > v ||
                             ids.some(id => { const e = document.getElementById(id); return e && !e.hidden; })""",
            arg=[before, ["not-sent", "bounced", "pending", "pending-refused", "tap-refused", "offline", "gone", "nodb",
                          "offline-play"]], timeout=NEVER_MS)
        if stored(server, match_id)["version"] > before:
            return
        words = said(page)
        assert words, "a tap was neither recorded nor said:\n" + trace(page)
        notes.append((action, words))
    raise AssertionError(f"{action} not recorded after three taps, each said ({notes[-3:]}):\n" + trace(page))


def test_two_throttled_phones_lose_no_tap_in_silence_and_none_stays_behind(chromium, shipped):
    path, match_id, _key = create_match(shipped, variant=VARIANT, name0="Nosotros", name1="Ellos")
    phones = [throttled_phone(chromium, shipped.url + path, 4), throttled_phone(chromium, shipped.url + path, 6)]
    pages = [p for _c, p in phones]
    notes: list = []
    answered_at: list[tuple[int, int]] = []  # (version, when the tapping phone showed it)
    for _hand in range(HANDS):
        for side, action in HAND:
            page, other = pages[side], pages[1 - side]
            tap_until_recorded(page, shipped, match_id, action, notes)
            now = stored(shipped, match_id)["version"]
            other.wait_for_function("v => +document.getElementById('scoreboard').dataset.version >= v",
                                    arg=now, timeout=NEVER_MS)
            answered_at.append((now, side))
    final = stored(shipped, match_id)
    assert final["version"] == HANDS * len(HAND)  # each tap recorded once: none lost, none twice
    # Retruco accepted is worth 3, and Nosotros take two tricks of three each hand.
    assert final["score"] == [3 * HANDS, 0] or final["winner"] == 0

    # No phone followed more than 3 s late without saying so.
    shown = [dict((v, t) for t, v in versions(p)) for p in pages]
    unheard = [[row[0] for row in p.evaluate("() => window.__trace") if row[1] == "state" and "unheard" in row[2]]
               for p in pages]
    late = []
    for version, side in answered_at:
        tapped, followed = shown[side].get(version), shown[1 - side].get(version)
        if tapped is None or followed is None or followed - tapped <= BEHIND_MS:
            continue
        if not any(tapped <= t <= followed for t in unheard[1 - side]):
            late.append((version, followed - tapped))
    assert not late, f"followed late without saying so (version, ms): {late}\n" + trace(pages[0]) + "\n" + trace(pages[1])
    for ctx, _page in phones:
        ctx.close()
