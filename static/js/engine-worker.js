/* truco-scorer's offline engine (issue 24), in a worker so that starting it never holds the
   page: Pyodide (CPython on WebAssembly, static/vendor/pyodide-*) runs the same rules core,
   board view code and templates as the scorekeeper, unpacked from the engine bundle
   (scorer/web/engine_bundle.py). The page (offline.js) asks; each answer is JSON-ready.
   Starting it: Pyodide, the bundle unpacked, the rules core imported and a first board drawn in
   each language (offline_table.warm) take seconds on a phone, so once done the worker keeps a
   memory snapshot of that Python (Pyodide's makeMemorySnapshot) in Cache Storage
   (SNAPSHOTS), keyed by Pyodide's version, the bundle's hash and this worker's version; every
   later start loads it instead (then only the bundle's files are unpacked again). A snapshot
   that cannot be used (broken, another build) is dropped and the engine starts as usual.
   The module also exports ``ops`` so that bench/offline.py times this very start on a page.
   Calls: boot(cfg), load(lang, exportJson, matchId, key, pendingJson) -> board, apply(actionJson)
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
async function keptSnapshot(key) {
  if (typeof caches === "undefined") return null;
  const hit = await (await caches.open(SNAPSHOTS)).match(key);
  return hit ? new Uint8Array(await hit.arrayBuffer()) : null;
}
/* The new snapshot kept under key, every other one dropped. */
async function keepSnapshot(key, bytes) {
  if (typeof caches === "undefined") return;
  const cache = await caches.open(SNAPSHOTS);
  await Promise.all((await cache.keys()).filter((r) => r.url !== key).map((r) => cache.delete(r)));
  await cache.put(key, new Response(bytes, { headers: { "Content-Type": "application/octet-stream" } }));
}
async function dropSnapshot(key) {
  if (typeof caches !== "undefined") await (await caches.open(SNAPSHOTS)).delete(key);
}
async function startPyodide(mod, cfg, options) {
  const started = await mod.loadPyodide({ indexURL: cfg.pyodide, stdout: () => {}, stderr: () => {}, ...options });
  const zip = await (await fetch(cfg.bundle)).arrayBuffer();
  started.unpackArchive(zip, "zip", { extractDir: "/engine" });
  return started;
}

export const ops = {
  /* cfg: {pyodide, bundle, snapshot}; snapshot false: a plain start, none used or made (the
     bench's "before"). Answers {ms, snapshot: "used" | "made" | "off", snapshotError}. */
  async boot(cfg) {
    const started = performance.now();
    const mod = await import(cfg.pyodide + "pyodide.mjs");
    py = null; fns = {};
    if (cfg.snapshot === false) {
      py = await startPyodide(mod, cfg, {});
      py.runPython(BOOT_PY);
      return { ms: performance.now() - started, snapshot: "off", snapshotError: null };
    }
    const key = snapshotKey(cfg, mod.version);
    let snapshotError = null;
    try {
      const kept = await keptSnapshot(key);
      if (kept) {
        py = await startPyodide(mod, cfg, { _loadSnapshot: kept });
        if (py.globals.get("SNAPSHOT_KEY") !== key) throw new Error("the snapshot is not this engine's");
        return { ms: performance.now() - started, snapshot: "used", snapshotError };
      }
    } catch (err) {
      snapshotError = String(err && err.message || err);
      py = null; fns = {};
      await dropSnapshot(key).catch(() => null);
    }
    py = await startPyodide(mod, cfg, { _makeSnapshot: true });
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
  load(lang, exportJson, matchId, key, pendingJson) {
    return JSON.parse(fn("load")(lang, exportJson, matchId, key, pendingJson));
  },
  apply(actionJson) { return JSON.parse(fn("apply")(actionJson)); },
  board() { return JSON.parse(fn("board")()); },
  banner(waiting, newMatch) { return JSON.parse(fn("banner")(waiting, !!newMatch)); },
  start(lang, fieldsJson, offlineId) { return JSON.parse(fn("start")(lang, fieldsJson, offlineId)); },
  held(lang, count) { return JSON.parse(fn("held")(lang, count)); },
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
