"""What the club's pages and its JSON API share (issue 32; docs/club.md): loading a club
(:func:`get_club_or_404`), the organizer's key (:func:`club_organizer_view`), and the season
table, partnerships and a player's nights as typed view models in the reader's language
(templates format them and compute nothing).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import abort, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext

from scorer.app import club_service as clubs
from scorer.app.tournament_keys import organizer_fits
from scorer.core import club as core
from scorer.core.errors import N_
from scorer.web.db import get_db
from scorer.web.stat_words import STAT_ROWS

#: A rating's certainty (:func:`scorer.core.club.certainty`) in words.
CERTAINTY = {"settled": N_("settled"), "shaping": N_("taking shape"), "provisional": N_("provisional: few games")}


def get_club_or_404(cid: str) -> clubs.Club:
    """The club ``cid`` with its players and seasons.

    :raise 404: no club has that id.
    """
    club = clubs.load(get_db(), cid)
    if club is None:
        abort(404, gettext("There is no club with this address."))
    return club


def club_organizer_view(view: Callable[..., ResponseReturnValue]) -> Callable[..., ResponseReturnValue]:
    """Route decorator for "this club, with its organizer key" (as the tournaments'
    ``organizer_view``): the view gets the ``club`` and the ``key`` (the URL's, else the
    ``X-Organizer-Key`` header) instead of ``cid``.

    :raise 404: no such club. :raise 403: missing or wrong organizer key.
    """
    @functools.wraps(view)
    def load(cid: str, key: str | None = None, **values: Any) -> ResponseReturnValue:
        club = get_club_or_404(cid)
        key = request.headers.get("X-Organizer-Key") if key is None else key
        if not organizer_fits(club.row.organizer_hash, key):
            abort(403, gettext("This link cannot change the club: the organizer key is missing or wrong."))
        return view(club, key, **values)

    return load


def number(value: float) -> str:
    """A rating figure with one decimal, written as the reader's language writes a decimal
    number (the catalogs say it: "9,5" in pt-BR and es, "9.5" in en). Not Babel's number
    formatting: its locale data cost a fresh server's first club page 150 ms to load."""
    rounded = round(value, 1)
    whole, tenth = f"{abs(rounded):.1f}".split(".")
    return ("-" if rounded < 0 else "") + gettext("%(whole)s.%(tenth)s", whole=whole, tenth=tenth)


@dataclass(frozen=True)
class TableLine:
    """One line of the season table in words: rank, player number, name, nickname, rating
    (ordinal), its uncertainty (``± sigma``, and in words), games, wins, call statistics."""

    rank: int
    player: int
    name: str
    nickname: str
    rating: str
    uncertainty: str
    certainty: str
    matches: int
    wins: int
    stats: dict[str, int]


@dataclass(frozen=True)
class PairLine:
    """A partnership in words: both nicknames, games, wins, losses and the win share (%)."""

    names: str
    matches: int
    wins: int
    losses: int
    share: str


@dataclass(frozen=True)
class NightRow:
    """One night of a player in words: the night, rating after it, games, wins, statistics."""

    night: str
    rating: str
    uncertainty: str
    matches: int
    wins: int
    stats: dict[str, int]


def table_lines(club: clubs.Club, season: core.Season) -> list[TableLine]:
    """The season table's lines, best first."""
    out = []
    for rank, r in enumerate(season.rows, start=1):
        p = club.players.get(r.player)
        out.append(TableLine(rank, r.player, p.name if p else "?", p.nickname if p else "?", number(r.rating.ordinal),
                             "± " + number(r.rating.sigma), gettext(CERTAINTY[r.certainty]), r.matches, r.wins,
                             dict(r.stats)))
    return out


def pair_lines(club: clubs.Club, pairs: list[core.PairRow]) -> list[PairLine]:
    """Partnerships in words."""
    return [PairLine(" & ".join(club.players[p].nickname if p in club.players else "?" for p in pair.players),
                     pair.matches, pair.wins, pair.losses, f"{round(pair.share * 100)} %")
            for pair in pairs]


def night_rows(nights: list[core.NightLine]) -> list[NightRow]:
    """A player's nights in words, newest first."""
    return [NightRow(n.night, number(n.rating.ordinal), "± " + number(n.rating.sigma), n.matches, n.wins,
                     dict(n.stats)) for n in reversed(nights)]


#: The season table's call statistics (:data:`scorer.core.club.PLAYER_STATS`) with the statistics
#: table's own titles (:data:`scorer.web.stat_words.STAT_ROWS`).
STAT_TITLES = tuple((key, dict(STAT_ROWS)[key]) for key in core.PLAYER_STATS)
