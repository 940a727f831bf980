"""Chromium measurements: page weight and tap to screen.

Debian's Chromium (``/usr/bin/chromium``, installed with apt-get when missing) driven by
Playwright for Python. Bytes are those of Chromium's DevTools Network events as Playwright
reports them per browser context (``Request.sizes()``: response headers plus encoded body),
so the service worker's own requests count too; live polls are left out.
"""

from __future__ import annotations

import gzip
import os
import shutil
import statistics
import subprocess
from typing import Any

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--no-first-run",
]


class BrowserMissing(RuntimeError):
    """Chromium or Playwright is missing and could not be installed."""


def ensure_chromium() -> str:
    """Path of Debian's Chromium; ``apt-get install -y chromium`` when missing (as root).

    :raise BrowserMissing: not installed and cannot be installed, or Playwright missing.
    """
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError as e:
        raise BrowserMissing("Playwright for Python is missing: pip install -e '.[test]'") from e
    if os.path.exists(CHROMIUM):
        return CHROMIUM
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        raise BrowserMissing(f"{CHROMIUM} is missing: install Debian's chromium (sudo apt-get install -y chromium).")
    print("chromium is missing: apt-get install -y chromium ...", flush=True)
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    if subprocess.run(["apt-get", "install", "-y", "-q", "chromium"], env=env, capture_output=True).returncode:
        subprocess.run(["apt-get", "update", "-q"], env=env, capture_output=True)
        subprocess.run(["apt-get", "install", "-y", "-q", "chromium"], env=env, capture_output=True)
    if not os.path.exists(CHROMIUM):
        raise BrowserMissing("chromium is missing and `apt-get install -y chromium` failed.")
    return CHROMIUM


class NetLog:
    """Requests of one browser context, service worker's included (its install-time
    precache and the navigations it forwards): url, status, bytes on the wire (headers +
    encoded body, from Playwright's ``Request.sizes()``, i.e. the DevTools Network events),
    the body for the gzip estimate, the content encoding."""

    def __init__(self, context) -> None:
        self.requests: list[dict[str, Any]] = []
        context.on("requestfinished", self._finished)

    def _finished(self, request) -> None:
        try:
            resp = request.response()
            sizes = request.sizes()
        except Exception:  # noqa: BLE001 - the context is closing
            return
        if resp is None:
            return
        body = None
        if resp.status == 200 and sizes["responseBodySize"] > 0:
            try:
                body = resp.body()
            except Exception:  # noqa: BLE001 - body gone (service worker fetch): no estimate
                body = None
        body_size = sizes["responseBodySize"]
        if body_size == 0 and request.url.endswith("/sw.js") and resp.status == 200:
            # The service worker's script: DevTools reports its headers but not its body,
            # which did come over the wire (Cache-Control: no-cache): count Content-Length.
            body_size = int(resp.headers.get("content-length") or 0)
        self.requests.append({
            "url": request.url, "status": resp.status,
            "encoding": (resp.headers.get("content-encoding") or ""),
            "from_cache": resp.from_service_worker or body_size == 0,
            "by_service_worker": request.service_worker is not None,
            "bytes": sizes["responseHeadersSize"] + body_size,
            "body_bytes": body_size,
            "body": body,
        })

    def take(self) -> list[dict[str, Any]]:
        """The requests so far (live polls left out), and forget them."""
        out = [r for r in self.requests if "/board?" not in r["url"]]
        self.requests = []
        return out


def _summary(reqs: list[dict[str, Any]]) -> dict[str, Any]:
    wire = sum(r["bytes"] for r in reqs)
    # What gzip -6 would send: each body compressed, headers as they were.
    est = 0
    for r in reqs:
        body = r["body"]
        if body is None or r["encoding"] or len(body) != r["body_bytes"]:
            est += r["bytes"]
        else:
            est += r["bytes"] - len(body) + min(len(body), len(gzip.compress(body, 6)))
    return {
        "bytes": wire,
        "gzip_estimate_bytes": est,
        "requests": [
            {"url": r["url"].split("/", 3)[-1][:48], "status": r["status"], "bytes": r["bytes"],
             "encoding": r["encoding"], "cache": bool(r["from_cache"]), "sw": r["by_service_worker"]}
            for r in reqs
        ],
    }


def page_weight(base: str, page_path: str, runs: int = 3, settle_ms: int = 1200) -> dict[str, Any]:
    """Bytes to open ``page_path`` the first time (empty cache) and the second time (same
    browser profile), with the browser's usual ``Accept-Encoding`` and with
    ``Accept-Encoding: identity``; ``settle_ms`` after ``load`` lets the service worker
    finish installing. Median over ``runs`` fresh browser contexts."""
    from playwright.sync_api import sync_playwright

    ensure_chromium()
    results: dict[str, list[dict[str, Any]]] = {"first_compressed": [], "second_compressed": [],
                                                "first_identity": [], "second_identity": []}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            for _ in range(runs):
                for mode in ("compressed", "identity"):
                    headers = {"Accept-Encoding": "identity"} if mode == "identity" else None
                    context = browser.new_context(viewport={"width": 360, "height": 640},
                                                  extra_http_headers=headers)
                    log = NetLog(context)
                    page = context.new_page()
                    page.goto(base + page_path, wait_until="load")
                    page.wait_for_timeout(settle_ms)
                    results[f"first_{mode}"].append(_summary(log.take()))
                    page.goto("about:blank")
                    log.take()
                    page.goto(base + page_path, wait_until="load")
                    page.wait_for_timeout(300)
                    results[f"second_{mode}"].append(_summary(log.take()))
                    context.close()
        finally:
            browser.close()
    out: dict[str, Any] = {}
    for key, items in results.items():
        items.sort(key=lambda s: s["bytes"])
        mid = items[len(items) // 2]
        out[key] = {**mid, "runs": [s["bytes"] for s in items]}
    return out


TAP_JS = """
() => {
  if (window.__bench) return;
  window.__bench = {taps: [], net: [], start: null, before: null, waiters: []};
  const b = window.__bench;
  const score = () => {
    const a = document.getElementById('score0'), c = document.getElementById('score1');
    return (a ? a.textContent : '') + ':' + (c ? c.textContent : '');
  };
  const mark = (e) => {
    if (b.start === null && e.target.closest && e.target.closest('button.act')) {
      b.start = e.timeStamp; b.before = score();
    }
  };
  // The touch starts the clock (not the click: a page that paints in its own click
  // listener would otherwise restart it after the score changed, for the next tap).
  document.addEventListener('pointerdown', mark, true);
  document.addEventListener('touchstart', mark, true);
  new MutationObserver(() => {
    if (b.start === null || score() === b.before) return;
    const t0 = b.start; b.start = null;
    // The frame that shows the new score: after the next animation frame is produced.
    requestAnimationFrame(() => setTimeout(() => {
      const now = performance.now();
      // When the action's answer had fully arrived (Resource Timing of the htmx request).
      const rs = performance.getEntriesByType('resource').filter((r) => r.name.endsWith('/actions'));
      const last = rs.length ? rs[rs.length - 1] : null;
      b.net.push(last && last.startTime >= t0 - 1 ? [last.startTime - t0, last.responseEnd - t0] : null);
      performance.clearResourceTimings();
      b.taps.push(now - t0);
      b.waiters.splice(0).forEach((resolve) => resolve());
    }, 0));
  }).observe(document.body, {childList: true, subtree: true, characterData: true});
}
"""

#: Resolves once tap number ``n`` (0-based) is recorded. The bench waits with this promise,
#: not with ``wait_for_function``, whose polling on every animation frame made the throttled
#: page produce frames (and spend its main thread on them) while the tap was in flight.
WAIT_TAP_JS = """
(n) => new Promise((resolve, reject) => {
  const b = window.__bench;
  if (b.taps.length > n) return resolve();
  b.waiters.push(resolve);
  setTimeout(() => reject(new Error("tap " + n + " not on screen after 10 s")), 10000);
})
"""

FIND_BUTTON_JS = """
(side) => {
  for (const el of document.querySelectorAll('button.act')) {
    let a; try { a = JSON.parse(el.dataset.action); } catch (e) { continue; }
    if (a.type === 'hand_winner' && a.side === side) {
      el.scrollIntoView({block: 'center'});
      const r = el.getBoundingClientRect();
      return [r.x + r.width / 2, r.y + r.height / 2];
    }
  }
  return null;
}
"""


def _median_of(pairs: list[Any], i: int) -> float | None:
    xs = [p[i] for p in pairs if p is not None]
    return statistics.median(xs) if xs else None


def tap_to_screen(base: str, page_path: str, taps: int = 50, throttle: float = 4.0) -> dict[str, Any]:
    """Tap "this side won the hand" ``taps`` times (sides alternating) at 360x640 with
    ``throttle``x CPU slowdown; each time, ms from the touch to the frame after the new
    score is in the page. ``{"p50_ms", "p95_ms", "max_ms", "taps", "samples"}``."""
    from playwright.sync_api import sync_playwright

    ensure_chromium()
    samples: list[float] = []
    net: list[float | None] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            context = browser.new_context(viewport={"width": 360, "height": 640}, has_touch=True,
                                          is_mobile=True, device_scale_factor=2)
            page = context.new_page()
            cdp = context.new_cdp_session(page)
            page.goto(base + page_path, wait_until="load")
            page.wait_for_function("() => window.htmx !== undefined")
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
            page.evaluate(TAP_JS)
            for i in range(taps):
                where = page.evaluate(FIND_BUTTON_JS, i % 2)
                if where is None:
                    raise RuntimeError("no 'won the hand' button on the scoreboard")
                n = page.evaluate("() => window.__bench.taps.length")
                page.touchscreen.tap(where[0], where[1])
                page.evaluate(WAIT_TAP_JS, n)
                samples.append(page.evaluate("() => window.__bench.taps[window.__bench.taps.length - 1]"))
                net.append(page.evaluate("() => window.__bench.net[window.__bench.net.length - 1]"))
                # The next tap comes once the answer is in (a table's rhythm), not into its morph.
                page.wait_for_function("() => !document.querySelector('#scoreboard .tentative')", polling=100)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
            context.close()
        finally:
            browser.close()
    s = sorted(samples)
    return {
        "p50_ms": statistics.median(s),
        "p95_ms": s[min(len(s) - 1, int(round(0.95 * (len(s) - 1))))],
        "max_ms": s[-1],
        "taps": len(s),
        "throttle": throttle,
        "samples": [round(x, 1) for x in samples],
        # ms from the touch until the page started the action's request, and until its
        # answer had arrived; the rest of each sample is the page's own work (swap, paint).
        "request_start_p50_ms": _median_of(net, 0),
        "answer_p50_ms": _median_of(net, 1),
        "answer_samples": [None if x is None else [round(x[0], 1), round(x[1], 1)] for x in net],
    }


#: The floor (issue #14): a page with no network and no htmx that changes a number on a
#: tap, the same size of button; what Chromium's own tap handling costs on this machine.
FLOOR_HTML = """<!doctype html><html><head><meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:16px system-ui;margin:0;padding:12px} p{font-size:3.2rem;margin:0;text-align:center}
button{width:100%;min-height:54px;font:inherit;touch-action:manipulation}</style></head>
<body><p id="score0">0</p><p id="score1">0</p><button class="act" id="tap">+1</button>
<script>document.getElementById('tap').addEventListener('click',function(){var s=document.getElementById('score0');
s.textContent=String(Number(s.textContent)+1);});</script></body></html>"""

#: Confirmation: ms from the touch until the frame after the scores lost their pending
#: mark (the server's answer morphed in). Installed with TAP_JS on our page.
CONFIRM_JS = """
() => {
  const b = window.__bench; b.confirmed = []; b.confirmStart = null; b.confirmWaiters = [];
  // From the touch, like TAP_JS (a tap taken as the finger lifts has no click).
  document.addEventListener('pointerdown', (e) => { if (e.target.closest && e.target.closest('button.act')) b.confirmStart = e.timeStamp; }, true);
  new MutationObserver(() => {
    if (b.confirmStart === null || document.querySelector('#scoreboard .tentative')) return;
    const t0 = b.confirmStart; b.confirmStart = null;
    requestAnimationFrame(() => setTimeout(() => { b.confirmed.push(performance.now() - t0);
      b.confirmWaiters.splice(0).forEach((r) => r()); }, 0));
  }).observe(document.body, {attributes: true, subtree: true, attributeFilter: ['class']});
}
"""
WAIT_CONFIRM_JS = """
(n) => new Promise((resolve, reject) => {
  const b = window.__bench;
  if (b.confirmed.length > n) return resolve();
  b.confirmWaiters.push(resolve);
  setTimeout(() => reject(new Error("tap " + n + " not confirmed after 10 s")), 10000);
})
"""


def _pcts(xs: list[float]) -> dict[str, float | None]:
    s = sorted(xs)
    if not s:
        return {"p50_ms": None, "p95_ms": None}
    return {"p50_ms": statistics.median(s), "p95_ms": s[min(len(s) - 1, int(round(0.95 * (len(s) - 1))))]}


def tap_vs_floor(base: str, page_path: str, taps: int = 30, throttle: float = 4.0,
                 latency_ms: float = 0) -> dict[str, Any]:
    """Issue #14: tap to screen on our scoreboard and on the floor page, interleaved in one
    run (ours, floor, ours, ...) at 360x640, only the page being tapped throttled
    ``throttle``x; ``latency_ms`` of network latency emulated on our page (Chromium's
    network conditions). Ours: touch to the frame after the tapped score is painted, and
    to the frame after the server's answer confirmed it. ``{"ours", "floor", "confirmed",
    "ratio_p50", "ratio_p95", ...}`` (ms)."""
    from playwright.sync_api import sync_playwright

    ensure_chromium()
    ours_s: list[float] = []
    floor_s: list[float] = []
    confirmed: list[float] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            context = browser.new_context(viewport={"width": 360, "height": 640}, has_touch=True,
                                          is_mobile=True, device_scale_factor=2)
            ours, floor = context.new_page(), context.new_page()
            cdp_ours, cdp_floor = context.new_cdp_session(ours), context.new_cdp_session(floor)
            ours.goto(base + page_path, wait_until="load")
            ours.wait_for_function("() => window.htmx !== undefined")
            if latency_ms:
                cdp_ours.send("Network.enable")
                cdp_ours.send("Network.emulateNetworkConditions", {
                    "offline": False, "latency": latency_ms, "downloadThroughput": -1, "uploadThroughput": -1})
            floor.set_content(FLOOR_HTML)
            for page in (ours, floor):
                page.evaluate(TAP_JS)
            ours.evaluate(CONFIRM_JS)
            for i in range(taps):
                for page, cdp, other, out in ((ours, cdp_ours, cdp_floor, ours_s), (floor, cdp_floor, cdp_ours, floor_s)):
                    other.send("Emulation.setCPUThrottlingRate", {"rate": 1})
                    cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
                    page.bring_to_front()
                    where = page.evaluate(FIND_BUTTON_JS, i % 2) if page is ours else [180, 150]
                    if page is floor:
                        box = floor.locator("#tap").bounding_box()
                        where = [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2]
                    if where is None:
                        raise RuntimeError("no 'won the hand' button on the scoreboard")
                    n = page.evaluate("() => window.__bench.taps.length")
                    page.touchscreen.tap(where[0], where[1])
                    page.evaluate(WAIT_TAP_JS, n)
                    out.append(page.evaluate("() => window.__bench.taps[window.__bench.taps.length - 1]"))
                    if page is ours:
                        ours.evaluate(WAIT_CONFIRM_JS, i)
                        confirmed.append(ours.evaluate("() => window.__bench.confirmed[window.__bench.confirmed.length - 1]"))
            context.close()
        finally:
            browser.close()
    o, f, c = _pcts(ours_s), _pcts(floor_s), _pcts(confirmed)
    return {
        "ours": o, "floor": f, "confirmed": c, "taps": taps, "throttle": throttle, "latency_ms": latency_ms,
        "ratio_p50": o["p50_ms"] / f["p50_ms"], "ratio_p95": o["p95_ms"] / f["p95_ms"],
        "samples": {"ours": [round(x, 1) for x in ours_s], "floor": [round(x, 1) for x in floor_s],
                    "confirmed": [round(x, 1) for x in confirmed]},
    }


def board_heights(base: str) -> dict[str, Any]:
    """Issue #14: at 360x640, per variant and state (bench/states.py), where the lowest
    button of the pad ends and how tall the page is (px). ``{variant: {state: {"buttons",
    "page"}}}``."""
    import http.client
    import json
    import urllib.parse

    from playwright.sync_api import sync_playwright

    from bench.states import VARIANTS, states

    host = urllib.parse.urlsplit(base)

    def post(path: str, form=None, body=None, headers=None):
        conn = http.client.HTTPConnection(host.hostname, host.port, timeout=10)
        h = dict(headers or {})
        data = None
        if form is not None:
            data, h["Content-Type"] = urllib.parse.urlencode(form), "application/x-www-form-urlencoded"
        else:
            data, h["Content-Type"] = json.dumps(body), "application/json"
        conn.request("POST", path, body=data, headers=h)
        r = conn.getresponse()
        out = (r.status, r.getheader("Location"), r.read())
        conn.close()
        return out

    ensure_chromium()
    out: dict[str, Any] = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 360, "height": 640})
            for variant, fields in VARIANTS:
                out[variant] = {}
                for name, actions in states(variant).items():
                    _s, path, _b = post("/matches", form={"variant": variant, "mano": "0", **fields})
                    _, _, match_id, key = path.split("/")
                    for version, action in enumerate(actions):
                        post(f"/api/matches/{match_id}/actions", body={"action": action, "version": version},
                             headers={"X-Edit-Key": key})
                    page.goto(base + path)
                    out[variant][name] = page.evaluate("""() => ({
                      buttons: Math.max(0, ...[...document.querySelectorAll('#pad button.act')].map(b => b.getBoundingClientRect().bottom)),
                      page: document.documentElement.scrollHeight})""")
        finally:
            browser.close()
    return out
