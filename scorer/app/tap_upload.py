"""Many taps sent at once by a phone that kept them while the scorekeeper did not answer
(issue 24; applied taps and their hands, issue 30; the contract: ``docs/api.md``).

Each tap has its own key (:class:`Tap`), recorded once with the action it stored
(:meth:`MatchService.act <scorer.app.match_service.MatchService.act>`'s ``tap_key``). The
taps are taken in order, each in its own write transaction: a crash midway leaves a prefix
recorded, and the same upload sent again skips that prefix (its keys are known) and records
the rest once. Nothing here imports Flask.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from scorer.app import store
from scorer.app.match_records import PostedAction
from scorer.app.match_service import APPLIED, REPEATED, MatchService
from scorer.core.errors import N_, RuleError
from scorer.core.match import Match
from scorer.core.schema import Action, State
from scorer.core.seats import players_per_side

#: Why an applied Undo was not recorded (:func:`upload`).
UNDO_NOT_MINE = N_("Undo not applied: the tap it took back was not recorded, and the last action on the "
                   "scoreboard is another phone's.")
#: Why an applied tap made in a hand that has ended was not recorded (:func:`upload`).
HAND_OVER = N_("Made in hand {hand}, which has ended on the scoreboard: not applied.")

#: Times a tap is tried again when another process stored an action between reading the match
#: and writing the tap (each try reads the match again).
TRIES = 5


@dataclass(frozen=True)
class Tap:
    """One tap kept on a phone: its ``key`` (made on the phone), the ``version`` of the board
    it was made on, the ``action`` (as the engine takes it) and the ``hand`` the board showed
    then (a number from 1; None when the phone did not say)."""

    key: str
    version: int
    action: PostedAction
    hand: int | None = None


@dataclass
class Upload:
    """What :func:`upload` did: taps ``applied`` (recorded now), ``repeated`` (recorded
    before: skipped), ``refused`` (``(tap key, RuleError)``, not recorded; the error's
    ``code`` says why, e.g. ``hand_over``), and ``row``, the match as stored after it.
    ``conflict``: the number of new taps not recorded because the match had moved on
    (another phone acted), 0 when there was no conflict."""

    row: store.MatchRow
    applied: int = 0
    repeated: int = 0
    refused: list[tuple[str, RuleError]] = field(default_factory=list)
    conflict: int = 0


class _MovedOn(Exception):
    """Another process stored an action while a tap made on the match's version was being
    recorded (without ``apply``: the rest of the upload is a conflict)."""


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
    (:func:`chained`), else it is a conflict too, and so is another phone's action stored
    while they are recorded (the taps recorded before it stay; the rest wait).

    With ``apply`` (the player chose to apply them), no version is compared: each is checked
    by the rules against the match now, but only in the hand it was made in (:class:`MadeIn`):
    a tap made in a hand that has since ended is refused (``hand_over``), never moved to the
    hand open now. An Undo is recorded only when the action it takes back was recorded from a
    tap of this upload, repeated ones included (the first tap of a later chunk is the last
    of the chunk before); else it is refused (``undo_not_mine``: it would take back another
    phone's action).

    The tournament's guards and the match's size limit apply to each tap as to a single tap.
    """
    with service.lock(row.id):
        result = Upload(row=store.get_match(db, row.id) or row)
        made_in = MadeIn(db, result.row, taps) if apply else None
        checked, previous = apply, None
        mine: set[int] = set()  # the actions (their seq) this upload's taps recorded, now or before
        for index, tap in enumerate(taps):
            seq = store.tap_seq(db, row.id, tap.key)
            hand = made_in.hand(tap, seq) if made_in else None  # every tap in order: it follows the phone's board
            if seq is not None:
                result.repeated += 1
                mine.add(seq)
                previous = previous if checked else seq
                continue
            if not checked:
                now = result.row.version
                if (tap.version != now and (previous is None or previous + 1 != now)) or not chained(taps[index:]):
                    result.conflict = _waiting(db, row.id, taps[index:])
                    return result
                checked = True
            check = _applied_check(service, db, tap, hand, mine) if apply else None
            try:
                seq = _record(service, db, result, tap, check)
            except _MovedOn:
                result.conflict = _waiting(db, row.id, taps[index:])
                return result
            if seq is not None:
                mine.add(seq)
        return result


def chained(taps: list[Tap]) -> bool:
    """Whether ``taps`` can have been made one after the other on one phone: each on the board
    the one before it was made on (no answer came: the same version) or on the board that tap
    made (the offline engine counts: its version plus one). A tap made on an older board than
    the one before it is not: the upload goes to the player (a conflict), never merged silently."""
    return all(later.version - earlier.version in (0, 1) for earlier, later in zip(taps, taps[1:]))


def _waiting(db: store.Database, match_id: str, taps: list[Tap]) -> int:
    """How many of ``taps`` the match has not recorded."""
    return sum(store.tap_seq(db, match_id, t.key) is None for t in taps)


Check = Callable[[store.MatchRow], RuleError | None]


def _applied_check(service: MatchService, db: store.Database, tap: Tap, hand: int | None, mine: set[int]) -> Check:
    """What an applied tap must pass on the match as it is (``row``) before it is tried: made in
    the hand open now (when its hand is known), and for an Undo, taking back an action of this
    upload (``mine``). Returns the refusal, or None."""
    def check(row: store.MatchRow) -> RuleError | None:
        if hand is not None and hand != hand_number(service.state(db, row, log_limit=1)):
            return RuleError("hand_over", HAND_OVER, hand=hand)
        if tap.action.get("type") == "undo":
            back = taken_back(db, row.id, row.version)
            if back is not None and back not in mine:
                return RuleError("undo_not_mine", UNDO_NOT_MINE)
        return None

    return check


def _record(service: MatchService, db: store.Database, result: Upload, tap: Tap, check: Check | None) -> int | None:
    """Record one new tap on the match as it is now (``result.row``), counting it in
    ``result``; the action's place (seq) when it is recorded, else None. With ``check``
    (applied taps), read the match again and retry when another process stored an action
    first, checking the tap again each time.

    :raise _MovedOn: without ``check``, another process stored an action first.
    """
    for _ in range(TRIES):
        row = result.row
        refusal = check(row) if check else None
        if refusal is not None:
            result.refused.append((tap.key, refusal))
            return None
        try:
            done = service.act(db, row, tap.action, row.version, with_state=False, tap_key=tap.key)
        except RuleError as e:
            result.refused.append((tap.key, e))
            result.row = store.get_match(db, row.id) or row
            return None
        result.row = done.row
        if done.outcome == APPLIED:
            result.applied += 1
            return done.row.version - 1
        if done.outcome == REPEATED:  # another copy of this upload, in another process, recorded it
            result.repeated += 1
            return store.tap_seq(db, row.id, tap.key)
        if check is None:
            raise _MovedOn
    result.refused.append((tap.key, RuleError(
        "busy_match", N_("Other phones kept recording on this match meanwhile, so this tap was not recorded: tap it again."))))
    return None


def taken_back(db: store.Database, match_id: str, version: int) -> int | None:
    """The action (its seq) an Undo made on ``version`` takes back: the newest action not
    undone among the first ``version``; None when there is none."""
    standing: list[int] = []
    for seq, action in enumerate(store.get_actions(db, match_id, until=version)):
        if action.get("type") != "undo":
            standing.append(seq)
        elif standing:
            standing.pop()
    return standing[-1] if standing else None


def hand_number(state: State) -> int:
    """The number of the hand open in an engine ``state`` (``state["hand"]["number"]``, from 1)."""
    return int(state["hand"]["number"])


class MadeIn:
    """The hand each tap of an applied upload was made in, asked in the upload's order
    (:meth:`hand`): the tap's own ``hand`` when the phone said it, else derived from its
    ``version`` (``row``: the match as stored when the upload began).

    Derived, a tap made on the board the tap before it made (the offline engine counts: its
    version is one more) is in the hand that tap left open on the phone. The scorekeeper keeps
    a copy of the phone's match: its own actions up to the first tap's version, then the
    phone's taps; after a tap it had recorded already (the first tap of a later chunk is the
    last of the chunk before), its own match as that tap left it. Any other tap made on a
    version the scorekeeper has is in the hand open at that version (its board came from the
    scorekeeper). Else the hand is not known (None: the rules alone judge the tap).
    """

    def __init__(self, db: store.Database, row: store.MatchRow, taps: list[Tap]) -> None:
        self.row = row
        self.copy: Match | None = None  # the phone's match as the scorekeeper sees it ...
        self.shift = 0  # ... at the phone's version copy.version + shift
        self.base: tuple[int, int] | None = None  # (actions of ours, phone's version) the copy starts from
        self.hands: dict[int, int] = {}  # version the scorekeeper has -> hand open there
        self.actions: list[Action] = []
        if all(t.hand is not None for t in taps):
            return
        self.actions = store.get_actions(db, row.id, until=row.version)
        asked = {t.version for t in taps if t.hand is None and t.version <= len(self.actions)}
        if taps[0].version <= len(self.actions):
            self.base = (taps[0].version, taps[0].version)
        try:
            match = Match(row.variant, row.options, row.mano, players_per_side(row.players))
            for version in range(max(asked, default=-1) + 1):
                if version in asked:
                    self.hands[version] = hand_number(match.state(log_limit=1))
                if version < len(self.actions):
                    match.apply(self.actions[version])
        except RuleError:  # a stored log the rules no longer take: no hand is derived
            self.hands, self.base, self.actions = {}, None, []

    def hand(self, tap: Tap, seq: int | None) -> int | None:
        """The hand ``tap`` was made in, or None; moves the phone's copy on by ``tap``
        (``seq``: where the scorekeeper had recorded it, None if it had not)."""
        if self.base is not None and tap.version == self.base[1]:
            try:
                self.copy = Match.replay(self.row.variant, self.row.options, self.row.mano, self.actions[: self.base[0]],
                                         players_per_side(self.row.players))
                self.shift = tap.version - self.base[0]
            except RuleError:
                self.copy = None
            self.base = None
        derived = self.hands.get(tap.version)
        copy = self.copy if self.copy is not None and tap.version == self.copy.version + self.shift else None
        if copy is not None:  # the phone's copy is at this tap's board
            derived = hand_number(copy.state(log_limit=1))
        if seq is not None and seq < len(self.actions):  # the phone's next board: ours after it
            self.copy, self.base = None, (seq + 1, tap.version + 1)
        elif copy is not None:
            try:
                copy.apply(tap.action)
            except RuleError:
                pass  # the phone did not count it either: its next tap is on the same board
        return tap.hand if tap.hand is not None else derived
