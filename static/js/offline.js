/* truco-scorer with no scorekeeper (issue 24): loaded by table.js once a board has been open a
   few seconds (or in the installed app, or with no network), never on the first-open path. It
   has the service worker keep the offline engine (Pyodide and the engine bundle) and this page,
   starts the engine in a worker (engine-worker.js) and keeps the match's export while the
   scorekeeper answers.
   On a board: when a tap or a poll gets no answer, the phone plays on. Each tap is applied by
   the same Python rules core, the board drawn by the same view code and template and swapped
   into #scoreboard, and the tap kept with window.trucoPending.add(..., offline: true)
   (docs/offline.md) until the scorekeeper answers and the page sends it.
   On the new-match page: a match started when the scorekeeper cannot be reached lives on the
   phone (localStorage "truco:offline-match:<id>") and is uploaded once it can (docs/offline.md, "A match started with no scorekeeper"). */
(function () {
  "use strict";
  var root = document.documentElement;
  var script = document.currentScript;
  var lang = (script && script.dataset.lang) || "pt_BR";
  var began = performance.now();
  var HELD = "truco:offline-match:";
  var KEYED_EXPORT = "matches.keyed_export";  /* GET <its rule>?since=N: the actions from N on, with the edit key */
  var cfg = null, worker = null, calls = {}, seq = 0, chain = Promise.resolve();
  var match = null;          /* {id, key} of the board page */
  var local = null;          /* a match started on this phone: {offline_id, settings, taps, made_at} */
  var exported = null, exportedVersion = -1;
  var ready = false, offline = false, probeTimer = null;

  function call(op) {
    var args = Array.prototype.slice.call(arguments, 1);
    return new Promise(function (resolve, reject) {
      var id = ++seq;
      calls[id] = { resolve: resolve, reject: reject };
      worker.postMessage({ id: id, op: op, args: args });
    });
  }
  /* One engine call at a time, in the order the taps were made. */
  function queue(fn) { chain = chain.then(fn, fn); return chain; }
  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return "t" + Date.now().toString(36) + Math.random().toString(36).slice(2) + Math.random().toString(36).slice(2);
  }

  function ruleRegex(rule) {  /* a Flask URL rule ("/m/<match_id>/<key>") as a RegExp, variables named */
    var names = [];
    var src = rule.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/<([^>]+)>/g, function (_m, v) {
      names.push(v.split(":").pop()); return "([^/]+)";
    });
    return { re: new RegExp("^" + src + "$"), names: names };
  }
  function fill(rule, values) {
    return rule.replace(/<([^>]+)>/g, function (_m, v) { return encodeURIComponent(values[v.split(":").pop()]); });
  }
  function boardOf(path) {
    var r = ruleRegex(cfg.routes["matches.scoreboard"]), m = r.re.exec(path), out = {};
    if (!m) return null;
    r.names.forEach(function (n, i) { out[n] = decodeURIComponent(m[i + 1]); });
    return { id: out.match_id, key: out.key };
  }
  function pendingList() { return match && window.trucoPending ? window.trucoPending.list(match.id) : []; }
  function waiting() { return local ? local.taps.length : pendingList().length; }
  function exportKey() { return "truco:export:" + match.id; }
  function saveLocal() { try { localStorage.setItem(HELD + local.offline_id, JSON.stringify(local)); } catch (err) { /* full */ } }
  function heldMatches() {
    var out = [];
    for (var i = 0; i < localStorage.length; i++) {
      var k = localStorage.key(i);
      if (k && k.indexOf(HELD) === 0) { try { out.push(JSON.parse(localStorage.getItem(k))); } catch (err) { /* skip */ } }
    }
    return out.sort(function (a, b) { return b.made_at - a.made_at; });
  }

  /* ---- The match's export, kept while the scorekeeper answers ------------------------- */
  function shownVersion() {
    var board = document.getElementById("scoreboard");
    return board ? parseInt(board.dataset.version, 10) : -1;
  }
  /* Read with the board's edit key, only the actions this phone lacks (since=its count): a
     read no stranger's budget can starve (issue 30; docs/offline.md). One at a time. */
  var reading = null;
  function refreshExport() {
    if (offline || !match || shownVersion() <= exportedVersion) { showReady(); return reading || Promise.resolve(); }
    if (reading) return reading.then(refreshExport);
    var since = exported && exportedVersion > 0 ? exportedVersion : 0;
    reading = fetch(fill(cfg.routes[KEYED_EXPORT], { match_id: match.id, key: match.key }) + "?since=" + since, { cache: "no-store" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (got) {
        reading = null;
        if (!got || !Array.isArray(got.actions)) return;
        var whole = got;
        if (got.since > 0) {
          var had = JSON.parse(exported);
          whole = Object.assign({}, got, { actions: had.actions.slice(0, got.since).concat(got.actions) });
        }
        delete whole.since;
        exported = JSON.stringify(whole);
        exportedVersion = whole.actions.length;
        try { localStorage.setItem(exportKey(), exported); } catch (err) { /* full: kept in memory */ }
        showReady();
      }, function () { reading = null; /* no answer: the next change tries again */ });
    return reading;
  }
  /* html[data-offline-ready]: "yes" when this phone could play on from the board shown now,
     "no" while its engine starts or its copy is behind; the board's chip says it (app.css). */
  function showReady() {
    if (!match || offline) { delete root.dataset.offlineReady; return; }
    root.dataset.offlineReady = ready && exported && exportedVersion >= shownVersion() ? "yes" : "no";
  }

  /* ---- Drawing the phone's board -------------------------------------------------------- */
  function swapBoard(html) {
    var board = document.getElementById("scoreboard");
    var t = document.createElement("template");
    t.innerHTML = html.trim();
    var fresh = t.content.firstElementChild, said = t.content.querySelector("#announce"), announce = document.getElementById("announce");
    if (!board || !fresh) return;
    if (said && announce) announce.textContent = said.textContent;  /* the screen reader's line follows the board (issue 30) */
    if (said && said.parentNode) said.parentNode.removeChild(said);
    var focused = board.contains(document.activeElement);
    board.replaceWith(fresh);
    if (local) {  /* no address yet: nothing to share until it is uploaded */
      var share = document.getElementById("share-link");
      if (share) share.remove();
    }
    if (focused) fresh.focus({ preventScroll: true });
  }
  function showBanner() {
    return call("banner", waiting(), !!local).then(function (words) {
      var box = document.getElementById("offline-play");
      if (!box) {
        box = document.createElement("div");
        box.id = "offline-play"; box.className = "offline-play"; box.setAttribute("role", "status");
        box.innerHTML = '<p class="offline-words"></p><button type="button" class="offline-discard"></button>';
        box.querySelector("button").addEventListener("click", function () {
          if (window.confirm(box.dataset.confirm)) discard();
        });
        var top = document.querySelector("header.top");  /* over the top bar: the board keeps its place */
        var board = document.getElementById("scoreboard");
        if (top) top.appendChild(box); else board.parentNode.insertBefore(box, board);
      }
      box.querySelector(".offline-words").textContent = words.text;
      var button = box.querySelector("button");
      button.textContent = words.discard;
      button.hidden = !waiting() && !local;
      box.dataset.confirm = words.confirm;
      box.hidden = !offline;
      root.dataset.waiting = String(waiting());
    });
  }
  function quiet() {  /* table.js's "no connection" notes: the phone is playing, not stalled */
    ["offline", "not-recorded", "not-sent"].forEach(function (id) {
      var el = document.getElementById(id);
      if (el) el.hidden = true;
    });
    root.classList.remove("stale");
    root.classList.toggle("playing-offline", offline);
    root.dataset.offline = offline ? "playing" : "ready";
  }
  function discard() {
    queue(function () {
      if (local) {
        localStorage.removeItem(HELD + local.offline_id);
        location.reload();
        return null;
      }
      window.trucoPending.clear(match.id);
      return call("load", lang, exported, match.id, match.key, "[]")
        .then(function (answer) { swapBoard(answer.html); quiet(); return showBanner(); });
    });
  }

  /* ---- Going offline, playing, coming back -------------------------------------------- */
  function enterOffline() {
    if (offline || !ready || !exported || !window.trucoPending) return;
    /* The export must hold every action the board shows as confirmed (a drop right after an
       answer, before the export was read again: the taps wait on the phone as they would
       with no engine, and the scorekeeper gets them once it answers). */
    if (exportedVersion < shownVersion()) { root.dataset.offline = "behind"; showReady(); return; }
    offline = true;
    showReady();
    root.classList.remove("stale");  /* taps are taken at once: played once the engine has the match */
    root.classList.add("playing-offline");
    queue(function () {
      /* the tap that got no answer is kept already (table.js keeps it before it says so) */
      return call("load", lang, exported, match.id, match.key, JSON.stringify(pendingList()))
        .then(function (answer) { swapBoard(answer.html); quiet(); return showBanner(); });
    });
    probeSoon();
  }
  function play(action, words) {
    queue(function () {
      var version = shownVersion(), board = document.getElementById("scoreboard");
      var hand = board ? parseInt(board.dataset.hand, 10) || null : null;
      return call("apply", JSON.stringify(action)).then(function (answer) {
        swapBoard(answer.html);
        quiet();
        if (!answer.error) {
          var tap = { tap_key: newKey(), version: version, action: action, made_at: Date.now(), offline: true,
                      hand: hand, words: words || "" };
          if (local) { local.taps.push(tap); saveLocal(); } else { window.trucoPending.add(match.id, tap); }
        }
        return showBanner();
      });
    });
  }
  function paint(button) {  /* the tapped score at once, with table.js's own paint (one paint, online and off) */
    if (window.trucoTable) window.trucoTable.paint(button);
  }
  function wordsOf(button) {
    var label = button.querySelector(".label"), who = button.querySelector(".visually-hidden");
    return ((label || button).textContent + (who ? who.textContent : "")).replace(/\s+/g, " ").trim();
  }
  var takenAt = 0;
  function onTap(e) {
    if (!offline) return;
    var button = e.target.closest && e.target.closest("#scoreboard button.act");
    if (!button) return;
    e.preventDefault();
    e.stopImmediatePropagation();
    if (e.type === "click" && (performance.now() - takenAt < 1000 ||
        (window.trucoTable && window.trucoTable.justTaken()))) return;  /* taken at pointerup (here or online) */
    if (e.type === "pointerup") takenAt = performance.now();
    var action;
    try { action = JSON.parse(button.dataset.action); } catch (err) { return; }
    paint(button);
    var words = wordsOf(button);
    afterFrame(function () { play(action, words); });  /* the painted score is drawn first, as online */
  }
  function afterFrame(fn) { requestAnimationFrame(function () { setTimeout(fn, 0); }); }
  function onSubmit(e) {  /* Undo and the declared Envido points */
    if (!offline) return;
    var form = e.target.closest && e.target.closest("#scoreboard form");
    if (!form) return;
    e.preventDefault();
    e.stopImmediatePropagation();
    var el = form.elements, action;
    if (el.kind && el.kind.value === "envido_points") {
      action = { type: "envido_points", points: [parseInt(el.points0.value, 10), parseInt(el.points1.value, 10)] };
    } else if (el.action) {
      try { action = JSON.parse(el.action.value); } catch (err) { return; }
      var ask = form.getAttribute("hx-confirm");
      if (ask && !window.confirm(ask)) return;
    } else {
      return;
    }
    play(action);
  }
  window.addEventListener("pointerup", onTap, true);
  window.addEventListener("click", onTap, true);
  /* A touch taken at pointerup: cancelling its touchend spares the emulated mouse events and
     click (hit tests, hover, focus) that would run before the frame showing the score (table.js
     does the same online). */
  window.addEventListener("touchend", function (e) {
    if (offline && e.cancelable && performance.now() - takenAt < 500 && e.target.closest &&
        e.target.closest("#scoreboard button.act")) e.preventDefault();
  }, { capture: true, passive: false });
  window.addEventListener("submit", onSubmit, true);

  function probeSoon() {
    clearTimeout(probeTimer);
    probeTimer = setTimeout(probe, 3000);
  }
  /* Does the scorekeeper answer? Any answer but a server error means yes. */
  function reachable(url) {
    var ctl = new AbortController(), timer = setTimeout(function () { ctl.abort(); }, 4000);
    return fetch(url || script.dataset.engine + "?probe=1", {  /* with a query: never the worker's kept copy */ cache: "no-store", signal: ctl.signal, headers: { "HX-Request": "true" } })
      .then(function (r) { clearTimeout(timer); return r.status < 500; }, function () { clearTimeout(timer); return false; });
  }
  function probe() {
    if (!offline) return;
    var url = local ? null : fill(cfg.routes["matches.poll"], { match_id: match.id, key: match.key }) + "?version=" + exportedVersion;
    reachable(url).then(function (ok) { if (!ok) probeSoon(); else if (local) upload(); else comeBack(); });
  }
  function comeBack() {
    return queue(function () {
      /* table.js sends them and shows a conflict or a refused tap as for any kept tap */
      return new Promise(function (done) {
        document.dispatchEvent(new CustomEvent("truco:flush", { detail: { done: done } }));
      }).then(function () {
        offline = false;
        quiet();
        var box = document.getElementById("offline-play");
        if (box) box.hidden = true;
        root.dataset.waiting = String(waiting());  /* what is left after the upload (0 once sent) */
        var url = fill(cfg.routes["matches.poll"], { match_id: match.id, key: match.key }) + "?version=-1";
        return window.htmx.ajax("GET", url, { target: "#scoreboard", swap: "outerHTML" });
      });
    });
  }
  /* A match started on this phone goes up whole, once (the scorekeeper stores it once per
     offline_id); then its own page, whose links and QR code work, takes over. */
  function upload() {
    return queue(function () {
      var body = { offline_id: local.offline_id, taps: local.taps };
      for (var k in local.settings) body[k] = local.settings[k];
      return fetch(cfg.routes["offline.upload_match"], {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
      }).then(function (r) {
        if (r.status >= 500) { probeSoon(); return null; }
        return r.json().then(function (answer) {
          if (!r.ok) { root.dataset.uploadError = answer.error ? answer.error.message : String(r.status); return; }
          localStorage.removeItem(HELD + local.offline_id);
          location.replace(new URL(answer.edit_url, location.href).pathname);
        });
      }, function () { probeSoon(); });
    });
  }
  window.addEventListener("online", function () { if (offline) probe(); });

  /* ---- Noticing that the scorekeeper is gone (a board page) -----------------------------
     Only a request that was sent and got no answer (or a server error) says so: a tap's
     (table.js's "truco:unreached", after it kept the tap) or a poll's (htmx:error: no answer
     or timed out). A request htmx did not send (cancelled, queued) is no sign (issue 30:
     a poll set aside while a tap was in flight once put a phone in offline play). */
  function isBoardRequest(e) { var c = e.detail && e.detail.ctx; return !!c && !!c.target && c.target.id === "scoreboard"; }
  document.addEventListener("truco:unreached", function (e) {
    var status = e.detail ? e.detail.status : 0;
    if (!match || !(status === 0 || status >= 500)) return;
    if (offline && !local) {  /* a tap sent before the drop, kept after offline play began (a poll failed first): on the board too */
      queue(function () {
        return call("load", lang, exported, match.id, match.key, JSON.stringify(pendingList()))
          .then(function (answer) { swapBoard(answer.html); quiet(); return showBanner(); });
      });
      return;
    }
    enterOffline();
  });
  document.addEventListener("htmx:error", function (e) { if (isBoardRequest(e) && match) enterOffline(); });
  document.addEventListener("htmx:finally:request", function (e) {
    if (!isBoardRequest(e) || !match) return;
    var ctx = e.detail.ctx, status = ctx && ctx.response ? ctx.response.status : 0;
    if (status >= 500) { enterOffline(); return; }
    if (status) refreshExport();  /* at once (a request in the background): the drop may come next */
  });
  document.addEventListener("htmx:after:swap", function (e) { if (isBoardRequest(e)) refreshExport(); });

  /* ---- The new-match page: a match with no scorekeeper ---------------------------------- */
  function fieldsOf(form) {
    var out = {};
    new FormData(form).forEach(function (v, k) { out[k] = String(v); });
    return out;
  }
  function playLocal(answerHtml) {
    var main = document.querySelector("main");
    main.innerHTML = '<div id="scoreboard"></div>';
    swapBoard(answerHtml);
    offline = true;
    quiet();
    showBanner();
    probeSoon();
  }
  function startLocal(form) {
    var id = newKey();
    return queue(function () {
      return call("start", lang, JSON.stringify(fieldsOf(form)), id).then(function (answer) {
        if (answer.error) { form.dataset.offlineError = answer.error; return; }
        local = { offline_id: id, settings: answer.settings, taps: [], made_at: Date.now() };
        saveLocal();
        playLocal(answer.html);
      });
    });
  }
  function resumeLocal(held) {
    local = held;
    var doc = { variant: held.settings.variant, options: held.settings.options, mano: held.settings.mano,
                names: held.settings.names, players: held.settings.players, best_of: held.settings.best_of,
                actions: held.taps.map(function (t) { return t.action; }) };
    return queue(function () {
      return call("load", lang, JSON.stringify(doc), held.offline_id, "offline", "[]")
        .then(function (answer) { playLocal(answer.html); });
    });
  }
  function newMatchPage(form) {
    form.addEventListener("submit", function (e) {
      if (!ready) return;  /* no engine: the form posts as it always does */
      e.preventDefault();
      reachable().then(function (ok) { if (ok) form.submit(); else startLocal(form); });
    });
    var held = heldMatches();
    if (!held.length) return null;
    return call("held", lang, held.length).then(function (words) {
      var box = document.createElement("div");
      box.id = "offline-held"; box.className = "offline-play";
      box.innerHTML = '<p></p><button type="button" class="primary" id="offline-resume"></button> ' +
                      '<button type="button" id="offline-held-discard"></button>';
      box.querySelector("p").textContent = words.text;
      box.querySelector("#offline-resume").textContent = words.resume;
      box.querySelector("#offline-held-discard").textContent = words.discard;
      box.querySelector("#offline-resume").addEventListener("click", function () { resumeLocal(held[0]); });
      box.querySelector("#offline-held-discard").addEventListener("click", function () {
        if (!window.confirm(words.confirm)) return;
        localStorage.removeItem(HELD + held[0].offline_id);
        location.reload();
      });
      var section = document.querySelector("main section");
      section.parentNode.insertBefore(box, section);
    });
  }

  /* ---- Starting: engine files and this page kept, worker started, export read ----------- */
  function keep(message) {
    if ("serviceWorker" in navigator && navigator.serviceWorker.controller) navigator.serviceWorker.controller.postMessage(message);
  }
  /* The engine's files are fetched once: by the service worker, which keeps them; the worker
     starts when they are kept (or at once with no service worker), so it reads them from there. */
  var kept = new Promise(function (resolve) {
    if (!navigator.serviceWorker || !navigator.serviceWorker.controller) { resolve(); return; }
    navigator.serviceWorker.addEventListener("message", function (e) {
      if (e.data && "engineCached" in e.data) {
        if (e.data.engineCached) root.dataset.engineCached = "1";
        resolve();
      }
    });
  });
  function startWorker() {
    return kept.then(startedWorker);
  }
  function startedWorker() {
    worker = new Worker(cfg.worker, { type: "module" });
    worker.onmessage = function (e) {
      var p = calls[e.data.id];
      delete calls[e.data.id];
      if (p) { if (e.data.ok) p.resolve(e.data.result); else p.reject(new Error(e.data.error)); }
    };
    return call("boot", { pyodide: cfg.pyodide, bundle: cfg.bundle });
  }
  function start() {
    return fetch(script.dataset.engine, { cache: "no-store" }).then(function (r) { return r.json(); }).then(function (c) {
      cfg = c;
      keep({ engine: cfg.files });
      match = boardOf(location.pathname);
      var form = document.getElementById("new-match");
      if (match && document.querySelector("#scoreboard.can-edit")) {
        keep({ page: location.pathname });
        keep({ page: cfg.routes["matches.new"] });  /* a new match with no scorekeeper starts there */
        try { exported = localStorage.getItem(exportKey()); } catch (err) { exported = null; }
        if (exported) exportedVersion = JSON.parse(exported).actions.length;
        return Promise.all([startWorker(), refreshExport()]).then(function (done) { return done[0]; });
      }
      if (form) {
        keep({ page: location.pathname });
        return startWorker().then(function (booted) { return Promise.resolve(newMatchPage(form)).then(function () { return booted; }); });
      }
      return null;
    }).then(function (booted) {
      if (!booted) return;
      root.dataset.engineBootMs = String(Math.round(booted.ms));  /* the worker's start, files kept */
      root.dataset.engineSnapshot = booted.snapshot;  /* "used", "made" (kept for the next start) or "off" */
      if (booted.snapshotError) root.dataset.engineSnapshotError = booted.snapshotError;
      root.dataset.engineReadyMs = String(Math.round(performance.now() - began));
      ready = true;
      root.dataset.offline = "ready";
      showReady();
    }).catch(function (err) {
      root.dataset.offline = "failed";
      root.dataset.offlineError = String(err && err.message || err);
    });
  }
  window.trucoOffline = { start: start, isOffline: function () { return offline; } };
  start();
})();
