/* truco-scorer's offline engine (issue 24), in a worker so that starting it never holds the
   page: Pyodide (CPython on WebAssembly, static/vendor/pyodide-*) runs the same rules core,
   board view code and templates as the scorekeeper, unpacked from the engine bundle
   (scorer/web/engine_bundle.py). The page (offline.js) asks; each answer is JSON-ready.
   Calls: boot(cfg), load(lang, exportJson, matchId, key, pendingJson) -> board, apply(actionJson)
   -> {error, html, version}, board(), banner(waiting, newMatch), start(lang, fieldsJson, offlineId)
   -> {settings, html} or {error}, held(lang, count). */
"use strict";
let py = null, fns = {};
/* The Python functions, looked up once (each lookup makes a proxy to free). */
function fn(name) { return fns[name] || (fns[name] = py.globals.get(name)); }

/* Python's side: the bundle on sys.path, then scorer.present.offline_table. */
const BOOT_PY = `
import sys, json
sys.path.insert(0, "/engine")
from scorer.present import offline_table as ot

TABLE = None

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
    renderer = ot.BoardRenderer(ot.Path("/engine"), lang)
    try:
        settings = ot.settings_from_fields(json.loads(fields_json), renderer.default_names())
    except ot.RuleError as e:
        return json.dumps({"error": e.render(renderer.translate)})
    TABLE = ot.OfflineTable({**settings, "actions": []}, offline_id, "offline", renderer)
    return json.dumps({"settings": settings, "html": TABLE.board(), "version": 0})

def held(lang, count):
    renderer = ot.BoardRenderer(ot.Path("/engine"), lang)
    return json.dumps(renderer.held(int(count)))
`;

const ops = {
  async boot(cfg) {
    const started = performance.now();
    const mod = await import(cfg.pyodide + "pyodide.mjs");
    py = await mod.loadPyodide({ indexURL: cfg.pyodide, stdout: () => {}, stderr: () => {} });
    const zip = await (await fetch(cfg.bundle)).arrayBuffer();
    py.unpackArchive(zip, "zip", { extractDir: "/engine" });
    py.runPython(BOOT_PY);
    return { ms: performance.now() - started };
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

self.onmessage = async (e) => {
  const { id, op, args } = e.data;
  try {
    const result = await ops[op].apply(null, args || []);
    self.postMessage({ id, ok: true, result });
  } catch (err) {
    self.postMessage({ id, ok: false, error: String(err && err.message || err) });
  }
};
