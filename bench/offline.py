"""The offline engine (issue 24): ``python -m bench --only offline``.

Debian's Chromium through Playwright against ``truco serve`` on 127.0.0.1, as
:mod:`bench.browser` does:

- **Bytes on the wire once**: a fresh phone opens a scoreboard and keeps it open until the engine
  is ready; every response of the engine's files (Pyodide, the bundle, the worker, offline.js,
  engine.json, the match's export) counted as DevTools reports it (headers plus encoded body),
  the service worker's included; then the same with ``Accept-Encoding: identity``. Beside it,
  the board's own first open in the same run.
- **Cold start at 4x CPU**: the engine's files and its memory snapshot already kept on the
  phone, the engine's start (engine-worker.js's own ``ops.boot``: Pyodide started from the kept
  snapshot of the Python that had imported the rules core and drawn a board, the bundle
  unpacked; then ``ops.load``: the match replayed and its board drawn) timed on a page's main
  thread throttled 4x with ``Emulation.setCPUThrottlingRate`` (Chromium's throttling does not
  reach a dedicated worker), beside the same at 1x, and beside the plain start without the
  snapshot (the start before it: Pyodide, the bundle, the rules core imported) in the same run,
  interleaved; and the worker's own first start at 1x as offline.js reports it (files
  downloaded, the snapshot made and kept). The browser runs on every core for this figure (the
  server has nothing to do while it is timed, and a phone's browser has all its cores: the
  WebAssembly is compiled on other threads than the page's); then again on the client core
  alone, beside the server's idle one (``cold_start_one_core``).
- **Tap to screen offline**: the phone offline, the board played by the engine; "won the hand"
  tapped 30 times, interleaved with the no-network floor page (bench/browser.py's
  ``FLOOR_HTML``), each throttled 4x while tapped; ms from the touch to the frame after the
  score changed, and to the frame after the engine's board was swapped in.
- **Upload of a 300-action offline match**: ``POST /api/offline-matches`` with the 300 taps of
  bench/engine.py's long match, timed (median of 3 matches); each sent a second time (a lost
  answer): the stored versions, and so the duplicates (0 expected). Then the phone itself:
  a 300-tap match held on the phone is resumed by the engine (replayed and drawn) and uploaded
  when the scorekeeper is back.
"""

from __future__ import annotations

import json
import statistics
import time
import uuid
from typing import Any

from bench import browser
from bench.browser import ARGS, CHROMIUM, FIND_BUTTON_JS, FLOOR_HTML, TAP_JS, WAIT_TAP_JS, NetLog
from bench.engine import long_match
from bench.states import LONG_MATCH

RESULTS = browser.__file__.replace("browser.py", "results_offline.json")
ENGINE_PARTS = ("/static/vendor/pyodide-", "/engine/", "engine-worker.js", "offline.js", "/engine.json", "/export")
#: The board swapped in by the engine after a tap: ms from the touch to the next frame.
DRAWN_JS = """
() => {
  const b = window.__bench; b.drawn = []; b.drawStart = null; b.drawWaiters = [];
  let shown = document.getElementById('scoreboard');
  document.addEventListener('pointerdown', (e) => { if (e.target.closest && e.target.closest('button.act')) b.drawStart = e.timeStamp; }, true);
  new MutationObserver(() => {
    const now = document.getElementById('scoreboard');
    if (b.drawStart === null || now === shown) return;
    shown = now;
    const t0 = b.drawStart; b.drawStart = null;
    requestAnimationFrame(() => setTimeout(() => { b.drawn.push(performance.now() - t0);
      b.drawWaiters.splice(0).forEach((r) => r()); }, 0));
  }).observe(document.querySelector('main'), {childList: true, subtree: true});
}
"""
WAIT_DRAWN_JS = """
(n) => new Promise((resolve, reject) => {
  const b = window.__bench;
  if (b.drawn.length > n) return resolve();
  b.drawWaiters.push(resolve);
  setTimeout(() => reject(new Error("board " + n + " not drawn after 20 s")), 20000);
})
"""
READY = "() => ['ready', 'playing'].includes(document.documentElement.dataset.offline)"


def _pcts(xs: list[float]) -> dict[str, float]:
    s = sorted(xs)
    return {"p50_ms": statistics.median(s), "p95_ms": s[min(len(s) - 1, int(round(0.95 * (len(s) - 1))))]}


def _engine_bytes(reqs: list[dict[str, Any]]) -> dict[str, Any]:
    mine = [r for r in reqs if any(p in r["url"] for p in ENGINE_PARTS)]
    return {"bytes": sum(r["bytes"] for r in mine),
            "files": sorted(({"url": r["url"].split("/", 3)[-1][:60], "bytes": r["bytes"], "encoding": r["encoding"],
                              "sw": r["by_service_worker"]} for r in mine), key=lambda x: -x["bytes"])}


def wire(p, base: str, path: str) -> dict[str, Any]:
    """Bytes of the engine on a fresh phone, compressed and not; the board's first open beside."""
    out: dict[str, Any] = {}
    b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
    try:
        for mode in ("compressed", "identity"):
            headers = {"Accept-Encoding": "identity"} if mode == "identity" else None
            ctx = b.new_context(viewport={"width": 360, "height": 640}, extra_http_headers=headers)
            log = NetLog(ctx)
            page = ctx.new_page()
            page.goto(base + path, wait_until="load")
            page.wait_for_function("() => document.documentElement.dataset.sw === 'ready'", timeout=30_000)
            page.wait_for_timeout(1200)  # as bench/browser.py's page weight lets the worker install
            first = log.take()
            page.wait_for_function(READY, timeout=300_000)
            page.wait_for_timeout(500)
            engine = _engine_bytes(log.take() + first)
            out[mode] = {**engine, "board_first_open": sum(r["bytes"] for r in first
                                                           if not any(q in r["url"] for q in ENGINE_PARTS)),
                         "ready": page.evaluate("() => document.documentElement.dataset.offline")}
            ctx.close()
    finally:
        b.close()
    return out


#: The engine worker's start, run on the page's main thread: Chromium's CPU throttling reaches
#: the page but not a dedicated worker, so the start is timed here, with the same code (the
#: worker's own module, static/js/engine-worker.js, imported: its ``ops.boot`` then
#: ``ops.load``), the same files and the same kept snapshot (Cache Storage is the origin's).
#: ``snapshot``: false, a plain start (Pyodide, the bundle unpacked, the rules core imported),
#: as before the snapshot; true, the start from the snapshot the worker kept. The match's export
#: is read before the clock starts: offline.js holds it already (kept while the scorekeeper
#: answered) and hands it to ``load``; a phone starting offline fetches nothing.
BOOT_JS = """
async ([cfg, lang, matchId, key, snapshot]) => {
  const exported = await (await fetch(cfg.routes["records.export"].replace("<match_id>", matchId))).text();
  const t0 = performance.now();
  const { ops } = await import(cfg.worker);
  const booted = await ops.boot({ pyodide: cfg.pyodide, bundle: cfg.bundle, snapshot });
  const started = performance.now() - t0;
  const answer = ops.load(lang, exported, matchId, key, "[]");
  return { started_ms: started, ready_ms: performance.now() - t0, html: answer.html.length,
           snapshot: booted.snapshot, error: booted.snapshotError };
}
"""


def cold_start(p, base: str, path: str, throttle: float, runs: int = 3) -> dict[str, Any]:
    """ms to start the engine with its files kept on the phone (:data:`BOOT_JS`), from the kept
    memory snapshot (``snapshot``) and without it (``no_snapshot``, the start before the
    snapshot), at 1x and ``throttle``x CPU, ``runs`` runs each, interleaved; and the worker's own
    first start at 1x as offline.js reports it (files downloaded, the snapshot made)."""
    b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
    kinds = [(snap, rate) for _ in range(runs) for rate in (1.0, throttle) for snap in (True, False)]
    samples: dict[str, list[dict[str, Any]]] = {}
    try:
        ctx = b.new_context(viewport={"width": 360, "height": 640}, bypass_csp=True)
        page = ctx.new_page()
        page.goto(base + path, wait_until="load")
        page.wait_for_function(READY, timeout=300_000)
        page.wait_for_function("() => document.documentElement.dataset.engineCached === '1'", timeout=300_000)
        worker_1x = float(page.evaluate("() => document.documentElement.dataset.engineReadyMs"))
        made = page.evaluate("() => document.documentElement.dataset.engineSnapshot")
        cfg = page.evaluate("() => fetch(document.querySelector('script[data-engine]').dataset.engine).then(r => r.json())")
        match_id, key = path.split("/")[2:4]
        page.close()
        for snap, rate in kinds:
            page = ctx.new_page()
            cdp = ctx.new_cdp_session(page)
            page.goto(base + "/offline/en", wait_until="load")  # a light page of the site: no engine of its own
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
            got = page.evaluate(BOOT_JS, [cfg, "es", match_id, key, snap])
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
            assert got["snapshot"] == ("used" if snap else "off"), got
            samples.setdefault(f"{'snapshot' if snap else 'no_snapshot'}_{rate:g}x", []).append(got)
            page.close()
        ctx.close()
    finally:
        b.close()
    out: dict[str, Any] = {k: {"ready_ms": statistics.median(s["ready_ms"] for s in v),
                               "started_ms": statistics.median(s["started_ms"] for s in v),
                               "runs": [round(s["ready_ms"]) for s in v]} for k, v in samples.items()}
    out["4x"], out["1x"] = out[f"snapshot_{throttle:g}x"], out["snapshot_1x"]
    out["worker_first_ready_ms_1x"] = worker_1x
    out["worker_first_snapshot"] = made
    return out


def offline_taps(p, base: str, path: str, taps: int, throttle: float) -> dict[str, Any]:
    """Tap to screen on the offline board beside the floor page, interleaved, 4x CPU."""
    b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
    ours_s, floor_s, drawn = [], [], []
    try:
        ctx = b.new_context(viewport={"width": 360, "height": 640}, has_touch=True, is_mobile=True,
                            device_scale_factor=2)
        ours, floor = ctx.new_page(), ctx.new_page()
        cdp_ours, cdp_floor = ctx.new_cdp_session(ours), ctx.new_cdp_session(floor)
        ours.goto(base + path, wait_until="load")
        ours.wait_for_function(READY, timeout=300_000)
        ctx.set_offline(True)
        ours.bring_to_front()  # a page behind another draws no frames: table.js sends a tap on the next one
        where = ours.evaluate(FIND_BUTTON_JS, 0)
        ours.touchscreen.tap(where[0], where[1])  # no answer: the engine takes over
        ours.wait_for_function("() => document.documentElement.dataset.offline === 'playing'", timeout=60_000)
        ours.wait_for_function("() => document.documentElement.dataset.waiting === '1'", timeout=60_000)
        floor.set_content(FLOOR_HTML)
        for page in (ours, floor):
            page.evaluate(TAP_JS)
        ours.evaluate(DRAWN_JS)
        for i in range(taps):
            for page, cdp, other, out in ((ours, cdp_ours, cdp_floor, ours_s), (floor, cdp_floor, cdp_ours, floor_s)):
                other.send("Emulation.setCPUThrottlingRate", {"rate": 1})
                cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
                page.bring_to_front()
                if page is ours:
                    where = ours.evaluate(FIND_BUTTON_JS, i % 2)
                else:
                    box = floor.locator("#tap").bounding_box()
                    where = [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2]
                n = page.evaluate("() => window.__bench.taps.length")
                page.touchscreen.tap(where[0], where[1])
                page.evaluate(WAIT_TAP_JS, n)
                out.append(page.evaluate("() => window.__bench.taps[window.__bench.taps.length - 1]"))
                if page is ours:
                    ours.evaluate(WAIT_DRAWN_JS, i)
                    drawn.append(ours.evaluate("() => window.__bench.drawn[window.__bench.drawn.length - 1]"))
        cdp_ours.send("Emulation.setCPUThrottlingRate", {"rate": 1})
        ctx.close()
    finally:
        b.close()
    o, f, d = _pcts(ours_s), _pcts(floor_s), _pcts(drawn)
    return {"ours": o, "floor": f, "drawn": d, "ratio_p50": o["p50_ms"] / f["p50_ms"],
            "ratio_p95": o["p95_ms"] / f["p95_ms"], "taps": taps, "throttle": throttle,
            "samples": {"ours": [round(x, 1) for x in ours_s], "floor": [round(x, 1) for x in floor_s],
                        "drawn": [round(x, 1) for x in drawn]}}


def upload_300(client, actions: list[dict[str, Any]]) -> dict[str, Any]:
    """``POST /api/offline-matches`` with 300 taps, three matches, each sent twice."""
    times, dupes, repeats = [], [], []
    for _ in range(3):
        body = {"offline_id": str(uuid.uuid4()), "variant": LONG_MATCH, "options": {}, "names": ["Nós", "Eles"],
                "mano": 0, "taps": [{"tap_key": str(uuid.uuid4()), "version": i, "action": a}
                                    for i, a in enumerate(actions)]}
        raw = json.dumps(body).encode()
        t0 = time.perf_counter()
        status, data, _ = client.request("POST", "/api/offline-matches", raw, {"Content-Type": "application/json"})
        times.append((time.perf_counter() - t0) * 1000)
        assert status == 201, data[:300]
        first = json.loads(data)
        status, data, _ = client.request("POST", "/api/offline-matches", raw, {"Content-Type": "application/json"})
        again = json.loads(data)
        status, data, _ = client.request("GET", f"/api/matches/{first['id']}", None, {})
        version = json.loads(data)["version"]
        dupes.append(version - len(actions))
        repeats.append((again["applied"], again["repeated"], again["id"] == first["id"]))
    return {"ms": statistics.median(times), "runs": [round(t, 1) for t in times], "duplicates": max(dupes),
            "repeat_answers": repeats, "actions": len(actions)}


def phone_upload_300(p, base: str, path: str, actions: list[dict[str, Any]]) -> dict[str, Any]:
    """A 300-tap match held on the phone: resumed by the engine offline, uploaded when back."""
    b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
    try:
        ctx = b.new_context(viewport={"width": 360, "height": 640})
        page = ctx.new_page()
        page.goto(base + path, wait_until="load")
        page.wait_for_function(READY, timeout=300_000)
        page.wait_for_function("() => document.documentElement.dataset.engineCached === '1'", timeout=300_000)
        oid = str(uuid.uuid4())
        record = {"offline_id": oid, "made_at": 1, "settings": {"variant": LONG_MATCH, "options": {}, "names": ["Nós", "Eles"],
                  "mano": 0, "best_of": 1, "players": None},
                  "taps": [{"tap_key": str(uuid.uuid4()), "version": i, "action": a, "made_at": 1, "offline": True}
                           for i, a in enumerate(actions)]}
        page.evaluate("(r) => localStorage.setItem('truco:offline-match:' + r.offline_id, JSON.stringify(r))", record)
        ctx.set_offline(True)
        page.goto(base + "/")
        page.wait_for_selector("#offline-resume", timeout=120_000)
        t0 = time.perf_counter()
        page.click("#offline-resume")
        page.wait_for_function("() => document.documentElement.dataset.offline === 'playing'", timeout=120_000)
        resumed = (time.perf_counter() - t0) * 1000
        posts: list[float] = []
        page.on("requestfinished", lambda r: posts.append(r.timing["responseEnd"] - r.timing["requestStart"])
                if r.url.endswith("/api/offline-matches") else None)
        ctx.set_offline(False)
        page.wait_for_url("**/m/**", timeout=60_000)
        ctx.close()
    finally:
        b.close()
    return {"resume_ms": resumed, "post_ms": posts[0] if posts else None, "url": page.url.split("/m/")[1].split("/")[0]}


def main() -> int:
    """Run every figure, print them, write bench/results_offline.json."""
    import os

    from playwright.sync_api import sync_playwright

    from bench import server
    from bench.client import Client, drive_to

    browser.ensure_chromium()
    server_cores, client_cores = server.cores()
    os.sched_setaffinity(0, client_cores)
    srv = server.start(server_cores)
    client = Client(srv.base)
    r: dict[str, Any] = {}
    try:
        board = client.create_match()
        drive_to(client, board, 21)
        actions = long_match(300)
        # The cold start with the browser on every core: nothing of it reaches the server (the
        # engine's files are kept by the service worker, the export read before the clock starts),
        # and a phone's browser has all of its cores; then again on the client core alone.
        print("offline: cold start, the browser on every core", flush=True)
        os.sched_setaffinity(0, server_cores | client_cores)
        with sync_playwright() as p:  # the driver, and so the browser, takes this affinity
            r["cold_start"] = cold_start(p, srv.base, board.page_path(), 4.0)
        os.sched_setaffinity(0, client_cores)
        with sync_playwright() as p:
            print("offline: bytes on the wire", flush=True)
            r["wire"] = wire(p, srv.base, board.page_path())
            print("offline: cold start, the browser on the client core alone", flush=True)
            r["cold_start_one_core"] = cold_start(p, srv.base, board.page_path(), 4.0)
            print("offline: tap to screen beside the floor", flush=True)
            tap_match = client.create_match()
            drive_to(client, tap_match, 6)
            r["taps"] = offline_taps(p, srv.base, tap_match.page_path(), 30, 4.0)
            print("offline: upload of a 300-action match", flush=True)
            r["upload"] = upload_300(client, actions)
            r["phone_upload"] = phone_upload_300(p, srv.base, board.page_path(), actions)
            status, data, _ = client.request("GET", f"/api/matches/{r['phone_upload']['url']}", None, {})
            r["phone_upload"]["duplicates"] = json.loads(data)["version"] - len(actions)
    finally:
        client.close()
        srv.stop()
    with open(RESULTS, "w") as f:
        json.dump(r, f, indent=1)
    print_figures(r)
    return 0


def print_figures(r: dict[str, Any]) -> None:
    """The figures of :func:`main`, printed."""
    kb = lambda n: f"{n / 1000:,.1f} KB"  # noqa: E731
    w, c, t, u, pu = r["wire"], r["cold_start"], r["taps"], r["upload"], r["phone_upload"]
    print(f"engine on the wire once: {kb(w['compressed']['bytes'])} compressed, {kb(w['identity']['bytes'])} identity; "
          f"board first open in the same run {kb(w['compressed']['board_first_open'])}")
    for f in w["compressed"]["files"]:
        print(f"    {f['bytes']:10,}  {f['encoding'] or '-':4} {'sw ' if f['sw'] else '   '}{f['url']}")
    n4, n1 = c["no_snapshot_4x"], c["no_snapshot_1x"]
    print(f"cold start (files kept, from the kept snapshot): 4x {c['4x']['ready_ms']:.0f} ms (engine up "
          f"{c['4x']['started_ms']:.0f} ms), 1x {c['1x']['ready_ms']:.0f} ms; runs {c['4x']['runs']} / {c['1x']['runs']}")
    print(f"    without the snapshot, same run: 4x {n4['ready_ms']:.0f} ms (engine up {n4['started_ms']:.0f} ms), "
          f"1x {n1['ready_ms']:.0f} ms; runs {n4['runs']} / {n1['runs']}")
    c1 = r["cold_start_one_core"]
    print(f"    the browser on the client core alone: from the snapshot 4x {c1['4x']['ready_ms']:.0f} ms, "
          f"1x {c1['1x']['ready_ms']:.0f} ms; without it 4x {c1['no_snapshot_4x']['ready_ms']:.0f} ms")
    print(f"    first start in the worker (1x, files downloaded, snapshot {c['worker_first_snapshot']}) "
          f"{c['worker_first_ready_ms_1x']:.0f} ms")
    print(f"offline tap to screen 4x: p50 {t['ours']['p50_ms']:.1f} / p95 {t['ours']['p95_ms']:.1f} ms, floor "
          f"p50 {t['floor']['p50_ms']:.1f} / p95 {t['floor']['p95_ms']:.1f} ms: {t['ratio_p50']:.2f}x / {t['ratio_p95']:.2f}x; "
          f"engine board drawn p50 {t['drawn']['p50_ms']:.1f} / p95 {t['drawn']['p95_ms']:.1f} ms")
    print(f"upload of 300 actions: {u['ms']:.0f} ms (runs {u['runs']}), duplicates {u['duplicates']}, "
          f"repeats {u['repeat_answers']}; phone: resumed in {pu['resume_ms']:.0f} ms, POST {pu['post_ms']} ms, "
          f"duplicates {pu['duplicates']}")
    print(f"Written {RESULTS}.")
