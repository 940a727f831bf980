/* truco-scorer at the table: the taps kept on this phone until the scorekeeper answers.
   One of the parts of the board's script, js/table.js: scorer/web/assets.py (BUNDLES) serves
   static/js/table/ pending.js, page.js, taps.js, board.js and kept.js, in this order, as one
   script in one closure ("use strict"), so that the first open of a board stays one request
   (and under its 30 KB, tests/browser/test_offline_play.py). This part has its own closure: it
   shares only window.trucoPending. */
/* window.trucoPending: the taps kept on this phone until the scorekeeper answers (issue 24; the
   contract with the offline engine: docs/offline.md; served in js/table.js, not a script of its
   own, so the first open stays one request lighter). A tap made without an answer is kept in
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
