"""A match started on a phone that could not reach the scorekeeper, uploaded once it can
(issue 24; the repeats, issue 30 item 3; the contract: docs/api.md).

The phone names the match with an ``offline_id`` of its own (a random UUID). The match's id
and edit key are derived from it with the instance secret
(:meth:`scorer.app.tournament_keys.TournamentKeys.offline_match`), so the same upload sent
twice (its answer lost) finds the same match, and the phone's taps are stored exactly once:
the first upload stores them all in one transaction (all or nothing, as an import), each with
its tap key; a later upload of the same match stores only the taps past the stored ones (a
phone that played on before it heard the first answer).

Tap ``i`` of an upload is action ``i`` of the match, always: each new tap is written guarded
by that version (:meth:`MatchService.act <scorer.app.match_service.MatchService.act>` with its
tap key), never at a later one. Copies of one upload sent at once (a retry while the first is
still being processed, two tabs, several server processes) therefore meet at the same place:
one stores the tap, the others find its key (or the same action) there and count it as
repeated. Within one process the copies also wait for each other on the match's lock.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from scorer.app import store
from scorer.app.match_records import PostedAction
from scorer.app.match_service import APPLIED, REPEATED, MatchService
from scorer.app.tournament_keys import TournamentKeys
from scorer.core.errors import N_, RuleError
from scorer.core.match import Match
from scorer.core.seats import players_per_side
from scorer.core.schema import Action, normalize_action

#: The stored match is not the one uploaded: their first actions differ.
MISMATCH = N_("This phone's match does not match the one the scorekeeper keeps under its name: nothing was recorded.")
#: The stored match moved on another way while this upload was being recorded.
PARTED = N_("This phone's match and the one the scorekeeper keeps under its name went different ways at tap "
            "{number}: the taps before it are recorded, that one and the ones after it are not.")


@dataclass(frozen=True)
class OfflineTap:
    """One tap of a match played on a phone with no scorekeeper: its ``key`` (made on the
    phone, 8 to 64 URL-safe characters; None for a client that gives none) and its ``action``
    (as the engine takes it). Its place in the upload is its place in the match."""

    key: str | None
    action: PostedAction


@dataclass(frozen=True)
class Uploaded:
    """What an upload did: the match (``row``, with its plain ``edit_key``), whether this
    upload created it, how many taps it stored (``applied``) and how many were already
    stored (``repeated``); the two add up to the taps uploaded."""

    row: store.MatchRow
    created: bool
    applied: int
    repeated: int


def upload(service: MatchService, db: store.Database, keys: TournamentKeys, *, offline_id: str,
           settings: Mapping[str, Any], taps: Sequence[OfflineTap]) -> Uploaded:
    """Store the match ``offline_id`` with ``taps`` (in the order played), each tap once.

    ``settings``: ``variant``, ``options``, ``names``, ``mano``, ``best_of``, ``players`` (as
    an import takes them, already cleaned). The taps' keys must differ from one another.

    :raise RuleError: bad settings or an action the rules refuse (``index`` in its params:
        which, from 0; nothing stored); ``offline_mismatch``: the stored match is not the one
        uploaded (its first actions differ: nothing stored), or it moved on another way while
        this upload was being recorded (the taps before the place where they part are
        recorded); the guards' errors.
    """
    match_id, key = keys.offline_match(offline_id)
    with service.lock(match_id):
        row = service.get(db, match_id)
        if row is None:
            made = _create(service, db, match_id, key, settings, taps)
            if made is not None:
                return Uploaded(made, True, len(taps), 0)
            row = service.get(db, match_id)
            assert row is not None  # _create found it stored
        stored = [normalize_action(a) for a in store.get_actions(db, match_id, until=row.version)]
        _check_same(row, stored, taps)
        applied = sum(_store_at(service, db, match_id, index, taps[index]) for index in range(len(stored), len(taps)))
        now = service.get(db, match_id) or row
        return Uploaded(replace(now, edit_key=key), False, applied, len(taps) - applied)


def _create(service: MatchService, db: store.Database, match_id: str, key: str, settings: Mapping[str, Any],
            taps: Sequence[OfflineTap]) -> store.MatchRow | None:
    """The match stored with every tap and its key, in one transaction; None when another copy
    of this upload (another process) stored it first.

    :raise RuleError: as :meth:`MatchService.import_match`; nothing stored.
    """
    try:
        return service.import_match(db, actions=[t.action for t in taps], match_id=match_id, edit_key=key,
                                    tap_keys=[t.key for t in taps], **settings)
    except store.IntegrityError:  # the same upload, sent twice at once, stored it first
        if service.get(db, match_id) is None:
            raise
        return None


def _check_same(row: store.MatchRow, stored: list[Action], taps: Sequence[OfflineTap]) -> None:
    """Check, before anything is written, that ``taps`` are the stored match's actions
    (``stored``) followed by taps the rules accept.

    :raise RuleError: ``offline_mismatch``, or the rules' error for the first new tap refused
        (``index`` in its params).
    """
    mine = [normalize_action(t.action) for t in taps]
    if mine[: len(stored)] != stored[: len(mine)]:
        raise RuleError("offline_mismatch", MISMATCH)
    if len(mine) > len(stored):
        Match.replay(row.variant, row.options, row.mano, stored + mine[len(stored):], players_per_side(row.players))


def _store_at(service: MatchService, db: store.Database, match_id: str, index: int, tap: OfflineTap) -> bool:
    """Record ``tap`` as the match's action ``index``, guarded by that version: never at
    another. True when this call stored it; False when it was there already (its key is
    recorded, or the same action holds that place: another copy of this upload).

    :raise RuleError: ``offline_mismatch`` (another action holds that place), or the rules'
        or guards' error (``index`` in its params).
    """
    try:
        done = service.act(db, match_id, tap.action, index, with_state=False, tap_key=tap.key)
    except RuleError as e:
        e.params.setdefault("index", index)
        raise
    if done.outcome in (APPLIED, REPEATED):
        return done.outcome == APPLIED
    # STALE or DUPLICATE: another process wrote that place first; read what it holds.
    if store.get_action(db, match_id, index) == normalize_action(tap.action):
        return False
    raise RuleError("offline_mismatch", PARTED, number=index + 1)
