"""The evening in numbers at the table's three levels: a match, its Revanche series, and
each team across a tournament (issue 22). The numbers come from each match's log alone
(:mod:`scorer.core.stats`), so an exported and imported match gives the same ones.

Shapes (the JSON API's): a match or a series ``{"sides": [{...}, {...}]}`` (plus
``"series"`` and ``"matches"`` for a series); a tournament ``{"teams": [{"team", "name",
...}]}`` in entry order. Every side's object is :meth:`~scorer.core.stats.SideStats.as_dict`.
"""

from __future__ import annotations

import hashlib
import json
import logging
from typing import Any

from scorer.app import store
from scorer.app.store import tournaments as tstore
from scorer.app.match_service import MatchService
from scorer.app.stats_memo import Sides
from scorer.core.match import Match
from scorer.core.stats import SideStats, flat, flat_keys, match_stats, total, unplayed

log = logging.getLogger(__name__)


def match_sides(service: MatchService, db: store.Database, row: store.MatchRow) -> list[SideStats]:
    """Both sides' statistics of one stored match."""
    return list(service.stats(db, row))


def series_rows(db: store.Database, series_id: str) -> list[store.MatchRow]:
    """The games of a Revanche series, oldest first."""
    return store.get_matches(db, tstore.series_match_ids(db, series_id))


def rows_sides(service: MatchService, db: store.Database, rows: list[store.MatchRow]) -> list[SideStats]:
    """Both sides' statistics summed over ``rows`` (the games of one pairing; side 0 is
    the same team in every game: a Revanche keeps the sides)."""
    games = games_sides(service, db, rows)
    per_game = [games[row.id] for row in rows]
    return [total([game[side] for game in per_game]) for side in (0, 1)]


def games_sides(service: MatchService, db: store.Database, rows: list[store.MatchRow]) -> dict[str, Sides]:
    """Both sides' statistics of each of ``rows`` at its version, by match id
    (:func:`versions_sides`)."""
    return versions_sides(service, db, [(row.id, row.version) for row in rows], {row.id: row for row in rows})


def versions_sides(service: MatchService, db: store.Database, games: list[tuple[str, int]],
                   rows: dict[str, store.MatchRow] | None = None) -> dict[str, Sides]:
    """Both sides' statistics of each game of ``games`` (``(match id, version)``) at that
    version, by match id: kept ones from the service's memo
    (:class:`~scorer.app.stats_memo.StatsMemo`), a game with no action without replaying it
    (:func:`~scorer.core.stats.unplayed`), and the others replayed from their actions, read in
    a few statements for all of them (``rows``: their match rows if the caller has them), then
    kept (issue 31: a 64-team round robin has 2,016 games). The replays stay out of the
    service's cache of live matches, so a tournament's statistics never push the tables' own
    matches out of it."""
    memo = service.stats_memo
    out: dict[str, Sides] = {}
    missing: dict[str, int] = {}
    for (match_id, version), found in zip(games, memo.get_many(games)):
        if found is not None:
            out[match_id] = found
        elif version == 0:
            out[match_id] = unplayed()
        else:
            missing[match_id] = version
    if missing:
        for match_id, text in store.kept_sides(db, missing).items():  # counted before, by any process
            sides = sides_from_text(text)
            if sides is not None:
                out[match_id] = memo.put(match_id, missing.pop(match_id), sides)
    if missing:
        rows = rows or {}
        known = {match_id: rows[match_id] for match_id in missing if match_id in rows}
        known.update({row.id: row for row in store.get_matches(db, [m for m in missing if m not in known])})
        actions = store.actions_of(db, missing)
        for match_id, version in missing.items():
            row = known[match_id]
            m = Match.replay(row.variant, row.options, row.mano, actions[match_id])
            out[match_id] = memo.put(match_id, version, match_stats(m))
        keep(db, [(match_id, version, sides_text(out[match_id])) for match_id, version in missing.items()])
    return out


#: What the kept text of a game's numbers says it holds: the statistics' keys (a version of
#: this program that counts other numbers does not read it, and counts again).
SIDES_FORMAT = hashlib.blake2s(",".join(flat_keys()).encode(), digest_size=6).hexdigest()


def sides_text(sides: Sides) -> str:
    """A game's numbers as the text kept in the database (:func:`sides_from_text` reads it)."""
    return json.dumps({"format": SIDES_FORMAT, "sides": [side.as_dict() for side in sides]}, separators=(",", ":"))


def sides_from_text(text: str) -> Sides | None:
    """A game's numbers from :func:`sides_text`'s text; None for another format or a bad text."""
    try:
        data = json.loads(text)
        if data.get("format") != SIDES_FORMAT:
            return None
        first, second = (SideStats.from_dict(side) for side in data["sides"])
    except (ValueError, TypeError, KeyError, AttributeError):
        return None
    return first, second


def keep(db: store.Database, rows: list[tuple[str, int, str]]) -> None:
    """Keep games' numbers in the database for the next process or start; a read never fails
    for it (a busy or vanished database, a game deleted meanwhile: counted again next time)."""
    try:
        store.keep_sides(db, rows)
    except store.DBAPIError:
        log.warning("the statistics of %d games were not kept", len(rows), exc_info=True)


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
    games = tstore.game_versions(db, loaded.row.id)  # one statement for every game (issue 31)
    sides = versions_sides(service, db, [(match_id, version) for _slot, match_id, version in games])
    per_team: list[list[SideStats]] = [[] for _ in names]
    for slot, match_id, _version in games:
        sv = loaded.view.slots.get(slot)
        if sv is None or None in sv.teams:
            continue
        for side, team in enumerate(sv.teams):
            per_team[team].append(sides[match_id][side])
    return [(name, total(stats)) for name, stats in zip(names, per_team)]


def tournament_games(db: store.Database, loaded: Any) -> list[store.MatchRow]:
    """Every game of the tournament with at least one action, slot by slot, oldest first."""
    return [row for _slot, row in tstore.tournament_games(db, loaded.row.id, played=True)]


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
