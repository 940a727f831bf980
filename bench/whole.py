"""``python -m bench`` without ``--only``: the whole bench in under three minutes (see
bench/__main__.py): the engine timings, then against one ``truco serve`` started here the server
figures (bench/phases.py), the Chromium figures (bench/browser_run.py) and last the capacity
search (bench/capacity.py), which gets the time that is left. Prints a table and writes
``bench/results.json``."""

from __future__ import annotations

import os
import sys
import time
from typing import Any

from bench import browser, engine, report, server, wrk
from bench.browser_run import browser_figures
from bench.capacity import measure_capacity
from bench.client import Client, drive_to
from bench.clock import Clock, say
from bench.phases import (POLL_LEVELS, keeps_alive_after_204, measure_action_length, measure_action_under_polls,
                          measure_polls, measure_static)


def main(quick: bool, budget: float) -> int:
    """The whole bench (``--quick``: shorter runs; ``budget``: seconds, at most 180); 2 if a tool is missing."""
    clock = Clock(min(budget, 180.0))
    runs = 3
    try:
        wrk.ensure_wrk()
        browser.ensure_chromium()
    except (wrk.ToolMissing, browser.BrowserMissing) as e:
        print(f"bench: {e}", file=sys.stderr)
        return 2

    server_cores, client_cores = server.cores()
    os.sched_setaffinity(0, client_cores)  # this process, wrk, loadgen and Chromium
    sharing = (f"server (truco serve, waitress, 8 threads) pinned to core {sorted(server_cores)}; "
               f"load generators (wrk -t1, the asyncio phone simulator), this process and Chromium "
               f"pinned to core(s) {sorted(client_cores)}")
    results: dict[str, Any] = {"machine": report.machine(), "cores": sharing, "started": time.strftime("%Y-%m-%d %H:%M:%S")}
    say(clock, sharing)

    say(clock, "engine")
    results["engine"] = engine.run(runs=runs, min_seconds=0.2 if quick else 0.35)

    srv = server.start(server_cores)
    client = Client(srv.base)
    try:
        results.update(served_figures(srv, client, client_cores, clock, runs, quick))
    finally:
        client.close()
        srv.stop()
        warnings = [ln for ln in srv.output if "connection limit" in ln]
        results["server_warnings"] = {"connection_limit_reached": len(warnings)}

    results["elapsed_s"] = round(clock.elapsed(), 1)
    rows = rows_for(results)
    results["table"] = rows
    report.write(results)
    print_summary(results, rows, sharing, runs)
    return 0


def served_figures(srv, client: Client, client_cores: set[int], clock: Clock, runs: int, quick: bool) -> dict[str, Any]:
    """The figures measured against the server ``srv``, in the bench's order, capacity last."""
    secs = 1 if quick else 2
    results: dict[str, Any] = {}
    say(clock, f"server at {srv.base}; creating 100 tables")
    tables = [client.create_match() for _ in range(100)]
    for t in tables[:10]:
        drive_to(client, t, 6)
    results["keep_alive_204"] = keeps_alive_after_204(client, tables[0])

    say(clock, "static-file limit")
    results["static"] = measure_static(srv, client_cores, runs, secs)
    say(clock, "polls at 1, 50, 400 connections")
    results["polls"] = measure_polls(srv, client_cores, tables, runs, secs)
    say(clock, "action cost at action 10 and 1,000")
    results["action_length"] = measure_action_length(client, runs, 8 if quick else 15)
    say(clock, "actions while 400 phones poll")
    results["action_under_polls"] = measure_action_under_polls(srv, client_cores, client, tables, runs,
                                                              2.0 if quick else 3.0)

    results.update(browser_figures(srv, client, runs, clock))

    say(clock, "capacity search")
    pool = [{"id": t.id, "key": t.key, "version": t.version, "taps": 0} for t in tables]
    results["capacity"] = measure_capacity(srv, client_cores, client, pool, clock, reserve=4.0,
                                           window_s=1.5 if quick else 2.0, windows=3)
    return results


def print_summary(results: dict[str, Any], rows: list[dict[str, Any]], sharing: str, runs: int) -> None:
    """The table and the lines under it (the machine, the cores, a note on keep-alive)."""
    print()
    print(report.table(rows))
    print()
    m = results["machine"]
    print(f"Machine: {m['cpu']}, {m['cores']} cores, {m['memory_gb']} GB, {m['os']}, Python {m['python']}")
    print(f"Cores: {sharing}")
    if not results["keep_alive_204"]["keep_alive"]:
        print("Note: the server closes the connection after every 204 poll "
              f"(Connection: {results['keep_alive_204']['connection_header']}): every poll opens a new TCP connection.")
    print(f"Each figure is the median of {runs} runs. Total {results['elapsed_s']} s. Written {report.RESULTS}.")


def rows_for(r: dict[str, Any]) -> list[dict[str, Any]]:
    fmt, kb = report.fmt, report.kb
    rows = []
    s = r["static"]
    rows.append({"figure": "Static file limit (50 conns)", "target": "(the limit)",
                 "measured": f"{fmt(s['rps'], ' req/s')}, p50 {fmt(s['p50_ms'], ' ms')}, p99 {fmt(s['p99_ms'], ' ms')}",
                 "ok": None})
    for c in POLL_LEVELS:
        p = r["polls"][str(c)]
        ratio = p["rps"] / s["rps"]
        extra = f", {p['timeouts']} timeouts" if p["timeouts"] else ""
        rows.append({"figure": f"Poll 204, {c} conn{'s' if c > 1 else ''}", "target": ">= 0.5x limit",
                     "measured": f"{ratio:.2f}x ({fmt(p['rps'], ' req/s')}, p99 {fmt(p['p99_ms'], ' ms')}{extra})",
                     "ok": ratio >= 0.5})
    a = r["action_under_polls"]
    rows.append({"figure": "Action, 400 phones polling", "target": "p99 < 25 ms",
                 "measured": f"p50 {fmt(a['p50_ms'], ' ms')}, p99 {fmt(a['p99_ms'], ' ms')}",
                 "ok": a["p99_ms"] < 25})
    al = r["action_length"]
    rows.append({"figure": "Action 1,000 vs action 10", "target": "<= 1.5x",
                 "measured": f"{al['ratio']:.2f}x ({fmt(al['1000']['p50_ms'], ' ms')} vs {fmt(al['10']['p50_ms'], ' ms')})",
                 "ok": al["ratio"] <= 1.5})
    cap = r.get("capacity", {})
    bracket = f" (fails at {cap['failed_at']})" if cap.get("failed_at") else ""
    rows.append({"figure": "Capacity (tables, p99 < 100 ms)", "target": ">= 500",
                 "measured": f"{cap.get('tables', 'n/a')}{bracket}", "ok": cap.get("tables", 0) >= 500})
    w = r["page_weight"]
    rows.append({"figure": "First open, uncompressed", "target": "< 70 KB",
                 "measured": kb(w["first_identity"]["bytes"]), "ok": w["first_identity"]["bytes"] < 70_000})
    enc = {q["encoding"] for q in w["first_compressed"]["requests"]} - {""}
    how = f"served {', '.join(sorted(enc))}" if enc else "server sends no compression"
    rows.append({"figure": "First open, compressed", "target": "< 30 KB",
                 "measured": f"{kb(w['first_compressed']['bytes'])} ({how}; gzip would be "
                             f"{kb(w['first_compressed']['gzip_estimate_bytes'])})",
                 "ok": w["first_compressed"]["bytes"] < 30_000})
    rows.append({"figure": "Second open (cache)", "target": "< 4 KB",
                 "measured": f"{kb(w['second_compressed']['bytes'])}", "ok": w["second_compressed"]["bytes"] < 4_000})
    t = r["tap"]
    rows.append({"figure": "Tap to screen, 360x640, 4x CPU", "target": "p95 < 100 ms",
                 "measured": f"p50 {fmt(t['p50_ms'], ' ms')}, p95 {fmt(t['p95_ms'], ' ms')}", "ok": t["p95_ms"] < 100})
    for key, label in (("tap_floor", "Tap beside floor, 4x CPU"), ("tap_floor_latency", "Same, 150 ms latency")):
        f = r.get(key)
        if not f:
            continue
        rows.append({"figure": label, "target": "<= 1.5x floor",
                     "measured": f"p50 {f['ratio_p50']:.2f}x ({fmt(f['ours']['p50_ms'], ' ms')} vs {fmt(f['floor']['p50_ms'], ' ms')}), "
                                 f"p95 {f['ratio_p95']:.2f}x; confirmed p50 {fmt(f['confirmed']['p50_ms'], ' ms')}",
                     "ok": f["ratio_p50"] <= 1.5 and f["ratio_p95"] <= 1.5})
    heights = r.get("board_heights")
    if heights:
        tallest = max(v["buttons"] for by_state in heights.values() for v in by_state.values())
        rows.append({"figure": "Board, lowest button at 360x640", "target": "<= 640 px",
                     "measured": f"{tallest:.0f} px (all variants and states)", "ok": tallest <= 640})
    e = r["engine"]
    rows.append({"figure": "Engine: card parsing", "target": "(report)", "measured": fmt(e["card_parse"]["per_s"], " cards/s", 0), "ok": None})
    rows.append({"figure": "Engine: Envido, all 9,880 hands", "target": "(report)", "measured": fmt(e["envido_hands"]["per_s"], " hands/s", 0), "ok": None})
    rows.append({"figure": "Engine: replay 300-action match", "target": "(report)", "measured": fmt(e["replay_300"]["per_s"], " matches/s", 0), "ok": None})
    return rows
