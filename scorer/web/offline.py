"""Play with no scorekeeper (issue 24): the offline engine's bundle, and the upload of a match
started on a phone that could not reach the scorekeeper.

``GET /engine/<digest>.zip``: the engine bundle (:mod:`scorer.web.engine_bundle`), Brotli or
gzip as the client accepts, cached a year under its content's hash; another hash is a 404.
``GET /engine.json``: what a page needs to start the engine. ``POST /api/offline-matches``:
a match played on a phone, stored once (:mod:`scorer.app.offline_matches`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from flask import Blueprint, abort, current_app, jsonify, make_response, request, url_for
from flask_babel import gettext

from scorer.app import offline_matches
from scorer.core.errors import TrucoError
from scorer.web import engine_bundle, forms, player_names
from scorer.web.assets import IMMUTABLE, PYODIDE_DIR
from scorer.web.common import error_json, json_body, public_base, service
from scorer.web.db import get_db
from scorer.web.hosting.security import CSP
from scorer.web.taps import TAP_KEY

bp = Blueprint("offline", __name__)

#: The worker that runs the engine (static/js): it alone may compile WebAssembly.
ENGINE_WORKER = "js/engine-worker.js"
#: Pyodide's files the engine loads (under :data:`PYODIDE_DIR`).
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
#: The endpoints whose URL rules the page needs besides the board's own.
PAGE_ENDPOINTS = ("matches.new", "matches.scoreboard", "matches.poll", "records.export", "matches.keyed_export",
                  "offline.upload_match")


@bp.after_app_request
def worker_may_compile_wasm(response):
    """The engine's worker gets ``script-src 'self' 'wasm-unsafe-eval'`` (WebAssembly
    compiles there and nowhere else); every other response keeps the site's CSP."""
    if request.endpoint == "static" and (request.view_args or {}).get("filename") == ENGINE_WORKER:
        response.headers["Content-Security-Policy"] = CSP + "; script-src 'self' 'wasm-unsafe-eval'"
    return response


@bp.get("/engine.json")
def engine_info():
    """What a page needs to start the offline engine: ``{"bundle", "pyodide", "worker",
    "files", "routes"}`` (``files``: every URL the service worker keeps; ``routes``: URL
    rules of the pages and APIs it talks to)."""
    pyodide = url_for("static", filename=PYODIDE_DIR + "/pyodide.mjs").split("pyodide.mjs")[0]
    bundle = engine_bundle.bundle_url()
    worker = url_for("static", filename=ENGINE_WORKER)
    offline_js = url_for("static", filename="js/offline.js")
    rules = {rule.endpoint: rule.rule for rule in reversed(list(request.url_rule.map.iter_rules()))
             if rule.endpoint in PAGE_ENDPOINTS}
    return jsonify(bundle=bundle, pyodide=pyodide, worker=worker,
                   files=[pyodide + f for f in PYODIDE_FILES] + [bundle, worker, offline_js], routes=rules)


@bp.get("/engine/<digest>.zip")
def engine(digest: str):
    """The engine bundle under its current hash.

    :raise 404: another hash (an older bundle: the page asks for the current one).
    """
    found = engine_bundle.bundle()
    if digest != found.digest:
        abort(404)
    accepted = request.accept_encodings
    if accepted["br"]:
        body, encoding = found.br, "br"
    elif accepted["gzip"]:
        body, encoding = found.gz, "gzip"
    else:
        body, encoding = found.raw, None
    response = make_response(body)
    response.mimetype = "application/zip"
    if encoding:
        response.headers["Content-Encoding"] = encoding
    response.headers["Vary"] = "Accept-Encoding"
    response.headers["Cache-Control"] = IMMUTABLE
    return response


#: An ``offline_id``: the phone's random UUID (or any 16 to 64 URL-safe characters).
OFFLINE_ID = re.compile(r"[A-Za-z0-9_-]{16,64}")


def offline_taps(raw) -> list[offline_matches.OfflineTap]:
    """The taps of an upload's ``taps`` (``[{"tap_key", "version", "action"}]``), in order; a
    tap's ``tap_key`` may be absent or null (a client that keeps none), its ``version`` is not
    read (tap ``i`` is the match's action ``i``).

    :raise 422: not a list of taps each holding an action object, more than ``MAX_ACTIONS``,
        a key that is not 8 to 64 letters, digits, ``-`` or ``_``, or one key on two taps
        (the message names the tap by its number).
    """
    if not isinstance(raw, list) or not all(isinstance(t, dict) and isinstance(t.get("action"), dict) for t in raw):
        abort(422, gettext("Taps must be a list of objects, each with its action (an object)."))
    limit = current_app.config["MAX_ACTIONS"]
    if len(raw) > limit:
        abort(422, gettext("A match can hold at most {limit} actions.").format(limit=limit))
    seen: set[str] = set()
    for number, tap in enumerate(raw, start=1):
        key = tap.get("tap_key")
        if key is not None and (not isinstance(key, str) or not TAP_KEY.fullmatch(key)):
            abort(422, gettext("Tap number %(n)d has a bad tap_key: a tap's key is 8 to 64 letters, digits, - or _.",
                               n=number))
        if key in seen:
            abort(422, gettext("Tap number %(n)d has the key of an earlier tap: each tap needs a key of its own.",
                               n=number))
        if key is not None:
            seen.add(key)
    return [offline_matches.OfflineTap(t.get("tap_key"), t["action"]) for t in raw]


def upload_settings(data: Mapping[str, object]) -> dict[str, object]:
    """The new match's settings of an offline upload's body: ``{"variant", "options", "names",
    "mano", "best_of", "players"}``, names tidied and defaulted as the new-match form does.

    :raise 422: ``options`` is not a JSON object, or bad names, ``best_of`` or ``players``.
    """
    options = data.get("options") if data.get("options") is not None else {}
    if not isinstance(options, dict):
        abort(422, gettext("Options must be a JSON object."))
    names = player_names.clean_names(data.get("names"))
    return {"variant": data.get("variant"), "options": options, "names": names, "mano": data.get("mano", 0),
            "best_of": forms.clean_best_of(data.get("best_of")),
            "players": forms.clean_players(data.get("players"), names)}


@bp.post("/api/offline-matches")
def upload_match():
    """A match started on a phone with no scorekeeper: ``{"offline_id", "variant", "options",
    "names", "mano", "best_of", "players", "taps": [{"tap_key", "version", "action"}]}``.
    Stored once per ``offline_id``, each tap once with its key (:func:`offline_taps`): 201 the
    first time, 200 for a repeat (the same id and key; only taps past those stored are
    recorded, each at its own place however many copies arrive at once), with ``{"id",
    "edit_key", "edit_url", "watch_url", "share_url", "version", "applied", "repeated"}``.

    :raise 422: a bad ``offline_id``, settings or taps, an action the rules refuse (the
        engine's error, ``index`` in its params), or a stored match that is not this one
        (``offline_mismatch``).
    :raise 413: the body is too large.
    """
    data = json_body()
    offline_id = data.get("offline_id")
    if not isinstance(offline_id, str) or not OFFLINE_ID.fullmatch(offline_id):
        abort(422, gettext("offline_id must be 16 to 64 letters, digits, - or _."))
    settings = upload_settings(data)
    names = settings["names"]
    taps = offline_taps(data.get("taps"))
    try:
        done = offline_matches.upload(service(), get_db(), current_app.extensions["truco_tournament_keys"],
                                      offline_id=offline_id, settings=settings, taps=taps)
    except TrucoError as e:
        return error_json(e, names=names)
    row, base = done.row, public_base()
    return jsonify(
        id=row.id, edit_key=row.edit_key, version=row.version, applied=done.applied, repeated=done.repeated,
        edit_url=base + url_for("matches.scoreboard", match_id=row.id, key=row.edit_key),
        watch_url=base + url_for("matches.watch", match_id=row.id),
        share_url=base + url_for("matches.share", match_id=row.id, key=row.edit_key),
    ), 201 if done.created else 200
