"""The web layer's bridge to the rules engine: replayed matches cached in memory.

A match's state is a fold over its stored actions. Replaying a long match on every
request would make an action's cost grow with the match, so :class:`MatchService`
keeps the last few :class:`~scorer.match.Match` objects, each at the version it was
built to; on a request it applies only the actions stored since then (normally none,
or the one another phone just added). One lock serialises use of the cached objects,
since the engine's objects are mutable and waitress serves from several threads.
"""

from __future__ import annotations

import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from scorer import store
from scorer.errors import N_, RuleError
from scorer.match import Match, normalize_action

#: Outcomes of :meth:`MatchService.act`.
APPLIED, DUPLICATE, STALE = "applied", "duplicate", "stale"


class MatchService:
    """Replayed matches cached by id (at most ``size``), plus the apply-and-store step."""

    def __init__(self, size: int = 1024, max_actions: int = 5000) -> None:
        self.size = max(1, int(size))
        self.max_actions = int(max_actions)
        self._cache: OrderedDict[str, Match] = OrderedDict()
        self._lock = threading.RLock()
        #: Called as ``listener(db, row)`` after every stored action (tournaments, issue 11).
        self.listeners: list[Callable[[sqlite3.Connection, store.MatchRow], None]] = []

    def _match(self, db: sqlite3.Connection, row: store.MatchRow) -> Match:
        """The Match for ``row`` at ``row.version`` (lock held by the caller)."""
        m = self._cache.get(row.id)
        if m is not None and m.version <= row.version:
            try:
                for action in store.get_actions(db, row.id, since=m.version):
                    m.apply(action)
            except RuleError:
                m = None
        else:
            m = None
        if m is None or m.version != row.version:
            m = Match.replay(row.variant, row.options, row.mano, store.get_actions(db, row.id))
        self._cache[row.id] = m
        self._cache.move_to_end(row.id)
        while len(self._cache) > self.size:
            self._cache.popitem(last=False)
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
        db: sqlite3.Connection,
        row: store.MatchRow,
        translate: Callable[[str], str] | None = None,
        log_limit: int | None = None,
    ) -> dict[str, Any]:
        """The engine's state of the stored match, plus ``id`` and ``version``
        (``log_limit``: only the newest log entries, for pages)."""
        with self._lock:
            return self._state(self._match(db, row), row, translate, log_limit)

    def act(
        self,
        db: sqlite3.Connection,
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

        with self._lock:
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
            stored = store.append_action(
                db, row.id, version, action, score=m.score, winner=m.winner, no_rematch=undo
            )
            if not stored:
                # Another process got there first: forget our copy and report.
                self._cache.pop(row.id, None)
                row = store.get_match(db, match_id)
                m = self._match(db, row)
                if undo:
                    check_undo(row)
                return answer(STALE, m, row)
            outcome = answer(APPLIED, m, row)
        # --- hook (issue 11): a stored action may end a tournament match; listeners advance it.
        if self.listeners:
            after = store.get_match(db, match_id)
            for listener in self.listeners:
                listener(db, after)
        return outcome

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
