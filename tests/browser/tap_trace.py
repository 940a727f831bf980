"""The event trace of a phone's taps (issue 30): what a browser test keeps to find why a tap
was lost or a phone stayed behind, and what it reads to judge each tap.

:data:`TRACE` is an init script: it records, with the page's clock (``Date.now()``, one clock
for every page of the machine), the pointer events on buttons, htmx's request and swap events
(method, path, status), every ``fetch`` the page makes, the tap machine's state
(``html[data-tap]``: idle, in-flight, queued), the offline engine's (``data-offline``,
``data-offline-ready``), each board version shown, and whether each of the notes that say a tap
was not recorded (or that the phone has not heard the scorekeeper) is showing.
"""

from __future__ import annotations

import json

#: The notes that tell the player a tap was not recorded, or why the board may be behind.
SAYING = ("not-sent", "bounced", "pending", "pending-refused", "tap-refused", "offline", "gone", "nodb",
          "offline-play", "unheard")

TRACE = """
window.__trace = []; window.__versions = [];
(function () {
  var SAYING = %s;
  function t(kind, what) { window.__trace.push([Date.now(), kind, what || ""]); }
  ["pointerdown", "pointerup", "click"].forEach(function (n) {
    document.addEventListener(n, function (e) {
      var b = e.target.closest && e.target.closest("button");
      t(n, b ? (b.dataset.action || b.id || "") : "-");
    }, true);
  });
  ["htmx:before:request", "htmx:finally:request", "htmx:before:swap", "htmx:error"].forEach(function (n) {
    document.addEventListener(n, function (e) {
      var c = e.detail && e.detail.ctx;
      t(n, c ? c.request.method + " " + (c.request.action || "").split("?")[0].slice(-30) + " " + (c.response ? c.response.status : 0) : "");
    });
  });
  var plain = window.fetch;
  window.fetch = function (u, o) { t("fetch", ((o && o.method) || "GET") + " " + String(u).split("?")[0].slice(-30)); return plain.apply(this, arguments); };
  function watch() {
    var root = document.documentElement, last = "";
    new MutationObserver(function () {
      var board = document.getElementById("scoreboard"), v = board ? board.dataset.version : "";
      if (v && (!window.__versions.length || window.__versions[window.__versions.length - 1][1] !== +v)) {
        window.__versions.push([Date.now(), +v]);
      }
      var said = SAYING.filter(function (id) { var e = document.getElementById(id); return e && !e.hidden; });
      var s = (root.dataset.tap || "") + " offline=" + (root.dataset.offline || "") + " ready=" +
              (root.dataset.offlineReady || "") + " v=" + v + " said=" + said.join(",");
      if (s !== last) { last = s; t("state", s); }
    }).observe(root, { attributes: true, childList: true, subtree: true });
  }
  if (document.documentElement) watch(); else document.addEventListener("DOMContentLoaded", watch);
})();
""" % json.dumps(list(SAYING))


def said(page) -> list[str]:
    """The notes showing on ``page`` now (ids of :data:`SAYING`)."""
    return page.evaluate("ids => ids.filter(id => { const e = document.getElementById(id); return e && !e.hidden; })",
                         list(SAYING))


def trace(page, last: int = 80) -> str:
    """The last ``last`` events of ``page``'s trace, one a line (for a failure's message)."""
    return "\n".join(" ".join(map(str, row)) for row in page.evaluate(f"() => window.__trace.slice(-{last})"))


def versions(page) -> list[tuple[int, int]]:
    """``(Date.now(), version)`` each time ``page`` showed a new board version."""
    return [tuple(v) for v in page.evaluate("() => window.__versions")]
