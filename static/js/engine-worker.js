/* truco-scorer's offline engine (issue 24), in a worker so that starting it never holds the
   page: Pyodide (CPython on WebAssembly, static/vendor/pyodide-*) runs the same rules core,
   board view code and templates as the scorekeeper, unpacked from the engine bundle
   (scorer/web/engine_bundle.py). The page (offline.js) asks; each answer is JSON-ready.
   Starting it (Pyodide, the bundle unpacked, every module imported and a first board drawn in
   each language: offline_table.warm) takes seconds on a phone, so the first start keeps a
   memory snapshot of that Python (Pyodide's makeMemorySnapshot) in Cache Storage (SNAPSHOTS),
   keyed by Pyodide's version, the bundle's hash and this worker's version, and every later
   start loads it instead; the bundle's files are then unpacked only after the first board, off
   the start's path. A snapshot that cannot be used (broken, another build) is dropped and the
   engine starts as usual (and makes a new one).
   The module also exports ``ops`` so that bench/offline.py times this very start on a page.
   Calls (docs/offline.md, "The protocol between the page, the worker and the scorekeeper"): boot(cfg), load(lang, exportJson, matchId, key, pendingJson) -> board, apply(actionJson)
   -> {error, html, version}, board(), banner(waiting, newMatch), start(lang, fieldsJson, offlineId)
   -> {settings, html} or {error}, held(lang, count). */
"use strict";
let py = null, fns = {};
/* Cache Storage's cache of the snapshot (kept by the service worker's "activate"). */
const SNAPSHOTS = "truco-engine-snapshot";
/* The Python functions, looked up once (each lookup makes a proxy to free). */
function fn(name) { return fns[name] || (fns[name] = py.globals.get(name)); }

/* Python's side: the bundle on sys.path, then scorer.present.offline_table. */
const BOOT_PY = `
import sys, json
sys.path.insert(0, "/engine")
from scorer.present import offline_table as ot

TABLE = None
SNAPSHOT_KEY = None

def load(lang, export_json, match_id, key, pending_json):
    global TABLE
    TABLE = ot.load("/engine", lang, export_json, match_id, key, json.loads(pending_json))
    return json.dumps({"html": TABLE.board(), "version": TABLE.version})

def apply(action_json):
    error = TABLE.apply(json.loads(action_json))
    return json.dumps({"error": error, "html": TABLE.board(error), "version": TABLE.version})

def board():
    return json.dumps({"html": TABLE.board(), "version": TABLE.version})

def banner(waiting, new_match):
    return json.dumps(TABLE.renderer.banner(int(waiting), bool(new_match)))

def start(lang, fields_json, offline_id):
    """A new match on this phone, from the new-match form's fields."""
    global TABLE
    renderer = ot.renderer_for("/engine", lang)
    try:
        settings = ot.settings_from_fields(json.loads(fields_json), renderer.default_names())
    except ot.RuleError as e:
        return json.dumps({"error": e.render(renderer.translate)})
    TABLE = ot.OfflineTable({**settings, "actions": []}, offline_id, "offline", renderer)
    return json.dumps({"settings": settings, "html": TABLE.board(), "version": 0})

def held(lang, count):
    renderer = ot.renderer_for("/engine", lang)
    return json.dumps(renderer.held(int(count)))
`;

/* The key of the snapshot of this Pyodide, this bundle (its URL holds its hash) and this worker. */
function snapshotKey(cfg, version) {
  const worker = new URL(import.meta.url).searchParams.get("v") || "";
  return new URL(cfg.bundle + "?snapshot=" + encodeURIComponent(version + "-" + worker), import.meta.url).href;
}
/* The kept snapshot, {bytes: a promise, read while Pyodide loads its own files}, or null. */
async function keptSnapshot(key) {
  const hit = await (await caches.open(SNAPSHOTS)).match(key);
  return hit ? { bytes: hit.arrayBuffer().then((b) => new Uint8Array(b)) } : null;
}
/* The new snapshot kept under key, every other one dropped. */
async function keepSnapshot(key, bytes) {
  const cache = await caches.open(SNAPSHOTS);
  await Promise.all((await cache.keys()).filter((r) => r.url !== key).map((r) => cache.delete(r)));
  await cache.put(key, new Response(bytes, { headers: { "Content-Type": "application/octet-stream" } }));
}
async function dropSnapshot(key) { await (await caches.open(SNAPSHOTS)).delete(key); }
async function bundleZip(cfg) { return (await fetch(cfg.bundle)).arrayBuffer(); }
function unpack(zip) { py.unpackArchive(zip, "zip", { extractDir: "/engine" }); }
/* Started from a snapshot, the engine needs none of the bundle's files (offline_table.warm
   did all that reads them before the snapshot): they are unpacked after the first board, off
   the start's path, for whatever code might still look for one. */
let unpackLater = null;
function afterFirstAnswer() {
  const zip = unpackLater;
  unpackLater = null;
  if (zip) setTimeout(() => { try { unpack(zip); } catch (err) { /* the files stay in memory only */ } }, 0);
}

export const ops = {
  /* cfg: {pyodide, bundle, snapshot}; snapshot false (or no Cache Storage, as on plain http):
     a plain start, no snapshot used or made (also the bench's "before").
     Answers {ms, snapshot: "used" | "made" | "off", snapshotError: why a kept one was not used}. */
  async boot(cfg) {
    const started = performance.now();
    const mod = await import(cfg.pyodide + "pyodide.mjs");
    const options = { indexURL: cfg.pyodide, stdout: () => {}, stderr: () => {} };
    py = null; fns = {}; unpackLater = null;
    if (cfg.snapshot === false || typeof caches === "undefined") {  /* no Cache Storage: plain http */
      py = await mod.loadPyodide(options);
      unpack(await bundleZip(cfg));
      py.runPython(BOOT_PY);
      return { ms: performance.now() - started, snapshot: "off", snapshotError: null };
    }
    const key = snapshotKey(cfg, mod.version);
    let snapshotError = null;
    try {
      const kept = await keptSnapshot(key);
      if (kept) {
        const zip = bundleZip(cfg);
        py = await mod.loadPyodide({ ...options, _loadSnapshot: kept.bytes });
        if (py.globals.get("SNAPSHOT_KEY") !== key) throw new Error("the snapshot is not this engine's");
        unpackLater = await zip;
        return { ms: performance.now() - started, snapshot: "used", snapshotError };
      }
    } catch (err) {
      snapshotError = String(err && err.message || err);
      py = null; fns = {};
      await dropSnapshot(key).catch(() => null);
    }
    py = await mod.loadPyodide({ ...options, _makeSnapshot: true });
    unpack(await bundleZip(cfg));
    py.runPython(BOOT_PY);
    py.globals.set("SNAPSHOT_KEY", key);
    py.runPython('ot.warm("/engine")');
    let made = "made";
    try {
      await keepSnapshot(key, py.makeMemorySnapshot());
    } catch (err) {
      made = "off"; snapshotError = String(err && err.message || err);
    }
    return { ms: performance.now() - started, snapshot: made, snapshotError };
  },
  /* Each answer below is JSON-ready; load, start and held may come first after a start. */
  load(lang, exportJson, matchId, key, pendingJson) {
    const answer = JSON.parse(fn("load")(lang, exportJson, matchId, key, pendingJson));
    afterFirstAnswer();
    return answer;
  },
  apply(actionJson) { return JSON.parse(fn("apply")(actionJson)); },
  board() { return JSON.parse(fn("board")()); },
  banner(waiting, newMatch) { return JSON.parse(fn("banner")(waiting, !!newMatch)); },
  start(lang, fieldsJson, offlineId) {
    const answer = JSON.parse(fn("start")(lang, fieldsJson, offlineId));
    afterFirstAnswer();
    return answer;
  },
  held(lang, count) {
    const answer = JSON.parse(fn("held")(lang, count));
    afterFirstAnswer();
    return answer;
  },
};

if (typeof WorkerGlobalScope !== "undefined") self.onmessage = async (e) => {
  const { id, op, args } = e.data;
  try {
    const result = await ops[op].apply(null, args || []);
    self.postMessage({ id, ok: true, result });
  } catch (err) {
    self.postMessage({ id, ok: false, error: String(err && err.message || err) });
  }
};
