"""League standings: points per result and the ordered tiebreaks applied to each tied group
(:func:`standings`), with the criterion that separated each pair of neighbours
(:attr:`Row.separated_by`); what stays tied waits for a draw of lots."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from scorer.core.tournament.model import TIEBREAKS, Points, Result

#: The parts of a criterion whose sort key has more than one (docs/tournaments.md "Standings and
#: tiebreaks": the head-to-head mini-league by its points, then its tento difference), each with
#: the id :attr:`Row.separated_by` names when that part decided.
CRITERION_PARTS = {"head_to_head": ("head_to_head", "head_to_head_tento_difference")}
#: Every id :attr:`Row.separated_by` can name: a criterion, or the part of one that decided.
SEPARATORS = TIEBREAKS + tuple(p for parts in CRITERION_PARTS.values() for p in parts if p not in TIEBREAKS)


@dataclass(frozen=True)
class Row:
    """One team's line in a table: league ``points``, matches ``played``/``won``/``lost``,
    ``tentos_for``/``tentos_against`` (walkovers excluded), ``rank`` (1-based; equal
    for teams still tied) and ``separated_by``: the tiebreak criterion (an id of
    :data:`~scorer.core.tournament.model.TIEBREAKS`) that placed this team above the next
    row's team, None for the last row and for a team still level with the next one; for the
    head-to-head, the part that decided (``head_to_head``: its points;
    ``head_to_head_tento_difference``: its points were level, its tento difference was not)."""

    team: int
    points: int = 0
    played: int = 0
    won: int = 0
    lost: int = 0
    tentos_for: int = 0
    tentos_against: int = 0
    rank: int = 0
    separated_by: str | None = None

    @property
    def tento_difference(self) -> int:
        """Tentos for minus tentos against (walkovers excluded)."""
        return self.tentos_for - self.tentos_against

    def to_json(self) -> dict[str, Any]:
        """The line as the API writes it."""
        return {"team": self.team, "points": self.points, "played": self.played, "won": self.won,
                "lost": self.lost, "tentos_for": self.tentos_for, "tentos_against": self.tentos_against,
                "rank": self.rank, "separated_by": self.separated_by}


@dataclass(frozen=True)
class Standings:
    """An ordered table and, if teams are still tied after every criterion but the
    lots, the tied groups that ``needs_lots`` (each a tuple of team indexes)."""

    rows: tuple[Row, ...]
    needs_lots: tuple[tuple[int, ...], ...] = ()


def _tally(teams: Iterable[int], games: Iterable[tuple[tuple[int, int], Result]], points: Points) -> dict[int, Row]:
    rows = {t: Row(team=t) for t in teams}
    for (a, b), res in games:
        for side, team in ((0, a), (1, b)):
            if team not in rows:
                continue
            won = res.winner == side
            r = rows[team]
            if res.kind == "walkover":
                gained = points.walkover_present if won else points.walkover_absent
                tf = ta = 0
            elif res.kind == "abandonment":
                gained = points.abandon_winner if won else points.abandon_loser
                tf, ta = res.tentos[side], res.tentos[1 - side]
            else:
                gained = points.win if won else points.loss
                tf, ta = res.tentos[side], res.tentos[1 - side]
            rows[team] = replace(r, points=r.points + gained, played=r.played + 1, won=r.won + won,
                                 lost=r.lost + (not won), tentos_for=r.tentos_for + tf,
                                 tentos_against=r.tentos_against + ta)
    return rows


def _keys(criterion: str, group: list[int], rows: Mapping[int, Row],
          games: Sequence[tuple[tuple[int, int], Result]], points: Points, lots: Mapping[int, int]
          ) -> dict[int, tuple[Any, ...]]:
    """Each team of ``group``'s sort key under ``criterion`` (smaller first)."""
    if criterion == "points":
        return {t: (-rows[t].points,) for t in group}
    if criterion == "wins":
        return {t: (-rows[t].won,) for t in group}
    if criterion == "tento_difference":
        return {t: (-rows[t].tento_difference,) for t in group}
    if criterion == "tentos_for":
        return {t: (-rows[t].tentos_for,) for t in group}
    if criterion == "head_to_head":
        inside = set(group)
        mini = _tally(group, [(p, r) for p, r in games if p[0] in inside and p[1] in inside], points)
        return {t: (-mini[t].points, -mini[t].tento_difference) for t in group}
    # lots
    return {t: ((0, lots[t]) if t in lots else (1, 0)) for t in group}


def decider(criterion: str, above: tuple[Any, ...], below: tuple[Any, ...]) -> str:
    """What separated two blocks whose sort keys under ``criterion`` are ``above`` and ``below``
    (different): the criterion, or its part (:data:`CRITERION_PARTS`) at the first place they differ."""
    parts = CRITERION_PARTS.get(criterion, (criterion,))
    first = next(i for i, (a, b) in enumerate(zip(above, below)) if a != b)
    return parts[first] if first < len(parts) else criterion


def standings(teams: Sequence[int], games: Sequence[tuple[tuple[int, int], Result]], points: Points,
              tiebreaks: Sequence[str] = TIEBREAKS, lots: Mapping[int, int] | None = None) -> Standings:
    """The table of ``teams`` (indexes) after ``games`` (``((team0, team1), Result)``).

    Teams are ordered by ``tiebreaks`` in turn; each criterion splits the whole group
    still tied (``head_to_head``: a mini-league of only the games among that group, by
    its points, then its tento difference; ``lots``: the drawn numbers in ``lots``,
    lower first). Teams tied after the last criterion share a rank and are listed by
    index; with ``lots`` missing for them they are reported in ``needs_lots``. The order
    never depends on the teams' indexes otherwise. Each row's ``separated_by`` names the
    criterion whose split put it above the next row (the first criterion for teams that
    were never level; a later one names the tiebreak that decided, and for the head-to-head
    which of its parts: :func:`decider`).
    """
    lots = lots or {}
    rows = _tally(teams, games, points)
    needs: list[tuple[int, ...]] = []

    def order(group: list[int], criteria: Sequence[str]) -> tuple[list[list[int]], list[str]]:
        """The still-tied blocks of ``group`` in order, and the criterion between each two."""
        if len(group) == 1:
            return [group], []
        if not criteria:
            if not all(t in lots for t in group):
                needs.append(tuple(sorted(group)))
            return [sorted(group)], []
        keys = _keys(criteria[0], group, rows, games, points, lots)
        blocks: list[list[int]] = []
        between: list[str] = []
        previous: tuple[Any, ...] = ()
        for value in sorted(set(keys.values())):
            sub = [t for t in group if keys[t] == value]
            if criteria[0] == "lots" and value == (1, 0) and len(sub) > 1:
                needs.append(tuple(sorted(sub)))
                sub_blocks, sub_between = [sorted(sub)], list[str]()
            else:
                sub_blocks, sub_between = order(sub, criteria[1:])
            if blocks:
                between.append(decider(criteria[0], previous, value))
            previous = value
            blocks += sub_blocks
            between += sub_between
        return blocks, between

    blocks, between = order(sorted(rows), list(tiebreaks))
    ranked: list[Row] = []
    place = 1
    for i, tied in enumerate(blocks):
        last = between[i] if i < len(between) else None
        ranked += [replace(rows[t], rank=place, separated_by=last if t == tied[-1] else None) for t in tied]
        place += len(tied)
    return Standings(tuple(ranked), tuple(needs))
