"""A tournament match's board in words (issue 19, item 7): the line that says which
tournament, stage, round and table it is ("Copa do Boteco · Semifinal · Mesa 1"), and
what comes next once the tournament has taken its result ("Alfa: Final contra Beta,
Mesa 1"). The facts come from :mod:`scorer.app.tournament_context`; round names are the
tournament pages' own (:func:`scorer.web.tournament_view.round_name`)."""

from __future__ import annotations

from flask import url_for
from flask_babel import gettext

from scorer.app import store
from scorer.app.tournament_context import Dropped, Next, Place, TournamentContext, tournament_context
from scorer.present.board_view import TournamentLine
from scorer.web.common import key_fits
from scorer.web.db import get_db
from scorer.web.tournament_view import round_name, stage_title

#: Separator of the board's tournament line.
DOT = " · "


def place_name(place: Place) -> str:
    """A match's stage and round: "Semifinal", "Round 3", "Group 2 · Round 1",
    "Repescagem · Final" (the main bracket and a league go without their stage's name)."""
    parts = [] if place.stage in ("main", "league") else [stage_title(place.stage)]
    parts.append(round_name(place.level, place.round, one=True))
    return DOT.join(parts)


def waiting_for(after: Place | None) -> str:
    """What a team whose next opponent is unknown waits for."""
    if after is not None and after.level == 1:
        return gettext("waiting for the other semifinal")
    if after is not None and after.level == 2:
        return gettext("waiting for the other quarterfinal")
    return gettext("waiting for its opponent")


def next_line(n: Next) -> str:
    """One :class:`~scorer.app.tournament_context.Next` in words."""
    if n.kind == "match" and n.place is not None:
        if n.place.table is not None:
            return gettext("%(team)s: %(round)s against %(opponent)s, Table %(n)s", team=n.team,
                           round=place_name(n.place), opponent=n.opponent, n=n.place.table)
        return gettext("%(team)s: %(round)s against %(opponent)s", team=n.team, round=place_name(n.place),
                       opponent=n.opponent)
    if n.kind == "waiting" and n.place is not None:
        text = f"{n.team}: {place_name(n.place)}, {waiting_for(n.after)}"
        if None not in n.after_teams:
            text += f" ({n.after_teams[0]} × {n.after_teams[1]})"
        return text
    words = {
        "champion": lambda: gettext("Champion: %(team)s", team=n.team),
        "repescagem_champion": lambda: gettext("Repescagem champion: %(team)s", team=n.team),
        "confirm": lambda: gettext("Waiting for both teams to confirm"),
        "groups": lambda: gettext("%(team)s: waiting for the group stage to end", team=n.team),
        "done": lambda: gettext("%(team)s has played all its matches", team=n.team),
    }
    return words.get(n.kind, lambda: gettext("%(team)s is out of the tournament", team=n.team))()


def dropped_notice(dropped: Dropped) -> str:
    """What the board of a match its tournament dropped says (issue 32, docs/tournaments.md step 5)."""
    if dropped.replacement is not None:
        return gettext("This match no longer counts: the organizer reopened an earlier result and this place "
                       "is now played on a new scoreboard.")
    if dropped.kept:
        return gettext("This match no longer counts for now: the organizer reopened an earlier result. If that "
                       "match keeps its winner, this scoreboard counts again as it is.")
    return gettext("This match no longer counts: the organizer reopened an earlier result.")


def replacement_url(match_id: str | None, key: str | None) -> str | None:
    """Where the board of a dropped match sends this phone: the scoreboard of the game that
    plays its place now when this phone's key opens it (a tournament table's key is the
    slot's), else its watch page; None when there is none."""
    if match_id is None:
        return None
    new = store.get_match(get_db(), match_id) if key is not None else None
    if new is not None and key_fits(new, key):
        return url_for("matches.scoreboard", match_id=match_id, key=key)
    return url_for("matches.watch", match_id=match_id)


def board_tournament(row: store.MatchRow, key: str | None = None) -> TournamentLine | None:
    """The scoreboard's tournament line (:class:`~scorer.present.board_view.TournamentLine`; its
    ``url`` is the tournament's TV page, which needs no key), or None outside a tournament.
    ``key``: the board's edit key (None: the watch page), for a dropped match's link."""
    ctx: TournamentContext | None = tournament_context(get_db(), row)
    if ctx is None:
        return None
    where = [place_name(ctx.place)]
    if ctx.place.table is not None:
        where.append(gettext("Table %(n)s", n=ctx.place.table))
    dropped = ctx.dropped
    return TournamentLine(name=ctx.name, where=DOT.join(where), taken=ctx.taken, over=ctx.over,
                          next=tuple(next_line(n) for n in ctx.next), url=url_for("tournaments.tv", tid=ctx.tournament_id),
                          dropped=dropped_notice(dropped) if dropped else None,
                          replacement=replacement_url(dropped.replacement, key) if dropped else None)
