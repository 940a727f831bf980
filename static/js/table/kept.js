/* truco-scorer at the table: the taps kept on this phone (window.trucoPending, pending.js), their
   strip under the board, their upload, and the "no news" note (#unheard).
   One of the parts of the board's script, js/table.js: scorer/web/assets.py (BUNDLES) serves
   static/js/table/ pending.js, page.js, taps.js, board.js and kept.js, in this order, as one
   script in one closure ("use strict"), so that the first open of a board stays one request
   (and under its 30 KB, tests/browser/test_offline_play.py). The parts share their names:
   match, kept, keep, retryLater, heard and flushNow are defined here. */
/* ---- Taps kept on this phone (issue 24) ----------------------------------------------
   A tap that got no answer is kept (window.trucoPending, pending.js, in localStorage: it survives a reload) and
   shown as waiting in a strip under the board, never in the score. It is sent again when the
   scorekeeper answers (a poll, the "online" event, a retry timer), with the same key. If
   another phone acted meanwhile, nothing is merged: the board shows the match as it is and
   the strip asks to apply them (the rules judge each again) or discard them. */
var P = window.trucoPending, halted = null, retryAt = 0, retryTimer = null, backoff = 2000;
function match() {  /* {id, url} of this board's match; none on a watch page */
  var b = document.getElementById("scoreboard"), m = b && /^(.*\/m\/([^\/?]+)\/[^\/?]+)\/board\?/.exec(b.getAttribute("hx-get") || "");
  return m && P ? { id: m[2], url: P.url(m[2], m[1] + "/taps") } : null;
}
function kept() { var m = match(); return m ? P.list(m.id) : []; }
function keep(tap) { var m = match(); if (m && tap) P.add(m.id, tap); }
function retryLater() {
  clearTimeout(retryTimer);
  retryAt = Date.now() + backoff;
  retryTimer = setTimeout(function () { flushNow(); }, backoff);
  backoff = Math.min(backoff * 2, 30000);
}
/* The scorekeeper answered: say so, and send what waits (not over a question asked). A
   phone that has heard nothing for 3 s (polls and taps unanswered: a hung line, a stalled
   scorekeeper) says so under the board (#unheard), while it keeps asking (issue 30). */
var lastHeard = performance.now(), UNHEARD_MS = 3000;
function heard() {
  lastHeard = performance.now();
  var note = document.getElementById("unheard");
  if (note && !note.hidden) note.hidden = true;
  if (!halted && Date.now() >= retryAt && kept().length) flushNow();
}
function watchHeard() {
  var note = document.getElementById("unheard"), board = document.getElementById("scoreboard");
  if (!note || !board || !board.getAttribute("hx-get") || document.visibilityState !== "visible" ||
      root.classList.contains("playing-offline")) return;
  note.hidden = root.classList.contains("stale") || performance.now() - lastHeard < UNHEARD_MS;  /* or the banner says it */
}
setInterval(watchHeard, 1000);
document.addEventListener("visibilitychange", function () {
  if (document.visibilityState !== "visible") return;
  lastHeard = performance.now();  /* a page in the background polls less: ask now, judge from now */
  var board = document.getElementById("scoreboard");
  if (board && window.htmx && board.getAttribute("hx-get")) htmx.trigger(board, "every");
});
function flushNow(apply, done, only) {
  var m = match();
  if (!m) { if (done) done(); return; }
  P.flush(m.id, apply, only).then(function (r) {
    if (done) done(r);
    if (r.status === "done") {
      halted = null;
      backoff = 2000;
      if (r.refused.length) sayRefused(r.refused);
    } else if (r.status === "retry") {
      retryLater();
    } else {
      halted = r.status === "conflict" ? r.status : r.message || r.status;
    }
    if (r.status !== "retry" && window.htmx) htmx.trigger(document.getElementById("scoreboard"), "every");  /* the board now */
    drawPending();
  });
}
/* offline.js, back online, sends the taps played offline through here, so that a conflict
   or a refused tap is shown as for any kept tap (detail.done is called with the result). */
document.addEventListener("truco:flush", function (e) { flushNow(false, e.detail && e.detail.done); });
function sayRefused(refused) {
  var note = document.getElementById("pending-refused");
  if (!note) return;
  note.querySelector("span").textContent = refused.map(function (r) { return r.error; }).join(" ");
  notRecorded("pending-refused");
}
/* The strip: every waiting tap in full (the list scrolls), each with the hand it was made
   in and, after a conflict, its own Apply; each its own Discard (issue 30). */
function drawPending() {
  var strip = document.getElementById("pending"), taps = kept(), n = taps.length;
  if (!strip) return;
  strip.hidden = !n;
  if (!n) halted = null;
  var list = document.getElementById("pending-list");
  if (list) list.textContent = "";
  if (n) {
    var conflict = halted === "conflict", d = strip.dataset;
    document.getElementById("pending-what").textContent =
      (conflict ? (n === 1 ? d.conflictOne : d.conflictMany) : (n === 1 ? d.one : d.many)).replace("{n}", n);
    document.getElementById("pending-words").textContent = halted && !conflict ? halted : conflict ? d.handRule : "";
    document.getElementById("pending-apply").hidden = !conflict;
    taps.forEach(function (t) {
      if (!list) return;
      var li = document.createElement("li"), hand = document.createElement("b"), words = document.createElement("span");
      li.dataset.tapKey = t.tap_key;
      hand.className = "hand-of";
      hand.textContent = t.hand ? d.hand.replace("{n}", t.hand) : "";
      words.textContent = t.words || JSON.stringify(t.action);
      li.appendChild(hand); li.appendChild(words);
      if (conflict) li.appendChild(stripButton("apply", t.tap_key));
      li.appendChild(stripButton("discard", t.tap_key));
      list.appendChild(li);
    });
  }
  root.style.setProperty("--pending-h", n ? strip.offsetHeight + 6 + "px" : "0px");
}
function stripButton(what, key) {  /* the strip's own Apply or Discard, for one tap */
  var b = document.getElementById("pending-" + what).cloneNode(true);
  b.removeAttribute("id"); b.hidden = false; b.className = "pending-" + what + "-one"; b.dataset.tapKey = key;
  return b;
}
document.addEventListener("click", function (e) {
  var b = e.target.closest && e.target.closest("#pending-apply, #pending-discard, .pending-apply-one, .pending-discard-one"), m = match();
  if (!b || !m) return;
  if (b.id === "pending-apply") { halted = null; flushNow(true); }
  else if (b.id === "pending-discard") { halted = null; P.clear(m.id); }
  else if (b.classList.contains("pending-apply-one")) { halted = null; flushNow(true, null, [b.dataset.tapKey]); }
  else P.remove(m.id, [b.dataset.tapKey]);
});
document.addEventListener("truco:pending-changed", drawPending);
window.addEventListener("online", function () { backoff = 2000; retryAt = 0; heard(); });
drawPending();
if (kept().length) flushNow();  /* this page came from the scorekeeper: it answers */
