"""What every view shares: the application service, loading a match, the edit key, the
public address, reading a JSON body and answering JSON errors, the CSV formula guard;
and what both tournament views (pages and API) share: loading a tournament, the
organizer key, and the tournament's view model (:func:`describe_tournament`).

Views import this module (and :mod:`scorer.web.forms`), never each other.
"""

from __future__ import annotations

import hmac
import ipaddress
from typing import Any
from urllib.parse import urlsplit

from flask import abort, current_app, jsonify, request, url_for
from flask_babel import gettext

from scorer.app import store
from scorer.app import tournament_service
from scorer.app.match_service import MatchService
from scorer.core.errors import TrucoError
from scorer.core.tournament import stage_names
from scorer.web.db import get_db
from scorer.web.forms import NAME_MAX
from scorer.web.i18n import translate, translator


#: Characters that make a spreadsheet read a cell as a formula (CSV injection): a cell
#: starting with one is written with a leading ``'``.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def service() -> MatchService:
    """The app's application service for matches (with its cache of replayed matches)."""
    return current_app.extensions["truco_matches"]


def get_match_or_404(match_id: str) -> store.MatchRow:
    """The stored match ``match_id`` (the request's one read of it).

    :raise 404: no match has that id.
    """
    row = service().get(get_db(), match_id)
    if row is None:
        abort(404, gettext("There is no match with this address."))
    return row


def key_fits(row: store.MatchRow, key: str | None) -> bool:
    """Whether ``key`` is the match's edit key: its hash compared with the stored hash
    in constant time."""
    return bool(key) and hmac.compare_digest(store.hash_key(key).encode(), row.key_hash.encode())


def check_key(row: store.MatchRow, key: str | None) -> None:
    """Compare ``key`` with the match's edit key (:func:`key_fits`).

    :raise 403: the key is missing or wrong.
    """
    if not key_fits(row, key):
        abort(403, gettext("This link cannot change the match: the edit key is missing or wrong."))


def is_htmx() -> bool:
    """Whether htmx made this request (it then wants a fragment, not a page)."""
    return request.headers.get("HX-Request") == "true"


#: Host names that mean "this machine" to the browser that used them, and to no other.
LOOPBACK_NAMES = ("localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback")


def is_loopback(hostname: str) -> bool:
    """Whether ``hostname`` (no port) names this machine only: ``localhost``,
    ``*.localhost``, 127.0.0.0/8 or ``::1``."""
    name = hostname.strip("[]").lower().rstrip(".")
    if name in LOOPBACK_NAMES or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def share_base() -> tuple[str, str]:
    """The base URL for links other phones open, and why it was chosen.

    ``("https://truco.example", "public")`` with ``PUBLIC_URL`` (``--public-url``); else,
    when this request came through a loopback name or address (``localhost``,
    ``127.0.0.1``: no other phone can reach it), the machine's first LAN address with the
    request's port (``"lan"``, as ``truco serve`` prints it), if the server listens there
    (``SHARE_LAN``); else the request's own base (``"request"``, also when the machine has
    no other address).
    """
    public = current_app.config.get("PUBLIC_URL")
    if public:
        return public.rstrip("/"), "public"
    here = urlsplit(request.host_url)
    try:
        hostname, port = here.hostname or "", here.port
    except ValueError:  # a malformed port in the Host header: keep the request's base
        hostname, port = "", None
    if is_loopback(hostname) and current_app.config.get("SHARE_LAN", True):
        from scorer.cli.serve import lan_addresses

        lan = lan_addresses()
        if lan:
            return f"{here.scheme}://{lan[0]}{f':{port}' if port else ''}", "lan"
    return request.host_url.rstrip("/"), "request"


def public_base() -> str:
    """The base URL for links other phones open (see :func:`share_base`)."""
    return share_base()[0]


def error_json(e: TrucoError, status: int = 422, names: Any = None):
    """``{"error": {"code", "message", "allowed"}}`` with ``status`` (``names``: the sides' names)."""
    return jsonify(error=e.to_json(translate, names)), status


def json_body() -> dict[str, Any]:
    """The request's JSON object.

    :raise 422: the body is not a JSON object.
    """
    try:
        data = request.get_json(silent=True)
    except RecursionError:  # nested too deep for the parser: not a JSON object we can read
        data = None
    if not isinstance(data, dict):
        abort(422, gettext("The body must be a JSON object."))
    return data


def created_json(row: store.MatchRow, *, shortened: bool = False):
    """201 ``{"id", "edit_key", "edit_url", "watch_url", "state", "best_of", "players",
    "notes"}`` for a match just stored; ``notes`` says when a name was shortened."""
    base = public_base()
    return jsonify(
        id=row.id,
        edit_key=row.edit_key,
        edit_url=base + url_for("matches.scoreboard", match_id=row.id, key=row.edit_key),
        watch_url=base + url_for("matches.watch", match_id=row.id),
        state=service().state(get_db(), row, translator()),
        best_of=row.best_of,
        players=[list(p) for p in row.players] if row.players else None,
        notes=[shortened_note()] if shortened else [],
    ), 201


def shortened_note() -> str:
    """The notice that a name was cut to ``NAME_MAX`` characters, in the user's language."""
    return gettext("A name was shortened to %(count)s characters.", count=NAME_MAX)


# ---------------------------------------------------------------- tournaments (issue 11)


def get_tournament_or_404(tid: str) -> tournament_service.Loaded:
    """The tournament ``tid``, advanced to now.

    :raise 404: no tournament has that id.
    """
    loaded = tournament_service.advance(get_db(), tid)
    if loaded is None:
        abort(404, gettext("There is no tournament with this address."))
    return loaded


def check_organizer(loaded: tournament_service.Loaded, key: str | None) -> None:
    """Compare ``key`` with the organizer key in constant time.

    :raise 403: missing or wrong key.
    """
    if not key or not hmac.compare_digest(key.encode(), loaded.row.organizer_key.encode()):
        abort(403, gettext("This link cannot change the tournament: the organizer key is missing or wrong."))


def stage_title(stage: str) -> str:
    """A stage's name in the user's language."""
    if stage.startswith("group"):
        return gettext("Group %(n)s", n=stage[5:])
    return {"main": gettext("Bracket"), "league": gettext("League"),
            "repescagem": gettext("Repescagem")}.get(stage, stage)


def round_title(loaded: tournament_service.Loaded, stage: str, number: int) -> str:
    """"Final", "Semifinal", "Quarterfinal" or "Round n"."""
    if stage in ("main", "repescagem"):
        last = max(s.round for s in loaded.t.slots if s.stage == stage)
        names = {0: gettext("Final"), 1: gettext("Semifinals"), 2: gettext("Quarterfinals")}
        if stage == "main" or (loaded.t.settings.repescagem == "apart"):
            if last - number in names:
                return names[last - number]
    return gettext("Round %(n)s", n=number)


def describe_tournament(loaded: tournament_service.Loaded, *, organizer: bool = False) -> dict[str, Any]:
    """The tournament as the API returns it (issue 11's shape), also the pages' model.

    ``{"id", "name", "variant", "format", "best_of", "teams", "rounds", "stages",
    "standings", "groups", "tiebreaks", "points", "champion", "repescagem_champion",
    "finished", "version"}``; a match is ``{"id", "slot", "table", "teams", "status",
    "watch_url", "edit_url" (organizer only), "score", "series", "winner", "result"}``.
    """
    base = public_base()
    row, view = loaded.row, loaded.view
    games: dict[str, store.MatchRow] = {}
    if organizer:  # the live games, read through the service in one query
        games = {m.id: m for m in service().recent(get_db(), [g.match_id for g in loaded.live.values()])}
    stages: dict[str, dict[int, list[dict[str, Any]]]] = {}
    for slot in sorted(loaded.t.slots, key=lambda s: (s.round, s.number)):
        sv = view.slots[slot.id]
        srow = loaded.slots.get(slot.id)
        live = loaded.live.get(slot.id)
        match: dict[str, Any] = {
            "id": srow.match_id if srow else None,
            "slot": slot.id,
            "table": srow.table_number if srow and sv.result is None else None,
            "teams": list(sv.teams),
            "status": sv.status,
            "best_of": slot.best_of,
            "watch_url": base + url_for("matches.watch", match_id=live.match_id) if live else None,
            "score": list(live.score) if live else None,
            "live": bool(live and live.version > 0 and sv.result is None),
            "series": (list(sv.result.games) if sv.result else list(live.games) if live else [0, 0])
            if slot.best_of > 1 else None,
            "winner": sv.winner,
            "result": sv.result.to_json() if sv.result else None,
        }
        if organizer:
            match["edit_url"] = None
            game = games.get(live.match_id) if live is not None else None
            if game is not None:  # the table's key is derived, never stored (issue 12)
                key = tournament_service.table_key(row.organizer_key, slot.id)
                match["edit_url"] = base + url_for("matches.scoreboard", match_id=game.id, key=key)
        stages.setdefault(slot.stage, {}).setdefault(slot.round, []).append(match)

    def rounds(stage: str) -> list[dict[str, Any]]:
        out = []
        for number, matches in sorted(stages.get(stage, {}).items()):
            rests = loaded.t.byes.get(f"{stage}:{number}", ())
            if stage == "main" and number == 1:
                rests = loaded.t.byes.get("main", ())
                if "qualifiers" in loaded.t.byes:  # groups: byes go to qualifier places
                    q = loaded.view.qualifiers
                    rests = tuple(q[p] for p in loaded.t.byes["qualifiers"]) if q is not None else ()
            out.append({"number": number, "title": round_title(loaded, stage, number), "matches": matches,
                        "done": all(m["status"] == "done" for m in matches),
                        "byes": [b for b in rests if b is not None]})
        return out

    first = "league" if row.settings["format"] == "round_robin" else "main"
    groups = [
        {"name": f"group{g}", "title": stage_title(f"group{g}"), "rounds": rounds(f"group{g}"),
         "standings": [r.to_json() for r in table.rows]}
        for g, table in enumerate(view.groups, start=1)
    ]
    extra = [{"name": s, "title": stage_title(s), "rounds": rounds(s)}
             for s in stage_names(loaded.t)
             if s != first and not s.startswith("group")]
    return {
        "id": row.id,
        "name": row.name,
        "variant": row.variant,
        "options": row.options,
        "format": row.settings["format"],
        "best_of": row.settings["best_of"],
        "final_best_of": row.settings["final_best_of"] or row.settings["best_of"],
        "teams": list(row.teams),
        "players": [list(p) for p in row.players],
        "rounds": rounds(first),
        "stages": groups + extra,
        "standings": [r.to_json() for r in view.standings.rows],
        "tiebreaks": list(row.settings["tiebreaks"]),
        "points": row.settings["points"],
        "champion": view.champion,
        "repescagem_champion": view.repescagem_champion,
        "finished": view.finished,
        "version": row.version,
    }
