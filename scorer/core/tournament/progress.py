"""Where a tournament stands: the recorded results folded into who plays whom now, the
standings, the qualifiers and the champion (:func:`resolve`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast
from dataclasses import dataclass

from scorer.core.tournament.layout import group_members
from scorer.core.tournament.model import Result, Settings, Slot, Source, Tournament
from scorer.core.tournament.standings import Row, Standings, standings


#: The games :func:`standings` counts: each done slot's two teams and its result (both known).
Games = list[tuple[tuple[int, int], Result]]


@dataclass(frozen=True)
class SlotView:
    """A slot now: its ``teams`` (team index or None while unknown), ``result`` (None
    while undecided or awaiting confirmation), ``status``: ``"waiting"`` (a team is
    still unknown), ``"ready"`` (both known, no result), ``"proposed"`` (a result
    waiting for both teams' confirmation) or ``"done"``."""

    slot: Slot
    teams: tuple[int | None, int | None]
    result: Result | None
    status: str

    @property
    def winner(self) -> int | None:
        """The winning team (index) once the slot is done, else None."""
        if self.status != "done" or self.result is None:
            return None
        return self.teams[self.result.winner]

    @property
    def loser(self) -> int | None:
        """The losing team (index) once the slot is done, else None."""
        if self.status != "done" or self.result is None:
            return None
        return self.teams[1 - self.result.winner]


@dataclass(frozen=True)
class View:
    """A tournament now: every slot's :class:`SlotView` (by id, in layout order),
    ``standings`` (the whole tournament), ``groups`` (per group, groups format),
    ``qualifiers`` (groups format, once the groups are over), ``champion``,
    ``repescagem_champion`` (crowned apart) and ``needs_lots`` (ties a finished stage
    still has: a league or group's lots are drawn once its last match is done, never before)."""

    slots: dict[str, SlotView]
    standings: Standings
    groups: tuple[Standings, ...]
    qualifiers: tuple[int, ...] | None
    champion: int | None
    repescagem_champion: int | None
    needs_lots: tuple[tuple[int, ...], ...]

    @property
    def finished(self) -> bool:
        """Whether the champion is known."""
        return self.champion is not None


def counts(result: Result | None, settings: Settings) -> bool:
    """Whether ``result`` decides its slot now (with ``confirm``, a played result needs
    both sides' confirmation; walkovers and abandonments are the organizer's own)."""
    if result is None:
        return False
    if settings.confirm and result.kind == "played":
        return set(result.confirmed) >= {0, 1}
    return True


def resolve(t: Tournament, results: Mapping[str, Result], lots: Mapping[int, int] | None = None) -> View:
    """Fold ``results`` (slot id -> :class:`Result`) into the tournament's current view.

    A result on a slot whose teams are not both known is ignored (the caller's cascade
    removes such results; see :func:`dependents`).
    """
    s = t.settings
    views: dict[str, SlotView] = {}
    qualifiers: tuple[int, ...] | None = None
    group_tables: list[Standings] = []
    needs: list[tuple[int, ...]] = []

    def team_of(src: Source) -> int | None:
        if src.kind == "team":
            return int(src.ref)
        if src.kind == "qualifier":
            return qualifiers[src.ref] if qualifiers is not None else None
        v = views.get(src.ref)
        if v is None:
            return None
        return v.winner if src.kind == "winner" else v.loser

    groups = group_members(t)
    for slot in t.slots:
        if slot.stage == "main" and s.format == "groups" and qualifiers is None and group_tables == []:
            group_tables, qualifiers = _qualify(t, groups, views, lots or {}, needs)
        teams = (team_of(slot.sources[0]), team_of(slot.sources[1]))
        result = results.get(slot.id)
        if None in teams:
            views[slot.id] = SlotView(slot, teams, None, "waiting")
        elif result is None:
            views[slot.id] = SlotView(slot, teams, None, "ready")
        elif counts(result, s):
            views[slot.id] = SlotView(slot, teams, result, "done")
        else:
            views[slot.id] = SlotView(slot, teams, result, "proposed")
    games = cast(Games, [((v.teams[0], v.teams[1]), v.result) for v in views.values() if v.status == "done"])
    league = cast(Games, [((v.teams[0], v.teams[1]), v.result) for v in views.values()
                          if v.status == "done" and v.slot.stage == "league"])
    all_teams = list(range(len(t.teams)))
    if s.format == "round_robin":
        table = standings(all_teams, league, s.points, s.tiebreaks, lots)
    else:
        table = standings(all_teams, games, s.points, s.tiebreaks, lots)
    champion = repescagem_champion = None
    if s.format == "round_robin":
        if all(v.status == "done" for v in views.values()):  # lots only once the league is over
            needs += list(table.needs_lots)
            champion = None if table.needs_lots else table.rows[0].team
    else:
        main = [v for v in views.values() if v.slot.stage == "main"]
        final = max(main, key=lambda v: (v.slot.round, -v.slot.number)) if main else None
        champion = final.winner if final else None
        if s.repescagem == "apart":
            rep = [v for v in views.values() if v.slot.stage == "repescagem"]
            repescagem_champion = max(rep, key=lambda v: v.slot.round).winner if rep else None
    unique = tuple(dict.fromkeys(needs))
    return View(views, table, tuple(group_tables), qualifiers, champion, repescagem_champion, unique)


def _qualify(t: Tournament, groups: list[list[int]], views: Mapping[str, SlotView], lots: Mapping[int, int],
             needs: list[tuple[int, ...]]) -> tuple[list[Standings], tuple[int, ...] | None]:
    """Each group's table and, once every group match is done and no tie awaits lots,
    the knockout's qualifiers in seed order: group winners first, then runners-up, ...,
    each level ordered across groups by points, wins, tento difference, tentos for,
    then group number; then the best ``best_extra`` of the next place."""
    s = t.settings
    tables: list[Standings] = []
    over = True
    for g, members in enumerate(groups, start=1):
        stage = f"group{g}"
        mine = [v for v in views.values() if v.slot.stage == stage]
        over = over and all(v.status == "done" for v in mine)
        games = cast(Games, [((v.teams[0], v.teams[1]), v.result) for v in mine if v.status == "done"])
        table = standings(members, games, s.points, s.tiebreaks, lots)
        tables.append(table)
        if over:
            needs.extend(table.needs_lots)
    if not over or needs:
        return tables, None

    def level(place: int) -> list[Row]:
        rows = [(g, table.rows[place]) for g, table in enumerate(tables) if place < len(table.rows)]
        rows.sort(key=lambda gr: (-gr[1].points, -gr[1].won, -gr[1].tento_difference, -gr[1].tentos_for, gr[0]))
        return [r for _g, r in rows]

    qualifiers: list[int] = []
    for place in range(s.advance):
        qualifiers += [r.team for r in level(place)]
    qualifiers += [r.team for r in level(s.advance)[: s.best_extra]]
    return tables, tuple(qualifiers)
