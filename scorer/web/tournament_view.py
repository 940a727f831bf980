"""The tournament view model both the pages and the JSON API show: a tournament loaded,
advanced to now and checked (404, the organizer key), its stages and rounds named in the
user's language, and :func:`describe_tournament` (issue 11)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any, NotRequired, TypedDict

from flask import abort, current_app, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext

from scorer.app import store, tournament_service
from scorer.app.store import tournaments as tstore
from scorer.app.store.tournaments import AuditEntry, TournamentRow  # the row types the views name
from scorer.app.tournament_context import round_level
from scorer.app.tournament_keys import TournamentKeys, organizer_fits
from scorer.core.errors import N_
from scorer.core.tournament import Slot, stage_names
from scorer.web.common import public_base, service
from scorer.web.db import get_db


def tournament_keys() -> TournamentKeys:
    """The app's tournament keys (derived from its instance secret)."""
    return current_app.extensions["truco_tournament_keys"]


def get_tournament_or_404(tid: str) -> tournament_service.Loaded:
    """The tournament ``tid``, advanced to now.

    :raise 404: no tournament has that id.
    """
    loaded = tournament_service.advance(get_db(), tid, keys=tournament_keys())
    if loaded is None:
        abort(404, gettext("There is no tournament with this address."))
    return loaded


def check_organizer(loaded: tournament_service.Loaded, key: str | None) -> None:
    """Compare ``key``'s hash with the organizer key's stored hash in constant time.

    :raise 403: missing or wrong key.
    """
    check_organizer_key(loaded.row, key)


def organizer_view(view: Callable[..., ResponseReturnValue]) -> Callable[..., ResponseReturnValue]:
    """Route decorator for "this tournament, with its organizer key" (as
    :func:`scorer.web.common.keyed_match_view` for a match): the view gets the tournament
    loaded and advanced to now (``loaded``) and the key (the URL's ``<key>``, else the
    ``X-Organizer-Key`` header of the JSON API) instead of ``tid``.

    :raise 404: no tournament has that id. :raise 403: missing or wrong key.
    """
    @functools.wraps(view)
    def load(tid: str, key: str | None = None, **values: Any) -> ResponseReturnValue:
        loaded = get_tournament_or_404(tid)
        key = request.headers.get("X-Organizer-Key") if key is None else key
        check_organizer(loaded, key)
        return view(loaded, key, **values)

    return load


def check_organizer_key(row: tstore.TournamentRow, key: str | None) -> None:
    """:func:`check_organizer` on a stored tournament row (a poll that loads nothing more).

    :raise 403: missing or wrong key.
    """
    if not organizer_fits(row.organizer_hash, key):
        abort(403, gettext("This link cannot change the tournament: the organizer key is missing or wrong."))


def stage_title(stage: str) -> str:
    """A stage's name in the user's language."""
    if stage.startswith("group"):
        return gettext("Group %(n)s", n=stage[5:])
    return {"main": gettext("Bracket"), "league": gettext("League"),
            "repescagem": gettext("Repescagem")}.get(stage, stage)


#: Knockout rounds by their distance from the final (:func:`scorer.app.tournament_context.round_level`):
#: the round's heading, and the name of one of its matches.
ROUND_NAMES = {0: (N_("Final"), N_("Final")), 1: (N_("Semifinals"), N_("Semifinal")),
               2: (N_("Quarterfinals"), N_("Quarterfinal"))}


def round_title(loaded: tournament_service.Loaded, stage: str, number: int) -> str:
    """"Final", "Semifinals", "Quarterfinals" or "Round n"."""
    return round_name(round_level(loaded.t, stage, number), number)


def round_name(level: int | None, number: int, *, one: bool = False) -> str:
    """A round's name from its ``level`` (:func:`~scorer.app.tournament_context.round_level`)
    and ``number``: "Semifinals" (``one``: "Semifinal", one match of it), or "Round n"."""
    if level in ROUND_NAMES:
        return gettext(ROUND_NAMES[level][one])
    return gettext("Round %(n)s", n=number)


JSONObject = Mapping[str, Any]
"""A value the core writes as JSON (``Result.to_json``, a standings line, the options)."""


class TournamentMatch(TypedDict):
    """One slot as the API's match (:func:`describe_tournament`)."""

    id: str | None
    slot: str
    table: int | None
    teams: list[int | None]
    status: str
    best_of: int
    watch_url: str | None
    score: list[int] | None
    live: bool
    series: list[int] | None
    winner: int | None
    result: JSONObject | None
    locked: bool
    board_result: JSONObject | None
    edit_url: NotRequired[str | None]


class TournamentRound(TypedDict):
    """A stage's round: its ``number``, ``title``, ``matches``, whether all are ``done`` and
    the teams that rest (``byes``); on the organizer's page of a big stage
    (:func:`fold_rounds`), a round not shown is ``folded`` (its ``matches`` left out) with
    how many it has (``total``) and how many are ``decided``, and its ``key`` (``stage:number``)."""

    number: int
    title: str
    matches: list[TournamentMatch]
    done: bool
    byes: list[int]
    folded: NotRequired[bool]
    total: NotRequired[int]
    decided: NotRequired[int]
    key: NotRequired[str]


class TournamentStage(TypedDict):
    """A stage besides the first (a group, the repescagem...): its ``name``, ``title``,
    ``rounds`` and, for a group, its ``standings``."""

    name: str
    title: str
    rounds: list[TournamentRound]
    standings: NotRequired[list[JSONObject]]


class TournamentState(TypedDict):
    """The tournament as the API returns it (issue 11's shape), also the pages' model."""

    id: str
    name: str
    variant: str
    options: JSONObject
    format: str
    best_of: int
    final_best_of: int
    teams: list[str]
    players: list[list[str]]
    rounds: list[TournamentRound]
    stages: list[TournamentStage]
    standings: list[JSONObject]
    tiebreaks: list[str]
    points: JSONObject
    champion: int | None
    repescagem_champion: int | None
    finished: bool
    version: int


def describe_tournament(loaded: tournament_service.Loaded, *, organizer: str | None = None) -> TournamentState:
    """The tournament as the API returns it (issue 11's shape), also the pages' model.
    ``organizer``: the organizer's key, already checked, when the organizer asks (the
    tables' ``edit_url`` are then given; a table of a tournament made before issue 23
    needs it to find its key again).

    ``{"id", "name", "variant", "format", "best_of", "teams", "rounds", "stages",
    "standings", "groups", "tiebreaks", "points", "champion", "repescagem_champion",
    "finished", "version"}``; a match is ``{"id", "slot", "table", "teams", "status",
    "watch_url", "edit_url" (organizer only), "score", "series", "winner", "result",
    "locked" (the result is taken: the table's scoreboard takes no more actions),
    "board_result" (a reopened match whose scoreboard has already ended: the result the
    ``take`` correction would record; else None)}``.
    """
    row, view = loaded.row, loaded.view
    stages = _matches_by_stage(loaded, organizer)

    def rounds(stage: str) -> list[TournamentRound]:
        return _rounds(loaded, stage, stages.get(stage, {}))

    first = "league" if row.settings["format"] == "round_robin" else "main"
    groups: list[TournamentStage] = [
        {"name": f"group{g}", "title": stage_title(f"group{g}"), "rounds": rounds(f"group{g}"),
         "standings": [r.to_json() for r in table.rows]}
        for g, table in enumerate(view.groups, start=1)
    ]
    extra: list[TournamentStage] = [{"name": s, "title": stage_title(s), "rounds": rounds(s)}
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


def _matches_by_stage(loaded: tournament_service.Loaded, organizer: str | None
                      ) -> dict[str, dict[int, list[TournamentMatch]]]:
    """Every slot as the API's match dict, by stage and round number (rounds in play order)."""
    base = public_base()
    games: dict[str, store.MatchRow] = {}
    if organizer:  # the live games, read through the service in one query
        games = {m.id: m for m in service().recent(get_db(), [g.match_id for g in loaded.live.values()])}
    stages: dict[str, dict[int, list[TournamentMatch]]] = {}
    for slot in sorted(loaded.t.slots, key=lambda s: (s.round, s.number)):
        match = _match(loaded, slot, base)
        if organizer:
            match["edit_url"] = None
            live = loaded.live.get(slot.id)
            game = games.get(live.match_id) if live is not None else None
            # The table's key is derived, never stored (issues 12 and 23).
            key = game and tournament_keys().table_link(loaded.row.id, slot.id, game.key_hash, organizer)
            if game and key:
                match["edit_url"] = base + url_for("matches.scoreboard", match_id=game.id, key=key)
        stages.setdefault(slot.stage, {}).setdefault(slot.round, []).append(match)
    return stages


def _match(loaded: tournament_service.Loaded, slot: Slot, base: str) -> TournamentMatch:
    """One slot as the API's match dict (without the organizer's ``edit_url``)."""
    sv = loaded.view.slots[slot.id]
    srow = loaded.slots.get(slot.id)
    live = loaded.live.get(slot.id)
    return {
        "id": srow.match_id if srow else None,
        "slot": slot.id,
        "table": srow.table_number if srow else None,  # a finished match keeps the table it was played at
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
        # issue 19: the tournament took the result, so the table's scoreboard is locked
        "locked": bool(sv.result is not None and srow and srow.series_id),
        "board_result": loaded.ended[slot.id].to_json() if slot.id in loaded.ended else None,
    }


def _rounds(loaded: tournament_service.Loaded, stage: str, by_round: dict[int, list[TournamentMatch]]
            ) -> list[TournamentRound]:
    """A stage's rounds: ``{"number", "title", "matches", "done", "byes"}`` each, in order."""
    out: list[TournamentRound] = []
    for number, matches in sorted(by_round.items()):
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


#: A stage with more matches than this shows one round at a time on the organizer's page (a
#: 64-team round robin has 63 rounds of 32 matches: 4.7 MB as one page; issue 31, docs/tournaments.md).
FOLD_OVER = 64


def fold_rounds(state: TournamentState, chosen: str | None) -> TournamentState:
    """``state`` with each big stage (over :data:`FOLD_OVER` matches) showing one round:
    ``chosen`` (``"stage:number"``, the organizer page's ``round``) if it names one of its
    rounds, else the first round not done (the last if all are); the others ``folded``
    (their matches left out, their counts kept). Small stages are left whole. A new value:
    ``state`` is not changed."""
    def fold(name: str, rounds: list[TournamentRound]) -> list[TournamentRound]:
        if sum(len(r["matches"]) for r in rounds) <= FOLD_OVER:
            return rounds
        keys = [f"{name}:{r['number']}" for r in rounds]
        shown = chosen if chosen in keys else next(
            (k for k, r in zip(keys, rounds) if not r["done"]), keys[-1] if keys else None)
        return [r if k == shown else {**r, "matches": [], "folded": True, "total": len(r["matches"]), "key": k,
                                      "decided": sum(1 for m in r["matches"] if m["result"])}
                for k, r in zip(keys, rounds)]

    first = "league" if state["format"] == "round_robin" else "main"
    return {**state, "rounds": fold(first, state["rounds"]),
            "stages": [{**s, "rounds": fold(s["name"], s["rounds"])} for s in state["stages"]]}
