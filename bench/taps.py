"""Taps on cheap phones (issue 30): ``python -m bench --only taps``.

Two phones in Debian's Chromium (360x640, touch) against ``truco serve`` as README starts it
(8 threads, the offline engine on, the double-tap guard on), on 127.0.0.1, play
``argentino-30`` hands as a table does (Truco, Quiero, Retruco, Quiero, three tricks), each
tapping its side's button a player's second after it is live there; a won match starts again.

- **Phone-to-phone delay**: for each recorded tap, the time from the tapping phone showing the
  new board to the other phone showing it, both read on the machine's one clock
  (``Date.now()`` in tests/browser/tap_trace.py's trace): p50 and p95, with both phones'
  CPU throttled 4x (``Emulation.setCPUThrottlingRate``), beside the same with phones at full
  speed in the same run (the reference; the ratio is the figure, the milliseconds context).
- **Taps per silent loss**: every tap on the throttled phones is judged: recorded, said (a
  note says why: then tapped again), or lost in silence (neither). Target: no silent loss.

Writes ``bench/results_taps.json``. ``--quick``: 21 taps a pass instead of 500 throttled and
70 at full speed.
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "browser"))

from test_no_silent_taps import HAND, THINK_MS, VARIANT  # noqa: E402  (the test's table, played the same)


def percentile(xs: list[float], q: float) -> float | None:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else None


def play(chromium, server, taps: int, rate: float) -> dict[str, Any]:
    """``taps`` taps by two phones at CPU ``rate``: delays (ms) and how each tap ended."""
    from conftest import create_match
    from tap_trace import versions

    outcome = {"recorded": 0, "said": 0, "silent": 0}
    delays: list[float] = []
    done = 0
    while done < taps:
        path, match_id, _key = create_match(server, variant=VARIANT, name0="Nosotros", name1="Ellos")
        phones = two_phones(chromium, server, path, rate)
        pages = [p for _c, p in phones]
        tapped_by: dict[int, int] = {}
        over = False
        while not over and done < taps:
            for side, action in HAND:
                if done >= taps:
                    break
                over = tap_once(server, match_id, pages, side, action, outcome, tapped_by)
                done += 1
                if over:
                    break
        shown = [dict((v, t) for t, v in versions(p)) for p in pages]
        for version, side in tapped_by.items():
            a, b = shown[side].get(version), shown[1 - side].get(version)
            if a is not None and b is not None:
                delays.append(max(0, b - a))
        for ctx, _p in phones:
            ctx.close()
    return {"taps": done, **outcome, "delay_p50_ms": percentile(delays, 0.5), "delay_p95_ms": percentile(delays, 0.95),
            "delays": len(delays)}


def two_phones(chromium, server, path: str, rate: float) -> list:
    """Two phones (``(context, page)``, in Spanish, their taps traced) on the board at ``path``,
    their CPU slowed ``rate`` times."""
    from conftest import new_context
    from tap_trace import TRACE

    phones = []
    for _ in range(2):
        ctx = new_context(chromium, lang="es")
        ctx.add_init_script(TRACE)
        page = ctx.new_page()
        page.goto(server.url + path)
        if rate > 1:
            ctx.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": rate})
        phones.append((ctx, page))
    return phones


def tap_once(server, match_id: str, pages: list, side: int, action: dict, outcome: dict[str, int],
             tapped_by: dict[int, int]) -> bool:
    """Phone ``side`` taps ``action`` once its button is live, and the tap's end is counted in
    ``outcome`` (a recorded tap's version in ``tapped_by``, once the other phone shows it).
    Whether this match's pass is over (the game won, or a tap not recorded: the plan is off)."""
    from conftest import stored
    from tap_trace import SAYING

    page = pages[side]
    code = json.dumps(action, separators=(",", ":"), sort_keys=True)
    page.wait_for_function(
        """code => { const b = [...document.querySelectorAll('#scoreboard button.act')]
                       .find(b => b.dataset.action === code); return !!b && !b.closest('.fresh'); }""",
        arg=code, timeout=60_000)
    page.wait_for_timeout(THINK_MS)
    before = stored(server, match_id)["version"]
    page.locator(f"#scoreboard button[data-action='{code}']").tap()
    page.wait_for_function(
        """([v, ids]) => +document.getElementById('scoreboard').dataset.version > v ||
             ids.some(id => { const e = document.getElementById(id); return e && !e.hidden; })""",
        arg=[before, [s for s in SAYING if s != "unheard"]], timeout=60_000)
    now = stored(server, match_id)
    if now["version"] > before:
        outcome["recorded"] += 1
        tapped_by[now["version"]] = side
        pages[1 - side].wait_for_function("v => +document.getElementById('scoreboard').dataset.version >= v",
                                          arg=now["version"], timeout=60_000)
        return now.get("winner") is not None
    said = page.evaluate("ids => ids.some(id => { const e = document.getElementById(id); return e && !e.hidden; })",
                         list(SAYING))
    outcome["said" if said else "silent"] += 1
    return True  # the hand's plan is off: this pass goes on with a new match


def main(quick: bool, say) -> int:
    from playwright.sync_api import sync_playwright

    from conftest import CHROMIUM, CHROMIUM_ARGS
    from live_server import Server

    folder = Path(tempfile.mkdtemp(prefix="bench-taps-"))
    server = Server(folder / "truco.sqlite3", threads=8, offline_engine=True)
    results: dict[str, Any] = {"when": time.strftime("%Y-%m-%d %H:%M")}
    try:
        with sync_playwright() as p:
            chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            results["full_speed"] = play(chromium, server, 21 if quick else 70, 1)
            say(f"full speed: {results['full_speed']}")
            results["throttled_4x"] = play(chromium, server, 21 if quick else 500, 4)
            say(f"4x: {results['throttled_4x']}")
            chromium.close()
    finally:
        server.stop()
    t4, t1 = results["throttled_4x"], results["full_speed"]
    if t4["delay_p95_ms"] is not None and t1["delay_p95_ms"]:
        results["delay_p95_ratio"] = round(t4["delay_p95_ms"] / t1["delay_p95_ms"], 2)
    results["taps_per_silent_loss"] = None if not t4["silent"] else round(t4["taps"] / t4["silent"], 1)
    say(json.dumps({k: v for k, v in results.items() if k not in ("full_speed", "throttled_4x")}))
    (ROOT / "bench" / "results_taps.json").write_text(json.dumps(results, indent=2) + "\n")
    return 0
