"""What a table's board knows of its tournament (issue 19, item 7): which tournament,
stage, round and table the match is, whether the tournament has taken its result, and
what comes next for its two teams once it has.

:func:`tournament_context` is read by the scoreboard's view for a full page, and for any
board of a finished game (where the Revanche and Undo depend on it); never on the
unchanged poll. Facts only: the words are the web layer's (:mod:`scorer.web.table_words`).
"""

from __future__ import annotations

from dataclasses import dataclass

from scorer.app import store, tournament_service
from scorer.app.store import dropped as dstore
from scorer.app.store import tournaments as tstore
from scorer.core import tournament as core

#: Knockout rounds named by their distance from the stage's final (0 the final, 1 the
#: semifinals, 2 the quarterfinals); rounds further away are named by number.
NAMED_LEVELS = 3


@dataclass(frozen=True)
class Place:
    """Where a tournament match sits: ``stage`` (``"main"``, ``"repescagem"``,
    ``"league"`` or ``"group<k>"``), ``round`` (1-based), ``level`` (rounds before the
    stage's final where the stage names its rounds so: 0 final, 1 semifinal, 2
    quarterfinal; None: the round is named by its number, :func:`round_level`) and
    ``table`` (its table number, None while it has none)."""

    stage: str
    round: int
    level: int | None
    table: int | None = None


@dataclass(frozen=True)
class Next:
    """What comes next for one team (``team``, its name) of a decided match. ``kind``:

    - ``"match"``: its next match is known: ``place`` against ``opponent``;
    - ``"waiting"``: its next match (``place``) waits for an opponent, the winner (or
      loser) of ``after`` (the match still to be decided, None when it is not one match,
      e.g. the groups' qualifiers), whose teams are ``after_teams`` (names, None unknown);
    - ``"groups"``: it waits for the group stage to end (qualified or not);
    - ``"done"``: it has played all its league matches (the tournament goes on);
    - ``"out"``: it is out of the tournament;
    - ``"champion"`` / ``"repescagem_champion"``: it won the tournament (or the repescagem
      crowned apart);
    - ``"confirm"``: the result waits for both teams' confirmation (``team`` is "").
    """

    team: str
    kind: str
    place: Place | None = None
    opponent: str | None = None
    after: Place | None = None
    after_teams: tuple[str | None, str | None] = (None, None)


@dataclass(frozen=True)
class Dropped:
    """A match its tournament no longer counts (issue 32): a reopening undid the slot it
    played. ``replacement``: the id of the game now playing that slot (its latest), None
    while the slot has no match; ``kept``: it may still come back as it was, if the
    reopened match keeps its winner (docs/tournaments.md, step 5)."""

    replacement: str | None
    kept: bool


@dataclass(frozen=True)
class TournamentContext:
    """A tournament match as its board shows it: the tournament's ``tournament_id`` and
    ``name``, the match's ``place``, ``taken`` (the tournament has recorded a result for
    it: the board's Undo and Revanche no longer decide it, the organizer does, by
    reopening), ``next``: one :class:`Next` per team (winner first) once taken, or one
    ``"champion"`` line once the tournament is over; empty before; and ``over``: the
    board's game ended and its series is decided, so a Revanche would not count (a
    reopened board offers Undo and the way back to the tournament instead); ``dropped``:
    a reopening took the match out of the tournament (:class:`Dropped`), None otherwise."""

    tournament_id: str
    name: str
    place: Place
    taken: bool
    next: tuple[Next, ...] = ()
    over: bool = False
    dropped: Dropped | None = None


def round_level(t: core.Tournament, stage: str, number: int) -> int | None:
    """Rounds between round ``number`` of ``stage`` and that stage's final, where the
    stage's rounds are named so (the main bracket, and a repescagem crowned apart):
    0 the final, 1 the semifinals, 2 the quarterfinals; None otherwise (a league or
    group round, an earlier knockout round, a repescagem feeding the main bracket)."""
    if stage == "main" or (stage == "repescagem" and t.settings.repescagem == "apart"):
        last = max(s.round for s in t.slots if s.stage == stage)
        if 0 <= last - number < NAMED_LEVELS:
            return last - number
    return None


def tournament_context(db: store.Database, match: store.MatchRow) -> TournamentContext | None:
    """The tournament context of ``match``'s board, or None for a match outside any
    tournament (one query then: :func:`scorer.app.store.tournaments.slot_of_series`; a
    tournament's match also loads its tournament, read only)."""
    found = tstore.slot_of_series(db, match.series)
    if found is None:
        return dropped_context(db, match) if match.dropped else None
    loaded = tournament_service.load(db, found[0])
    if loaded is None or found[1] not in loaded.view.slots:
        return None
    sv = loaded.view.slots[found[1]]
    srow = loaded.slots.get(sv.slot.id)
    taken = sv.result is not None
    return TournamentContext(
        tournament_id=loaded.row.id, name=loaded.row.name,
        place=_place(loaded, sv.slot, srow.table_number if srow else None), taken=taken,
        next=_next_lines(loaded, sv) if taken else (),
        over=match.winner is not None and tournament_service.series_over(db, match),
    )


def dropped_context(db: store.Database, match: store.MatchRow) -> TournamentContext | None:
    """The context of a match its tournament dropped (issue 32): the place it had (its slot,
    its table then), and what plays that slot now (:class:`Dropped`); None if the
    tournament is gone."""
    row = dstore.of_series(db, match.series)
    loaded = tournament_service.load(db, row.tournament_id) if row is not None else None
    if row is None or loaded is None or row.slot not in loaded.view.slots:
        return None
    live = loaded.live.get(row.slot)
    return TournamentContext(
        tournament_id=loaded.row.id, name=loaded.row.name,
        place=_place(loaded, loaded.t.slot(row.slot), row.table_number), taken=False, over=True,
        dropped=Dropped(replacement=live.match_id if live is not None else None, kept=row.kept),
    )


def _place(loaded: tournament_service.Loaded, slot: core.Slot, table: int | None = None) -> Place:
    return Place(slot.stage, slot.round, round_level(loaded.t, slot.stage, slot.round), table)


def _next_lines(loaded: tournament_service.Loaded, sv: core.SlotView) -> tuple[Next, ...]:
    """What comes next after the decided slot ``sv``: the champion once the tournament is
    over, the confirmation still missing, else a line per team, the winner first."""
    names, view = loaded.row.teams, loaded.view
    if view.champion is not None:
        return (Next(names[view.champion], "champion"),)
    if sv.status != "done" or sv.result is None:
        return (Next("", "confirm"),)
    winner = sv.teams[sv.result.winner]
    loser = sv.teams[1 - sv.result.winner]
    return tuple(_next_for(loaded, sv, team) for team in (winner, loser) if team is not None)


def _next_for(loaded: tournament_service.Loaded, sv: core.SlotView, team: int) -> Next:
    """What comes next for ``team``, which played the decided slot ``sv``."""
    names, view = loaded.row.teams, loaded.view
    name = names[team]
    if view.repescagem_champion == team:
        return Next(name, "repescagem_champion")
    later = [v for v in view.slots.values() if team in v.teams and v.slot.id != sv.slot.id and v.result is None]
    for v in later:
        if v.status == "ready":
            srow = loaded.slots.get(v.slot.id)
            opponent = v.teams[1 - v.teams.index(team)]
            return Next(name, "match", _place(loaded, v.slot, srow.table_number if srow else None),
                        opponent=names[opponent] if opponent is not None else None)
    for v in later:  # "waiting": the other side is still unknown
        side = 1 - v.teams.index(team)
        source = v.slot.sources[side]
        if source.kind in ("winner", "loser") and source.ref in view.slots:
            other = view.slots[source.ref]
            first, second = (names[i] if i is not None else None for i in other.teams)
            return Next(name, "waiting", _place(loaded, v.slot), after=_place(loaded, other.slot),
                        after_teams=(first, second))
        return Next(name, "waiting", _place(loaded, v.slot))
    if sv.slot.stage.startswith("group") and view.qualifiers is None:
        return Next(name, "groups")
    if sv.slot.stage == "league" or (sv.slot.stage.startswith("group") and team in (view.qualifiers or ())):
        return Next(name, "done")
    return Next(name, "out")


def board_stamp(db: store.Database, match: store.MatchRow | store.PollStamp) -> int | None:
    """What a finished board's poll also compares: the version of ``match``'s tournament
    (a result taken or reopened, the next match known), so the board's Undo, Revanche and
    next lines follow the tournament within one poll; None for a game still going on
    (its own version moves) or outside any tournament (one short query then)."""
    return tstore.version_of_series(db, match.series) if match.winner is not None else None


def result_taken(db: store.Database, match: store.MatchRow) -> bool:
    """Whether ``match`` plays a tournament slot that already holds a result (a walkover
    or abandonment recorded while the game went on, or its own end): one short query."""
    lock = tstore.series_lock(db, match.series)
    return lock is not None and lock[2]


def organizer_poll(db: store.Database, tid: str) -> tuple[tstore.TournamentRow, str] | None:
    """What the organizer page's change notice reads (two short queries, nothing advanced):
    the tournament's row (to check the organizer's key) and its stamp
    (:func:`scorer.app.tournament_service.stamp`, as the TV page's poll); None if there is
    no such tournament."""
    row = tstore.get_tournament(db, tid)
    stamp = tournament_service.stamp(db, tid) if row is not None else None
    return (row, stamp) if row is not None and stamp is not None else None
