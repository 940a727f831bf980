"""The Chromium figures (page weight, tap to screen, tap beside the no-network floor page, board
heights), for the default run and ``python -m bench --only browser``, which prints them and
writes ``bench/results-browser.json``."""

from __future__ import annotations

import json
import os
import sys
from typing import Any

from bench import browser, report, server
from bench.clock import Clock, say
from bench.client import Client, drive_to


def browser_figures(srv, client: Client, runs: int, clock: Clock) -> dict[str, Any]:
    """Page weight (a scoreboard at action 21) and tap to screen (from action 6)."""
    say(clock, "Chromium: page weight")
    board = client.create_match()
    drive_to(client, board, 21)
    out = {"page_weight": browser.page_weight(srv.base, board.page_path(), runs=runs)}
    say(clock, "Chromium: tap to screen (50 taps, 4x CPU throttling)")
    tap_match = client.create_match()
    drive_to(client, tap_match, 6)
    out["tap"] = browser.tap_to_screen(srv.base, tap_match.page_path(), taps=50, throttle=4.0)
    say(clock, "Chromium: tap to screen beside the floor page, interleaved (4x CPU; then 150 ms latency)")
    for key, latency in (("tap_floor", 0), ("tap_floor_latency", 150)):
        floor_match = client.create_match()  # one each: 30 taps, 15 a side, stay under 30
        drive_to(client, floor_match, 6)
        out[key] = browser.tap_vs_floor(srv.base, floor_match.page_path(), taps=30, throttle=4.0,
                                        latency_ms=latency)
    say(clock, "Chromium: board heights at 360x640, every variant and state")
    out["board_heights"] = browser.board_heights(srv.base)
    return out


#: Where ``--only browser`` writes its figures (results.json is the whole bench's).
BROWSER_RESULTS = report.RESULTS.with_name("results-browser.json")


def main_browser_only(args) -> int:
    """``--only browser``: the Chromium figures alone, printed (results.json untouched)."""
    clock = Clock(min(args.budget, 180.0))
    try:
        browser.ensure_chromium()
    except browser.BrowserMissing as e:
        print(f"bench: {e}", file=sys.stderr)
        return 2
    server_cores, client_cores = server.cores()
    os.sched_setaffinity(0, client_cores)
    srv = server.start(server_cores)
    client = Client(srv.base)
    try:
        r = browser_figures(srv, client, 3, clock)
    finally:
        client.close()
        srv.stop()
    with open(BROWSER_RESULTS, "w") as f:  # kept apart from results.json, which --only leaves alone
        json.dump(r, f, indent=1)
    print(f"Written {BROWSER_RESULTS}.")
    w = r["page_weight"]
    for key in ("first_identity", "first_compressed", "second_compressed"):
        print(f"{key}: {w[key]['bytes']:,} B")
        for q in w[key]["requests"]:
            print(f"    {q['bytes']:7,}  {q['encoding'] or '-':4} {'sw ' if q['sw'] else '   '}{q['url']}")
    t = r["tap"]
    ms = lambda x: "n/a" if x is None else f"{x:.1f}"  # noqa: E731
    print(f"tap to screen: p50 {t['p50_ms']:.1f} ms, p95 {t['p95_ms']:.1f} ms, max {t['max_ms']:.1f} ms; "
          f"touch -> request p50 {ms(t['request_start_p50_ms'])} ms, -> answer p50 {ms(t['answer_p50_ms'])} ms")
    print("samples:", t["samples"])
    for key in ("tap_floor", "tap_floor_latency"):
        f = r[key]
        print(f"{key} (latency {f['latency_ms']} ms): ours p50 {f['ours']['p50_ms']:.1f} / p95 {f['ours']['p95_ms']:.1f} ms, "
              f"floor p50 {f['floor']['p50_ms']:.1f} / p95 {f['floor']['p95_ms']:.1f} ms, "
              f"ratio p50 {f['ratio_p50']:.2f}x / p95 {f['ratio_p95']:.2f}x; "
              f"confirmed p50 {f['confirmed']['p50_ms']:.1f} / p95 {f['confirmed']['p95_ms']:.1f} ms")
    for variant, by_state in r["board_heights"].items():
        print(f"board {variant}: " + ", ".join(f"{k} {v['buttons']:.0f}/{v['page']}" for k, v in by_state.items()))
    return 0
