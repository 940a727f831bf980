"""The web layer's bridge to the rules engine: replayed matches cached in memory.

A match's state is a fold over its stored actions. Replaying a long match on every
request would make an action's cost grow with the match, so :class:`MatchService`
keeps recently used :class:`~scorer.match.Match` objects, each at the version it was
built to; on a request it applies only the actions stored since then (normally none,
or the one another phone, or another server process, just added). The cache never
answers on its own: every request reads the match row first (one primary-key read)
and the cached object is brought to that stored version, so several app servers on
one database always agree.

The cache is bounded by matches (``size``) and by the actions they hold together
(``max_cached_actions``: a 5,000-action match is megabytes), least recently used out
first. The engine's objects are mutable and waitress serves from several threads, so
each match has its own lock (one of a fixed set of striped locks): a long read of one
match never holds up another table's action.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from scorer import store
from scorer.errors import N_, RuleError
from scorer.match import Match, normalize_action

#: Outcomes of :meth:`MatchService.act`.
APPLIED, DUPLICATE, STALE = "applied", "duplicate", "stale"
#: Locks the matches share (a match's lock is chosen by its id's hash).
LOCK_STRIPES = 64


class MatchService:
    """Replayed matches cached by id (at most ``size`` matches and ``max_cached_actions``
    actions in all), plus the apply-and-store step. ``cached_actions`` is what it holds now."""

    def __init__(self, size: int = 1024, max_actions: int = 5000, max_cached_actions: int = 100_000) -> None:
        self.size = max(1, int(size))
        self.max_actions = int(max_actions)
        self.max_cached_actions = max(1, int(max_cached_actions))
        self._cache: OrderedDict[str, Match] = OrderedDict()
        self._held: dict[str, int] = {}  # actions held per cached match
        self.cached_actions = 0
        self._cache_lock = threading.Lock()  # the dict itself; held for microseconds
        self._locks = [threading.RLock() for _ in range(LOCK_STRIPES)]

    def lock(self, match_id: str) -> threading.RLock:
        """The lock of one match (shared by the matches whose ids hash alike)."""
        return self._locks[hash(match_id) % LOCK_STRIPES]

    def _remember(self, match_id: str, m: Match | None) -> None:
        """Put ``m`` in the cache as the most recent (None: forget the match), then
        drop the least recently used past ``size`` matches or ``max_cached_actions``."""
        with self._cache_lock:
            self.cached_actions -= self._held.pop(match_id, 0)
            self._cache.pop(match_id, None)
            if m is None:
                return
            self._cache[match_id] = m
            self._held[match_id] = len(m.actions)
            self.cached_actions += len(m.actions)
            while len(self._cache) > 1 and (
                len(self._cache) > self.size or self.cached_actions > self.max_cached_actions
            ):
                old, _m = self._cache.popitem(last=False)
                self.cached_actions -= self._held.pop(old, 0)

    def _match(self, db: store.Database, row: store.MatchRow) -> Match:
        """The Match exactly at ``row.version`` (the match's lock held by the caller).

        Another process may append between the read of ``row`` and this one, so the
        actions read stop at ``row.version``: the object always agrees with the row the
        request read (its version guard included). A cached object ahead of ``row``
        (this row was read before another thread's action) is replayed afresh.
        """
        with self._cache_lock:
            m = self._cache.get(row.id)
        if m is not None and m.version < row.version:
            try:
                for action in store.get_actions(db, row.id, since=m.version, until=row.version):
                    m.apply(action)
            except RuleError:
                m = None
        elif m is not None and m.version == row.version:
            pass  # current: no query at all
        else:
            m = None
        if m is None or m.version != row.version:
            m = Match.replay(row.variant, row.options, row.mano, store.get_actions(db, row.id, until=row.version))
        self._remember(row.id, m)
        return m

    @staticmethod
    def _state(
        m: Match, row: store.MatchRow, translate: Callable[[str], str] | None, log_limit: int | None = None
    ) -> dict[str, Any]:
        state = m.state(names=tuple(row.names), translate=translate, log_limit=log_limit)
        state["id"] = row.id
        state["version"] = m.version
        return state

    def state(
        self,
        db: store.Database,
        row: store.MatchRow,
        translate: Callable[[str], str] | None = None,
        log_limit: int | None = None,
    ) -> dict[str, Any]:
        """The engine's state of the stored match, plus ``id`` and ``version``
        (``log_limit``: only the newest log entries, for pages)."""
        with self.lock(row.id):
            return self._state(self._match(db, row), row, translate, log_limit)

    def act(
        self,
        db: store.Database,
        match_id: str,
        action: dict[str, Any],
        version: int,
        translate: Callable[[str], str] | None = None,
        *,
        log_limit: int | None = None,
        with_state: bool = True,
    ) -> tuple[str, dict[str, Any] | None]:
        """Validate ``action`` made on ``version``, store it, and return the new state.

        Returns ``(outcome, state)``: ``APPLIED`` (stored, committed), ``DUPLICATE``
        (the same action was just stored on that same version: a double tap; nothing
        stored) or ``STALE`` (the match moved on; nothing stored). ``state`` is the
        current one in every case (its log cut to the newest ``log_limit`` entries), or
        None with ``with_state=False`` (a caller that renders the state itself: the
        state is then not built at all, so an action costs the same at action 10 and at
        action 1,000).

        :raise RuleError: the engine refuses the action, the match already holds
            ``max_actions`` actions (``too_many_actions``), or it is an Undo on a
            match whose Revanche has started (``rematch_started``: the table plays on
            there); nothing stored.
        :raise LookupError: the match does not exist.
        """
        def answer(outcome: str, m: Match, row: store.MatchRow) -> tuple[str, dict[str, Any] | None]:
            return outcome, self._state(m, row, translate, log_limit) if with_state else None

        with self.lock(match_id):
            row = store.get_match(db, match_id)
            if row is None:
                raise LookupError(match_id)
            m = self._match(db, row)
            action = normalize_action(action)  # raises RuleError on a malformed action
            undo = action["type"] == "undo"
            if undo:
                check_undo(row)
            if version != row.version:
                outcome = STALE
                if version == row.version - 1 and store.get_action(db, row.id, version) == action:
                    outcome = DUPLICATE
                return answer(outcome, m, row)
            if row.version >= self.max_actions:
                raise RuleError(
                    "too_many_actions",
                    N_("This match already has {limit} actions, the most one match can hold: start a new one."),
                    limit=self.max_actions,
                )
            m.apply(action)  # raises RuleError, m unchanged
            # An Undo is stored only while no Revanche exists (checked again in the write:
            # another phone may start the Revanche right now).
            try:
                stored = store.append_action(
                    db, row.id, version, action, score=m.score, winner=m.winner, no_rematch=undo
                )
            except BaseException:
                self._remember(row.id, None)  # our copy is ahead of the database
                raise
            if not stored:
                # Another process got there first: forget our copy and report.
                self._remember(row.id, None)
                row = store.get_match(db, match_id)
                m = self._match(db, row)
                if undo:
                    check_undo(row)
                return answer(STALE, m, row)
            return answer(APPLIED, m, row)

    @staticmethod
    def check_settings(variant: str, options: dict[str, Any], mano: int) -> Match:
        """A fresh Match for these settings (the engine validates them).

        :raise RuleError: unknown variant, bad option or bad mano.
        """
        return Match(variant, options=options, mano=mano)


def check_undo(row: store.MatchRow) -> None:
    """Refuse an Undo on a match whose Revanche has started: reopening the finished game
    would split the table between two live matches and break the series tally.

    :raise RuleError: ``rematch_started``.
    """
    if row.rematch:
        raise RuleError(
            "rematch_started",
            N_("The Revanche has already started, so this match can no longer be undone: continue there, and undo there."),
        )
