/* truco-scorer at the table: service worker, read aloud, wake lock, vibration, offline state.
   Everything here is an extra: the pages work without it (forms post and redirect). */
(function () {
  "use strict";
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
    var banner = document.getElementById("offline"), lost = document.getElementById("gone");
    var away = document.getElementById("nodb");  /* 503: the scorekeeper is up, its database is not */
    if (away) away.hidden = !nodb;
    if (banner) banner.hidden = online || !!gone || !!nodb;
    if (lost) lost.hidden = !gone;
    root.classList.toggle("stale", !online);
  }
  /* No answer at all (refused, or a hung scorekeeper: htmx-config's timeout) or a server
     error: the tap or poll did not go through. 403/404: this scorekeeper no longer knows the
     match (restarted on another database?) -- say so; never keep the score looking current. */
  function reached(xhr) {  /* the scorekeeper answered and knows this match */
    var s = xhr ? xhr.status : 0;
    return s >= 200 && s < 500 && s !== 403 && s !== 404 && s !== 410;
  }
  document.addEventListener("htmx:sendError", function () { setOnline(false); });
  document.addEventListener("htmx:timeout", function () { setOnline(false); });
  document.addEventListener("htmx:responseError", function (e) {
    var status = e.detail.xhr ? e.detail.xhr.status : 0;
    if (status === 403 || status === 404 || status === 410) setOnline(false, true);
    else if (status === 503) setOnline(false, false, true);
    else if (status >= 500) setOnline(false);
  });

  /* Feel: a short vibration when this phone's action was recorded. (beforeSwap: the form
     that made the request is still in the page; afterRequest would fire on a detached one.) */
  var focusWasOnBoard = false;
  document.addEventListener("htmx:beforeRequest", function () {
    /* Before hx-disabled-elt takes the focus off the tapped button. */
    var board = document.getElementById("scoreboard");
    if (board && board.contains(document.activeElement)) focusWasOnBoard = true;
  });
  document.addEventListener("htmx:beforeSwap", function (e) {
    var xhr = e.detail.xhr;
    if (reached(xhr)) setOnline(true);
    if (e.detail.requestConfig && e.detail.requestConfig.verb === "post" &&
        xhr && xhr.status >= 200 && xhr.status < 300 && navigator.vibrate) {
      navigator.vibrate(35);
    }
  });
  document.addEventListener("htmx:afterRequest", function (e) {
    var xhr = e.detail.xhr;
    if (reached(xhr)) setOnline(true);
  });
  document.addEventListener("htmx:afterSettle", function () {
    var board = document.getElementById("scoreboard");
    /* Keyboard users keep their place: htmx restores focus by id; otherwise the board. */
    if (focusWasOnBoard && board && (document.activeElement === document.body || !document.activeElement)) {
      board.focus({ preventScroll: true });  /* the page stays where the thumb left it */
    }
    focusWasOnBoard = false;
    keepAwake();
  });
  keepAwake();

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
})();
