/* truco-scorer at the table: the instant score and the double-tap guard, service worker, read
   aloud, wake lock, vibration, offline state, the taps kept on this phone until the scorekeeper
   answers (window.trucoPending, first below, keeps them). Everything here is an extra: the pages work without it
   (forms post and redirect). */
/* window.trucoPending: the taps kept on this phone until the scorekeeper answers (issue 24; the
   contract with the offline engine: docs/offline.md; in this file, not one of its
   own, so the first open stays one script lighter). A tap made without an answer is kept in
   localStorage ("truco:pending:<match id>", oldest first) and sent again, with its own key, when
   the scorekeeper answers: the scorekeeper records a key once, so a tap whose answer was lost
   never counts twice. window.trucoPending:
     list(id), add(id, tap), remove(id, keys), clear(id): the kept taps
       (tap: {tap_key, version, action, made_at, offline, hand?, words?}; hand: the hand it was made in);
     url(id[, url]): where they go (POST /m/<id>/<key>/taps), kept with them;
     key(): a new tap key (a random UUID; crypto.randomUUID needs https, a LAN address is http);
     flush(id[, apply[, only]]): send them now (only: just the taps with these keys); a Promise of {status: "done" | "conflict" | "retry" |
       "failed", applied, repeated, refused: [{tap_key, error}], version, pending, message}.
   An upload unanswered after 15 s is given up (and tried again later: the keys make it safe).
   Every change fires "truco:pending-changed" on document, detail {matchId, count}. */
(function () {
  "use strict";
  var LIST = "truco:pending:", WHERE = "truco:pending-url:", CHUNK = 200, WAIT = 15000;
  var held = {}, flights = {};  /* held: where localStorage cannot keep them (private mode) */
  function load(name) {
    try { return localStorage.getItem(name); } catch (e) { return held[name] || null; }
  }
  function save(name, value) {
    held[name] = value;
    try {
      if (value === null) localStorage.removeItem(name); else localStorage.setItem(name, value);
    } catch (e) { /* kept in memory for this page */ }
  }
  function list(id) {
    var v;
    try { v = JSON.parse(load(LIST + id) || "[]"); } catch (e) { v = []; }
    return Array.isArray(v) ? v : [];
  }
  function write(id, taps) {
    save(LIST + id, taps.length ? JSON.stringify(taps) : null);
    document.dispatchEvent(new CustomEvent("truco:pending-changed", { detail: { matchId: id, count: taps.length } }));
  }
  function remove(id, keys) {
    write(id, list(id).filter(function (t) { return keys.indexOf(t.tap_key) < 0; }));
  }
  function key() {
    var b = crypto.getRandomValues(new Uint8Array(16)), h = "", i;
    b[6] = (b[6] & 15) | 64;
    b[8] = (b[8] & 63) | 128;
    for (i = 0; i < 16; i++) h += (b[i] + 256).toString(16).slice(1) + (i === 3 || i === 5 || i === 7 || i === 9 ? "-" : "");
    return h;
  }
  /* One upload of at most CHUNK taps, then the next. A later upload starts with the last tap
     the one before recorded (the scorekeeper skips it as known): the taps made on one board
     then raise no conflict between two uploads. */
  function send(id, apply, sum, last, only) {
    var taps = list(id).filter(function (t) { return !only || only.indexOf(t.tap_key) >= 0; }), to = load(WHERE + id);
    if (!taps.length || !to) { sum.status = "done"; return Promise.resolve(sum); }
    var part = taps.slice(0, CHUNK), body = (last ? [last] : []).concat(part).map(function (t) {
      var out = { tap_key: t.tap_key, version: t.version, action: t.action };
      if (t.hand) out.hand = t.hand;
      return out;
    });
    var stop = window.AbortController ? new AbortController() : null, timer = stop && setTimeout(function () { stop.abort(); }, WAIT);
    return fetch(to, {
      method: "POST", credentials: "same-origin", signal: stop && stop.signal,
      headers: { "Content-Type": "application/json", "Accept": "application/json" },
      body: JSON.stringify({ taps: body, apply: !!apply })
    }).then(function (res) {
      clearTimeout(timer);
      return res.json().catch(function () { return {}; }).then(function (got) {
        if (res.ok) {
          remove(id, part.map(function (t) { return t.tap_key; }));
          sum.applied += got.applied || 0;
          sum.repeated += (got.repeated || 0) - (last ? 1 : 0);
          sum.refused = sum.refused.concat(got.refused || []);
          sum.version = got.version;
          return taps.length > CHUNK ? send(id, apply, sum, part[part.length - 1], only) : (sum.status = "done", sum);
        }
        sum.version = got.version;
        sum.pending = list(id).length;
        sum.message = got.error && got.error.message;
        sum.status = res.status === 409 && got.conflict ? "conflict"
          : res.status === 429 || res.status >= 500 ? "retry" : "failed";
        return sum;
      });
    }, function () { clearTimeout(timer); sum.status = "retry"; return sum; });
  }
  window.trucoPending = {
    list: list,
    add: function (id, tap) { var taps = list(id); taps.push(tap); write(id, taps); },
    remove: remove,
    clear: function (id) { write(id, []); },
    url: function (id, to) { if (to && load(WHERE + id) !== to) save(WHERE + id, to); return load(WHERE + id); },
    key: key,
    flush: function flush(id, apply, only) {
      var now = flights[id];
      if (now) return (apply && !now.apply) || only ? now.then(function () { return flush(id, apply, only); }) : now;
      now = flights[id] = send(id, apply, { applied: 0, repeated: 0, refused: [] }, null, only).then(function (sum) {
        delete flights[id];
        return sum;
      });
      now.apply = !!apply;
      return now;
    }
  };
})();
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

  /* ---- Taps on the steady board (issue #14; issue 30: never lost in silence) ------------
     Paint first, then send: a tap on an action button writes the score it pays at once
     (data-pays, from the engine's points; data-cap: the target where the game ends at
     once), marked as pending, and is posted one frame later. The answer (200, or 409/422
     with the server's message) is morphed in and is the truth.
     The tap machine, made so that no tap can end in silence (docs/table.md, "Every tap is
     answered"): a tap is posted by this file itself (fetch, with the page's timeout), never
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
     touch this file already took at pointerup (the phone may have gone offline in between). */
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
     action buttons' taps are posted by the tap machine above). A request htmx ended before
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

  /* ---- Taps kept on this phone (issue 24) ----------------------------------------------
     A tap that got no answer is kept (window.trucoPending above, in localStorage: it survives a reload) and
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
