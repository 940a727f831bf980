"""A tournament's corrections (the organizer's *Correct*, a team's confirmation): walkover,
abandonment, reopen, take, rename and confirm, each read, decided and written in one
transaction that holds the tournament, so two at once never lose a write (issue 19).

Views and the API call :func:`correct` (and :func:`preview_reopen` for the confirmation
page); the rest of a tournament's life is :mod:`scorer.app.tournament_service`.
"""

from __future__ import annotations

from typing import Any, TypedDict

from scorer.app import store
from scorer.app.store import tournaments as tstore
from scorer.app.tournament_keys import TournamentKeys
from scorer.app.tournament_service import ORGANIZER, Loaded, advance, games_result, load, series_stamp
from scorer.core import tournament as core
from scorer.core.errors import N_

#: Error codes of a correction refused because of what another one did first (HTTP 409).
CONFLICTS = ("confirm_cascade", "changed_meanwhile", "already_done", "already_confirmed")
CORRECTIONS = ("walkover", "abandonment", "reopen", "take", "rename", "confirm")


class Corrected(TypedDict):
    """What :func:`correct` answers: the slots whose matches the correction ``undone``."""

    undone: list[str]


def correct(db: store.Database, tid: str, data: dict[str, Any], who: str = ORGANIZER, *,
            keys: TournamentKeys) -> Corrected:
    """Apply one correction and return ``{"undone": [slot ids]}`` (matches voided).

    ``data``: ``{"kind": "walkover", "slot", "absent": side}``, ``{"kind": "abandonment",
    "slot", "abandoned": side, }``, ``{"kind": "reopen", "slot", "confirmed": bool}``,
    ``{"kind": "rename", "team": index, "name"}``, ``{"kind": "confirm", "slot", "side"}``
    (0, 1, or 2 for the organizer deciding for both), ``{"kind": "take", "slot"}`` (a
    reopened match whose scoreboard has already ended: its end counts now), each with an
    optional ``"version"``: the tournament's version the correction was decided on (a newer
    one refuses it with ``changed_meanwhile``). A walkover or abandonment on a slot that
    already has a result reopens it first. Without ``confirmed``, a change that would
    undo later matches changes nothing and raises ``confirm_cascade`` listing them.

    Corrections are serialised per tournament: each one reads the tournament, decides and
    writes in one transaction that holds the tournament (:func:`scorer.app.store.tournaments.locked`),
    so two at once (two teams confirming, the organizer too) each work from the state
    the other left, and either is stored whole or refused with nothing changed.

    :raise core.TournamentError: bad correction (``bad_correction``, ``unknown_slot``,
        ``not_playable``, ``confirm_cascade``, ``changed_meanwhile``, ``already_done``,
        ``nothing_to_take``, ...).
    """
    kind = data.get("kind")
    if kind not in CORRECTIONS:
        raise core.TournamentError("bad_correction", N_(
            "Unknown correction: choose walkover, abandonment, reopen, take, rename or confirm."))
    seen = data.get("version")
    if seen is not None and type(seen) is not int:
        raise core.TournamentError("bad_correction", N_("The version must be a whole number."))
    advance(db, tid, keys=keys)
    renamed: list[tuple[str, str, str]] = []
    undone: list[str] = []
    try:
        with tstore.locked(db, tid) as row:
            if row is None:
                raise core.TournamentError("unknown_tournament", N_("There is no tournament with this address."))
            if seen is not None and seen != row.version:
                raise _changed()
            loaded = load(db, tid)
            assert loaded is not None
            if kind == "rename":
                renamed = _rename_team(db, tid, loaded, data, who)
            else:
                undone = _apply(db, tid, loaded, kind, data, who)
    except store.IntegrityError as e:  # cannot happen under the lock; never a 500 if it did
        raise _changed() from e
    for match_id, old, new in renamed:  # the matches' own rows, after the tournament's transaction
        m = store.get_match(db, match_id)
        if m is not None:
            store.rename_match(db, match_id, [new if n == old else n for n in m.names])
    advance(db, tid, keys=keys)
    return {"undone": undone}


def _changed() -> core.TournamentError:
    return core.TournamentError("changed_meanwhile", N_("The tournament changed meanwhile: look again and retry."))


def _apply(db: store.Database, tid: str, loaded: Loaded, kind: str, data: dict[str, Any],
           who: str) -> list[str]:
    """A correction of one slot (not ``rename``), decided on ``loaded`` as read inside the
    caller's transaction; returns the slots it undoes."""
    slot_id = data.get("slot")
    if not isinstance(slot_id, str):
        raise core.TournamentError("bad_correction", N_("This correction needs the match (slot)."))
    loaded.t.slot(slot_id)
    if kind == "confirm":
        _confirm_result(db, tid, loaded, slot_id, data, who)
        return []
    if kind == "take":
        _take(db, tid, loaded, slot_id, who)
        return []
    # before any reopening: a refused correction changes nothing
    side = _absent_side(kind, data) if kind != "reopen" else None
    had = loaded.results.get(slot_id)
    if had is not None and had.kind == kind and side is not None and had.winner == 1 - side:
        raise core.TournamentError("already_done", N_("This match already has this result: nothing changed."))
    undone: list[str] = []
    if had is not None or kind == "reopen":
        undone = _reopen(db, tid, loaded, slot_id, data, who)
        if kind == "reopen":
            return undone
        reloaded = load(db, tid)
        assert reloaded is not None  # it was loaded in this transaction
        loaded = reloaded
    _record_absence(db, tid, loaded, slot_id, kind, data, who)
    return undone


def _rename_team(db: store.Database, tid: str, loaded: Loaded, data: dict[str, Any],
                 who: str) -> list[tuple[str, str, str]]:
    """The ``rename`` correction: the team's new name in the tournament; returns ``(match id,
    old name, new name)`` for each of its matches, whose rows the caller renames."""
    team, name = data.get("team"), data.get("name")
    if type(team) is not int or not 0 <= team < len(loaded.row.teams) or not isinstance(name, str):
        raise core.TournamentError("bad_correction", N_("Renaming needs a team number and a name."))
    teams = list(loaded.row.teams)
    teams[team] = name
    teams = list(core.check_teams(teams))
    old = loaded.row.teams[team]
    return [(match_id, old, teams[team]) for match_id in tstore.rename_team(db, tid, team, teams[team], who)]


def _confirm_result(db: store.Database, tid: str, loaded: Loaded, slot_id: str, data: dict[str, Any],
                    who: str) -> None:
    """The ``confirm`` correction: a side (or the organizer, side 2) confirms a slot's result.

    :raise core.TournamentError: ``already_confirmed`` (that side's confirmation, or both
        for the organizer, was already there: nothing written).
    """
    side = data.get("side")
    if side not in (0, 1, 2) or type(side) is not int:
        raise core.TournamentError("bad_correction", N_("Confirming needs a side: 0, 1 or 2 (organizer)."))
    new = core.confirm(loaded.t, loaded.results, slot_id, side)
    if new[slot_id] == loaded.results[slot_id]:
        raise core.TournamentError("already_confirmed", N_("This result was already confirmed: nothing changed."))
    if not tstore.update_result(db, tid, slot_id, loaded.results[slot_id].to_json(), new[slot_id].to_json(),
                                who, "confirm"):
        raise _changed()


def _reopen(db: store.Database, tid: str, loaded: Loaded, slot_id: str, data: dict[str, Any],
            who: str) -> list[str]:
    """Reopen a slot (the ``reopen`` correction, or before a walkover or abandonment replaces
    its result); return the later slots it undoes.

    :raise core.TournamentError: ``not_playable``, ``confirm_cascade`` (later matches would be
        undone and ``confirmed`` is not true), ``changed_meanwhile``.
    """
    if slot_id not in loaded.results and loaded.view.slots[slot_id].status != "ready":
        raise core.TournamentError("not_playable", N_(
            "This match cannot have a result yet: a team is still unknown."))
    _new, undone = core.reopen(loaded.t, loaded.results, slot_id)
    if undone and data.get("confirmed") is not True:
        raise core.TournamentError("confirm_cascade", N_(
            "This also undoes {count} later matches: confirm to go on."), allowed=undone, count=len(undone))
    before = loaded.results[slot_id].to_json() if slot_id in loaded.results else None
    srow = loaded.slots[slot_id]
    hold = series_stamp(tstore.series_games(db, srow.series_id)) if srow.series_id else None
    teams = {d: loaded.view.slots[d].teams for d in undone}  # what each undone match was, should it come back
    if not tstore.reopen(db, tid, slot_id, undone, loaded.row.version, who, before, hold, teams):
        raise _changed()
    return undone


def _take(db: store.Database, tid: str, loaded: Loaded, slot_id: str, who: str) -> None:
    """The ``take`` correction: a reopened match whose scoreboard has already ended gets
    that end as its result now (the table may also Undo and play on: its next end counts).

    :raise core.TournamentError: ``nothing_to_take`` (the match has a result, or its
        scoreboard has not ended), ``changed_meanwhile`` (the table changed it meanwhile).
    """
    srow = loaded.slots.get(slot_id)
    result = None
    if slot_id not in loaded.results and srow is not None and srow.series_id:
        games, marks = tstore.read_series(db, srow.series_id)
        result = games_result(games, loaded.t.slot(slot_id).best_of)
    if result is None:
        raise core.TournamentError("nothing_to_take", N_(
            "This match has no ended scoreboard to take: it has a result already, or its game goes on."))
    assert srow is not None and srow.series_id  # a result is read from its series only
    if not tstore.record_result(db, tid, slot_id, result.to_json(), who, "take", epoch=loaded.row.epoch,
                                series=(srow.series_id, marks)):
        raise _changed()


def _absent_side(kind: str, data: dict[str, Any]) -> int:
    """The side a ``walkover`` (``absent``) or ``abandonment`` (``abandoned``) names.

    :raise core.TournamentError: ``bad_correction``: not 0 or 1.
    """
    side = data.get("absent" if kind == "walkover" else "abandoned")
    if side not in (0, 1) or type(side) is not int:
        raise core.TournamentError("bad_correction", N_("Say which side (0 or 1) was absent or left."))
    return side


def _record_absence(db: store.Database, tid: str, loaded: Loaded, slot_id: str, kind: str,
                    data: dict[str, Any], who: str) -> None:
    """Record a ``walkover`` or ``abandonment`` on a slot without a result: the other side
    wins; an abandonment keeps the tentos its series' games had made."""
    if loaded.view.slots[slot_id].status == "waiting":
        raise core.TournamentError("not_playable", N_(
            "This match cannot have a result yet: a team is still unknown."))
    side = _absent_side(kind, data)
    tentos, series = (0, 0), None
    live = loaded.live.get(slot_id)
    if kind == "abandonment" and live is not None:
        srow = loaded.slots[slot_id]
        if srow.series_id:  # the tentos as the board shows them when the result is taken
            games, marks = tstore.read_series(db, srow.series_id)
            tentos, series = (sum(g[0][0] for g in games), sum(g[0][1] for g in games)), (srow.series_id, marks)
    result = core.Result(kind, 1 - side, tentos, (0, 0), (0, 1))
    if not tstore.record_result(db, tid, slot_id, result.to_json(), who, kind, series=series):
        raise _changed()


def preview_reopen(loaded: Loaded, slot_id: str) -> list[str]:
    """The slots reopening ``slot_id`` would undo (for the confirmation page)."""
    return core.reopen(loaded.t, loaded.results, slot_id)[1]
