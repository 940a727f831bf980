"""The evening in numbers at the table's three levels: a match, its Revanche series, and
each team across a tournament (issue 22). The numbers come from each match's log alone
(:mod:`scorer.core.stats`), so an exported and imported match gives the same ones.

Shapes (the JSON API's): a match or a series ``{"sides": [{...}, {...}]}`` (plus
``"series"`` and ``"matches"`` for a series); a tournament ``{"teams": [{"team", "name",
...}]}`` in entry order. Every side's object is :meth:`~scorer.core.stats.SideStats.as_dict`.
"""

from __future__ import annotations

from typing import Any

from scorer.app import store
from scorer.app.store import tournaments as tstore
from scorer.app.match_service import MatchService
from scorer.core.stats import SideStats, flat, flat_keys, total


def match_sides(service: MatchService, db: store.Database, row: store.MatchRow) -> list[SideStats]:
    """Both sides' statistics of one stored match."""
    return list(service.stats(db, row))


def series_rows(db: store.Database, series_id: str) -> list[store.MatchRow]:
    """The games of a Revanche series, oldest first."""
    return store.get_matches(db, tstore.series_match_ids(db, series_id))


def rows_sides(service: MatchService, db: store.Database, rows: list[store.MatchRow]) -> list[SideStats]:
    """Both sides' statistics summed over ``rows`` (the games of one pairing; side 0 is
    the same team in every game: a Revanche keeps the sides)."""
    per_game = [service.stats(db, row) for row in rows]
    return [total([game[side] for game in per_game]) for side in (0, 1)]


def match_json(sides: list[SideStats]) -> dict[str, Any]:
    """``{"sides": [...]}``: the JSON form of both sides' statistics."""
    return {"sides": [side.as_dict() for side in sides]}


def series_json(service: MatchService, db: store.Database, row: store.MatchRow) -> dict[str, Any]:
    """The statistics of ``row``'s Revanche series: ``{"series", "matches", "sides"}``
    (a lone game is a series of one)."""
    rows = series_rows(db, row.series) or [row]
    return {"series": row.series, "matches": len(rows), **match_json(rows_sides(service, db, rows))}


def tournament_teams(service: MatchService, db: store.Database, loaded: Any) -> list[tuple[str, SideStats]]:
    """Each team's statistics over every game of its slots (entry order): ``(name, stats)``.

    Args:
        loaded: :class:`scorer.app.tournament_service.Loaded`.
    """
    names = list(loaded.row.teams)
    per_team = [SideStats() for _ in names]
    for slot in loaded.t.slots:
        srow = loaded.slots.get(slot.id)
        teams = loaded.view.slots[slot.id].teams
        if srow is None or not srow.series_id or None in teams:
            continue
        sides = rows_sides(service, db, series_rows(db, srow.series_id))
        for side, team in enumerate(teams):
            per_team[team] = per_team[team] + sides[side]
    return list(zip(names, per_team))


def tournament_games(db: store.Database, loaded: Any) -> list[store.MatchRow]:
    """Every game of the tournament with at least one action, slot by slot, oldest first."""
    games: list[store.MatchRow] = []
    for slot in loaded.t.slots:
        srow = loaded.slots.get(slot.id)
        if srow is not None and srow.series_id:
            games += [row for row in series_rows(db, srow.series_id) if row.version]
    return games


def tournament_json(service: MatchService, db: store.Database, loaded: Any) -> dict[str, Any]:
    """``{"tournament", "teams": [{"team", "name", ...statistics}]}`` (entry order)."""
    teams = tournament_teams(service, db, loaded)
    return {"tournament": loaded.row.id,
            "teams": [{"team": index, "name": name, **stats.as_dict()} for index, (name, stats) in enumerate(teams)]}


def csv_rows(names: list[str], sides: list[SideStats]) -> list[list[Any]]:
    """A statistics table for a CSV: a header (``side``, ``name``, then
    :func:`~scorer.core.stats.flat_keys`), one row per side; averages as numbers, None as ``""``."""
    rows: list[list[Any]] = [["side", "name", *flat_keys()]]
    for index, (name, stats) in enumerate(zip(names, sides)):
        values = flat(stats)
        rows.append([index, name, *("" if values[k] is None else values[k] for k in flat_keys())])
    return rows
