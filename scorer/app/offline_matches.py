"""A match started on a phone that could not reach the scorekeeper, uploaded once it can
(issue 24; OFFLINE-PROTOCOL.md, section 4).

The phone names the match with an ``offline_id`` of its own (a random UUID). The match's id
and edit key are derived from it with the instance secret
(:meth:`scorer.app.tournament_keys.TournamentKeys.offline_match`), so the same upload sent
twice (its answer lost) finds the same match, and the phone's taps are stored exactly once:
the first upload stores them all in one transaction (all or nothing, as an import); a later
upload of the same match stores only the taps past the stored ones (a phone that played on
before it heard the first answer), each checked by the rules and guarded by the version.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scorer.app import store
from scorer.app.match_service import APPLIED, MatchService
from scorer.app.tournament_keys import TournamentKeys
from scorer.core.errors import N_, RuleError
from scorer.core.schema import normalize_action


@dataclass(frozen=True)
class Uploaded:
    """What an upload did: the match (``row``, with its plain ``edit_key``), whether this
    upload created it, how many taps it stored (``applied``) and how many were already
    stored (``repeated``)."""

    row: store.MatchRow
    created: bool
    applied: int
    repeated: int


def upload(service: MatchService, db: store.Database, keys: TournamentKeys, *, offline_id: str,
           settings: Mapping[str, Any], actions: Sequence[Mapping[str, Any]]) -> Uploaded:
    """Store the match ``offline_id`` with ``actions`` (in the order played), once.

    ``settings``: ``variant``, ``options``, ``names``, ``mano``, ``best_of``, ``players`` (as
    an import takes them, already cleaned).

    :raise RuleError: bad settings or an action the rules refuse (``index`` in its params:
        which; nothing stored by a first upload); ``offline_mismatch``: the stored match is
        not the one uploaded (its first actions differ); the guards' errors.
    """
    match_id, key = keys.offline_match(offline_id)
    row = service.get(db, match_id)
    if row is None:
        try:
            row = service.import_match(db, actions=list(actions), match_id=match_id, edit_key=key, **settings)
            return Uploaded(row, True, len(actions), 0)
        except store.IntegrityError:  # the same upload, sent twice at once, stored it first
            row = service.get(db, match_id)
            if row is None:
                raise
    stored = service.export(db, row)["actions"]
    if [normalize_action(a) for a in actions[: len(stored)]] != [normalize_action(a) for a in stored[: len(actions)]]:
        raise RuleError("offline_mismatch", N_("This phone's match does not match the one the scorekeeper keeps "
                                               "under its name: nothing was recorded."))
    applied = 0
    for action in actions[len(stored):]:
        result = service.act(db, row, dict(action), row.version, with_state=False)
        row = result.row
        applied += result.outcome == APPLIED
    return Uploaded(store.MatchRow(**{**row.__dict__, "edit_key": key}), False, applied,
                    min(len(stored), len(actions)))
