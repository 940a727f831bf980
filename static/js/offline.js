/* truco-scorer with no scorekeeper (issue 24): loaded by table.js once a board has been open a
   few seconds (or in the installed app), never on the first-open path. It has the service
   worker keep the offline engine (Pyodide and the engine bundle), starts it in a worker
   (engine-worker.js) and keeps the match's export up to date while the scorekeeper answers.
   When a tap or a poll gets no answer, the phone plays on: each tap is applied by the same
   Python rules core and the board drawn by the same view code and template, swapped into
   #scoreboard, and the tap is kept with window.trucoPending.add(..., offline: true)
   (OFFLINE-PROTOCOL.md, section 2) until the scorekeeper answers again and the page sends it. */
(function () {
  "use strict";
  var root = document.documentElement;
  var script = document.currentScript;
  var lang = (script && script.dataset.lang) || "pt_BR";
  var cfg = null, worker = null, calls = {}, seq = 0, chain = Promise.resolve();
  var match = null;          /* {id, key} of the board page */
  var exported = null;       /* the scorekeeper's export, as text, and its version */
  var exportedVersion = -1;
  var ready = false, offline = false, lastPost = null, probeTimer = null;

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
  function pendingList() { return window.trucoPending ? window.trucoPending.list(match.id) : []; }
  function storeKey() { return "truco:export:" + match.id; }

  /* ---- The match's export, kept while the scorekeeper answers ------------------------- */
  function shownVersion() {
    var board = document.getElementById("scoreboard");
    return board ? parseInt(board.dataset.version, 10) : -1;
  }
  function refreshExport() {
    if (offline || !match) return Promise.resolve();
    var want = shownVersion();
    if (want === exportedVersion) return Promise.resolve();
    return fetch(fill(cfg.routes["records.export"], { match_id: match.id }), { cache: "no-store" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (text) {
        if (!text) return;
        exported = text;
        exportedVersion = JSON.parse(text).actions.length;
        try { localStorage.setItem(storeKey(), text); } catch (err) { /* full: kept in memory */ }
      });
  }

  /* ---- Drawing the phone's board -------------------------------------------------------- */
  function swapBoard(html) {
    var board = document.getElementById("scoreboard");
    var t = document.createElement("template");
    t.innerHTML = html.trim();
    var fresh = t.content.firstElementChild;
    if (!board || !fresh) return;
    var focused = board.contains(document.activeElement);
    board.replaceWith(fresh);
    if (focused) fresh.focus({ preventScroll: true });
  }
  function showBanner() {
    return call("banner", pendingList().length).then(function (text) {
      var p = document.getElementById("offline-play");
      if (!p) {
        p = document.createElement("p");
        p.id = "offline-play"; p.className = "offline-play"; p.setAttribute("role", "status");
        var board = document.getElementById("scoreboard");
        board.parentNode.insertBefore(p, board);
      }
      p.textContent = text;
      p.hidden = !offline;
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

  /* ---- Going offline, playing, coming back -------------------------------------------- */
  function enterOffline() {
    if (offline || !ready || !exported || !window.trucoPending) return;
    offline = true;
    queue(function () {
      var failed = lastPost;
      lastPost = null;
      if (failed && !pendingList().some(function (t) { return failed.tap_key && t.tap_key === failed.tap_key; })) {
        window.trucoPending.add(match.id, { tap_key: failed.tap_key || newKey(), version: failed.version,
                                            action: failed.action, made_at: Date.now(), offline: true });
      }
      return call("load", lang, exported, match.id, match.key, JSON.stringify(pendingList()))
        .then(function (answer) { swapBoard(answer.html); quiet(); return showBanner(); });
    });
    probeSoon();
  }
  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return "t" + Date.now().toString(36) + Math.random().toString(36).slice(2);
  }
  function play(action) {
    queue(function () {
      var board = document.getElementById("scoreboard");
      var version = board ? parseInt(board.dataset.version, 10) : 0;
      return call("apply", JSON.stringify(action)).then(function (answer) {
        swapBoard(answer.html);
        quiet();
        if (!answer.error) {
          window.trucoPending.add(match.id, { tap_key: newKey(), version: version, action: action,
                                              made_at: Date.now(), offline: true });
        }
        return showBanner();
      });
    });
  }
  function paint(button) {  /* the tapped score at once, as table.js does online */
    var pays = (button.dataset.pays || "").split(" ");
    if (pays.length !== 2) return;
    for (var i = 0; i < 2; i++) {
      var el = document.getElementById("score" + i), add = parseInt(pays[i], 10) || 0;
      if (el && add) el.textContent = String(Math.max(0, (parseInt(el.textContent, 10) || 0) + add));
    }
  }
  var takenAt = 0;
  function onTap(e) {
    if (!offline) return;
    var button = e.target.closest && e.target.closest("#scoreboard button.act");
    if (!button) return;
    e.preventDefault();
    e.stopImmediatePropagation();
    if (e.type === "click" && performance.now() - takenAt < 1000) return;  /* taken at pointerup */
    if (e.type === "pointerup") takenAt = performance.now();
    var action;
    try { action = JSON.parse(button.dataset.action); } catch (err) { return; }
    paint(button);
    play(action);
  }
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
  window.addEventListener("submit", onSubmit, true);

  function probeSoon() {
    clearTimeout(probeTimer);
    probeTimer = setTimeout(probe, 3000);
  }
  /* Is the scorekeeper back? A poll of the version it last confirmed: any answer but a
     server error means yes; the page then sends the phone's taps and shows its board. */
  function probe() {
    if (!offline) return;
    var url = fill(cfg.routes["matches.poll"], { match_id: match.id, key: match.key }) + "?version=" + exportedVersion;
    var ctl = new AbortController(), timer = setTimeout(function () { ctl.abort(); }, 4000);
    fetch(url, { cache: "no-store", signal: ctl.signal, headers: { "HX-Request": "true" } }).then(function (r) {
      clearTimeout(timer);
      if (r.status >= 500) return probeSoon();
      return comeBack();
    }, function () { clearTimeout(timer); probeSoon(); });
  }
  function comeBack() {
    return queue(function () {
      return Promise.resolve(window.trucoPending.flush(match.id)).catch(function () {}).then(function () {
        offline = false;
        quiet();
        var p = document.getElementById("offline-play");
        if (p) p.hidden = true;
        exportedVersion = -1;
        var url = fill(cfg.routes["matches.poll"], { match_id: match.id, key: match.key }) + "?version=-1";
        return window.htmx.ajax("GET", url, { target: "#scoreboard", swap: "outerHTML" });
      });
    });
  }
  window.addEventListener("online", function () { if (offline) probe(); });

  /* ---- Noticing that the scorekeeper is gone -------------------------------------------- */
  function isBoardRequest(e) { var c = e.detail && e.detail.ctx; return !!c && !!c.target && c.target.id === "scoreboard"; }
  document.addEventListener("htmx:before:request", function (e) {
    var ctx = e.detail.ctx;
    if (!isBoardRequest(e) || ctx.request.method === "GET") return;
    var body = ctx.request.body, action = null;
    try { action = body && body.get("action") ? JSON.parse(body.get("action")) : null; } catch (err) { action = null; }
    if (body && body.get("kind") === "envido_points") {
      action = { type: "envido_points", points: [parseInt(body.get("points0"), 10), parseInt(body.get("points1"), 10)] };
    }
    lastPost = action ? { action: action, version: parseInt(body.get("version"), 10),
                          tap_key: body.get("tap_key") || null } : null;
  });
  document.addEventListener("htmx:finally:request", function (e) {
    if (!isBoardRequest(e)) return;
    var ctx = e.detail.ctx, status = ctx && ctx.response ? ctx.response.status : 0;
    if (status === 0 || status >= 500) { enterOffline(); return; }
    if (ctx.request.method !== "GET") lastPost = null;
    whenIdle(refreshExport);
  });
  function whenIdle(fn) { if (window.requestIdleCallback) requestIdleCallback(fn, { timeout: 3000 }); else setTimeout(fn, 0); }

  /* ---- Starting: engine files kept, worker started, export read ------------------------- */
  function keepFiles() {
    if (!("serviceWorker" in navigator) || !navigator.serviceWorker.controller) return;
    navigator.serviceWorker.controller.postMessage({ engine: cfg.files });
  }
  navigator.serviceWorker && navigator.serviceWorker.addEventListener("message", function (e) {
    if (e.data && e.data.engineCached) root.dataset.engineCached = "1";
  });
  function start() {
    return fetch(script.dataset.engine, { cache: "no-store" }).then(function (r) { return r.json(); }).then(function (c) {
      cfg = c;
      match = boardOf(location.pathname);
      keepFiles();
      if (!match || !document.querySelector("#scoreboard.can-edit")) return null;
      try { exported = localStorage.getItem(storeKey()); } catch (err) { exported = null; }
      if (exported) exportedVersion = JSON.parse(exported).actions.length;
      worker = new Worker(cfg.worker, { type: "module" });
      worker.onmessage = function (e) {
        var p = calls[e.data.id];
        delete calls[e.data.id];
        if (p) { if (e.data.ok) p.resolve(e.data.result); else p.reject(new Error(e.data.error)); }
      };
      return Promise.all([call("boot", { pyodide: cfg.pyodide, bundle: cfg.bundle }), refreshExport()]);
    }).then(function (done) {
      if (!done) return;
      root.dataset.engineBootMs = String(Math.round(done[0].ms));
      ready = true;
      root.dataset.offline = "ready";
    }).catch(function (err) {
      root.dataset.offline = "failed";
      root.dataset.offlineError = String(err && err.message || err);
    });
  }
  window.trucoOffline = { start: start, isOffline: function () { return offline; }, call: function () { return call.apply(null, arguments); } };
  start();
})();
