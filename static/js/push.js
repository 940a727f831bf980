/* Push (issue 34; docs/hosting.md, "Push"): loaded only where the host runs nginx's push module
   (truco serve --push-publish). #push holds one server-sent-events stream (htmx's hx-sse
   extension, which reconnects by itself); nginx sends "changed" when the match changed and
   "ping" every data-ping seconds. On "changed", and on every (re)connection, the board asks for
   itself at once with its "truco-pushed" trigger (data-target: the board, the TV's board, the
   organizer's change notice): the same request as its poll, so the taps'
   machine and exactly-once are untouched (table.js still sets aside a poll while a tap is in
   flight). While the stream is trusted (something heard within 2.5 pings) the every-second poll
   is set aside, but for one every ten minutes; a stream that goes quiet (a proxy that buffers
   it, a dropped line) is no longer trusted and the board polls every second again.
   html[data-push]: "live" while the stream is trusted, "off" otherwise. */
(function () {
  "use strict";
  var spec = document.getElementById("push");
  if (!spec || !window.htmx || !spec.dataset.stream) return;
  /* The stream's element is made here and handed to htmx once htmx has started (its start is a
     task queued when its own deferred script ran, before this one): htmx goes over the page
     once, maybe before the extension's script ran, so an element in the page could be opened
     twice or never. */
  var stream = document.createElement("div");
  stream.hidden = true;
  stream.setAttribute("hx-sse:connect", spec.dataset.stream);
  var root = document.documentElement, targetId = spec.dataset.target || "scoreboard";
  var pingMs = (parseInt(spec.dataset.ping, 10) || 20) * 1000;
  var SAFETY_MS = 10 * 60 * 1000;
  var heardAt = -Infinity, polledAt = performance.now(), wanted = false;

  function live() { return performance.now() - heardAt < 2.5 * pingMs; }
  function say() { root.dataset.push = live() ? "live" : "off"; }
  function askNow() {
    var target = document.getElementById(targetId);
    if (!target) return;
    wanted = true;
    htmx.trigger(target, "truco-pushed");
  }
  function heard() {
    heardAt = performance.now();
    say();
    if (window.trucoTable && window.trucoTable.heard) window.trucoTable.heard();
  }
  stream.addEventListener("ping", heard);
  stream.addEventListener("changed", function () { heard(); askNow(); });
  stream.addEventListener("htmx:sse:after:connection", askNow);  /* (re)connected: catch up from the version shown */
  ["htmx:sse:close", "htmx:sse:error"].forEach(function (name) {
    stream.addEventListener(name, function () { heardAt = -Infinity; say(); });
  });
  /* The stream's own errors say nothing of the scorekeeper (nginx holds it): table.js, which greys
     the board on a request's error, never hears them. */
  ["htmx:error", "htmx:response:error"].forEach(function (name) {
    stream.addEventListener(name, function (e) { e.stopPropagation(); });
  });
  document.addEventListener("htmx:before:request", function (e) {
    var ctx = e.detail && e.detail.ctx;
    if (!ctx || !ctx.target || ctx.target.id !== targetId || ctx.request.method !== "GET") return;
    if (wanted || !live() || performance.now() - polledAt > SAFETY_MS) {
      wanted = false;
      polledAt = performance.now();
      return;
    }
    e.preventDefault();  /* the stream says when something changed */
  });
  /* A trusted stream is news enough: the board's "no news" note (table.js) stays away while nothing
     changes, but not while a tap waits for its answer. */
  function open() {
    spec.replaceWith(stream);
    stream.id = "push";
    htmx.process(stream);
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { setTimeout(open, 0); });
  } else {
    setTimeout(open, 0);
  }
  setInterval(function () {
    say();
    if (live() && (root.dataset.tap || "idle") === "idle" && window.trucoTable) window.trucoTable.heard();
  }, 1000);
  say();
})();
