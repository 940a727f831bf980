"""The offline engine (issue 24): the vendored Pyodide served as the browser needs it, the
engine bundle built from the installed code, the phone's board drawn by the same view code
and template as the server's, and the upload of a match started with no scorekeeper."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import uuid
import zipfile
from pathlib import Path

import brotli
import pytest

from scorer.web import create_app
from scorer.web.assets import IMMUTABLE, PYODIDE_DIR

MATCHES = Path(__file__).resolve().parents[1] / "matches"
VENDOR = Path(__file__).resolve().parents[2] / "static" / "vendor"


@pytest.fixture
def app(tmp_path):
    return create_app({"TESTING": True, "DATABASE": tmp_path / "offline.sqlite3"})


@pytest.fixture
def client(app):
    return app.test_client()


def bundle_zip(client) -> tuple[str, zipfile.ZipFile]:
    url = client.get("/engine.json").get_json()["bundle"]
    r = client.get(url, headers={"Accept-Encoding": "br"})
    assert r.status_code == 200 and r.headers["Content-Encoding"] == "br"
    return url, zipfile.ZipFile(io.BytesIO(brotli.decompress(r.data)))


# ------------------------------------------------------------------ Pyodide's files


@pytest.mark.parametrize("name, mimetype", [
    ("pyodide.asm.wasm", "application/wasm"), ("pyodide.mjs", "text/javascript"),
    ("pyodide.asm.mjs", "text/javascript"), ("python_stdlib.zip", "application/zip"),
    ("pyodide-lock.json", "application/json"),
])
def test_pyodide_is_served_with_its_type_and_kept_a_year(client, name, mimetype):
    with client.get(f"/static/{PYODIDE_DIR}/{name}", headers={"Accept-Encoding": "identity"}) as r:
        assert r.status_code == 200 and r.mimetype == mimetype
        assert r.headers["Cache-Control"] == IMMUTABLE
        assert r.data == (VENDOR / PYODIDE_DIR.split("/")[1] / name).read_bytes()


def test_the_webassembly_goes_compressed_once(client):
    with client.get(f"/static/{PYODIDE_DIR}/pyodide.asm.wasm", headers={"Accept-Encoding": "br"}) as first, \
            client.get(f"/static/{PYODIDE_DIR}/pyodide.asm.wasm", headers={"Accept-Encoding": "br"}) as again:
        assert first.headers["Content-Encoding"] == "br" and first.data == again.data
    assert len(first.data) < 0.4 * (VENDOR / PYODIDE_DIR.split("/")[1] / "pyodide.asm.wasm").stat().st_size


def test_the_vendored_files_are_the_ones_listed_with_their_hashes():
    import hashlib

    listed = dict(line.split()[2:0:-1] for line in (VENDOR / "pyodide.txt").read_text().splitlines()
                  if line.startswith("sha256 "))
    folder = VENDOR / PYODIDE_DIR.split("/")[1]
    assert set(listed) == {p.name for p in folder.iterdir()}
    for name, digest in listed.items():
        assert hashlib.sha256((folder / name).read_bytes()).hexdigest() == digest, name
    assert "MPL-2.0" in (VENDOR / "pyodide.txt").read_text()


def test_a_scorekeeper_can_keep_the_engine_off_the_phones(tmp_path, client):
    assert 'data-engine="/engine.json"' in client.get("/").get_data(as_text=True)
    off = create_app({"TESTING": True, "DATABASE": tmp_path / "off.sqlite3", "OFFLINE_ENGINE": False}).test_client()
    page = off.get("/").get_data(as_text=True)
    assert "data-engine" not in page and "offline.js" not in page


def test_only_the_engine_worker_may_compile_webassembly(client):
    info = client.get("/engine.json").get_json()
    worker = client.get(info["worker"])
    assert "'wasm-unsafe-eval'" in worker.headers["Content-Security-Policy"]
    for other in ("/", "/static/js/table.js", info["bundle"]):
        with client.get(other) as r:
            assert "wasm-unsafe-eval" not in r.headers["Content-Security-Policy"]


# ------------------------------------------------------------------ the bundle


def test_the_bundle_holds_the_core_the_templates_the_catalogs_and_pure_jinja(client, app):
    url, z = bundle_zip(client)
    names = set(z.namelist())
    assert {"scorer/core/match/engine.py", "scorer/present/offline_table.py", "scorer/present/log_words.py",
            "templates/partials/_scoreboard.html", "translations/es/LC_MESSAGES/messages.mo",
            "jinja2/__init__.py", "markupsafe/__init__.py", "truco_routes.json"} <= names
    assert not [n for n in names if n.endswith((".so", ".pyc", ".c")) or n.startswith(("flask", "werkzeug"))]
    assert not [n for n in names if n.startswith(("scorer/app/", "scorer/cli/"))]
    routes = json.loads(z.read("truco_routes.json"))
    assert routes["matches.act"] == next(r.rule for r in app.url_map.iter_rules() if r.endpoint == "matches.act")


def test_the_bundle_is_cached_a_year_under_its_hash_and_another_hash_is_not_found(client):
    url, z = bundle_zip(client)
    r = client.get(url, headers={"Accept-Encoding": "gzip"})
    assert r.headers["Cache-Control"] == IMMUTABLE and r.headers["Content-Encoding"] == "gzip"
    assert r.headers["Vary"] == "Accept-Encoding"
    plain = client.get(url, headers={"Accept-Encoding": "identity"})
    assert "Content-Encoding" not in plain.headers
    import hashlib

    assert hashlib.sha256(plain.data).hexdigest()[:12] in url
    assert client.get("/engine/000000000000.zip").status_code == 404


def test_an_app_made_again_reuses_the_bundle_and_a_changed_file_makes_a_new_one(app, tmp_path):
    """The bundle is built once per process for the same files; a file whose stamp changed
    (here its modification time, put back after) is read again."""
    from scorer.web import engine_bundle

    first = engine_bundle.build(app)
    again = engine_bundle.build(create_app({"TESTING": True, "DATABASE": tmp_path / "again.sqlite3"}))
    assert again is first
    template = engine_bundle.asset_dir("templates") / engine_bundle.TEMPLATES[0]
    stat = template.stat()
    try:
        os.utime(template, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
        changed = engine_bundle.build(app)
    finally:
        os.utime(template, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert changed is not first and changed.raw == first.raw  # read again; the same content


def test_the_service_worker_keeps_the_engine_only_when_a_page_asks(client):
    sw = client.get("/sw.js").get_data(as_text=True)
    info = client.get("/engine.json").get_json()
    shell = json.loads(re.search(r"const SHELL\s*=\s*(\[.*?\]);", sw).group(1))
    assert not [u for u in shell if "pyodide" in u or "/engine/" in u]  # not at install
    engine = json.loads(re.search(r"const ENGINE_PATHS\s*=\s*(\[.*?\]);", sw).group(1))
    assert all(any(u.startswith(p) for p in engine) for u in info["files"])


# ------------------------------------------------------------------ the same board on the phone

PHONE = """
import json, shutil, sys
sys.path.insert(0, sys.argv[1])
from scorer.present import offline_table
export = sys.stdin.read()
if sys.argv[5:] == ["warm"]:  # as a start from the worker's memory snapshot: warmed, then no file
    offline_table.warm(sys.argv[1])
    shutil.rmtree(sys.argv[1])
table = offline_table.load(sys.argv[1], sys.argv[2], export, sys.argv[3], sys.argv[4])
print(json.dumps({"html": table.board(), "modules": sorted(m for m in sys.modules if m.split(".")[0] in
                  ("flask", "werkzeug", "sqlite3", "babel", "sqlalchemy"))}))
"""


def phone_board(tmp_path, z, lang, export, match_id, key, *how: str) -> dict:
    """The board the phone's engine draws: the bundle alone (``python -I -S``: the standard
    library, no site-packages) on this CPython (``how``: ``"warm"``, warmed as before the
    worker's memory snapshot, then the bundle's files deleted)."""
    z.extractall(tmp_path / "engine")
    out = subprocess.run([sys.executable, "-I", "-S", "-c", PHONE, str(tmp_path / "engine"), lang, match_id, key, *how],
                         input=json.dumps(export), capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def seen(html: str) -> dict:
    """What a player sees on a board: the scores, the buttons (their actions, words and
    points), the hand line and the log."""
    text = re.sub(r"\s+", " ", html)
    return {
        "scores": re.findall(r'id="score\d">(\d+)<', text),
        "buttons": re.findall(r'<button type="submit" class="act[^"]*"[^>]*data-action="([^"]+)"><span class="label">([^<]+)', text),
        "notes": re.findall(r'<small class="pts[^"]*">([^<]+)</small>', text),
        "hand": re.findall(r'<p class="hand-info">(.*?)</p>', text),
        "log": re.findall(r'<li[^>]*><span class="text">([^<]+)</span> <span class="at">([^<]+)</span>', text),
        "undo": re.findall(r'hx-confirm="([^"]+)"', text),
    }


@pytest.mark.parametrize("variant, file, options, lang", [
    ("argentino-30", "argentino-30_flor_malas_buenas.jsonl", {"flor": True}, "es"),
    ("paulista", "paulista_mao_de_onze_both_ways.jsonl", {}, "pt_BR"),
    ("truco-15", "truco-15_falta_ends_game.jsonl", {}, "en"),
])
@pytest.mark.parametrize("upto, how", [(7, ()), (23, ()), (23, ("warm",))], ids=["7", "23", "23-warmed-no-files"])
def test_the_phone_draws_the_board_the_server_draws(client, tmp_path, variant, file, options, lang, upto, how):
    """``how``: warmed as the worker does before its memory snapshot, the board is drawn with
    none of the bundle's files on disk (a start from the snapshot has none)."""
    m = client.post("/api/matches", json={"variant": variant, "options": options, "names": ["Nós", "Eles"]}).get_json()
    actions = [json.loads(x) for x in (MATCHES / file).read_text().splitlines() if x.strip()][:upto]
    for version, action in enumerate(actions):
        r = client.post(f"/api/matches/{m['id']}/actions", json={"action": action, "version": version},
                        headers={"X-Edit-Key": m["edit_key"]})
        assert r.status_code == 200
    client.get(f"/lang/{lang}")
    server = client.get(f"/m/{m['id']}/{m['edit_key']}/board?version=-1", headers={"HX-Request": "true"})
    assert server.status_code == 200
    _url, z = bundle_zip(client)
    export = client.get(f"/api/matches/{m['id']}/export").get_json()
    phone = phone_board(tmp_path, z, lang, export, m["id"], m["edit_key"], *how)
    assert phone["modules"] == []
    mine, theirs = seen(phone["html"]), seen(server.get_data(as_text=True))
    assert theirs["buttons"] and theirs["log"]
    assert mine == theirs


# ------------------------------------------------------------------ a match started offline

TAPS = [{"type": "call", "side": 0, "call": "envido"}, {"type": "quiero", "side": 1},
        {"type": "envido_winner", "side": 1}, {"type": "call", "side": 0, "call": "truco"},
        {"type": "mazo", "side": 1}]


def upload(client, offline_id, taps, lang="pt_BR", **settings):
    body = {"offline_id": offline_id, "variant": "truco-15", "options": {}, "names": ["Nós", "Eles"], "mano": 0,
            "taps": [{"tap_key": str(uuid.uuid4()), "version": i, "action": a} for i, a in enumerate(taps)],
            **settings}
    return client.post("/api/offline-matches", json=body, headers={"Accept-Language": lang})


def test_a_match_started_offline_is_stored_once_with_working_links(client):
    oid = str(uuid.uuid4())
    first = upload(client, oid, TAPS[:3])
    assert first.status_code == 201, first.get_json()
    again = upload(client, oid, TAPS[:3])
    assert again.status_code == 200
    a, b = first.get_json(), again.get_json()
    assert (a["id"], a["edit_key"], a["applied"], b["applied"], b["repeated"]) == (b["id"], b["edit_key"], 3, 0, 3)
    more = upload(client, oid, TAPS).get_json()
    assert (more["applied"], more["repeated"], more["version"]) == (2, 3, 5)
    state = client.get(f"/api/matches/{a['id']}").get_json()
    assert state["version"] == 5 and state["score"] == [1, 2]  # envido 2 to Eles, the truco refused: 1 to Nós
    assert client.get(a["edit_url"].split("//", 1)[1].split("/", 1)[1].join(["/", ""])).status_code == 200
    assert client.get("/" + a["share_url"].split("/", 3)[3]).status_code == 200


def test_two_phones_never_share_an_offline_match(client):
    one, two = (upload(client, str(uuid.uuid4()), TAPS[:1]).get_json() for _ in range(2))
    assert one["id"] != two["id"] and one["edit_key"] != two["edit_key"]


@pytest.mark.parametrize("change, code, lang, words", [
    ({"offline_id": "short"}, 422, "en", "offline_id must be"),
    ({"offline_id": 7}, 422, "es", "offline_id"),
    ({"taps": "many"}, 422, "pt_BR", "toques"),
    ({"taps": [{"action": "hand_winner"}]}, 422, "en", "each with its action"),
    ({"variant": "nope"}, 422, "es", "Variante desconocida"),
    ({"options": []}, 422, "en", "Options must be"),
    ({"taps": [{"action": {"type": "quiero", "side": 1}}]}, 422, "en", "No call is waiting"),
])
def test_a_bad_upload_is_a_translated_4xx_and_stores_nothing(client, change, code, lang, words):
    body = {"offline_id": str(uuid.uuid4()), "variant": "truco-15", "options": {}, "names": ["A", "B"], "mano": 0,
            "taps": [{"action": {"type": "hand_winner", "side": 0}}], **change}
    r = client.post("/api/offline-matches", json=body, headers={"Accept-Language": lang})
    assert r.status_code == code, r.get_json()
    assert words in r.get_json()["error"]["message"]
    if isinstance(body["offline_id"], str) and len(body["offline_id"]) >= 16:
        retry = {**body, "variant": "truco-15", "options": {}, "taps": []}
        assert client.post("/api/offline-matches", json=retry).status_code == 201  # nothing was stored before


def test_an_upload_that_is_not_the_stored_match_changes_nothing(client):
    oid = str(uuid.uuid4())
    made = upload(client, oid, TAPS[:2]).get_json()
    r = upload(client, oid, [{"type": "hand_winner", "side": 1}, {"type": "hand_winner", "side": 1}, TAPS[2]], lang="en")
    assert r.status_code == 422 and r.get_json()["error"]["code"] == "offline_mismatch"
    assert client.get(f"/api/matches/{made['id']}").get_json()["version"] == 2


# ------------------------------------------------------------------ the new-match form on the phone

FORMS = [
    {"variant": "paulista", "name0": "Ana", "name1": "Beto", "mano": "1", "best_of": "3"},
    {"variant": "argentino-30", "flor": "True", "name0": "  ", "name1": "", "mano": "0", "best_of": "1"},
    {"variant": "truco-15", "name0": "A", "name1": "B", "mano": "0", "table_size": "4",
     "player0_0": "Ana", "player0_1": "", "player1_0": "Caio", "player1_1": "Duda"},
    {"variant": "uruguaio", "name0": "A", "name1": "B", "mano": "0", "table_size": "6", "best_of": "5"},
]


@pytest.mark.parametrize("fields", FORMS)
@pytest.mark.parametrize("lang", ["pt_BR", "es"])
def test_the_phone_reads_the_new_match_form_as_the_server_does(app, tmp_path, fields, lang):
    from werkzeug.datastructures import MultiDict

    from scorer.present.offline_table import BoardRenderer, settings_from_fields
    from scorer.web import engine_bundle, forms

    with app.test_request_context("/", headers={"Accept-Language": lang}):
        server = forms.settings_from_form(MultiDict(fields))
        z = zipfile.ZipFile(io.BytesIO(engine_bundle.bundle().raw))
    z.extractall(tmp_path / "engine")
    renderer = BoardRenderer(tmp_path / "engine", lang)
    phone = settings_from_fields(fields, renderer.default_names())
    server.pop("shortened")
    assert phone == {**server, "names": list(server["names"])}


@pytest.mark.parametrize("lang", ["pt_BR", "es", "en", "ca"])
def test_a_warmed_engine_starts_a_match_and_words_its_notes_with_none_of_the_bundles_files(app, tmp_path, lang):
    """After ``warm`` (what the worker's memory snapshot holds) the new-match page's calls need
    no file of the bundle: the form read, the match started and drawn, the notes worded."""
    import shutil

    from scorer.present import offline_table as ot
    from scorer.web import engine_bundle

    with app.app_context():
        zipfile.ZipFile(io.BytesIO(engine_bundle.bundle().raw)).extractall(tmp_path / "engine")
    root = str(tmp_path / "engine")
    ot.warm(root)
    expected = ot.BoardRenderer(tmp_path / "engine", lang).held(2)
    shutil.rmtree(root)
    renderer = ot.renderer_for(root, lang)
    settings = ot.settings_from_fields(FORMS[0], renderer.default_names())
    html = ot.OfflineTable({**settings, "actions": []}, "offline-id", "offline", renderer).board()
    assert 'id="score0"' in html and "data-action" in html
    assert renderer.held(2) == expected
    assert renderer.banner(3)["text"] and renderer.banner(0, new_match=True)["discard"]
