"""The tournament's values: its :class:`Settings` (and league :class:`Points`), the
layout (:class:`Tournament` of :class:`Slot` fed by :class:`Source`), a recorded
:class:`Result`, and :class:`TournamentError`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NoReturn, NotRequired, TypedDict

from scorer.core.errors import N_, TrucoError

FORMATS = ("knockout", "round_robin", "groups")
#: Tiebreak criteria, in their default order (the draw of lots always closes the list).
TIEBREAKS = ("points", "wins", "head_to_head", "tento_difference", "tentos_for", "lots")
MIN_TEAMS, MAX_TEAMS = 2, 64
BEST_OF = (1, 3, 5)
#: Longest team name kept (characters).
TEAM_NAME_MAX = 40


class TournamentError(TrucoError):
    """Bad tournament settings, teams or correction (nothing is changed)."""


@dataclass(frozen=True)
class Points:
    """League points per result (organizer's choice; defaults from the issue: 3 per win,
    1 per loss, a walkover +3 to the present team and -3 to the absent one; an
    abandonment 3 to the other team and 0 to the team that left)."""

    win: int = 3
    loss: int = 1
    walkover_present: int = 3
    walkover_absent: int = -3
    abandon_winner: int = 3
    abandon_loser: int = 0


@dataclass(frozen=True)
class Settings:
    """How a tournament is played.

    ``format`` one of :data:`FORMATS`; ``best_of`` games per match (1, 3, 5) and
    ``final_best_of`` for the final (None: the same); ``legs`` 1 or 2 cycles of a round
    robin; ``groups`` number of groups, ``advance`` teams per group into the knockout,
    ``best_extra`` best ``advance + 1``-th placed teams across groups that also go
    through; ``repescagem`` None, ``"apart"`` or the main round (>= 2) its champion
    enters; ``confirm`` a finished match counts only once both teams confirm it;
    ``tiebreaks`` the ordered criteria (a subset of :data:`TIEBREAKS`, ``lots`` last).
    """

    format: str = "knockout"
    best_of: int = 1
    final_best_of: int | None = None
    legs: int = 1
    groups: int = 2
    advance: int = 2
    best_extra: int = 0
    repescagem: str | int | None = None
    confirm: bool = False
    points: Points = field(default_factory=Points)
    tiebreaks: tuple[str, ...] = TIEBREAKS

    def to_json(self) -> dict[str, Any]:
        """The settings as JSON-ready data (:func:`settings_from_json` reads it back)."""
        return {
            "format": self.format, "best_of": self.best_of, "final_best_of": self.final_best_of,
            "legs": self.legs, "groups": self.groups, "advance": self.advance,
            "best_extra": self.best_extra, "repescagem": self.repescagem, "confirm": self.confirm,
            "points": vars(self.points).copy(), "tiebreaks": list(self.tiebreaks),
        }


@dataclass(frozen=True)
class Source:
    """Where one side of a slot comes from: ``kind`` ``"team"`` (``ref`` a team index),
    ``"winner"`` / ``"loser"`` (``ref`` a slot id) or ``"qualifier"`` (``ref`` the
    place, 0-based, in the groups' qualifier list)."""

    kind: str
    ref: Any


@dataclass(frozen=True)
class Slot:
    """One match of the tournament: ``id`` (``"<stage>:<round>:<n>"``), ``stage``
    (``"main"``, ``"repescagem"``, ``"league"`` or ``"group<k>"``), ``round`` (1-based),
    ``number`` (1-based within the round), ``sources`` (side 0, side 1), ``best_of``."""

    id: str
    stage: str
    round: int
    number: int
    sources: tuple[Source, Source]
    best_of: int = 1


class ResultJSON(TypedDict):
    """A :class:`Result`'s JSON form, as :meth:`Result.to_json` writes it and a tournament's
    slot keeps it (lists for the tuples); a result stored before a field existed lacks it."""

    kind: str
    winner: int
    tentos: NotRequired[list[int]]
    games: NotRequired[list[int]]
    confirmed: NotRequired[list[int]]


@dataclass(frozen=True)
class Result:
    """A decided slot: ``kind`` ``"played"``, ``"walkover"`` or ``"abandonment"``,
    ``winner`` the winning side of the slot (0 or 1), ``tentos`` per side (summed over
    the games; walkovers 0, 0), ``games`` won per side, ``confirmed`` the sides that
    confirmed it (only used with :attr:`Settings.confirm`)."""

    kind: str
    winner: int
    tentos: tuple[int, int] = (0, 0)
    games: tuple[int, int] = (0, 0)
    confirmed: tuple[int, ...] = ()

    def to_json(self) -> ResultJSON:
        """The result as JSON-ready data (:meth:`from_json` reads it back)."""
        return {"kind": self.kind, "winner": self.winner, "tentos": list(self.tentos),
                "games": list(self.games), "confirmed": list(self.confirmed)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Result:
        """A result from :meth:`to_json`'s data.

        :raise KeyError, ValueError: not a result's data.
        """
        return cls(kind=data["kind"], winner=int(data["winner"]), tentos=tuple(data.get("tentos", (0, 0))),
                   games=tuple(data.get("games", (0, 0))), confirmed=tuple(data.get("confirmed", ())))


@dataclass(frozen=True)
class Tournament:
    """The layout of a tournament: ``teams`` (names, index = entry order), ``seeds``
    (team indexes in seed order), ``settings`` and every ``slots`` it can have."""

    teams: tuple[str, ...]
    seeds: tuple[int, ...]
    settings: Settings
    slots: tuple[Slot, ...]
    #: Who does not play: ``"main"`` the teams with a round-1 bye (knockout), ``"<stage>:<round>"``
    #: the team resting in that league or group round, ``"qualifiers"`` the qualifier places
    #: (groups format) with a knockout bye.
    byes: dict[str, tuple[int, ...]]

    def slot(self, slot_id: str) -> Slot:
        """The slot ``slot_id``.

        :raise TournamentError: ``unknown_slot``.
        """
        for s in self.slots:
            if s.id == slot_id:
                return s
        raise TournamentError("unknown_slot", N_("There is no match {slot} in this tournament."), slot=slot_id)


def _fail(code: str, template: str, **params: Any) -> NoReturn:
    raise TournamentError(code, template, **params)
