/* truco-scorer at the table, the page's extras: the service worker, the offline engine's loader,
   read aloud, wake lock, the "no connection" notes (setOnline, statusOf, reached) and the new-match
   page's names. Everything here is an extra: the pages work without it (forms post and redirect).
   One of the parts of the board's script, js/table.js: scorer/web/assets.py (BUNDLES) serves
   static/js/table/ pending.js, page.js, taps.js, board.js and kept.js, in this order, as one
   script in one closure ("use strict"), so that the first open of a board stays one request
   (and under its 30 KB, tests/browser/test_offline_play.py). The parts share their names:
   root, script, lang, keepAwake, setOnline, statusOf and reached are defined here. */
var root = document.documentElement;
var script = document.currentScript;
var lang = (script && script.dataset.lang) || "pt_BR";

/* Installable: the service worker keeps the static shell and the offline page. */
if ("serviceWorker" in navigator && window.isSecureContext && script && script.dataset.sw) {
  navigator.serviceWorker.register(script.dataset.sw).then(function () {
    return navigator.serviceWorker.ready;
  }).then(function (reg) {
    root.dataset.sw = "ready";
    if (reg.active) reg.active.postMessage({ lang: lang });
  }).catch(function () { root.dataset.sw = "failed"; });
}

/* The offline engine (issue 24): once a board has been open a few seconds, or in the
   installed app, offline.js is loaded when the phone is idle; it fetches the engine in the
   background and plays on when the scorekeeper cannot be reached. Never on the first-open path. */
function loadOffline() {
  if (!script || !script.dataset.offline || document.getElementById("offline-js")) return;
  var s = document.createElement("script");
  s.id = "offline-js"; s.src = script.dataset.offline; s.dataset.engine = script.dataset.engine; s.dataset.lang = lang;
  document.head.appendChild(s);
}
function whenIdle(fn) { if (window.requestIdleCallback) requestIdleCallback(fn, { timeout: 5000 }); else setTimeout(fn, 0); }
var installed = window.matchMedia && (matchMedia("(display-mode: fullscreen)").matches || matchMedia("(display-mode: standalone)").matches);
var noNetwork = navigator.onLine === false;
if ("Worker" in window && window.WebAssembly && (installed || noNetwork || document.querySelector("#scoreboard.can-edit"))) {
  setTimeout(function () { whenIdle(loadOffline); }, installed || noNetwork ? 0 : 5000);
}
window.addEventListener("appinstalled", function () { whenIdle(loadOffline); });

/* Read the score aloud in the page's language. */
if ("speechSynthesis" in window && "SpeechSynthesisUtterance" in window) {
  root.classList.add("can-speak");
}
function voiceFor(tag) {
  var voices = window.speechSynthesis.getVoices() || [];
  var want = tag.toLowerCase(), short = want.slice(0, 2), i, v;
  for (i = 0; i < voices.length; i++) {
    v = voices[i].lang.replace("_", "-").toLowerCase();
    if (v === want) return voices[i];
  }
  for (i = 0; i < voices.length; i++) {
    if (voices[i].lang.toLowerCase().slice(0, 2) === short) return voices[i];
  }
  return null;
}
document.addEventListener("click", function (e) {
  var button = e.target.closest && e.target.closest("#speak");
  if (!button || !root.classList.contains("can-speak")) return;
  var u = new SpeechSynthesisUtterance(button.dataset.say || "");
  u.lang = root.lang;
  var voice = voiceFor(root.lang);
  if (voice) u.voice = voice;
  window.speechSynthesis.cancel();
  window.speechSynthesis.speak(u);
});

/* Awake: keep the screen on while a match is being played. */
var lock = null;
function playing() {
  var board = document.getElementById("scoreboard");
  return !!board && !board.classList.contains("over") && document.visibilityState === "visible";
}
function showWakeNoteOnce() {
  var note = document.getElementById("wake-note");
  var seen = false;
  try { seen = localStorage.getItem("truco.wakeNote") === "1"; } catch (err) { seen = false; }
  if (!note || seen) return;
  note.hidden = false;
  try { localStorage.setItem("truco.wakeNote", "1"); } catch (err) { /* private mode: shown again next time */ }
}
function keepAwake() {
  if (!playing()) {
    if (lock) { lock.release(); lock = null; }
    return;
  }
  if (lock) return;
  if (!("wakeLock" in navigator) || !window.isSecureContext) {
    root.dataset.wakeLock = "unavailable";
    showWakeNoteOnce();
    return;
  }
  navigator.wakeLock.request("screen").then(function (l) {
    lock = l;
    root.dataset.wakeLock = "on";
    l.addEventListener("release", function () { lock = null; root.dataset.wakeLock = "off"; });
  }).catch(function () { root.dataset.wakeLock = "denied"; });
}
document.addEventListener("visibilitychange", keepAwake);
document.addEventListener("click", function (e) {
  if (e.target.closest && e.target.closest("#wake-ok")) document.getElementById("wake-note").hidden = true;
});

/* Offline: say so, and grey the last score received instead of showing it as current. */
function setOnline(online, gone, nodb) {
  /* Playing offline, offline.js says so: a request's late error (a poll sent before the drop)
     must not grey the board the phone plays on (docs/offline.md). */
  if (!online && root.classList.contains("playing-offline")) return;
  var banner = document.getElementById("offline"), lost = document.getElementById("gone");
  var away = document.getElementById("nodb");  /* 503: the scorekeeper is up, its database is not */
  if (away) away.hidden = !nodb;
  if (banner) banner.hidden = online || !!gone || !!nodb;
  if (lost) lost.hidden = !gone;
  root.classList.toggle("stale", !online);
}
/* No answer at all (refused, or a hung scorekeeper: htmx-config's defaultTimeout) or a
   server error: the tap or poll did not go through. 403/404: this scorekeeper no longer
   knows the match (restarted on another database?) -- say so; never keep the score looking
   current. htmx 4's events carry the request as detail.ctx (ctx.response once answered). */
function statusOf(e) { var ctx = e.detail && e.detail.ctx; return ctx && ctx.response ? ctx.response.status : 0; }
function reached(status) {  /* the scorekeeper answered and knows this match */
  return status >= 200 && status < 500 && status !== 403 && status !== 404 && status !== 410;
}
document.addEventListener("htmx:error", function () { setOnline(false); });  /* no answer, or timed out */
document.addEventListener("htmx:response:error", function (e) {
  var status = statusOf(e);
  if (status === 403 || status === 404 || status === 410) setOnline(false, true);
  else if (status === 503) setOnline(false, false, true);
  else if (status >= 500) setOnline(false);
});

/* New match: "mano in the first hand" and the seats say the names being typed
   ([data-name-of=<input name>]); an empty field keeps the generic words. */
function showNames() {
  var spans = document.querySelectorAll("[data-name-of]"), i, span, input;
  for (i = 0; i < spans.length; i++) {
    span = spans[i];
    input = document.querySelector("input[name='" + span.dataset.nameOf + "']");
    if (!input) continue;
    if (span.dataset.generic === undefined) span.dataset.generic = span.textContent;
    span.textContent = input.value.trim() || span.dataset.generic;
  }
}
document.addEventListener("input", function (e) {
  if (e.target.name === "name0" || e.target.name === "name1") showNames();
});
showNames();
