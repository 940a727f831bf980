"""``python -m bench.profile_tap``: where a tap's time goes in Chromium (not part of ``python -m bench``).

Starts ``truco serve`` like the bench, opens a scoreboard at 360x640 with 4x CPU
throttling, records a Chromium trace (CDP ``Tracing``, devtools.timeline categories)
over ``--taps`` taps of "won the hand", and prints, per tap on average, the main thread's
time by kind of work (HTML parsing, script, style, layout, paint, ...), the longest
JavaScript functions (CDP ``Profiler``), and the ``Performance.getMetrics`` deltas.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import statistics

from bench import browser, server
from bench.client import Client, drive_to

#: Trace event names grouped by the kind of work they are.
KINDS = {
    "ParseHTML": "parse HTML", "ParseAuthorStyleSheet": "parse CSS",
    "EvaluateScript": "script", "FunctionCall": "script", "EventDispatch": "script", "TimerFire": "script",
    "FireAnimationFrame": "script", "v8.compile": "script", "V8.GCScavenger": "GC", "MinorGC": "GC", "MajorGC": "GC",
    "XHRReadyStateChange": "script", "XHRLoad": "script", "RunMicrotasks": "script",
    "UpdateLayoutTree": "style", "ScheduleStyleRecalculation": "style", "Layout": "layout",
    "PrePaint": "paint", "Paint": "paint", "Layerize": "paint", "UpdateLayer": "paint", "UpdateLayerTree": "paint",
    "CompositeLayers": "paint", "Commit": "paint", "RasterTask": "raster (other thread)",
    "HitTest": "hit test", "IntersectionObserverController::computeIntersections": "layout",
}


def self_times(events: list[dict], main_tid: tuple[int, int]) -> collections.Counter:
    """Self time (ms) by kind of the main thread's complete events (nested ones subtracted)."""
    xs = sorted((e for e in events if e.get("ph") == "X" and (e["pid"], e["tid"]) == main_tid and "dur" in e),
                key=lambda e: (e["ts"], -e["dur"]))
    out: collections.Counter = collections.Counter()
    stack: list[list] = []  # [end, kind, child_time]

    def pop():
        end, kind, dur, child = stack.pop()
        out[kind] += (dur - child) / 1000
        if stack:
            stack[-1][3] += dur

    for e in xs:
        while stack and stack[-1][0] <= e["ts"]:
            pop()
        kind = KINDS.get(e["name"], "other" if e["name"] not in ("RunTask", "ThreadControllerImpl::RunTask") else "task (unattributed)")
        stack.append([e["ts"] + e["dur"], kind, e["dur"], 0])
    while stack:
        pop()
    return out


def main(argv: list[str] | None = None) -> int:
    """``python -m bench.profile_tap``: profile taps on a board in Chromium and print where the time goes."""
    ap = argparse.ArgumentParser(prog="python -m bench.profile_tap")
    ap.add_argument("--taps", type=int, default=20)
    ap.add_argument("--throttle", type=float, default=4.0)
    ap.add_argument("--at", type=int, default=6, help="match version to start tapping at")
    ap.add_argument("--trace", help="also write the raw trace (JSON) here")
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    server_cores, client_cores = server.cores()
    os.sched_setaffinity(0, client_cores)
    srv = server.start(server_cores)
    client = Client(srv.base)
    try:
        m = client.create_match()
        drive_to(client, m, args.at)
        with sync_playwright() as p:
            b = p.chromium.launch(executable_path=browser.CHROMIUM, args=browser.ARGS)
            ctx = b.new_context(viewport={"width": 360, "height": 640}, has_touch=True, is_mobile=True,
                                device_scale_factor=2)
            page = ctx.new_page()
            cdp = ctx.new_cdp_session(page)
            page.goto(srv.base + m.page_path(), wait_until="load")
            page.wait_for_function("() => window.htmx !== undefined")
            got = profiled_taps(page, cdp, args.taps, args.throttle)
            b.close()
    finally:
        client.close()
        srv.stop()

    if args.trace:
        with open(args.trace, "w") as f:
            json.dump(got["chunks"], f)
    print_profile(got, args.taps, args.throttle, args.at)
    return 0


def profiled_taps(page, cdp, taps: int, throttle: float) -> dict:
    """``taps`` taps on the board ``page`` shows (after three to warm up), its CPU slowed
    ``throttle`` times, traced and profiled: the trace's events (``chunks``), each tap's time to
    its frame (``samples``), the JS profile (``prof``), the page's metrics ``before`` and
    ``after``, and the page's network timings (``net``)."""
    cdp.send("Performance.enable")
    cdp.send("Profiler.enable")
    cdp.send("Profiler.setSamplingInterval", {"interval": 100})
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    page.evaluate(browser.TAP_JS)
    # Warm up (first taps compile code paths).
    for i in range(3):
        where = page.evaluate(browser.FIND_BUTTON_JS, i % 2)
        n = page.evaluate("() => window.__bench.taps.length")
        page.touchscreen.tap(*where)
        page.evaluate(browser.WAIT_TAP_JS, n)
    page.wait_for_timeout(300)
    chunks: list[dict] = []
    cdp.on("Tracing.dataCollected", lambda ev: chunks.extend(ev["value"]))
    done = []
    cdp.on("Tracing.tracingComplete", lambda ev: done.append(1))
    before = {x["name"]: x["value"] for x in cdp.send("Performance.getMetrics")["metrics"]}
    cdp.send("Tracing.start", {"categories": "devtools.timeline,disabled-by-default-devtools.timeline,v8.execute,blink",
                               "transferMode": "ReportEvents"})
    cdp.send("Profiler.start")
    samples = []
    for i in range(taps):
        where = page.evaluate(browser.FIND_BUTTON_JS, i % 2)
        n = page.evaluate("() => window.__bench.taps.length")
        page.touchscreen.tap(*where)
        page.evaluate(browser.WAIT_TAP_JS, n)
        samples.append(page.evaluate("() => window.__bench.taps.at(-1)"))
        page.wait_for_timeout(150)  # let polls and settle finish outside the next tap
    prof = cdp.send("Profiler.stop")["profile"]
    cdp.send("Tracing.end")
    while not done:
        page.wait_for_timeout(100)
    after = {x["name"]: x["value"] for x in cdp.send("Performance.getMetrics")["metrics"]}
    net = page.evaluate("() => window.__bench.net")
    return {"chunks": chunks, "samples": samples, "prof": prof, "before": before, "after": after, "net": net}


def print_profile(got: dict, taps: int, throttle: float, at: int) -> None:
    """What :func:`profiled_taps` measured, printed: tap to frame, main-thread self time by kind,
    the page's metrics and the JS functions' self time, per tap."""
    chunks, samples, prof, before, after, net = (got[k] for k in ("chunks", "samples", "prof", "before", "after", "net"))
    # The renderer main thread: the one with ParseHTML / CrRendererMain.
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in chunks if e.get("name") == "thread_name"}
    main_tid = next(k for k, v in names.items() if v == "CrRendererMain")
    st = self_times(chunks, main_tid)
    n = taps
    print(f"{n} taps at {throttle}x CPU, starting at version {at}: tap-to-frame p50 "
          f"{statistics.median(samples):.1f} ms, max {max(samples):.1f} ms")
    tail = [x for x in net[-n:] if x]
    if tail:
        print(f"  touch -> request sent p50 {statistics.median(x[0] for x in tail):.1f} ms; "
              f"touch -> answer in p50 {statistics.median(x[1] for x in tail):.1f} ms")
    print("Main-thread self time per tap (ms; includes the 1 s polls and the 150 ms pauses' idle work):")
    for kind, ms in st.most_common():
        if ms / n >= 0.1:
            print(f"  {kind:24s} {ms / n:7.1f}")
    print("Performance.getMetrics, per tap (s -> ms):")
    for k in ("ScriptDuration", "RecalcStyleDuration", "LayoutDuration", "TaskDuration", "TaskOtherDuration"):
        if k in after:
            print(f"  {k:24s} {(after[k] - before[k]) * 1000 / n:7.1f}")
    for k in ("RecalcStyleCount", "LayoutCount", "Nodes", "JSHeapUsedSize"):
        if k in after:
            print(f"  {k:24s} {after[k] - before[k] if 'Count' in k else after[k]:>9.0f}{' (total)' if 'Count' in k else ''}")
    # JS self time by function (Profiler samples).
    nodes = {nd["id"]: nd for nd in prof["nodes"]}
    dt = collections.Counter()
    for sid, d in zip(prof["samples"], prof["timeDeltas"]):
        cf = nodes[sid]["callFrame"]
        key = f"{cf['functionName'] or '(anon)'} {cf['url'].rsplit('/', 1)[-1][:20]}:{cf['lineNumber']}:{cf['columnNumber']}"
        dt[key] += d / 1000
    print("JS profiler self time per tap (ms), top 25:")
    for k, ms in dt.most_common(25):
        print(f"  {ms / n:7.2f}  {k}")


if __name__ == "__main__":
    raise SystemExit(main())
