"""Chromium measurements: page weight and tap to screen.

Debian's Chromium (``/usr/bin/chromium``, installed with apt-get when missing) driven by
Playwright for Python. Bytes come from the DevTools protocol: the sum of
``Network.loadingFinished.encodedDataLength`` (headers plus body as sent on the wire) of
every request the page makes while it opens, live polls excluded.
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
    """Requests seen on one page through CDP: url, status, encoded bytes, body size, encoding."""

    def __init__(self, context, page) -> None:
        self.cdp = context.new_cdp_session(page)
        self.cdp.send("Network.enable")
        self.requests: dict[str, dict[str, Any]] = {}
        self.cdp.on("Network.responseReceived", self._response)
        self.cdp.on("Network.loadingFinished", self._finished)

    def _response(self, e: dict[str, Any]) -> None:
        r = e["response"]
        headers = {k.lower(): v for k, v in r.get("headers", {}).items()}
        self.requests[e["requestId"]] = {
            "url": r["url"], "status": r["status"], "encoding": headers.get("content-encoding", ""),
            "from_cache": r.get("fromDiskCache") or r.get("fromMemoryCache") or False,
            "bytes": 0, "body": None,
        }

    def _finished(self, e: dict[str, Any]) -> None:
        req = self.requests.get(e["requestId"])
        if req is None:
            return
        req["bytes"] = int(e["encodedDataLength"])
        if req["status"] == 200 and not req["from_cache"]:
            try:
                body = self.cdp.send("Network.getResponseBody", {"requestId": e["requestId"]})
                import base64

                raw = base64.b64decode(body["body"]) if body.get("base64Encoded") else body["body"].encode()
                req["body"] = raw
            except Exception:  # noqa: BLE001 - body no longer available: no estimate for it
                req["body"] = None

    def take(self) -> list[dict[str, Any]]:
        """The requests so far (live polls left out), and forget them."""
        out = [r for r in self.requests.values() if "/board?" not in r["url"]]
        self.requests = {}
        return out


def _summary(reqs: list[dict[str, Any]]) -> dict[str, Any]:
    wire = sum(r["bytes"] for r in reqs)
    # What gzip -6 would send: each text body compressed, headers as they were.
    est = 0
    for r in reqs:
        body = r["body"]
        if body is None or r["encoding"]:
            est += r["bytes"]
        else:
            est += r["bytes"] - len(body) + len(gzip.compress(body, 6))
    return {
        "bytes": wire,
        "gzip_estimate_bytes": est,
        "requests": [
            {"url": r["url"].split("/", 3)[-1][:60], "status": r["status"], "bytes": r["bytes"],
             "encoding": r["encoding"], "cache": bool(r["from_cache"])}
            for r in reqs
        ],
    }


def page_weight(base: str, page_path: str, runs: int = 3) -> dict[str, Any]:
    """Bytes to open ``page_path`` the first time (empty cache) and the second time (same
    browser profile), with the browser's usual ``Accept-Encoding`` and with
    ``Accept-Encoding: identity``. Median over ``runs`` fresh browser contexts."""
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
                    page = context.new_page()
                    log = NetLog(context, page)
                    page.goto(base + page_path, wait_until="load")
                    page.wait_for_timeout(200)
                    results[f"first_{mode}"].append(_summary(log.take()))
                    page.goto("about:blank")
                    log.take()
                    page.goto(base + page_path, wait_until="load")
                    page.wait_for_timeout(200)
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
  window.__bench = {taps: [], start: null, before: null};
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
  document.addEventListener('pointerdown', mark, true);
  document.addEventListener('touchstart', mark, true);
  document.addEventListener('click', mark, true);
  new MutationObserver(() => {
    if (b.start === null || score() === b.before) return;
    const t0 = b.start; b.start = null;
    // The frame that shows the new score: after the next animation frame is produced.
    requestAnimationFrame(() => setTimeout(() => b.taps.push(performance.now() - t0), 0));
  }).observe(document.body, {childList: true, subtree: true, characterData: true});
}
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


def tap_to_screen(base: str, page_path: str, taps: int = 50, throttle: float = 4.0) -> dict[str, Any]:
    """Tap "this side won the hand" ``taps`` times (sides alternating) at 360x640 with
    ``throttle``x CPU slowdown; each time, ms from the touch to the frame after the new
    score is in the page. ``{"p50_ms", "p95_ms", "max_ms", "taps", "samples"}``."""
    from playwright.sync_api import sync_playwright

    ensure_chromium()
    samples: list[float] = []
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
                page.wait_for_function(f"() => window.__bench.taps.length > {n}", timeout=10_000)
                samples.append(page.evaluate("() => window.__bench.taps[window.__bench.taps.length - 1]"))
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
    }
