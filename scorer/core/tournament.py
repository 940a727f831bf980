"""Tournaments as data plus a small state machine: brackets, leagues, groups, standings.

Pure: imports neither Flask nor sqlite3. A tournament is its teams (in seed order, as
entered or after a recorded draw), its :class:`Settings`, and the results recorded so
far per slot (:class:`Result`, keyed by slot id). Everything else is derived:
:func:`build` lays out every slot the format can ever have (a slot is one match of the
tournament, its two teams given by :class:`Source`), and :func:`resolve` folds the
results into who plays whom now, the standings and the champion. Corrections are
changes to the results dict: :func:`dependents` lists what a reopened result undoes.

Rules (issue 11, "Tournaments"; club regulations it quotes):

- ``knockout``: the bracket has the next power of two ``P`` of places; the ``P - n``
  byes go to seeds 1..b, placed by the standard seeding order (1 v P, 2 v P-1, seeds 1
  and 2 in opposite halves), so byes exist only in round 1, never bye v bye, and the
  halves' byes differ by at most one. A bye is not a match. Optional ``repescagem``:
  the round-1 losers play their own knockout; its champion is crowned apart
  (``"apart"``) or meets, at round ``r`` of the main bracket, the winner of round
  ``r - 1``'s last match, the winner taking that place.
- ``round_robin``: circle method (team 1 fixed, the others rotating one place per
  round); an odd count adds a resting place, so each team rests exactly once per
  cycle; ``legs`` 2 plays a second cycle with sides swapped ("dos ruedas").
- ``groups``: teams dealt to groups snake-wise by seed, each group a round robin, then
  a knockout of the top ``advance`` per group plus the best ``best_extra`` teams placed
  ``advance + 1``-th across groups.

Standings: league points per result (:class:`Points`; walkovers do not count in tento
figures) and an ordered tiebreak list (:data:`TIEBREAKS`), each criterion applied to the
whole tied group; what stays tied after the last one is decided by a draw of lots the
caller records (:class:`Standings.needs_lots`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

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

    def to_json(self) -> dict[str, Any]:
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


# ---------------------------------------------------------------- settings


def _fail(code: str, template: str, **params: Any) -> None:
    raise TournamentError(code, template, **params)


def check_teams(teams: Sequence[Any]) -> tuple[str, ...]:
    """Team names, trimmed; 2 to 64, none blank, none repeated (ignoring case).

    :raise TournamentError: ``bad_teams``, ``too_few_teams``, ``too_many_teams``,
        ``blank_team``, ``team_too_long`` (over ``TEAM_NAME_MAX`` characters), ``repeated_team``.
    """
    if not isinstance(teams, (list, tuple)) or not all(isinstance(t, str) for t in teams):
        _fail("bad_teams", N_("Teams must be a list of names."))
    names = tuple(" ".join(t.split()) for t in teams)
    for name in names:
        if len(name) > TEAM_NAME_MAX:  # never cut silently: two long names could clash once cut
            _fail("team_too_long", N_("The team name {name} is longer than {max} characters: shorten it."),
                  name=name, max=TEAM_NAME_MAX)
    if len(names) < MIN_TEAMS:
        _fail("too_few_teams", N_("A tournament needs at least {min} teams."), min=MIN_TEAMS)
    if len(names) > MAX_TEAMS:
        _fail("too_many_teams", N_("A tournament has at most {max} teams, not {count}."), max=MAX_TEAMS,
              count=len(names))
    if not all(names):
        _fail("blank_team", N_("Every team needs a name."))
    seen: set[str] = set()
    for name in names:
        if name.casefold() in seen:
            _fail("repeated_team", N_("The team name {name} is repeated: each team needs its own name."), name=name)
        seen.add(name.casefold())
    return names


def _int(data: Mapping[str, Any], key: str, default: int, lo: int, hi: int) -> int:
    value = data.get(key, default)
    if value is None:
        value = default
    if type(value) is not int or not lo <= value <= hi:
        _fail("bad_setting", N_("{key} must be a whole number from {lo} to {hi}."), key=key, lo=lo, hi=hi)
    return value


def settings_from_json(data: Mapping[str, Any], team_count: int) -> Settings:
    """Validated :class:`Settings` from request-like data (keys as :meth:`Settings.to_json`).

    :raise TournamentError: ``bad_format``, ``bad_best_of``, ``bad_setting``,
        ``bad_groups``, ``bad_repescagem``, ``bad_tiebreaks``.
    """
    fmt = data.get("format", "knockout")
    if fmt not in FORMATS:
        _fail("bad_format", N_("Unknown format: choose knockout, round_robin or groups."))
    best_of = data.get("best_of", 1)
    final = data.get("final_best_of")
    for value in (best_of, final):
        if value is not None and (type(value) is not int or value not in BEST_OF):
            _fail("bad_best_of", N_("Games per match must be 1, 3 or 5."))
    legs = _int(data, "legs", 1, 1, 2)
    groups = _int(data, "groups", 2, 1, 16) if fmt == "groups" else 2
    advance = _int(data, "advance", 2, 1, 32) if fmt == "groups" else 2
    best_extra = _int(data, "best_extra", 0, 0, 16) if fmt == "groups" else 0
    if fmt == "groups":
        smallest = team_count // groups
        if groups < 2 or smallest < 2:
            _fail("bad_groups", N_("Groups need at least 2 groups of at least 2 teams."))
        if advance > smallest or (best_extra and (advance + 1 > smallest or best_extra >= groups)):
            _fail("bad_groups", N_("Too many teams go through for groups this size."))
        if groups * advance + best_extra < 2:
            _fail("bad_groups", N_("At least 2 teams must go through to the knockout."))
    rep = data.get("repescagem")
    if rep is not None:
        if fmt != "knockout":
            _fail("bad_repescagem", N_("A repescagem is only for a knockout."))
        if rep != "apart" and (type(rep) is not int or rep < 2):
            _fail("bad_repescagem", N_("The repescagem champion is crowned apart or enters at round 2 or later."))
    points_data = data.get("points") or {}
    if not isinstance(points_data, Mapping):
        _fail("bad_setting", N_("Points must be an object."))
    kept = {}
    for key, default in vars(Points()).items():
        kept[key] = _int(points_data, key, default, -99, 99)
    tiebreaks = data.get("tiebreaks") or list(TIEBREAKS)
    if (not isinstance(tiebreaks, (list, tuple)) or not all(isinstance(t, str) and t in TIEBREAKS for t in tiebreaks)
            or len(set(tiebreaks)) != len(tiebreaks)):
        _fail("bad_tiebreaks", N_("Tiebreaks must be a list from: points, wins, head_to_head, tento_difference, tentos_for, lots."))
    tiebreaks = tuple(t for t in tiebreaks if t != "lots") + ("lots",)
    confirm = data.get("confirm", False)
    if not isinstance(confirm, bool):
        _fail("bad_setting", N_("{key} must be true or false."), key="confirm")
    settings = Settings(format=fmt, best_of=best_of, final_best_of=final, legs=legs, groups=groups,
                        advance=advance, best_extra=best_extra, repescagem=rep,
                        confirm=confirm, points=Points(**kept), tiebreaks=tiebreaks)
    if rep is not None:
        build(tuple(f"t{i}" for i in range(team_count)), settings)  # raises on a repescagem that cannot be
    return settings


# ---------------------------------------------------------------- layouts


def seeding_order(places: int) -> list[int]:
    """Seeds (1-based) in bracket order for ``places`` (a power of two): 1 v places,
    then 2's half opposite 1's: ``seeding_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]``."""
    order = [1]
    while len(order) < places:
        size = len(order) * 2
        order = [s for seed in order for s in (seed, size + 1 - seed)]
    return order


def knockout_slots(stage: str, entrants: Sequence[Source], best_of: int, final_best_of: int | None,
                   first_round: int = 1) -> tuple[list[Slot], list[Source], list[Source]]:
    """Slots of a knockout among ``entrants`` (in seed order).

    Returns ``(slots, byes, finals)``: the entrants with a round-1 bye (the top seeds)
    and, as a one-element list, the source of the champion (``winner`` of the final,
    or the lone entrant). Round numbers start at ``first_round``.
    """
    n = len(entrants)
    places = 1
    while places < n:
        places *= 2
    order = seeding_order(places)
    current: list[Source | None] = [entrants[s - 1] if s <= n else None for s in order]
    slots: list[Slot] = []
    byes: list[Source] = []
    rnd = first_round
    while len(current) > 1:
        nxt: list[Source | None] = []
        number = 0
        last = len(current) == 2
        for a, b in zip(current[::2], current[1::2]):
            if a is None or b is None:  # a bye (only ever in round 1: never bye v bye)
                survivor = a if b is None else b
                byes.append(survivor)  # type: ignore[arg-type]
                nxt.append(survivor)
                continue
            number += 1
            slot = Slot(f"{stage}:{rnd}:{number}", stage, rnd, number, (a, b),
                        (final_best_of or best_of) if last else best_of)
            slots.append(slot)
            nxt.append(Source("winner", slot.id))
        current = nxt
        rnd += 1
    byes.sort(key=lambda src: entrants.index(src))  # in seed order
    return slots, byes, [current[0]]  # type: ignore[list-item]


def circle_rounds(count: int) -> list[list[tuple[int, int]]]:
    """Pairings of a round robin among places 0..count-1 by the circle method: place 0
    fixed, the others rotating one step per round; pairs (first, last), (second, one
    before last), ... An odd count adds a resting place ``count``: a pair with it is a
    rest, left out. 6 teams, 1-based: R1 1-6 2-5 3-4, R2 1-5 6-4 2-3, ..."""
    places = list(range(count)) + ([count] if count % 2 else [])
    size = len(places)
    rounds = []
    for _ in range(size - 1):
        pairs = [(places[i], places[size - 1 - i]) for i in range(size // 2)]
        rounds.append([(a, b) for a, b in pairs if count not in (a, b)])
        places = [places[0], places[-1]] + places[1:-1]
    return rounds


def league_slots(stage: str, teams: Sequence[int], legs: int, best_of: int) -> tuple[list[Slot], dict[int, list[int]]]:
    """Round-robin slots of ``teams`` (team indexes in seed order) and the team resting
    in each round (odd counts). ``legs`` 2 repeats the cycle with sides swapped."""
    slots: list[Slot] = []
    rests: dict[int, list[int]] = {}
    base = circle_rounds(len(teams))
    for leg in range(legs):
        for r, pairs in enumerate(base, start=1):
            rnd = leg * len(base) + r
            for number, (a, b) in enumerate(pairs, start=1):
                if leg:
                    a, b = b, a
                slots.append(Slot(f"{stage}:{rnd}:{number}", stage, rnd, number,
                                  (Source("team", teams[a]), Source("team", teams[b])), best_of))
            playing = {x for pair in pairs for x in pair}
            rests[rnd] = [teams[i] for i in range(len(teams)) if i not in playing]
    return slots, rests


def snake_groups(seeds: Sequence[int], groups: int) -> list[list[int]]:
    """Seeds dealt to ``groups`` groups snake-wise: 1..G, then G..1, ... (8 teams, 2
    groups: [1, 4, 5, 8], [2, 3, 6, 7])."""
    out: list[list[int]] = [[] for _ in range(groups)]
    for i, team in enumerate(seeds):
        row, col = divmod(i, groups)
        out[col if row % 2 == 0 else groups - 1 - col].append(team)
    return out


def build(teams: Sequence[str], settings: Settings, seeds: Sequence[int] | None = None) -> Tournament:
    """Lay out every slot of a tournament among ``teams`` (names) in seed order ``seeds``
    (team indexes; default: the order entered).

    :raise TournamentError: ``bad_repescagem`` (fewer than 2 round-1 matches, or a
        round the bracket does not have).
    """
    seeds = tuple(range(len(teams))) if seeds is None else tuple(seeds)
    s = settings
    slots: list[Slot] = []
    byes: dict[str, tuple[int, ...]] = {}
    if s.format == "knockout":
        main, bye_sources, _ = knockout_slots("main", [Source("team", t) for t in seeds], s.best_of, s.final_best_of)
        byes["main"] = tuple(b.ref for b in bye_sources)
        if s.repescagem is not None:
            first = [x for x in main if x.round == 1]
            if len(first) < 2:
                _fail("bad_repescagem", N_("A repescagem needs at least 2 round-1 matches."))
            rep, _rb, champion = knockout_slots("repescagem", [Source("loser", x.id) for x in first], s.best_of, None)
            if s.repescagem != "apart":
                enter = int(s.repescagem)
                rounds = max(x.round for x in main)
                if enter > rounds:
                    _fail("bad_repescagem", N_("The bracket has only {rounds} rounds."), rounds=rounds)
                target = max((x for x in main if x.round == enter), key=lambda x: x.number)
                fed = target.sources[1]
                entry = Slot(f"repescagem:{max(x.round for x in rep) + 1}:1", "repescagem",
                             max(x.round for x in rep) + 1, 1, (fed, champion[0]), s.best_of)
                main = [replace(x, sources=(x.sources[0], Source("winner", entry.id))) if x.id == target.id else x
                        for x in main]
                rep.append(entry)
            slots = main + rep
        else:
            slots = main
    elif s.format == "round_robin":
        slots, rests = league_slots("league", seeds, s.legs, s.best_of)
        byes.update({f"league:{r}": tuple(t) for r, t in rests.items() if t})
    else:
        for g, members in enumerate(snake_groups(seeds, s.groups), start=1):
            group, rests = league_slots(f"group{g}", members, s.legs, s.best_of)
            slots += group
            byes.update({f"group{g}:{r}": tuple(t) for r, t in rests.items() if t})
        qualifiers = s.groups * s.advance + s.best_extra
        ko, bye_sources, _ = knockout_slots("main", [Source("qualifier", q) for q in range(qualifiers)],
                                            s.best_of, s.final_best_of)
        byes["qualifiers"] = tuple(b.ref for b in bye_sources)  # places in View.qualifiers
        slots += ko
    return Tournament(tuple(teams), seeds, settings, _in_play_order(slots), byes)


def _in_play_order(slots: Sequence[Slot]) -> tuple[Slot, ...]:
    """``slots`` reordered (stably) so that every slot comes after the slots it takes a
    winner or loser from (a repescagem's entry match feeds an earlier main round)."""
    placed: set[str] = set()
    out: list[Slot] = []
    remaining = list(slots)
    while remaining:
        later = []
        for slot in remaining:
            if all(src.kind not in ("winner", "loser") or src.ref in placed for src in slot.sources):
                out.append(slot)
                placed.add(slot.id)
            else:
                later.append(slot)
        remaining = later
    return tuple(out)


def group_members(t: Tournament) -> list[list[int]]:
    """The teams of each group (groups format), in seed order."""
    return snake_groups(t.seeds, t.settings.groups) if t.settings.format == "groups" else []


# ---------------------------------------------------------------- standings


@dataclass(frozen=True)
class Row:
    """One team's line in a table: league ``points``, matches ``played``/``won``/``lost``,
    ``tentos_for``/``tentos_against`` (walkovers excluded), and ``rank`` (1-based; equal
    for teams still tied)."""

    team: int
    points: int = 0
    played: int = 0
    won: int = 0
    lost: int = 0
    tentos_for: int = 0
    tentos_against: int = 0
    rank: int = 0

    @property
    def tento_difference(self) -> int:
        """Tentos for minus tentos against (walkovers excluded)."""
        return self.tentos_for - self.tentos_against

    def to_json(self) -> dict[str, Any]:
        """The line as the API writes it."""
        return {"team": self.team, "points": self.points, "played": self.played, "won": self.won,
                "lost": self.lost, "tentos_for": self.tentos_for, "tentos_against": self.tentos_against,
                "rank": self.rank}


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


def standings(teams: Sequence[int], games: Sequence[tuple[tuple[int, int], Result]], points: Points,
              tiebreaks: Sequence[str] = TIEBREAKS, lots: Mapping[int, int] | None = None) -> Standings:
    """The table of ``teams`` (indexes) after ``games`` (``((team0, team1), Result)``).

    Teams are ordered by ``tiebreaks`` in turn; each criterion splits the whole group
    still tied (``head_to_head``: a mini-league of only the games among that group, by
    its points, then its tento difference; ``lots``: the drawn numbers in ``lots``,
    lower first). Teams tied after the last criterion share a rank and are listed by
    index; with ``lots`` missing for them they are reported in ``needs_lots``. The order
    never depends on the teams' indexes otherwise.
    """
    lots = lots or {}
    rows = _tally(teams, games, points)
    needs: list[tuple[int, ...]] = []

    def key_for(criterion: str, group: list[int]) -> dict[int, tuple]:
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

    def order(group: list[int], criteria: Sequence[str]) -> list[list[int]]:
        if len(group) == 1:
            return [group]
        if not criteria:
            if not all(t in lots for t in group):
                needs.append(tuple(sorted(group)))
            return [sorted(group)]
        keys = key_for(criteria[0], group)
        out: list[list[int]] = []
        for value in sorted(set(keys.values())):
            sub = [t for t in group if keys[t] == value]
            if criteria[0] == "lots" and value == (1, 0) and len(sub) > 1:
                needs.append(tuple(sorted(sub)))
                out.append(sorted(sub))
                continue
            out += order(sub, criteria[1:])
        return out

    ranked: list[Row] = []
    place = 1
    for tied in order(sorted(rows), list(tiebreaks)):
        ranked += [replace(rows[t], rank=place) for t in tied]
        place += len(tied)
    return Standings(tuple(ranked), tuple(needs))


# ---------------------------------------------------------------- resolving


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
    ``repescagem_champion`` (crowned apart) and ``needs_lots``."""

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
            return src.ref
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
    games = [((v.teams[0], v.teams[1]), v.result) for v in views.values() if v.status == "done"]
    league = [((v.teams[0], v.teams[1]), v.result) for v in views.values()
              if v.status == "done" and v.slot.stage == "league"]
    all_teams = list(range(len(t.teams)))
    if s.format == "round_robin":
        table = standings(all_teams, league, s.points, s.tiebreaks, lots)
    else:
        table = standings(all_teams, games, s.points, s.tiebreaks, lots)
    champion = repescagem_champion = None
    if s.format == "round_robin":
        if all(v.status == "done" for v in views.values()) and not table.needs_lots:
            champion = table.rows[0].team
        needs += list(table.needs_lots)
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
        games = [((v.teams[0], v.teams[1]), v.result) for v in mine if v.status == "done"]
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


def dependents(t: Tournament, slot_id: str) -> list[str]:
    """Slots whose teams depend, directly or in turn, on ``slot_id``'s result (in layout
    order): what reopening it undoes. A group match feeds the whole knockout."""
    t.slot(slot_id)  # raises on an unknown slot
    out: list[str] = []
    changed = {slot_id}
    group_stage = slot_id.startswith("group")
    for slot in t.slots:
        feeds = any(src.kind in ("winner", "loser") and src.ref in changed for src in slot.sources)
        if group_stage and any(src.kind == "qualifier" for src in slot.sources):
            feeds = True
        if feeds:
            out.append(slot.id)
            changed.add(slot.id)
    return out


def reopen(t: Tournament, results: Mapping[str, Result], slot_id: str) -> tuple[dict[str, Result], list[str]]:
    """``results`` without ``slot_id``'s result and without the results of every slot
    depending on it; returns ``(new_results, undone)`` where ``undone`` lists the
    dependent slots that had a result or were playable (their matches are void).

    :raise TournamentError: ``unknown_slot``.
    """
    before = resolve(t, results)
    deps = dependents(t, slot_id)
    undone = [d for d in deps if d in results or before.slots[d].status != "waiting"]
    new = {k: v for k, v in results.items() if k != slot_id and k not in deps}
    return new, undone


def record(t: Tournament, results: Mapping[str, Result], slot_id: str, result: Result) -> dict[str, Result]:
    """``results`` with ``result`` on ``slot_id`` (a first result; to change one, :func:`reopen` first).

    :raise TournamentError: ``unknown_slot``, ``not_playable`` (a team is still
        unknown), ``already_decided``, ``bad_result``.
    """
    view = resolve(t, results)
    if slot_id not in view.slots:
        t.slot(slot_id)
    sv = view.slots[slot_id]
    if sv.status == "waiting":
        _fail("not_playable", N_("This match cannot have a result yet: a team is still unknown."))
    if slot_id in results:
        _fail("already_decided", N_("This match already has a result: reopen it first."))
    if result.kind not in ("played", "walkover", "abandonment") or result.winner not in (0, 1):
        _fail("bad_result", N_("A result is played, walkover or abandonment, with a winning side 0 or 1."))
    return {**results, slot_id: result}


def confirm(t: Tournament, results: Mapping[str, Result], slot_id: str, side: int) -> dict[str, Result]:
    """``results`` with side ``side`` (0 or 1; 2 = the organizer, who confirms for both)
    having confirmed ``slot_id``'s proposed result.

    :raise TournamentError: ``nothing_to_confirm``.
    """
    res = results.get(slot_id)
    if res is None:
        _fail("nothing_to_confirm", N_("This match has no result to confirm yet."))
    sides = {0, 1} if side == 2 else {side}
    return {**results, slot_id: replace(res, confirmed=tuple(sorted(set(res.confirmed) | sides)))}


def stage_names(t: Tournament) -> list[str]:
    """The stages of the layout in order (``group1``.., ``league``, ``main``, ``repescagem``)."""
    return list(dict.fromkeys(s.stage for s in t.slots))
