"""Words for a tournament's internal ids on its pages: formats, tiebreak criteria, which
tiebreak separated the teams of a standings table (:func:`tie_notes`), and the create
form's ordered tiebreak choices (:func:`tiebreaks_from_form`). The core returns the ids
(``round_robin``, ``head_to_head``...); only this module turns them into words (issue 19).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from flask_babel import gettext

from scorer.core import tournament as core
from scorer.core.errors import N_

#: A format's name in a sentence ("4 teams, league").
FORMAT_NAMES = {"knockout": N_("knockout"), "round_robin": N_("league"), "groups": N_("groups, then knockout")}

#: A tiebreak criterion's short name (the create form's choices, the standings' notes).
TIEBREAK_SHORT = {
    "points": N_("points"),
    "wins": N_("wins"),
    "head_to_head": N_("head-to-head"),
    "tento_difference": N_("tento difference"),
    "tentos_for": N_("tentos for"),
    "lots": N_("draw of lots"),
}

#: A criterion's name in the list in force (organizer and TV pages): the short name, the
#: head-to-head spelled out.
TIEBREAK_NAMES = {**TIEBREAK_SHORT,
                  "head_to_head": N_("head-to-head among the tied teams (points, then tento difference)")}

#: What separated two rows (:data:`scorer.core.tournament.SEPARATORS`) in the standings' notes:
#: a criterion's short name, the head-to-head by the part that decided.
SEPARATED_BY = {**TIEBREAK_SHORT,
                "head_to_head": N_("head-to-head points"),
                "head_to_head_tento_difference": N_("head-to-head tento difference")}

#: The criteria the organizer orders on the create form (the draw of lots always comes last).
CHOOSABLE = tuple(c for c in core.TIEBREAKS if c != "lots")


def format_name(fmt: str) -> str:
    """A format id in the user's language (an unknown id as it is)."""
    return gettext(FORMAT_NAMES[fmt]) if fmt in FORMAT_NAMES else fmt


def tie_notes(rows: Sequence[Mapping[str, Any]], team: Callable[[int], str], tiebreaks: Sequence[str]) -> list[str]:
    """Which tiebreak separated the teams level on the first criterion, in words:
    ``["Alfa–Gama: head-to-head tento difference", "Gama–Beta: tento difference"]``.

    ``rows``: a standings table as the API writes it (each with ``team`` and
    ``separated_by``); neighbours separated by the same criterion make one chain
    ("A–B–C: head-to-head tento difference"). Rows separated by the first criterion, or still level, say nothing.
    """
    first = tiebreaks[0] if tiebreaks else None
    chains: list[tuple[list[int], str]] = []
    for above, below in zip(rows, rows[1:]):
        criterion = above.get("separated_by")
        if criterion is None or criterion == first:
            continue
        if chains and chains[-1][1] == criterion and chains[-1][0][-1] == above["team"]:
            chains[-1][0].append(below["team"])
        else:
            chains.append(([above["team"], below["team"]], criterion))
    return [f"{'–'.join(team(t) for t in teams)}: {gettext(SEPARATED_BY.get(c, c))}" for teams, c in chains]


def first_criterion(tiebreaks: Sequence[str]) -> str:
    """The first criterion's short name ("points"): what the teams of :func:`tie_notes` are level on."""
    return gettext(TIEBREAK_SHORT.get(tiebreaks[0], tiebreaks[0])) if tiebreaks else ""


def tiebreak_choices(form: Mapping[str, str] | None = None) -> list[str]:
    """The criterion chosen at each position 1..N of the create form (``tiebreak1``...),
    the default order when the form has none; ``""`` for a position left empty."""
    form = form or {}
    if not any(f"tiebreak{i}" in form for i in range(1, len(CHOOSABLE) + 1)):
        return list(CHOOSABLE)
    return [form.get(f"tiebreak{i}", "") for i in range(1, len(CHOOSABLE) + 1)]


def tiebreaks_from_form(form: Mapping[str, str]) -> tuple[list[str] | None, str | None]:
    """The ordered criteria the create form's selects chose (``None``: the default list) and
    an error in the user's language when one is chosen twice (then the list is ``None``).

    An unknown id is passed on for the core to refuse.
    """
    chosen = [c for c in tiebreak_choices(form) if c]
    for i, c in enumerate(chosen):
        if c in chosen[:i]:
            name = gettext(TIEBREAK_SHORT[c]) if c in TIEBREAK_SHORT else c
            return None, gettext("Each tiebreak can be chosen once: %(name)s is chosen twice.", name=name)
    return chosen or None, None
