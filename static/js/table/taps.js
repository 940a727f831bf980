/* truco-scorer at the table: taps on the steady board (the tap machine, the instant score, the
   finger bounce; window.trucoTable for offline.js).
   One of the parts of the board's script, js/table.js: scorer/web/assets.py (BUNDLES) serves
   static/js/table/ pending.js, page.js, taps.js, board.js and kept.js, in this order, as one
   script in one closure ("use strict"), so that the first open of a board stays one request
   (and under its 30 KB, tests/browser/test_offline_play.py). The parts share their names:
   the tap machine's state (inFlight, queued, lastTap, slotsBefore, adjustOpen), paint, tapOf,
   keyTap, notRecorded and sayBounced are defined here. */
/* ---- Taps on the steady board (issue #14; issue 30: never lost in silence) ------------
   Paint first, then send: a tap on an action button writes the score it pays at once
   (data-pays, from the engine's points; data-cap: the target where the game ends at
   once), marked as pending, and is posted one frame later. The answer (200, or 409/422
   with the server's message) is morphed in and is the truth.
   The tap machine, made so that no tap can end in silence (docs/table.md, "Every tap is
   answered"): a tap is posted by this script itself (fetch, with the page's timeout), never
   through htmx's trigger pipeline, whose early returns and request queue can end a request
   without an answer or an event; its promise always settles, and each of its ends says
   what happened: recorded (the answer's board), refused (409/422: the server's message
   on the board; another 4xx: #tap-refused with the server's words), or no answer (kept
   on this phone: the pending strip, then sent again with the same key). One tap is in
   flight at a time; a tap on a live button meanwhile waits (queued) and is sent on the
   answer's board (with its new version) if its button is still in its place, else the
   phone says it was not sent (or, for the same button, that it was a double tap). The
   state is on <html data-tap="idle|in-flight|queued">, for tests and screen tools.
   Polls never stop for a tap: while one is in flight a poll's board is not swapped in
   (the tap's answer brings it), and no board older than the one shown is ever swapped in.
   The guard is about places: after the board changes, a place (#slot-...) whose button
   is not the one it held is inert (dashed) until 1 s after this phone's last tap or 350 ms
   after the change (data-guard: truco serve --ghost-tap-ms; 0 turns both off), whichever
   is later; a tap on an inert place is said ("Double tap ignored"); a button that stayed
   in its place is always live. */
var inFlight = null, queued = [], lastTap = -1e9, slotsBefore = null, adjustOpen = null;
var OWN_MS = 1000;
function scoreEl(i) { return document.getElementById("score" + i); }
function tapState() {
  root.dataset.tap = inFlight ? (queued.length ? "queued" : "in-flight") : "idle";
}
function paint(button) {
  /* Only the two numbers change (no class on the board: restyling all of it would cost the
     frame that shows the tap); never past the target where the game ends at once. */
  var pays = (button.dataset.pays || "").split(" "), board = document.getElementById("scoreboard");
  if (pays.length !== 2 || !board) return;
  var cap = parseInt(board.dataset.cap, 10) || 0;
  for (var i = 0; i < 2; i++) {
    var el = scoreEl(i), add = parseInt(pays[i], 10) || 0;
    if (!el || !add) continue;
    var n = Math.max(0, (parseInt(el.textContent, 10) || 0) + add);
    el.textContent = String(cap ? Math.min(cap, n) : n);
    el.classList.add("tentative");
  }
}
/* offline.js paints its taps with the same function, and never plays the click that follows a
   touch this script already took at pointerup (the phone may have gone offline in between). */
window.trucoTable = { paint: paint, justTaken: function () { return performance.now() - takenAt < 1000; },
                     heard: heard };
function afterFrame(fn) {
  /* Once the frame that shows the tap is drawn: the post then costs it nothing. The frame's
     callbacks run, the frame is committed, then two turns of the event loop (the second
     lets whatever else waited for that frame go first). A page that draws no frame (hidden)
     still sends: a timer stands in for the frame. */
  var done = false, go = function () { if (!done) { done = true; setTimeout(function () { setTimeout(fn, 0); }, 0); } };
  requestAnimationFrame(go);
  setTimeout(go, 100);
}
function tapTimeout() {
  var ms = window.htmx && htmx.config && parseInt(htmx.config.defaultTimeout, 10);
  return ms > 0 ? ms : 8000;
}
function send(button, before) {  /* before: the score shown before this tap was painted */
  var form = button.form, tap = tapOf(form, button);
  inFlight = { score: before, action: button.dataset.action, tap: tap };
  tapState();
  afterFrame(function () { post(form, tap); });
}
/* POST the tap's form with its key; the promise always settles (a timeout aborts it). */
function post(form, tap) {
  var url = form.getAttribute("hx-post") || form.getAttribute("action"), body;
  try {
    body = new URLSearchParams(new FormData(form));
  } catch (err) {
    body = null;
  }
  if (!body || !tap) { answered(0, null, tap, url, "unsent"); return; }
  body.set("tap_key", tap.tap_key);
  var stop = new AbortController(), timer = setTimeout(function () { stop.abort(); }, tapTimeout());
  root.dataset.tapsPosted = String((parseInt(root.dataset.tapsPosted, 10) || 0) + 1);
  fetch(url, {
    method: "POST", body: body, credentials: "same-origin", signal: stop.signal,
    headers: { "HX-Request": "true", "Accept": "text/html" }
  }).then(function (res) {
    return res.text().then(function (text) { return [res.status, text]; });
  }).then(function (got) {
    clearTimeout(timer);
    answered(got[0], got[1], tap, url);
  }, function () {
    clearTimeout(timer);
    answered(0, null, tap, url);
  });
}
/* The tap's end. ``status`` 0: no answer (refused connection, timeout). */
function answered(status, text, tap, url, why) {
  if (reached(status)) { setOnline(true); heard(); }
  if (why === "unsent") {  /* its form could not be read: never silent */
    putScoreBack();
    finishTap(false, tap);
    notRecorded("not-sent");
    return;
  }
  if (!reached(status)) {  /* no answer, a server error, or the match is gone */
    if (status === 403 || status === 404 || status === 410) setOnline(false, true);
    else if (status === 503) setOnline(false, false, true);
    else setOnline(false);
    putBack(tap);
    document.dispatchEvent(new CustomEvent("truco:unreached", { detail: { status: status } }));
    return;
  }
  if (status === 429) {  /* too many requests: kept, sent again after the wait */
    putBack(tap);
    return;
  }
  var board = document.getElementById("scoreboard");
  if ((status >= 200 && status < 300) || status === 409 || status === 422) {
    if (!board || !window.htmx) { finishTap(false, tap); return; }
    var ctx = { sourceElement: board, target: board, swap: "outerMorph", text: text, select: null, selectOOB: null,
                transition: false, request: { method: "POST", action: url }, response: { status: status }, tap: tap };
    if (board.contains(document.activeElement)) focusWasOnBoard = true;
    new Promise(function (swapped) { swapped(htmx.swap(ctx)); }).then(function () {  /* a throw ends it too */
      keepFocus();
      finishTap(status >= 200 && status < 300, tap);
    }, function () {
      finishTap(false, tap);
    });
    return;
  }
  putScoreBack();  /* another refusal (a bad form, say): the server's words */
  sayTapRefused(text);
  finishTap(false, tap);
}
function sayTapRefused(text) {  /* the error page's message (templates/errors/error.html) */
  var note = document.getElementById("tap-refused"), got = /class="msg"[^>]*>([^<]*)/.exec(text || "");
  if (!note) return;
  note.lastChild.textContent = got ? new DOMParser().parseFromString(got[1], "text/html").body.textContent : "";
  notRecorded("tap-refused");
}
function putScoreBack() {
  if (inFlight && inFlight.score) {
    for (var i = 0; i < 2; i++) if (scoreEl(i)) { scoreEl(i).textContent = inFlight.score[i]; scoreEl(i).classList.remove("tentative"); }
  }
}
/* The tap in flight has its answer on the board: send what waited behind it, on that board. */
function finishTap(ok, tap) {
  var lastAction = inFlight ? inFlight.action : null, next = queued;
  inFlight = null;
  queued = [];
  tapState();
  next.forEach(function (q) {
    if (!ok) { notRecorded("not-sent"); return; }  /* refused: the taps after it are said, not sent */
    var where = q.slot ? document.getElementById(q.slot) : document.getElementById("scoreboard");
    var b = where && where.querySelector("button.act[data-action='" + CSS.escape(q.action) + "']");
    if (!b) {  /* its button is gone: a second tap on the same "Quero" is a double tap */
      if (q.action === lastAction) sayBounced(); else notRecorded("not-sent");
      return;
    }
    if (inFlight) { queued.push(q); tapState(); paint(b); return; }
    var before = shownScore();
    paint(b);
    send(b, before);
  });
}
function shownScore() { return [0, 1].map(function (i) { return scoreEl(i) ? scoreEl(i).textContent : ""; }); }
function notRecorded(which) {
  var note = document.getElementById(which);
  if (!note) return;
  note.hidden = false;
  note.classList.remove("show"); void note.offsetWidth; note.classList.add("show");
}
function putBack(tap) {  /* no answer: the server's last score, the taps kept as pending */
  putScoreBack();
  if (tap) keep(tap);
  queued.forEach(function (q) { keep(q.tap); });
  inFlight = null;
  queued = [];
  tapState();
  retryLater();
}
/* The tap is taken as the finger lifts (pointerup on the button it went down on: a few
   frames before the click); the click that follows is then only swallowed. A keyboard's
   Enter or Space (a click with no pointer before it) is taken on the click. */
var downOn = null, takenOn = null, takenAt = 0;
document.addEventListener("pointerdown", function (e) {
  downOn = e.isPrimary && e.target.closest ? e.target.closest("#scoreboard button.act") : null;
}, true);
document.addEventListener("pointerup", function (e) {
  var button = e.target.closest && e.target.closest("#scoreboard button.act");
  if (!button || button !== downOn || !button.form || (e.pointerType === "mouse" && e.button !== 0)) return;
  downOn = null;
  takenOn = button;
  takenAt = performance.now();
  take(button, e.timeStamp);
}, true);
document.addEventListener("pointercancel", function () { downOn = null; }, true);
/* A touch taken at pointerup: cancelling its touchend stops the browser's emulated mouse
   events and click (hit tests, hover and focus work that would run before the frame that
   shows the tapped score). A screen reader's activation is a click and is taken there. */
document.addEventListener("touchend", function (e) {
  if (takenOn && e.cancelable && performance.now() - takenAt < 500 && e.target.closest &&
      e.target.closest("#scoreboard button.act") === takenOn) {
    e.preventDefault();
    takenOn = null;
  }
}, { capture: true, passive: false });
/* An open Envido raise ("¡Tres más!"): the amount chosen in the list beside its button gives
   the button that amount's words, points and data-action (templates/partials/_action.html;
   the list is the form's action field, so a page without this script posts it too). */
document.addEventListener("change", function (e) {
  var list = e.target.closest && e.target.closest("#scoreboard select.amounts");
  var button = list && list.form && list.form.querySelector("button.act");
  var chosen = list && list.options[list.selectedIndex];
  if (!button || !chosen) return;
  button.dataset.action = chosen.value;
  button.querySelector(".label").textContent = chosen.dataset.label;
  var pts = button.querySelector(".pts");
  if (pts) pts.textContent = chosen.dataset.note;
});
document.addEventListener("click", function (e) {
  var button = e.target.closest && e.target.closest("#scoreboard button.act");
  if (!button || !button.form) return;
  e.preventDefault();
  e.stopPropagation();
  if (button === takenOn && performance.now() - takenAt < 1000) { takenOn = null; return; }
  take(button, e.timeStamp);
}, true);
/* A finger bounce (issue 19): a second touch on the same button (the same place, the same
   action) less than 250 ms after the one before is the same tap, not a second hand: it is
   dropped and the board says so for two seconds. The time between the two touches is the
   time between their own events (pointerup, or the click of a keyboard or screen reader:
   the event's timeStamp), so neither a slow answer nor a busy page moves it; taps further
   apart (two tricks in a row) all count. The corrections' +1 / -1 (#adjust) are counters
   tapped quickly on purpose ("twelve corrections take twelve taps"): never a bounce. */
var BOUNCE_MS = 250, lastTouch = null, bounceTimer = null;
function bounced(button, cell, at) {
  var where = cell ? cell.id : "", was = lastTouch;
  if (button.closest("#adjust")) return false;
  lastTouch = { where: where, action: button.dataset.action, at: at };
  return !!was && was.where === where && was.action === button.dataset.action &&
         at >= was.at && at - was.at < BOUNCE_MS;
}
function sayBounced() {
  var note = document.getElementById("bounced");
  if (!note) return;
  note.hidden = false;
  clearTimeout(bounceTimer);
  bounceTimer = setTimeout(function () { note.hidden = true; }, 2000);
}
function take(button, at) {
  var cell = button.closest("[data-slot]"), now = performance.now();
  if (cell && (parseFloat(cell.dataset.until) || 0) > now) { sayBounced(); return; }  /* a new button under a finger */
  if (bounced(button, cell, at || now)) { sayBounced(); return; }
  lastTap = now;
  if (kept().length) { keep(tapOf(button.form, button)); flushNow(); return; }  /* after the kept ones: the strip */
  var before = shownScore();
  paint(button);
  if (inFlight) {
    queued.push({ slot: cell ? cell.id : null, action: button.dataset.action, tap: tapOf(button.form, button) });
    tapState();
    return;
  }
  send(button, before);
}
/* Every tap posted on the board carries its own key (tap_key) and the version it was made on:
   the scorekeeper records a key once, so sending it again after a lost answer is safe. */
function tapOf(form, button) {
  var f = form.elements, action = null;
  try {
    action = f.kind && f.kind.value === "envido_points"
      ? { type: "envido_points", points: [+f.points0.value, +f.points1.value] } : JSON.parse(f.action.value);
  } catch (err) { return null; }
  var label = button && button.querySelector(".label"), who = button && button.querySelector(".visually-hidden");
  var board = document.getElementById("scoreboard");
  return { tap_key: window.trucoPending.key(), version: +f.version.value, action: action, made_at: Date.now(),
           hand: board ? parseInt(board.dataset.hand, 10) || null : null, offline: false, words: ((label || button || form).textContent + (who ? who.textContent : "")).replace(/\s+/g, " ").trim() };
}
function keyTap(e) {  /* as the request leaves: after an Undo's confirmation dialog, say */
  var ctx = e.detail.ctx, body = ctx.request.body, form = ctx.sourceElement;
  if (!isBoard(e) || isPoll(e) || !body || !body.set || !form || !form.elements || !window.trucoPending ||
      !/\/actions$/.test(ctx.request.action || "")) return;  /* an action's form: not a rename, say */
  var tap = tapOf(form, ctx.sourceEvent && ctx.sourceEvent.submitter || form.querySelector("button"));
  if (!tap) return;
  ctx.tap = tap;
  body.set("tap_key", tap.tap_key);
}
