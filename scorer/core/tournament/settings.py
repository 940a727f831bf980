"""Checking what an organizer entered: the teams (:func:`check_teams`) and the settings
from their JSON form (:func:`settings_from_json`), with the error that says what is accepted."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

from scorer.core.errors import N_
from scorer.core.tournament.layout import build
from scorer.core.tournament.model import (
    BEST_OF, FORMATS, MAX_TEAMS, MIN_TEAMS, TEAM_NAME_MAX, TIEBREAKS, Points, Settings, _fail,
)


def check_text(text: str) -> str:
    """A tournament's, team's or player's name as typed, its runs of white space made one
    space and trimmed.

    :raise TournamentError: ``bad_text``: it holds a control character that is not white
        space (a NUL: PostgreSQL cannot store it) or a lone surrogate (not text at all).
    """
    if any(unicodedata.category(ch) in ("Cc", "Cs") for ch in text if not ch.isspace()):
        _fail("bad_text", N_("A name holds a character that is not text (a control character such as NUL): "
                             "type it again without it."))
    return " ".join(text.split())


def check_teams(teams: object) -> tuple[str, ...]:
    """Team names (any value: what is not a list of texts is refused), trimmed; 2 to 64, none
    blank, none repeated (ignoring case).

    :raise TournamentError: ``bad_teams``, ``bad_text`` (see :func:`check_text`),
        ``too_few_teams``, ``too_many_teams``, ``blank_team``, ``team_too_long`` (over ``TEAM_NAME_MAX`` characters), ``repeated_team``.
    """
    if not isinstance(teams, (list, tuple)) or not all(isinstance(t, str) for t in teams):
        _fail("bad_teams", N_("Teams must be a list of names."))
    names = tuple(check_text(t) for t in teams)
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
    for value in (best_of, final if final is not None else 1):  # a final like the rest: null
        if type(value) is not int or value not in BEST_OF:
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
