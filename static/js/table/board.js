/* truco-scorer at the table: the answers and polls that bring the board (never an older one),
   the double-tap guard's inert places, the marks of what changed, the keyboard's focus.
   One of the parts of the board's script, js/table.js: scorer/web/assets.py (BUNDLES) serves
   static/js/table/ pending.js, page.js, taps.js, board.js and kept.js, in this order, as one
   script in one closure ("use strict"), so that the first open of a board stays one request
   (and under its 30 KB, tests/browser/test_offline_play.py). The parts share their names:
   isBoard, isPoll, keepFocus and focusWasOnBoard are defined here. */
/* Leaving the page (the Revanche form, a link): no poll may send it elsewhere meanwhile. */
var leaving = false;
window.addEventListener("beforeunload", function () {
  leaving = true;
  setTimeout(function () { leaving = false; }, 3000);  /* a navigation that did not happen (a download, a share link) */
});
window.addEventListener("pageshow", function () { leaving = false; });
document.addEventListener("htmx:before:response", function (e) { if (leaving) e.preventDefault(); });
function isBoard(e) { var ctx = e.detail && e.detail.ctx; return !!ctx && !!ctx.target && ctx.target.id === "scoreboard"; }
function isPoll(e) { var ctx = e.detail && e.detail.ctx; return !!ctx && ctx.request.method === "GET"; }
/* htmx 4 fires its swap events for every answer, a 204 or an error status too ("none"). */
function swapsBoard(e) { return isBoard(e) && e.detail.ctx.swap !== "none"; }
document.addEventListener("htmx:before:request", function (e) {
  keyTap(e);
  var board = document.getElementById("scoreboard");
  if (board && board.contains(document.activeElement)) focusWasOnBoard = true;
  if (isBoard(e) && isPoll(e) && leaving) e.preventDefault();  /* never for a tap: polls go on (issue 30) */
});
/* The board an answer brings is never older than the one shown (a poll sent before a tap's
   answer and answered after it): same match, lower version, not swapped in. */
function olderBoard(ctx) {
  var board = document.getElementById("scoreboard"), m = /data-version="(\d+)"/.exec(ctx.text || "");
  if (!board || !m) return false;
  var mine = /\/m\/([^\/?]+)\//.exec(board.getAttribute("hx-get") || ""), theirs = /hx-get="[^"]*\/m\/([^\/?"]+)\//.exec(ctx.text);
  return !!mine && !!theirs && mine[1] === theirs[1] && parseInt(m[1], 10) < parseInt(board.dataset.version, 10);
}
document.addEventListener("htmx:before:swap", function (e) {
  var status = statusOf(e);
  if (reached(status)) setOnline(true);
  if (!swapsBoard(e)) return;
  if (isPoll(e) && (inFlight || olderBoard(e.detail.ctx))) { e.preventDefault(); return; }  /* our answer will bring it */
  if (!isPoll(e) && status >= 200 && status < 300 && navigator.vibrate) navigator.vibrate(35);
  slotsBefore = {};
  var cells = document.querySelectorAll("#scoreboard [data-slot]"), i, b;
  for (i = 0; i < cells.length; i++) {
    b = cells[i].querySelector("button.act");
    slotsBefore[cells[i].id] = b ? { action: b.dataset.action, shown: b.form.elements.shown.value,
                                     until: parseFloat(cells[i].dataset.until) || 0 } : null;
  }
  var adjust = document.getElementById("adjust");
  adjustOpen = adjust ? adjust.open : null;
});
function guardNewPlaces() {  /* after a swap: the places whose button changed are inert a moment */
  if (!slotsBefore) return;
  var board = document.getElementById("scoreboard"), guard = parseInt(board && board.dataset.guard, 10);
  if (isNaN(guard)) guard = 350;
  var now = performance.now(), until = guard > 0 ? Math.max(lastTap + OWN_MS, now + guard) : 0;
  var cells = document.querySelectorAll("#scoreboard [data-slot]"), i, cell, b, was;
  for (i = 0; i < cells.length; i++) {
    cell = cells[i]; b = cell.querySelector("button.act"); was = slotsBefore[cell.id];
    if (b && was && was.action === b.dataset.action) {
      b.form.elements.shown.value = was.shown;  /* it stayed: the server's guard lets it through too */
      if (was.until > now) markFresh(cell, was.until, now);  /* still new in its place: a poll's morph
                                                                of the same board took the mark off */
    } else if ((b || was) && until > now) {
      markFresh(cell, until, now);
    }
  }
  slotsBefore = null;
  var adjust = document.getElementById("adjust");
  if (adjust && adjustOpen !== null) adjust.open = adjustOpen;  /* open until closed */
}
function markFresh(cell, until, now) {
  cell.dataset.until = String(until);
  cell.classList.add("fresh");
  setTimeout(unfresh.bind(null, cell.id, until), until - now);
}
/* What changed is marked for a second: the scoring card's mark is then switched off (a
   class, not an animation: see app.css). */
var settleTimer = null;
function settleMarks() {  /* a new change restarts the second: its mark gets all of it */
  clearTimeout(settleTimer);
  var marks = document.querySelectorAll("#scoreboard .side.changed:not(.settled)");
  if (!marks.length) return;
  settleTimer = setTimeout(function () {
    for (var i = 0; i < marks.length; i++) marks[i].classList.add("settled");
  }, 1000);
}
settleMarks();
document.addEventListener("htmx:after:swap", function (e) {
  if (!swapsBoard(e)) return;
  guardNewPlaces();
  settleMarks();
});
function unfresh(id, until) {
  var cell = document.getElementById(id);
  if (cell && cell.dataset.until === String(until)) cell.classList.remove("fresh");
}
/* The end of an htmx request on the board: a poll, an Undo, the typed Envido points (the
   action buttons' taps are posted by the tap machine, taps.js). A request htmx ended before
   sending it (cancelled: ctx.status still "issuing") is no sign of the scorekeeper. */
function sentAndUnanswered(ctx) { return !!ctx && !ctx.response && /^error/.test(ctx.status || ""); }
document.addEventListener("htmx:finally:request", function (e) {
  var ctx = e.detail.ctx, status = statusOf(e), tap = ctx && ctx.tap;
  if (reached(status)) { setOnline(true); heard(); }
  if (isPoll(e) || !isBoard(e) || !tap) return;
  if (sentAndUnanswered(ctx) || (status && !reached(status))) {  /* an Undo, the typed Envido points */
    keep(tap);
    retryLater();
    document.dispatchEvent(new CustomEvent("truco:unreached", { detail: { status: status } }));
  }
});

var focusWasOnBoard = false;
function keepFocus() {
  var board = document.getElementById("scoreboard");
  /* Keyboard users keep their place: htmx restores focus by id; otherwise the board. */
  if (focusWasOnBoard && board && (document.activeElement === document.body || !document.activeElement)) {
    board.focus({ preventScroll: true });  /* the page stays where the thumb left it */
  }
  focusWasOnBoard = false;
  keepAwake();
}
document.addEventListener("htmx:after:settle", keepFocus);
keepAwake();
