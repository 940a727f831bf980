"""The application service for stored matches, with its cache of replayed matches.

:class:`MatchService` is what every view calls for a match: create, state, act (an undo
is an action), rename, Revanche, export and import, the series. It imports neither
Flask nor any view; it takes the request's database connection and calls the store
(:mod:`scorer.app.store`) and the engine (:mod:`scorer.core.match`). The calculators' service is
:mod:`scorer.core.calculators`.

A match's state is a fold over its stored actions. Replaying a long match on every
request would make an action's cost grow with the match, so :class:`MatchService`
keeps the last few :class:`~scorer.core.match.Match` objects, each at the version it was
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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from scorer.app import store
from scorer.app.match_records import ExportSettings, ExportSince, MatchExport, PostedAction
from scorer.app.stats_memo import StatsMemo
from scorer.core import series
from scorer.core.errors import N_, RuleError
from scorer.core.match import Match
from scorer.core.seats import players_per_side
from scorer.core.schema import Action, Options, State, normalize_action
from scorer.core.variants import get_variant
from scorer.core.stats import SideStats, StoryPoint, match_stats, score_story

#: Outcomes of :meth:`MatchService.act` (``REPEATED``: a tap whose key is already recorded).
APPLIED, DUPLICATE, STALE, REPEATED = "applied", "duplicate", "stale", "repeated"
#: The ``format`` field of an export; bump the number if the shape ever changes.
EXPORT_FORMAT = "truco-scorer-match/1"
#: Locks the matches share (a match's lock is chosen by its id's hash).
LOCK_STRIPES = 64


class ActResult(tuple):
    """What :meth:`MatchService.act` answers: the pair ``(outcome, state)`` (``state`` None
    with ``with_state=False``), plus ``row``, the match as stored after it."""

    row: store.MatchRow

    def __new__(cls, outcome: str, state: State | None, row: store.MatchRow) -> ActResult:
        result = super().__new__(cls, (outcome, state))
        result.row = row
        return result

    @property
    def outcome(self) -> str:
        return self[0]

    @property
    def state(self) -> State | None:
        return self[1]


class MatchService:
    """The operations on stored matches, over replayed matches cached by id (at most
    ``size`` matches and ``max_cached_actions`` actions in all; ``cached_actions`` is what
    it holds now); a match holds at most ``max_actions`` actions."""

    def __init__(self, size: int = 1024, max_actions: int = 5000, max_cached_actions: int = 100_000) -> None:
        self.size = max(1, int(size))
        self.max_actions = int(max_actions)
        self.max_cached_actions = max(1, int(max_cached_actions))
        self._cache: OrderedDict[str, Match] = OrderedDict()
        self._held: dict[str, int] = {}  # actions held per cached match
        self.cached_actions = 0
        self._cache_lock = threading.Lock()  # the dict itself; held for microseconds
        self._locks = [threading.RLock() for _ in range(LOCK_STRIPES)]
        #: Called as ``listener(db, row)`` after every stored action (tournaments, issue 11).
        self.listeners: list[Callable[[store.Database, store.MatchRow], None]] = []
        #: Called as ``guard(db, row, kind)`` (``kind`` "action", "undo" or "rematch") before an
        #: action or a Revanche of ``row`` is stored, and again inside its write transaction
        #: with the match row locked; a RuleError it raises refuses it, nothing stored (a
        #: tournament whose slot has taken its result, issue 19).
        self.guards: list[Callable[[store.Database, store.MatchRow, str], None]] = []
        #: The matches' statistics by version (:mod:`scorer.app.stats_service`: issue 31).
        self.stats_memo = StatsMemo()

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

    def _cached(self, match_id: str) -> Match | None:
        """The cached Match of ``match_id``, at whatever version it was left, or None."""
        with self._cache_lock:
            return self._cache.get(match_id)

    def _match(self, db: store.Database, row: store.MatchRow) -> Match:
        """The Match exactly at ``row.version`` (the match's lock held by the caller).

        Another process may append between the read of ``row`` and this one, so the
        actions read stop at ``row.version``: the object always agrees with the row the
        request read (its version guard included). A cached object ahead of ``row``
        (this row was read before another thread's action) is replayed afresh.
        """
        m = self._cached(row.id)
        if m is not None and m.version < row.version:
            try:
                for action in store.get_actions(db, row.id, since=m.version, until=row.version):
                    m.apply(action)
            except RuleError:
                m = None
        elif m is not None and m.version > row.version:
            m = None
        if m is None or m.version != row.version:
            m = Match.replay(row.variant, row.options, row.mano, store.get_actions(db, row.id, until=row.version),
                             players_per_side(row.players))
        self._remember(row.id, m)
        return m

    @staticmethod
    def _state(m: Match, row: store.MatchRow, log_limit: int | None = None) -> State:
        state = m.state(names=tuple(row.names), log_limit=log_limit)
        state["id"] = row.id
        state["version"] = m.version
        return state

    def state(
        self,
        db: store.Database,
        row: store.MatchRow,
        log_limit: int | None = None,
    ) -> State:
        """The engine's state of the stored match (:meth:`Match.state
        <scorer.core.match.Match.state>`: its log as data, said in words by the edges with
        :func:`scorer.present.log_words.say_state`), plus ``id`` and ``version``
        (``log_limit``: only the newest log entries, for pages)."""
        with self.lock(row.id):
            return self._state(self._match(db, row), row, log_limit)

    def act(
        self,
        db: store.Database,
        match: str | store.MatchRow,
        action: object,
        version: int,
        *,
        log_limit: int | None = None,
        with_state: bool = True,
        tap_key: str | None = None,
    ) -> ActResult:
        """Validate ``action`` made on ``version``, store it, and return the new state. ``action``
        is as a client posted it, any JSON value: the engine refuses what is not an action.

        ``match`` is the stored match as the request read it (or its id): it is read again
        only when this process has already replayed a newer version, or a write lost a race.

        ``tap_key``: the key the phone made for this tap (issue 24), recorded with the action
        in one transaction; a key already recorded for the match answers ``REPEATED`` and
        changes nothing, whatever the version and the rules say now (a repeat after a lost
        answer). Only stored taps are recorded: a tap refused or stale is judged again when sent again.

        Returns an :class:`ActResult` ``(outcome, state)``: ``APPLIED`` (stored, committed),
        ``REPEATED`` (``tap_key`` was already recorded; nothing stored), ``DUPLICATE`` (the
        same action was just stored on that same version: a double tap;
        nothing stored) or ``STALE`` (the match moved on; nothing stored). ``state`` is the
        current one in every case (its log cut to the newest ``log_limit`` entries), or
        None with ``with_state=False`` (a caller that renders the state itself: the
        state is then not built at all, so an action costs the same at action 10 and at
        action 1,000). Its ``row`` is the match as stored now.

        :raise RuleError: the engine refuses the action, the match already holds
            ``max_actions`` actions (``too_many_actions``), it is an Undo on a
            match whose Revanche has started (``rematch_started``: the table plays on
            there), or a guard refuses it (``tournament_result_taken``: a tournament
            has taken the result of the match's series); nothing stored.
        :raise LookupError: the match does not exist.
        """
        with self.lock(match if isinstance(match, str) else match.id):
            try:
                result = self._act_locked(db, match, action, version, log_limit, with_state, tap_key)
            except RuleError:
                known = self._repeat(db, match, tap_key, log_limit, with_state)
                if known is None:
                    raise
                return known  # the rules judge the match as it is now; the tap was recorded before
        # --- hook (issue 11): a stored action may end a tournament match; listeners advance it.
        for listener in self.listeners:
            listener(db, result.row)
        return result

    def _repeat(self, db, match, tap_key, log_limit, with_state) -> ActResult | None:
        """``REPEATED`` with the match as stored now when ``tap_key`` is recorded on it, else None
        (the match's lock held by the caller)."""
        match_id = match if isinstance(match, str) else match.id
        if tap_key is None or store.tap_seq(db, match_id, tap_key) is None:
            return None
        self._remember(match_id, None)  # our copy may be ahead of the database
        row = self._current(db, match_id)
        m = self._match(db, row)
        return ActResult(REPEATED, self._state(m, row, log_limit) if with_state else None, row)

    def _act_locked(self, db, match, action, version, log_limit, with_state, tap_key) -> ActResult:
        """:meth:`act`'s work, under the match's lock (same arguments and errors)."""
        def answer(outcome: str, m: Match, row: store.MatchRow) -> ActResult:
            return ActResult(outcome, self._state(m, row, log_limit) if with_state else None, row)

        row = self._current(db, match)
        m = self._match(db, row)
        action = normalize_action(action)  # raises RuleError on a malformed action
        undo = action["type"] == "undo"
        if undo:
            self.check_undo(db, row)
        if version != row.version:
            return self._repeat(db, row, tap_key, log_limit, with_state) or answer(
                self._stale_or_duplicate(db, row, action, version), m, row)
        self._check_room(row)
        kind = "undo" if undo else "action"
        try:
            m.apply(action)  # raises RuleError, m unchanged
        except RuleError:
            # A match whose tournament took (or dropped) it says so, not the engine's reason
            # ("game over"): docs/tournaments.md, step 5.
            self.guard(db, row, kind)
            raise
        # An Undo is stored only while no Revanche exists, and any action only while the
        # guards allow it (checked again in the write: another phone may start the
        # Revanche, or the tournament take the result, right now).
        guard = (lambda locked: self.guard(locked, row, kind)) if self.guards else None
        try:
            stored = store.append_action(db, row.id, version, action, score=m.score, winner=m.winner, no_rematch=undo,
                                         tap_key=tap_key, guard=guard)
        except store.KnownTap:  # recorded meanwhile by another process: rolled back
            self._remember(row.id, None)  # our copy is ahead of the database
            repeat = self._repeat(db, row, tap_key, log_limit, with_state)
            assert repeat is not None  # KnownTap: the tap is recorded
            return repeat
        except BaseException:
            self._remember(row.id, None)  # our copy is ahead of the database
            raise
        if stored:
            return answer(APPLIED, m, replace(row, version=m.version, score=m.score, winner=m.winner))
        # Another process got there first (maybe with this very tap): forget our copy and report.
        known = self._repeat(db, row, tap_key, log_limit, with_state)
        if known is not None:
            return known
        self._remember(row.id, None)
        row = self._current(db, row.id)
        m = self._match(db, row)
        if undo:
            self.check_undo(db, row)
        return answer(STALE, m, row)

    def _current(self, db: store.Database, match: str | store.MatchRow) -> store.MatchRow:
        """``match`` as stored: the row given, unless it is an id or older than the
        version this process has already replayed (lock held by the caller).

        :raise LookupError: the match does not exist.
        """
        if isinstance(match, store.MatchRow):
            cached = self._cached(match.id)
            if cached is None or cached.version <= match.version:
                return match
            match = match.id
        row = store.get_match(db, match)
        if row is None:
            raise LookupError(match)
        return row

    @staticmethod
    def _stale_or_duplicate(db: store.Database, row: store.MatchRow, action: Action, version: int) -> str:
        """``DUPLICATE`` when ``action`` is the one just stored on ``version``, else ``STALE``."""
        if version == row.version - 1 and store.get_action(db, row.id, version) == action:
            return DUPLICATE
        return STALE

    def _check_room(self, row: store.MatchRow) -> None:
        """:raise RuleError: ``too_many_actions`` once the match holds ``max_actions``."""
        if row.version >= self.max_actions:
            raise RuleError(
                "too_many_actions",
                N_("This match already has {limit} actions, the most one match can hold: start a new one."),
                limit=self.max_actions,
            )

    def guard(self, db: store.Database, row: store.MatchRow, kind: str = "action") -> None:
        """Ask every guard whether ``kind`` ("action", "undo" or "rematch") may change ``row``.

        :raise RuleError: a guard refuses it (e.g. ``tournament_result_taken``).
        """
        for guard in self.guards:
            guard(db, row, kind)

    def check_undo(self, db: store.Database, row: store.MatchRow) -> None:
        """Refuse an Undo of ``row`` now: its Revanche has started (:func:`check_undo`), or a
        guard refuses it (a tournament has taken its result).

        :raise RuleError: ``rematch_started``, or the guard's code.
        """
        check_undo(row)
        self.guard(db, row, "undo")

    @staticmethod
    def check_settings(variant: object, options: Mapping[str, object], mano: int) -> Match:
        """A fresh Match for these settings (the engine validates them; ``variant`` as a client
        sent it, any value).

        :raise RuleError: unknown variant, bad option or bad mano.
        """
        return Match(get_variant(variant).id, options=options, mano=mano)

    # ------------------------------------------------- the other operations on a match

    @staticmethod
    def get(db: store.Database, match_id: str) -> store.MatchRow | None:
        """The stored match ``match_id``, or None."""
        return store.get_match(db, match_id)

    @staticmethod
    def recent(db: store.Database, match_ids: list[str]) -> list[store.MatchRow]:
        """The stored matches among ``match_ids`` (a phone's recent matches)."""
        return store.get_matches(db, match_ids)

    def create(
        self, db: store.Database, *, variant: str, options: Options, names: list[str], mano: int,
        best_of: int = 1, players: list[list[str]] | None = None,
    ) -> store.MatchRow:
        """Store a new match (options filled in with the variant's defaults).

        :raise RuleError: unknown variant, bad option or bad mano; nothing stored.
        """
        m = self.check_settings(variant, options, mano)
        return store.create_match(db, variant=variant, options=m.options, names=names, mano=mano,
                                  best_of=best_of, players=players)

    def stats(self, db: store.Database, row: store.MatchRow) -> tuple[SideStats, SideStats]:
        """Both sides' statistics of the match at ``row.version``, from its log
        (:func:`scorer.core.stats.match_stats`)."""
        with self.lock(row.id):
            return match_stats(self._match(db, row))

    def story(self, db: store.Database, row: store.MatchRow) -> list[StoryPoint]:
        """Both scores hand by hand with the deciding calls (:func:`scorer.core.stats.score_story`)."""
        with self.lock(row.id):
            return score_story(self._match(db, row).log)

    def last_action(self, db: store.Database, row: store.MatchRow) -> Action | None:
        """The newest stored action (an undo included), or None for a new match."""
        with self.lock(row.id):
            actions = self._match(db, row).actions
            return actions[-1] if actions else None

    @staticmethod
    def series(db: store.Database, row: store.MatchRow) -> series.SeriesStatus | None:
        """Where the match's Revanche series stands; None for a lone game (best of 1, no
        Revanche played yet)."""
        if row.best_of == 1 and row.series == row.id:
            return None
        # A finished game whose Revanche started shows the series as it stood at that game
        # ("Melhor de 3, partida 1"), not as it stands now: leave out the later games.
        later: list[store.MatchRow] = []
        next_id = row.rematch
        while next_id:
            nxt = store.get_match(db, next_id)
            if nxt is None or nxt.series != row.series or len(later) > 10:
                break
            later.append(nxt)
            next_id = nxt.rematch
        wins = list(store.series_tally(db, row.series))
        for game in later:
            if game.winner in (0, 1):
                wins[game.winner] -= 1
        games = store.series_games(db, row.series) - len(later)
        return series.series_status(wins, row.best_of, games)

    def rematch(self, db: store.Database, row: store.MatchRow) -> store.MatchRow:
        """Start the Revanche of a finished match once (same settings, series kept; a new
        series of the same length once this one is decided), or the one already started.

        :raise RuleError: the game is not over, or a guard refuses the Revanche (a
            tournament match whose result stands or is decided, ``tournament_match_over``);
            nothing stored.
        """
        if row.rematch is None:
            self.guard(db, row, "rematch")
        status = self.series(db, row)
        guard = (lambda locked: self.guard(locked, row, "rematch")) if self.guards else None
        new = store.create_rematch(db, row.id, new_series=bool(status and status.decided), guard=guard)
        assert new is not None  # the match is stored: its Revanche is made or found
        return new

    @staticmethod
    def rename(db: store.Database, row: store.MatchRow, names: list[str]) -> store.MatchRow:
        """Rename the two sides; the renamed match."""
        renamed = store.rename_match(db, row.id, names)
        assert renamed is not None  # the match is stored
        return renamed

    @staticmethod
    def export(db: store.Database, row: store.MatchRow) -> MatchExport:
        """The export of a stored match (``format``, ``variant``, ``options``, ``mano``,
        ``names``, ``best_of`` (the Revanche series' length), ``players`` (None, or each
        side's players in their order of play), ``actions``, plus ``score`` and ``winner``
        for people reading the file); never the edit key."""
        return {**_export_settings(row), "actions": store.get_actions(db, row.id)}

    @staticmethod
    def export_since(db: store.Database, row: store.MatchRow, since: int) -> ExportSince:
        """The export of ``row`` (:meth:`export`) for a phone that holds its first ``since``
        actions: ``actions`` holds those from index ``since`` on, up to ``row.version`` (they
        agree with its ``score`` and ``winner``), plus ``since`` and ``version`` (the actions
        in all). A ``since`` past ``row.version`` (or below 0) gives every action, and
        ``since`` 0.

        The action list only grows (an Undo is an action added, never one removed), so the
        first ``since`` actions a phone holds are the stored ones: what it lacks is the tail.
        """
        since = since if 0 <= since <= row.version else 0
        return {**_export_settings(row), "actions": store.get_actions(db, row.id, since=since, until=row.version),
                "since": since, "version": row.version}

    def import_match(
        self, db: store.Database, *, variant: str, options: Options, names: list[str], mano: int,
        actions: Sequence[PostedAction], best_of: int = 1, players: list[list[str]] | None = None,
        match_id: str | None = None, edit_key: str | None = None, tap_keys: list[str | None] | None = None,
    ) -> store.MatchRow:
        """Store a new match rebuilt from an export's settings and actions (same state, its
        own id and key; ``match_id`` and ``edit_key``: the ones a caller derived itself;
        ``tap_keys``: the key of the tap that made each action, None for none, recorded as
        :meth:`act` records one).

        :raise RuleError: bad settings, or an action the rules refuse (``index`` in its
            params says which); nothing stored.
        :raise store.IntegrityError: ``match_id`` is taken; nothing stored.
        """
        self.check_settings(variant, options, mano)
        # An export made before an option existed replays as it was played (Variant.options_before).
        m = Match.replay(variant, get_variant(variant).options_before(options), mano, actions, players_per_side(players))
        return store.import_match(db, variant=variant, options=m.options, names=names, mano=mano,
                                  actions=m.actions, score=list(m.score), winner=m.winner,
                                  best_of=best_of, players=players, match_id=match_id, edit_key=edit_key,
                                  tap_keys=tap_keys or ())


def _export_settings(row: store.MatchRow) -> ExportSettings:
    """An export's fields besides ``actions`` (:meth:`MatchService.export`)."""
    return {
        "format": EXPORT_FORMAT,
        "variant": row.variant,
        "options": row.options,
        "mano": row.mano,
        "names": list(row.names),
        "best_of": row.best_of,
        "players": [list(side) for side in row.players] if row.players else None,
        "score": list(row.score),
        "winner": row.winner,
    }


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
