"""The tournaments' application service: the core (:mod:`scorer.core.tournament`) plus the
store (:mod:`scorer.app.store.tournaments`), and the ordinary matches the tables play.

Views and the API call only this module (and :mod:`scorer.web.common` for what both
tournament views share). It validates and creates a tournament, loads one (layout,
results, live games), exports it, advances it (results read from finished matches, the next
matches created once both teams are known, lots drawn for a finished stage's
remaining ties); corrections are in :mod:`scorer.app.tournament_corrections`. :func:`on_action` is the hook the match
service calls after every stored action: a table's last point moves the tournament on.
:func:`guard` is the match service's guard (issue 19): once the tournament has taken a
slot's result, its table's scoreboard is locked until the organizer reopens it; the check
runs inside the table's write, and a result is recorded only if its series' games are
still the ones it was read from, so the two never disagree.
"""

from __future__ import annotations

import functools
import json
import logging
import secrets
from dataclasses import dataclass, field
from typing import Any

from scorer.app import store
from scorer.app.store import dropped as dstore
from scorer.app.store import tournaments as tstore
from scorer.app.tournament_keys import TournamentKeys
from scorer.app.match_service import MatchService
from scorer.core import tournament as core
from scorer.core.errors import N_, RuleError
from scorer.core.schema import Options
from scorer.core.series import series_status

log = logging.getLogger(__name__)

#: Who made a change, as the audit log writes it: the organizer, or the tournament itself (a match
#: a reopening undid, back as it was: :func:`advance`).
ORGANIZER, TOURNAMENT = "organizer", "tournament"
#: The ``format`` field of a tournament export.
EXPORT_FORMAT = "truco-scorer-tournament/1"


@dataclass
class Loaded:
    """One tournament as it is now: its ``row``, core layout ``t``, slot rows by id,
    ``results`` (slot id -> :class:`~scorer.core.tournament.Result`), resolved ``view``, the
    latest game of every slot with a match (``live``), and ``ended``: for each reopened
    slot whose scoreboard has already ended, the result that end would give (the
    organizer can take it, the ``take`` correction). ``organizer_key``: the plain organizer
    key, only on what :func:`create` returns (the database keeps its hash)."""

    row: tstore.TournamentRow
    t: core.Tournament
    slots: dict[str, tstore.SlotRow]
    results: dict[str, core.Result]
    view: core.View
    live: dict[str, tstore.LiveGame]
    ended: dict[str, core.Result] = field(default_factory=dict)
    organizer_key: str | None = None


def settings_of(row: tstore.TournamentRow) -> core.Settings:
    """The stored settings as core :class:`~scorer.core.tournament.Settings`."""
    return core.settings_from_json(row.settings, len(row.teams))


def create(db: store.Database, *, name: str, variant: str, options: Options, teams: list[str],
           players: list[list[str]], settings: core.Settings, draw: bool, keys: TournamentKeys) -> Loaded:
    """Store a new tournament and create its first matches; the result carries the
    organizer key (``organizer_key``), stored only as its hash.

    ``draw``: the seed order is a random draw (recorded in the audit) instead of the
    order entered. ``keys``: the instance's keys (the teams' and tables'). The caller
    validated everything first.
    """
    seeds = list(range(len(teams)))
    audit: list[tuple[str, str, Any]] = [(ORGANIZER, "create", {"teams": teams, "settings": settings.to_json()})]
    if draw:
        secrets.SystemRandom().shuffle(seeds)
        audit.append((ORGANIZER, "draw", {"seeds": seeds}))
    t = core.build(teams, settings, seeds)
    tid, organizer_key = store.new_id(), store.new_edit_key()
    row = tstore.create_tournament(
        db, tid=tid, organizer_hash=store.hash_key(organizer_key), team_hashes=keys.team_hashes(tid, len(teams)),
        name=name, variant=variant, options=options, settings=settings.to_json(), teams=teams,
        players=players, seeds=seeds, slots=[s.id for s in t.slots], audit=audit,
    )
    loaded = advance(db, row.id, keys=keys)
    assert loaded is not None
    loaded.organizer_key = organizer_key
    return loaded


def create_from(db: store.Database, data: dict[str, Any], *, default_name: str, keys: TournamentKeys) -> Loaded:
    """Validate ``data`` (the API's body, or the create form shaped alike) and create.

    ``data``: ``{"name", "variant", "options", "teams" (names, or ``{"name", "players"}``
    objects), "draw", ...}`` plus the settings :func:`scorer.core.tournament.settings_from_json`
    reads. ``default_name``: the name when none is given (in the user's language).

    :raise TrucoError: bad name, teams, settings, variant or options (nothing created).
    """
    name = data.get("name")
    if name is not None and not isinstance(name, str):
        raise core.TournamentError("bad_name", N_("The tournament's name must be a text."))
    name = core.check_text(name or "")[:60] or default_name
    raw_teams = data.get("teams")
    players: list[list[str]] = []
    if isinstance(raw_teams, list) and raw_teams and all(isinstance(t, dict) for t in raw_teams):
        players = [[core.check_text(x)[:24] for x in p] if isinstance(p := t.get("players"), list)
                   and all(isinstance(x, str) for x in p) else [] for t in raw_teams]
        raw_teams = [t.get("name") for t in raw_teams]
    teams = list(core.check_teams(raw_teams))
    players = players or [[] for _ in teams]
    options = data.get("options")
    options = {} if options is None else options
    if not isinstance(options, dict):
        raise core.TournamentError("bad_options", N_("Options must be a JSON object."))
    m = MatchService.check_settings(data.get("variant"), options, 0)
    settings = core.settings_from_json(data, len(teams))
    draw = data.get("draw", False)
    if not isinstance(draw, bool):
        raise core.TournamentError("bad_setting", N_("{key} must be true or false."), key="draw")
    return create(db, name=name, variant=data["variant"], options=m.options, teams=teams,
                  players=players, settings=settings, draw=draw, keys=keys)


def load(db: store.Database, tid: str) -> Loaded | None:
    """The tournament ``tid`` as it is now (no writes), or None."""
    row = tstore.get_tournament(db, tid)
    if row is None:
        return None
    t = layout(row.teams, json.dumps(row.settings, sort_keys=True), row.seeds)
    # The live games before the slots: a table's match linked between the two reads then shows
    # as a slot with its match id and no game yet (being created), never as a game whose slot
    # has no match (an API answer with an edit link but no id).
    live = tstore.live_games(db, tid)
    slots = {s.slot: s for s in tstore.get_slots(db, tid)}
    results = {k: core.Result.from_json(s.result) for k, s in slots.items() if s.result}
    view = core.resolve(t, results, row.lots)
    ended = {}
    for k, s in slots.items():  # reopened and held: rare, so a query each
        if s.hold is not None and not s.result and s.series_id:
            if (res := series_result(db, s.series_id, t.slot(k).best_of)) is not None:
                ended[k] = res
    return Loaded(row, t, slots, results, view, live, ended)


@functools.lru_cache(maxsize=64)
def layout(teams: tuple[str, ...], settings: str, seeds: tuple[int, ...]) -> core.Tournament:
    """The tournament's layout (:func:`scorer.core.tournament.build`) from its stored teams,
    settings (JSON text) and seeds: the same value for the same three, so built once per process
    for each (a 64-team round robin's 2,016 slots; issue 31). The core's values are frozen."""
    return core.build(teams, core.settings_from_json(json.loads(settings), len(teams)), seeds)


def series_stamp(games: list) -> str:
    """A text that changes whenever any game of a series changes (its held state)."""
    return f"{len(games)}-{sum(g[2] for g in games)}"


def series_result(db: store.Database, series_id: str, best_of: int, hold: str | None = None) -> core.Result | None:
    """The result of a slot's series once it is decided (None before): the side that won
    the game (best of 1) or the series, tentos summed over its games. None too while
    the series is as it was when the organizer reopened it (``hold``)."""
    return games_result(tstore.series_games(db, series_id), best_of, hold)


def games_result(games: list, best_of: int, hold: str | None = None) -> core.Result | None:
    """:func:`series_result` of a series' games as :func:`scorer.app.store.tournaments.series_games` gives them."""
    if hold is not None and series_stamp(games) == hold:
        return None
    if best_of == 1:
        games = games[:1]
    wins = [0, 0]
    tentos = [0, 0]
    for (a, b), winner, _v in games:
        tentos[0] += a
        tentos[1] += b
        if winner in (0, 1):
            wins[winner] += 1
    finished = sum(1 for _s, w, _v in games if w is not None)
    if best_of == 1:
        winner = games[0][1] if games else None
    else:
        winner = series_status(wins, best_of, max(len(games), finished)).winner
    if winner is None:
        return None
    return core.Result("played", winner, (tentos[0], tentos[1]), (wins[0], wins[1]))


def advance(db: store.Database, tid: str, who: str = "table", *, keys: TournamentKeys) -> Loaded | None:
    """Bring the tournament up to date and return it: record the result of every slot
    whose series has ended, draw lots for ties a finished stage still has, and create
    the match of every slot whose two teams are now known (each slot once, even when
    several requests advance at once; its key from ``keys``). Safe to call at any time."""
    for _round in range(200):  # each pass settles at least one round; a bound, not a loop forever
        loaded = load(db, tid)
        if loaded is None:
            return None
        changed = False
        for sid in tstore.slots_with_finished_games(db, tid):
            sv, srow = loaded.view.slots[sid], loaded.slots[sid]
            if sv.status != "ready" or not srow.series_id:
                continue
            games, marks = tstore.read_series(db, srow.series_id)
            result = games_result(games, sv.slot.best_of, srow.hold)
            if result is not None:  # recorded only if the games are still exactly these (issue 19)
                table = srow.table_number
                changed |= tstore.record_result(db, tid, sid, result.to_json(), f"table {table}" if table else who,
                                                epoch=loaded.row.epoch, series=(srow.series_id, marks))
        for group in loaded.view.needs_lots:
            drawn = {t: secrets.randbelow(10**9) + 1 for t in group}
            tstore.set_lots(db, tid, drawn, "draw", list(group))
            changed = True
        if changed:
            continue
        ready = [sv for sid, sv in loaded.view.slots.items()
                 if sv.status == "ready" and sid in loaded.slots and loaded.slots[sid].match_id is None]
        if ready and loaded.row.epoch and _bring_back(db, loaded):  # epoch 0: never reopened, nothing dropped
            continue  # a match a reopening undid plays its slot again, as it was: look again
        claims = _start(db, loaded, ready, keys) if ready else []
        if claims and tstore.claim_slots(db, tid, claims, loaded.row.epoch):
            continue  # linked some (look again), or reopened meanwhile (-1: look again)
        return loaded
    return load(db, tid)


def _bring_back(db: store.Database, loaded: Loaded) -> bool:
    """Put back on its slot each match a reopening undid whose slot is ready again with the
    same teams (:func:`scorer.core.tournament.comes_back`: the reopened match kept its
    winner), with its table (unless another live match holds it now) and its result; True if
    any came back. One query when nothing was undone (none for a tournament never reopened: the
    caller looks only once its ``epoch`` moved)."""
    busy = {s.table_number for s in loaded.slots.values() if s.match_id and not s.result and s.table_number}
    back = False
    for row in dstore.kept(db, loaded.row.id):
        if loaded.slots.get(row.slot) is None or loaded.slots[row.slot].match_id is not None:
            continue
        if not core.comes_back(loaded.view, row.slot, row.teams):
            continue
        table = row.table_number
        if row.result is None and table in busy:
            table = next(n for n in range(1, len(busy) + 2) if n not in busy)
        if tstore.restore(db, loaded.row.id, row, table, loaded.row.epoch, TOURNAMENT):
            if table is not None:
                busy.add(table)
            back = True
    return back


def table_for(t: core.Tournament, slot: core.Slot) -> int | None:
    """The fixed table of a league or group match: its number in the round, after the
    tables of the groups before it (so a round's tables are 1..n/2 and the room keeps
    its layout); None for a knockout match (the lowest table free when it starts)."""
    if slot.stage == "league":
        return slot.number
    if slot.stage.startswith("group"):
        before = 0
        for g, members in enumerate(core.group_members(t), start=1):
            if f"group{g}" == slot.stage:
                return before + slot.number
            before += len(members) // 2
    return None


def _start(db: store.Database, loaded: Loaded, ready: list[core.SlotView], keys: TournamentKeys
           ) -> list[tuple[str, str, int | None]]:
    """Create the ordinary matches of the ``ready`` slots (teams known), all in one
    transaction (a 64-team round robin's 2,016 at its creation: issue 31, docs/performance.md),
    each edit key derived by ``keys`` (so the organizer's pages can show the table's link
    again); the claims to link them, ``(slot id, match id, table)`` each."""
    row = loaded.row
    specs: list[store.NewMatch] = []
    for sv in ready:
        a, b = sv.teams
        assert a is not None and b is not None  # both known: status "ready"
        players = None
        pa = row.players[a] if a < len(row.players) else ()
        pb = row.players[b] if b < len(row.players) else ()
        if len(pa) == len(pb) and len(pa) in (2, 3):
            players = [list(pa), list(pb)]
        specs.append({"variant": row.variant, "options": row.options, "names": [row.teams[a], row.teams[b]], "mano": 0,
                      "best_of": sv.slot.best_of, "players": players, "edit_key": keys.table(row.id, sv.slot.id)})
    ids = store.create_matches(db, specs)
    return [(sv.slot.id, match_id, table_for(loaded.t, sv.slot)) for sv, match_id in zip(ready, ids)]


def on_action(db: store.Database, match: store.MatchRow, *, keys: TournamentKeys) -> None:
    """The hook after a stored action: if the match plays a tournament slot, advance
    that tournament (a finished game or series moves the winner on). Never raises: the
    action is already stored, and the next read of the tournament advances it anyway."""
    try:
        if match is None or match.winner is None:
            return  # only a finished game can move a tournament on
        found = tstore.slot_of_series(db, match.series)
        if found is not None:
            advance(db, found[0], keys=keys)
    except Exception:  # noqa: BLE001 - logged; the tournament catches up on its next read
        log.exception("advancing the tournament of match %s failed", match.id)


def series_over(db: store.Database, match: store.MatchRow) -> bool:
    """Whether ``match``'s series is decided (a best-of-1 match always is): a Revanche
    of it would not count for its tournament (:func:`guard` refuses it)."""
    return match.best_of == 1 or max(store.series_tally(db, match.series)) > match.best_of // 2


def guard(db: store.Database, match: store.MatchRow, kind: str) -> None:
    """The match service's guard (:attr:`MatchService.guards`, issue 19): once the
    tournament has taken a slot's result, its table's scoreboard is locked. Run before
    an action, an Undo or a Revanche (``kind``) on any game of the slot's series, and
    again inside that write with the match row locked, so a result being recorded and a
    table's Undo never both happen (:func:`scorer.app.store.tournaments.record_result`).

    :raise RuleError: ``tournament_match_dropped`` (a reopening took the match out of the
        tournament: it no longer counts, issue 32); ``tournament_result_taken`` (only the
        organizer can change the result: Correct → Reopen); ``tournament_match_over``, a
        Revanche of a tournament match whose series is decided (or of a best-of-1 match): it
        would not count.
    """
    found = tstore.series_guard(db, match.series)
    if found is None:
        return
    taken, dropped = found
    if dropped:
        raise RuleError("tournament_match_dropped", N_(
            "The tournament no longer counts this match: the organizer reopened an earlier result."))
    if taken:
        raise RuleError("tournament_result_taken", N_(
            "The tournament has already taken this result; only the organizer can change it (Correct → Reopen)."))
    if kind == "rematch":
        if series_over(db, match):
            raise RuleError("tournament_match_over", N_(
                "This tournament match is over, so it has no Revanche: a new game would not count for the tournament."))


def stamp(db: store.Database, tid: str) -> str | None:
    """What the TV page's poll compares (changes with the tournament or any of its games)."""
    return tstore.stamp(db, tid)


def audit(db: store.Database, tid: str) -> list[tstore.AuditEntry]:
    """The audit log, oldest first (:func:`scorer.app.store.tournaments.get_audit`)."""
    return tstore.get_audit(db, tid)


def export(db: store.Database, loaded: Loaded) -> dict[str, Any]:
    """The whole tournament as its export: ``format`` (:data:`EXPORT_FORMAT`), settings,
    teams, players, seeds, lots, every slot (stage, round, teams, table, result) with its
    games (``{"id", "names", "score", "winner", "actions"}``), standings, champion and the
    audit log. Never a key."""
    row = loaded.row
    by_slot: dict[str, list[store.MatchRow]] = {}
    for slot_id, game in tstore.tournament_games(db, row.id):  # every game in a few statements (issue 31)
        by_slot.setdefault(slot_id, []).append(game)
    actions = store.actions_of(db, {game.id: game.version for games in by_slot.values() for game in games})
    slots = []
    for slot in loaded.t.slots:
        srow = loaded.slots.get(slot.id)
        games = [{"id": game.id, "names": list(game.names), "score": list(game.score), "winner": game.winner,
                  "actions": actions[game.id]} for game in by_slot.get(slot.id, [])]
        sv = loaded.view.slots[slot.id]
        slots.append({"slot": slot.id, "stage": slot.stage, "round": slot.round, "teams": list(sv.teams),
                      "table": srow.table_number if srow else None,
                      "result": sv.result.to_json() if sv.result else None, "games": games})
    return {
        "format": EXPORT_FORMAT, "id": row.id, "name": row.name, "variant": row.variant, "options": row.options,
        "settings": row.settings, "teams": list(row.teams), "players": [list(p) for p in row.players],
        "seeds": list(row.seeds), "lots": {str(k): v for k, v in row.lots.items()},
        "slots": slots, "standings": [r.to_json() for r in loaded.view.standings.rows],
        "champion": loaded.view.champion, "audit": tstore.get_audit(db, row.id),
    }
