"""Many taps sent at once by a phone that kept them while the scorekeeper did not answer
(issue 24; the contract: ``OFFLINE-PROTOCOL.md`` section 3, ``docs/api.md``).

Each tap has its own key (:class:`Tap`), recorded once with the action it stored
(:meth:`MatchService.act <scorer.app.match_service.MatchService.act>`'s ``tap_key``). The
taps are taken in order, each in its own write transaction: a crash midway leaves a prefix
recorded, and the same upload sent again skips that prefix (its keys are known) and records
the rest once. Nothing here imports Flask.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from scorer.app import store
from scorer.app.match_service import APPLIED, REPEATED, MatchService
from scorer.core.errors import N_, RuleError

#: Why an applied Undo was not recorded (:func:`upload`).
UNDO_NOT_MINE = N_("Undo not applied: the tap it took back was not recorded, and the last action on the "
                   "scoreboard is another phone's.")

#: Times a tap is tried again when another process stored an action between reading the match
#: and writing the tap (each try reads the match again).
TRIES = 5


@dataclass(frozen=True)
class Tap:
    """One tap kept on a phone: its ``key`` (made on the phone), the ``version`` of the board
    it was made on, and the ``action`` (as the engine takes it)."""

    key: str
    version: int
    action: dict[str, Any]


@dataclass
class Upload:
    """What :func:`upload` did: taps ``applied`` (recorded now), ``repeated`` (recorded
    before: skipped), ``refused`` (``(tap key, RuleError)``, not recorded), and ``row``,
    the match as stored after it. ``conflict``: the number of new taps not recorded
    because the match had moved on (another phone acted), 0 when there was no conflict."""

    row: store.MatchRow
    applied: int = 0
    repeated: int = 0
    refused: list[tuple[str, RuleError]] = field(default_factory=list)
    conflict: int = 0


def upload(service: MatchService, db: store.Database, row: store.MatchRow, taps: list[Tap], *,
           apply: bool = False) -> Upload:
    """Record ``taps`` on the match ``row``, in order, each at most once.

    A tap whose key the match has recorded is skipped (``repeated``). Without ``apply``, the
    first new tap must have been made on the match as it is now: its ``version`` is the
    match's, or the taps before it in this upload are recorded and the last of them made the
    match's version (the repeat of an upload cut midway). Otherwise nothing is recorded and
    ``conflict`` says how many taps wait (the phone asks its player). Each new tap is then
    checked by the rules against the match as it is (the state the previous tap left);
    refused ones are reported and not recorded. The new taps must also follow one another
    (:func:`chained`), else it is a conflict too. With ``apply`` (the player chose to apply
    them), no version is compared: each is checked by the rules against the match now, and an
    Undo is recorded only when it takes back a tap this upload recorded (else refused:
    it would take back another phone's action).

    The tournament's guards and the match's size limit apply to each tap as to a single tap.
    """
    with service.lock(row.id):
        result = Upload(row=store.get_match(db, row.id) or row)
        checked, previous = apply, None
        mine: list[str] = []  # keys of the taps this upload recorded, newest last (what an Undo may take back)
        for index, tap in enumerate(taps):
            seq = store.tap_seq(db, row.id, tap.key)
            if seq is not None:
                result.repeated += 1
                previous = previous if checked else seq
                continue
            if not checked:
                now = result.row.version
                if (tap.version != now and (previous is None or previous + 1 != now)) or not chained(taps[index:]):
                    result.conflict = sum(store.tap_seq(db, row.id, t.key) is None for t in taps[index:])
                    return result
                checked = True
            if apply and tap.action.get("type") == "undo" and not mine:
                # Applied on a match that moved on, an Undo would take back what another phone
                # recorded: it only takes back a tap of this upload recorded just before it.
                result.refused.append((tap.key, RuleError("undo_not_mine", UNDO_NOT_MINE)))
                continue
            applied = result.applied
            _record(service, db, result, tap)
            if result.applied > applied:
                if tap.action.get("type") == "undo":
                    mine.pop()
                else:
                    mine.append(tap.key)
        return result


def chained(taps: list[Tap]) -> bool:
    """Whether ``taps`` can have been made one after the other on one phone: each on the board
    the one before it was made on (no answer came: the same version) or on the board that tap
    made (the offline engine counts: its version plus one). A tap made on an older board than
    the one before it is not: the upload goes to the player (a conflict), never merged silently."""
    return all(later.version - earlier.version in (0, 1) for earlier, later in zip(taps, taps[1:]))


def _record(service: MatchService, db: store.Database, result: Upload, tap: Tap) -> None:
    """Record one new tap on the match as it is now (``result.row``), counting it in
    ``result``; read the match again and retry when another process stored an action first."""
    for _ in range(TRIES):
        row = result.row
        try:
            done = service.act(db, row, tap.action, row.version, with_state=False, tap_key=tap.key)
        except RuleError as e:
            result.refused.append((tap.key, e))
            result.row = store.get_match(db, row.id) or row
            return
        result.row = done.row
        if done.outcome in (APPLIED, REPEATED):
            result.applied += done.outcome == APPLIED
            result.repeated += done.outcome == REPEATED
            return
    result.refused.append((tap.key, RuleError(
        "busy_match", N_("Other phones kept recording on this match meanwhile, so this tap was not recorded: tap it again."))))
