"""A tournament match's board in words (issue 19, item 7): the line that says which
tournament, stage, round and table it is ("Copa do Boteco · Semifinal · Mesa 1"), and
what comes next once the tournament has taken its result ("Alfa: Final contra Beta,
Mesa 1"). The facts come from :mod:`scorer.app.tournament_context`; round names are the
tournament pages' own (:func:`scorer.web.tournament_view.round_name`)."""

from __future__ import annotations

from flask import url_for
from flask_babel import gettext

from scorer.app import store
from scorer.app.tournament_context import Next, Place, TournamentContext, tournament_context
from scorer.present.board_view import TournamentLine
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


def board_tournament(row: store.MatchRow) -> TournamentLine | None:
    """The scoreboard's tournament line (:class:`~scorer.present.board_view.TournamentLine`; its
    ``url`` is the tournament's TV page, which needs no key), or None outside a tournament."""
    ctx: TournamentContext | None = tournament_context(get_db(), row)
    if ctx is None:
        return None
    where = [place_name(ctx.place)]
    if ctx.place.table is not None:
        where.append(gettext("Table %(n)s", n=ctx.place.table))
    return TournamentLine(name=ctx.name, where=DOT.join(where), taken=ctx.taken, over=ctx.over,
                          next=tuple(next_line(n) for n in ctx.next), url=url_for("tournaments.tv", tid=ctx.tournament_id))
